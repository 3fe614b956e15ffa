#!/usr/bin/env bash
# Checks the macOS app and .dmg built by scripts/build-macos.sh (docs/ci.md;
# CI: .github/workflows/test-macos.yml).
#
#   bash scripts/macos-verify.sh
#
# On macOS: `codesign --verify --deep --strict` of build/bin/OpenWorker.app;
# Info.plist (bundle id dev.openworker.desktop, the stamped version, the
# executable, the Apple Events usage text, and .mcpb/.dxt in
# CFBundleDocumentTypes, which the extension installer needs); a
# universal (arm64 + x86_64) executable that prints the version; the
# bundled example coworkers; the .dmg (hdiutil verify, attached read-only:
# the app inside verifies and is the same executable, plus the Applications
# link). `spctl` is printed but not required: an ad-hoc signed app is
# rejected by Gatekeeper by design.
# Elsewhere (Linux): the same Info.plist and entitlement checks on the
# templates in build/darwin (python3 plistlib), which is what runs here.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/release-lib.sh
step() { printf '\n==> %s\n' "$*"; }
fail() { echo "FAIL: $*" >&2; exit 1; }

bundle_id=dev.openworker.desktop

# doc_types_ok JSON: the plist's CFBundleDocumentTypes (JSON of that array,
# or empty) must name the mcpb and dxt extensions (docs/install.md).
doc_types_ok() {
  [ -n "$1" ] || fail "Info.plist has no CFBundleDocumentTypes: .mcpb and .dxt files would not open the app (docs/install.md#file-associations)"
  for ext in mcpb dxt; do
    grep -q "\"$ext\"" <<<"$1" || fail "CFBundleDocumentTypes lacks the $ext extension: $1"
  done
  echo "CFBundleDocumentTypes: .mcpb and .dxt"
}

if [ "$(uname -s)" != Darwin ]; then
  step "Info.plist and entitlements templates (build/darwin, python3 plistlib)"
  command -v python3 >/dev/null || fail "python3 is needed to read the plist templates off macOS"
  out=$(python3 - "$bundle_id" <<'PY'
import json, plistlib, sys
def check(ok, msg):
    if not ok:
        sys.exit(msg)
want = sys.argv[1]
with open("build/darwin/Info.plist", "rb") as f:
    p = plistlib.load(f)
check(p.get("CFBundleIdentifier") == want, "build/darwin/Info.plist: CFBundleIdentifier is %r, want %r" % (p.get("CFBundleIdentifier"), want))
check(p.get("CFBundlePackageType") == "APPL", "build/darwin/Info.plist: CFBundlePackageType is not APPL")
for k in ("CFBundleExecutable", "CFBundleVersion", "CFBundleShortVersionString", "NSAppleEventsUsageDescription",
          "NSDocumentsFolderUsageDescription", "NSDesktopFolderUsageDescription", "NSDownloadsFolderUsageDescription"):
    check(p.get(k), "build/darwin/Info.plist: %s is missing or empty" % k)
# Go 1.26 binaries need macOS 12 (docs/install.md#macos-12-or-later).
check(p.get("LSMinimumSystemVersion") == "12.0", "build/darwin/Info.plist: LSMinimumSystemVersion is %r, want '12.0' (Go 1.26 needs macOS 12)" % p.get("LSMinimumSystemVersion"))
with open("build/darwin/entitlements.plist", "rb") as f:
    e = plistlib.load(f)
check(e.get("com.apple.security.automation.apple-events") is True, "build/darwin/entitlements.plist: com.apple.security.automation.apple-events is not true (osascript dialogs need it under the hardened runtime)")
print(json.dumps(p["CFBundleDocumentTypes"]) if "CFBundleDocumentTypes" in p else "")
PY
  ) || fail "plist templates (see the message above)"
  doc_types_ok "$out"
  echo
  echo "macos-verify: template checks OK; codesign, hdiutil and the built app are checked on macOS only"
  exit 0
fi

