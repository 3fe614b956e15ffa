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
#   OPENWORKER_OUT_DIR     where OpenWorker.app and the .dmg go (default build/bin; not inside
#                          it). wails builds in build/bin: its earlier content is put back after,
#                          so the update smoke test builds an older app aside of the release one
#   OPENWORKER_UPDATE_TEST_BUILD=1 a test build that trusts the update key in
#                          $OPENWORKER_UPDATE_TEST_KEY (build tag updatetestkey,
#                          internal/update/key_testhook.go; scripts/macos-update-smoke.sh's
#                          older app only, docs/update.md#keys): ad-hoc signed, no .dmg
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

fail() { echo "build-macos.sh: $*" >&2; exit 2; }
test_build=""
[ "${OPENWORKER_UPDATE_TEST_BUILD:-}" != 1 ] || test_build=updatetestkey # OPENWORKER_UPDATE_TEST_BUILD: test builds only
if [ -n "$test_build" ] && [ -n "${MACOS_SIGN_IDENTITY:-}" ]; then
  fail "a test build (OPENWORKER_UPDATE_TEST_BUILD) trusts another update key: it is never signed (unset MACOS_SIGN_IDENTITY)"
fi
out=${OPENWORKER_OUT_DIR:-build/bin}
out=${out%/}
case "$out" in ./*) out=${out#./} ;; "$PWD"/*) out=${out#"$PWD"/} ;; esac
case "$out" in build/bin/*) fail "OPENWORKER_OUT_DIR=$out is inside build/bin, which wails build -clean empties: choose another folder" ;; esac

start=$SECONDS
VERSION=$(release_version)
COMMIT=$(release_commit)
DATE=$(release_date)
NUMERIC=${VERSION%%[-+]*}          # CFBundle*Version take digits and dots only
echo "version $VERSION ($NUMERIC), commit $COMMIT, date $DATE"

app=$out/OpenWorker.app
exe=$app/Contents/MacOS/openworker
dmg=$out/OpenWorker-$VERSION-macos-universal.dmg

# wails builds in build/bin (and -clean empties it): for another
# OPENWORKER_OUT_DIR what is there is put aside and back after (restore_bin,
# also when the build fails).
kept="" stage=""
if [ "$out" != build/bin ] && [ -e build/bin ]; then
  kept=build/.bin-kept-$$
  mv build/bin "$kept"
fi
restore_bin() {
  [ "$out" != build/bin ] || return 0
  rm -rf build/bin
  if [ -n "$kept" ]; then mv "$kept" build/bin; kept=""; fi
}
cleanup() {
  if [ -n "$stage" ]; then rm -rf "$stage"; fi
  restore_bin
}
trap cleanup EXIT

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
# shellcheck disable=SC2086 # ${test_build:+…}: -tags and the tag, two words, or none
go tool -modfile=build/tools/go.mod wails build -platform darwin/universal -clean -m -nosyncgomod -skipbindings \
  -trimpath ${test_build:+-tags $test_build} -ldflags "$(release_ldflags "$VERSION" "$COMMIT" "$DATE")"
if [ "$out" != build/bin ]; then
  mkdir -p "$out"
  rm -rf "$app"
  mv build/bin/OpenWorker.app "$app"
  restore_bin
fi

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
if [ -n "$test_build" ]; then
  case "$got" in *"test build"*) ;; *) echo "a test build's openworker version does not say \"test build\": \"$got\"" >&2; exit 1 ;; esac
fi

step "codesign"
if [ -n "${MACOS_SIGN_IDENTITY:-}" ]; then
  codesign --force --options runtime --timestamp --entitlements build/darwin/entitlements.plist \
    --sign "$MACOS_SIGN_IDENTITY" "$app"
else
  echo "MACOS_SIGN_IDENTITY unset: ad-hoc signature (Gatekeeper will warn on other Macs)"
  codesign --force --entitlements build/darwin/entitlements.plist --sign - "$app"
fi
codesign --verify --strict --verbose=2 "$app"

if [ -n "$test_build" ]; then
  step "done in $(elapsed "$start"): a test build ($app), no .dmg"
  exit 0
fi

step "dmg"
stage=$(mktemp -d)
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
