#!/usr/bin/env bash
# Builds OpenWorker Desktop for macOS on a Mac (Xcode command line tools, Go,
# Node): a universal (arm64 + x86_64) OpenWorker.app and a .dmg, signed and
# notarized when the credentials are set. It cannot run on Linux (the Wails
# app needs the macOS SDK). CI: .github/workflows/macos.yml.
#
#   bash scripts/build-macos.sh   # -> build/bin/OpenWorker.app, build/bin/OpenWorker-<version>-macos-universal.dmg
#
# Environment (all optional):
#   OPENWORKER_VERSION     version to stamp (default: v* tag on HEAD, else wails.json)
#   MACOS_SIGN_IDENTITY    codesign identity, e.g. "Developer ID Application: Name (TEAMID)",
#                          in an unlocked keychain; unset: ad-hoc signature (runs locally only)
#   MACOS_NOTARY_APPLE_ID, MACOS_NOTARY_TEAM_ID, MACOS_NOTARY_PASSWORD (app-specific password):
#                          when all are set (and MACOS_SIGN_IDENTITY), the .dmg is notarized
#                          with `xcrun notarytool` and the ticket stapled
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/release-lib.sh
step() { printf '\n==> %s\n' "$*"; }

[ "$(uname -s)" = Darwin ] || { echo "build-macos.sh runs on macOS only (see docs/install.md)" >&2; exit 2; }

start=$SECONDS
VERSION=$(release_version)
COMMIT=$(release_commit)
DATE=$(release_date)
NUMERIC=${VERSION%%[-+]*}          # CFBundle*Version take digits and dots only
echo "version $VERSION ($NUMERIC), commit $COMMIT, date $DATE"

app=build/bin/OpenWorker.app
exe=$app/Contents/MacOS/openworker
dmg=build/bin/OpenWorker-$VERSION-macos-universal.dmg

# macOS 12 is the oldest the Go 1.26 runtime supports (the linker stamps
# minos 12.0): the C parts (cgo: SQLite, the Wails window) are built for the
# same, not Wails' older default minimum, and Info.plist says
# LSMinimumSystemVersion 12.0 (docs/install.md#macos-12-or-later).
export MACOSX_DEPLOYMENT_TARGET=12.0
export CGO_CFLAGS="${CGO_CFLAGS:-} -mmacosx-version-min=12.0"
export CGO_LDFLAGS="${CGO_LDFLAGS:-} -mmacosx-version-min=12.0"

t=$SECONDS
step "wails build (darwin/universal)"
# -m / -nosyncgomod: never let wails rewrite go.mod; -skipbindings: the
# TypeScript bindings are committed (scripts/app-bindings.sh). Wails installs
# and builds the frontend (wails.json), builds arm64 and amd64 with cgo, joins
# them with lipo and writes the bundle from build/darwin/Info.plist.
go tool -modfile=build/tools/go.mod wails build -platform darwin/universal -clean -m -nosyncgomod -skipbindings \
  -trimpath -ldflags "$(release_ldflags "$VERSION" "$COMMIT" "$DATE")"

echo "wails build: $(elapsed "$t")"

step "bundle: version, examples, checks"
plist=$app/Contents/Info.plist
/usr/libexec/PlistBuddy -c "Set :CFBundleShortVersionString $NUMERIC" -c "Set :CFBundleVersion $NUMERIC" "$plist"
plutil -lint "$plist"
[ "$(/usr/libexec/PlistBuddy -c 'Print :CFBundleIdentifier' "$plist")" = dev.openworker.desktop ]
/usr/libexec/PlistBuddy -c 'Print :NSAppleEventsUsageDescription' -c 'Print :NSDocumentsFolderUsageDescription' "$plist" >/dev/null
[ "$(/usr/libexec/PlistBuddy -c 'Print :LSMinimumSystemVersion' "$plist")" = 12.0 ]
[ "$(/usr/libexec/PlistBuddy -c 'Print :CFBundleDocumentTypes:0:CFBundleTypeExtensions:0' -c 'Print :CFBundleDocumentTypes:1:CFBundleTypeExtensions:0' "$plist" | tr '\n' ' ')" = 'mcpb dxt ' ] # file associations (docs/app.md#opening-an-extension)
# The app seeds its coworkers folder from Contents/Resources/examples/coworkers.
mkdir -p "$app/Contents/Resources/examples"
cp -R examples/coworkers "$app/Contents/Resources/examples/"
archs=$(lipo -archs "$exe")
case "$archs" in *arm64*x86_64* | *x86_64*arm64*) ;; *) echo "not universal: $archs" >&2; exit 1 ;; esac
got=$("$exe" version)
echo "$got"
case "$got" in *"$VERSION"*"$COMMIT"*) ;; *) echo "openworker version printed \"$got\"" >&2; exit 1 ;; esac

step "codesign"
if [ -n "${MACOS_SIGN_IDENTITY:-}" ]; then
  codesign --force --options runtime --timestamp --entitlements build/darwin/entitlements.plist \
    --sign "$MACOS_SIGN_IDENTITY" "$app"
else
  echo "MACOS_SIGN_IDENTITY unset: ad-hoc signature (Gatekeeper will warn on other Macs)"
  codesign --force --entitlements build/darwin/entitlements.plist --sign - "$app"
fi
codesign --verify --strict --verbose=2 "$app"

step "dmg"
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
cp -R "$app" "$stage/"
ln -s /Applications "$stage/Applications"
rm -f "$dmg"
# hdiutil create fails now and then on CI runners ("Resource busy", a
# volume XProtect or Spotlight still holds): retried, as electron-builder
# and create-dmg do.
t=$SECONDS
for try in 1 2 3 4 5; do
  if hdiutil create -volname "OpenWorker" -srcfolder "$stage" -fs HFS+ -format UDZO -ov "$dmg"; then break; fi
  [ "$try" -lt 5 ] || { echo "hdiutil create failed 5 times" >&2; exit 1; }
  echo "hdiutil create failed (try $try of 5); retrying in $((try * 5)) s"
  sleep $((try * 5))
done
echo "dmg: $(elapsed "$t")"
if [ -n "${MACOS_SIGN_IDENTITY:-}" ]; then codesign --force --timestamp --sign "$MACOS_SIGN_IDENTITY" "$dmg"; fi

if [ -n "${MACOS_SIGN_IDENTITY:-}" ] && [ -n "${MACOS_NOTARY_APPLE_ID:-}" ] &&
  [ -n "${MACOS_NOTARY_TEAM_ID:-}" ] && [ -n "${MACOS_NOTARY_PASSWORD:-}" ]; then
  step "notarize"
  xcrun notarytool submit "$dmg" --apple-id "$MACOS_NOTARY_APPLE_ID" --team-id "$MACOS_NOTARY_TEAM_ID" \
    --password "$MACOS_NOTARY_PASSWORD" --wait --timeout 30m
  xcrun stapler staple "$dmg"
  xcrun stapler validate "$dmg"
  spctl --assess --type open --context context:primary-signature --verbose=2 "$dmg"
else
  echo "notarization skipped (set MACOS_SIGN_IDENTITY and MACOS_NOTARY_APPLE_ID/TEAM_ID/PASSWORD)"
fi

step "done in $(elapsed "$start")"
ls -l "$dmg"
# The sizes docs/install.md#sizes quotes (TestInstallSizesDocumented).
echo "size: dmg $(stat -f %z "$dmg") bytes"
echo "size: macos exe $(stat -f %z "$exe") bytes"