version=$(release_version)
numeric=${version%%[-+]*}
app=build/bin/OpenWorker.app
dmg=build/bin/OpenWorker-$version-macos-universal.dmg
plist=$app/Contents/Info.plist
[ -d "$app" ] || fail "$app missing: run scripts/build-macos.sh"
[ -f "$dmg" ] || fail "$dmg missing: run scripts/build-macos.sh"
pb() { /usr/libexec/PlistBuddy -c "Print :$1" "$2" 2>/dev/null; }

step "codesign --verify --deep --strict"
codesign --verify --deep --strict --verbose=2 "$app"
codesign -dv "$app" 2>&1 | grep -E '^(Identifier|Format|Signature|TeamIdentifier|Runtime)' || true

step "Info.plist"
plutil -lint "$plist"
[ "$(pb CFBundleIdentifier "$plist")" = "$bundle_id" ] || fail "CFBundleIdentifier is \"$(pb CFBundleIdentifier "$plist")\", want $bundle_id"
for k in CFBundleShortVersionString CFBundleVersion; do
  [ "$(pb "$k" "$plist")" = "$numeric" ] || fail "$k is \"$(pb "$k" "$plist")\", want $numeric"
done
for k in NSAppleEventsUsageDescription NSDocumentsFolderUsageDescription NSDesktopFolderUsageDescription NSDownloadsFolderUsageDescription; do
  [ -n "$(pb "$k" "$plist")" ] || fail "$k missing from $plist"
done
[ "$(pb LSMinimumSystemVersion "$plist")" = 12.0 ] || fail "LSMinimumSystemVersion is \"$(pb LSMinimumSystemVersion "$plist")\", want 12.0"
exe=$app/Contents/MacOS/$(pb CFBundleExecutable "$plist")
[ -x "$exe" ] || fail "CFBundleExecutable $exe is not an executable"
doc_types_ok "$(plutil -extract CFBundleDocumentTypes json -o - "$plist" 2>/dev/null || true)"
echo "$bundle_id $numeric, executable $exe"

step "executable: universal, prints its version; bundled examples"
archs=$(lipo -archs "$exe")
case "$archs" in *arm64*x86_64* | *x86_64*arm64*) echo "archs: $archs" ;; *) fail "not universal: $archs" ;; esac
# Both slices stamped for macOS 12 (LC_BUILD_VERSION minos), as Info.plist says.
for a in arm64 x86_64; do
  minos=$(vtool -arch "$a" -show-build "$exe" | awk '$1 == "minos" {print $2; exit}')
  [ "$minos" = 12.0 ] || fail "the $a slice says minos ${minos:-none}, want 12.0 (build with -mmacosx-version-min=12.0)"
done
echo "minos 12.0 in both slices"
got=$("$exe" version)
case "$got" in *"$version"*) echo "$got" ;; *) fail "\`openworker version\` printed \"$got\", want $version" ;; esac
[ -f "$app/Contents/Resources/examples/coworkers/device-assistant/coworker/manifest.md" ] || fail "the example coworkers are not in Contents/Resources/examples"

step "dmg: hdiutil verify, attach read-only, verify the app inside"
hdiutil verify "$dmg"
mnt=$(mktemp -d)
hdiutil attach -readonly -nobrowse -noautoopen -mountpoint "$mnt" "$dmg" >/dev/null
trap 'hdiutil detach "$mnt" -force >/dev/null 2>&1 || true; rmdir "$mnt" 2>/dev/null || true' EXIT
[ -d "$mnt/OpenWorker.app" ] || fail "the dmg has no OpenWorker.app: $(ls "$mnt")"
[ -L "$mnt/Applications" ] || fail "the dmg has no Applications link"
codesign --verify --deep --strict --verbose=2 "$mnt/OpenWorker.app"
cmp "$mnt/OpenWorker.app/Contents/MacOS/$(basename "$exe")" "$exe" || fail "the app in the dmg differs from $app"
echo "dmg holds the verified app and the Applications link"

step "spctl (informational: ad-hoc signatures are rejected by Gatekeeper)"
if spctl --assess --type execute --verbose=2 "$app"; then echo "spctl accepts the app"; else echo "spctl rejects the app (expected unless signed with a Developer ID and notarized)"; fi

echo
echo "macos-verify: OK"
