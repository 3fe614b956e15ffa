#!/usr/bin/env bash
# Update smoke test of the macOS app: an update applied end to end on a
# real Mac (docs/ci.md#macos-update-smoke; CI: .github/workflows/test-macos.yml,
# after scripts/build-macos.sh), as scripts/wine/update-steps.sh does for
# Windows under Wine (docs/update.md, issue 38).
#
#   bash scripts/macos-update-smoke.sh
#
# On macOS: an older OpenWorker.app (0.0.9) built with the test-key hook
# (OPENWORKER_UPDATE_TEST_BUILD=1 scripts/build-macos.sh, by release_build_at
# in scripts/release-lib.sh) is put in a folder of its own as if installed;
# the newer app (build/bin/OpenWorker.app, the release build) is zipped
# with ditto as the update (one .app at the zip's top); a throwaway key
# (internal/cmd/update-feed keygen) signs a feed for darwin-universal,
# served on 127.0.0.1 (python3 -m http.server). The older app's
# Contents/MacOS/openworker then refuses a feed changed after signing and
# the throwaway key's feed read without the test key (exit 1, "nothing was
# changed", nothing staged, the bundle unchanged); `update check --json`
# says newer; `update download` stages the zip; `update apply` swaps the
# bundle by rename (docs/update.md#apply). Afterwards the exe at the same
# path is the newer one (same bytes), prints the new version and is no test
# build, the bundle passes codesign --verify, nothing is left beside it,
# the stage is cleared and a second `update apply` says nothing is staged.
# The config folder is a temporary one (OPENWORKER_CONFIG_DIR): nothing is
# written to ~/Library.
#
# Elsewhere (Linux) it rehearses what needs no Mac: the feed made, signed
# and served, its files fetched back byte for byte, the zip's layout, and a
# Linux build of the same source with the test-key hook (go build, stamped
# 0.0.9) checking the feed: refusing the changed one and the unsigned-for
# one, verifying the good one ("no file for linux-amd64": the feed is for
# macOS, so nothing is downloaded or applied).
#
# Environment:
#   OPENWORKER_MACOS_NEW_APP         the newer app (default build/bin/OpenWorker.app)
#   OPENWORKER_MACOS_UPDATE_OLD_APP  the older test-key app (default: built, ~ a release build's time)
#   OPENWORKER_SMOKE_KEEP=1          keep the temporary folder (logs, feeds, apps)
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/release-lib.sh
. scripts/release-lib.sh
step() { printf '\n==> %s\n' "$*"; }
fail() { echo "FAIL: $*" >&2; exit 1; }
# expect WHAT PATTERN FILE: FILE matches the extended regexp PATTERN.
expect() { grep -Eq -- "$2" "$3" || fail "$1: no \"$2\" in $3: $(head -c 2000 "$3")"; }

[ $# -eq 0 ] || { echo "usage: $0 (no arguments; see its header for the environment)" >&2; exit 2; }
case "$(uname -s)" in Darwin) mac=1 ;; *) mac="" ;; esac
old_version=0.0.9
work=$(mktemp -d "${TMPDIR:-/tmp}/openworker-update-smoke.XXXXXX")
work=$(cd "$work" && pwd -P) # /var → /private/var on macOS: the path os.Executable reports
http_pid=""
cleanup() {
  if [ -n "$http_pid" ]; then kill "$http_pid" 2>/dev/null || true; fi
  if [ -n "${OPENWORKER_SMOKE_KEEP:-}" ]; then echo "kept $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT
export OPENWORKER_CONFIG_DIR=$work/config
updates=$OPENWORKER_CONFIG_DIR/updates

# serve DIR: serves DIR on 127.0.0.1 and sets url to its base URL.
serve() {
  python3 -u -m http.server --bind 127.0.0.1 --directory "$1" 0 >"$work/http.out" 2>"$work/http.log" &
  http_pid=$!
  local port=""
  for _ in $(seq 200); do
    port=$(sed -n 's/^Serving HTTP on 127\.0\.0\.1 port \([0-9]*\).*/\1/p' "$work/http.out")
    [ -z "$port" ] || break
    kill -0 "$http_pid" 2>/dev/null || break
    sleep 0.3
  done
  [ -n "$port" ] || fail "the feed server did not start: $(cat "$work/http.log")"
  url=http://127.0.0.1:$port
}

# version_of EXE prints the version `EXE version` reports.
version_of() { "$1" version | sed -n 's/^openworker \([^ ]*\) .*/\1/p' | head -n 1; }

# zip_app APP ZIP: ZIP holds APP as its one top folder (ditto on macOS, as
# Apple's tools zip a bundle; python's zipfile elsewhere), then checks so.
zip_app() {
  local app=$1 zip=$2
  if [ -n "$mac" ]; then
    ditto -c -k --norsrc --noextattr --noqtn --keepParent "$app" "$zip"
  else
    (cd "$(dirname "$app")" && python3 -m zipfile -c "$zip" "$(basename "$app")")
  fi
  python3 - "$zip" "$(basename "$app")" <<'PY' || fail "the update zip $zip does not hold one .app folder at its top"
import sys, zipfile
names = zipfile.ZipFile(sys.argv[1]).namelist()
bad = [n for n in names if n.split("/")[0] != sys.argv[2]]
sys.exit(1 if bad or not names else 0)
PY
  echo "zipped $app: $(wc -c <"$zip" | tr -d ' ') bytes"
}

# feeds NEW_VERSION ASSET: a throwaway key, the feed for darwin-universal
# (ASSET, served from $url) and a copy changed after signing, in $srv.
feeds() {
  local v=$1 asset=$2
  go build -o "$work/update-feed" ./internal/cmd/update-feed
  key=$("$work/update-feed" keygen -dir "$work/key") || fail "update-feed keygen failed"
  "$work/update-feed" sign -key "$work/key/update.key" -version "$v" -notes "The macOS update smoke test." -out "$srv/feed.json" \
    "darwin-universal=$srv/$asset=$url/$asset" || fail "update-feed sign failed"
  sed 's/The macOS update smoke test\./A changed feed./' "$srv/feed.json" >"$srv/changed.json"
  cp "$srv/feed.json.minisig" "$srv/changed.json.minisig"
  if cmp -s "$srv/feed.json" "$srv/changed.json"; then fail "the changed feed is the same as the good one"; fi
  # What the app fetches is what was written.
  local f
  for f in feed.json feed.json.minisig changed.json "$asset"; do
    curl -fsS -o "$work/fetched" "$url/$f" || fail "GET $url/$f failed"
    cmp -s "$work/fetched" "$srv/$f" || fail "$url/$f is not the bytes of $srv/$f"
  done
  expect "the feed" '"darwin-universal"' "$srv/feed.json"
  echo "feed for $v signed by a throwaway key, served at $url/feed.json (and a changed copy)"
}

# refused WHAT FEED [ENV...]: `update download --feed FEED` by the older
# exe exits 1, says nothing changed, stages nothing, changes no file.
refused() {
  local what=$1 feed=$2 rc=0
  shift 2
  env "$@" "$old_exe" update download --feed "$feed" >"$work/refused.out" 2>&1 || rc=$?
  [ "$rc" = 1 ] || fail "$what: update download exited $rc, want 1: $(tail -n 5 "$work/refused.out")"
  expect "$what" 'nothing was changed' "$work/refused.out"
  [ ! -e "$updates/staged.json" ] || fail "$what: an update was staged: $(cat "$updates/staged.json")"
  cmp -s "$old_exe" "$old_pristine" || fail "$what: the installed exe changed"
  echo "refused ($what): $(grep -m1 'nothing was changed' "$work/refused.out" | cut -c1-160)"
}

# old_checks NEW_VERSION: the older test-key exe's version and the
# refusals, and its check of the good feed (check.json).
old_checks() {
  local v=$1 rc=0
  "$old_exe" version >"$work/old-version.out" || fail "the older exe's version exited $?"
  expect "older version" "^openworker $old_version " "$work/old-version.out"
  expect "the test-key build" 'test build: trusts the update key' "$work/old-version.out"
  export OPENWORKER_UPDATE_TEST_KEY=$key
  refused "a feed changed after signing" "$url/changed.json"
  refused "the throwaway key's feed, without the test key" "$url/feed.json" OPENWORKER_UPDATE_TEST_KEY=
  "$old_exe" update check --feed "$url/changed.json" --json >"$work/check-bad.json" 2>/dev/null || rc=$?
  [ "$rc" = 1 ] || fail "update check --json of the changed feed exited $rc, want 1"
  expect "the JSON error" '"refused": true' "$work/check-bad.json"
  "$old_exe" update check --feed "$url/feed.json" --json >"$work/check.json" 2>&1 || fail "update check exited $?: $(cat "$work/check.json")"
  expect "update check: the version" "\"latest\": \"$v\"" "$work/check.json"
}

# rehearse: the parts that need no Mac (see the header).
rehearse() {
  local v
  v=$(release_version)
  step "rehearsal without a Mac: feed, serving, zip, and a Linux test-key build checking the feed ($old_version → $v)"
  mkdir -p "$work/standin/OpenWorker.app/Contents/MacOS" "$srv"
  printf '#!/bin/sh\necho "openworker %s (stand-in)"\n' "$v" >"$work/standin/OpenWorker.app/Contents/MacOS/openworker"
  chmod +x "$work/standin/OpenWorker.app/Contents/MacOS/openworker"
  local asset=OpenWorker-$v-macos-universal.app.zip
  zip_app "$work/standin/OpenWorker.app" "$srv/$asset"
  serve "$srv"
  feeds "$v" "$asset"
  local t=$SECONDS tags=desktop,production,updatetestkey # OPENWORKER_UPDATE_TEST_BUILD's tag: the rehearsal's stand-in only
  if pkg-config --exists webkit2gtk-4.1 2>/dev/null && ! pkg-config --exists webkit2gtk-4.0 2>/dev/null; then tags=$tags,webkit2_41; fi
  [ -d frontend/dist ] || fail "no frontend/dist to embed: run npm --prefix frontend run build (or scripts/app-build.sh) first"
  go build -tags "$tags" -ldflags "$(release_ldflags "$old_version" "$(release_commit)" "$(release_date)")" -o "$work/openworker" . ||
    fail "go build of the stand-in older exe failed"
  echo "Linux test-key build ($old_version) in $((SECONDS - t)) s"
  old_exe=$work/openworker
  old_pristine=$work/openworker.pristine
  cp "$old_exe" "$old_pristine"
  old_checks "$v"
  expect "update check: nothing for Linux" '"newer": false' "$work/check.json"
  expect "update check: why" 'the feed has no file for linux-' "$work/check.json"
  "$old_exe" update download --feed "$url/feed.json" >"$work/download.out" 2>&1 || fail "update download exited $?: $(cat "$work/download.out")"
  [ ! -e "$updates/staged.json" ] || fail "update download staged a file for another platform"
  echo "the good feed verified; nothing to download for $(go env GOOS)-$(go env GOARCH)"
}

# older_app: the older test-key app, "installed" in $work/Applications
# (a folder the update may write beside it); sets inst, old_exe,
# old_pristine.
older_app() {
  step "the older app ($old_version, test-key build)"
  local old_app=${OPENWORKER_MACOS_UPDATE_OLD_APP:-}
  if [ -z "$old_app" ]; then
    local t=$SECONDS
    old_app=$(OPENWORKER_UPDATE_TEST_BUILD=1 release_build_at macos "$old_version" "$work/old" "$work/build-old.log") ||
      fail "building the older test-key app failed"
    echo "built $old_app in $((SECONDS - t)) s"
  fi
  [ -x "$old_app/Contents/MacOS/openworker" ] || fail "no older app at $old_app (OPENWORKER_MACOS_UPDATE_OLD_APP?)"
  mkdir -p "$work/Applications"
  inst=$work/Applications/OpenWorker.app
  ditto "$old_app" "$inst"
  old_exe=$inst/Contents/MacOS/openworker
  old_pristine=$work/openworker.pristine
  cp "$old_exe" "$old_pristine"
}

# updated NEW_APP VERSION: the bundle at $inst is now NEW_APP, as the
# release built it, and nothing else was left.
updated() {
  local new_app=$1 v=$2 exe=$inst/Contents/MacOS/openworker
  cmp -s "$exe" "$new_app/Contents/MacOS/openworker" || fail "the updated $exe is not the bytes of $new_app's"
  "$exe" version >"$work/new-version.out" || fail "the updated exe's version exited $?"
  cat "$work/new-version.out"
  expect "updated version" "^openworker $v " "$work/new-version.out"
  if grep -q 'test build' "$work/new-version.out"; then fail "the updated exe is still the test-key build"; fi
  codesign --verify --strict --verbose=2 "$inst" || fail "the updated bundle $inst fails codesign --verify"
  local plist_v want=${v%%[-+]*}
  plist_v=$(/usr/libexec/PlistBuddy -c 'Print :CFBundleShortVersionString' "$inst/Contents/Info.plist")
  [ "$plist_v" = "$want" ] || fail "the updated Info.plist says $plist_v, want $want"
  local left
  left=$(find "$work/Applications" -mindepth 1 -maxdepth 1 ! -name OpenWorker.app)
  [ -z "$left" ] || fail "the update left beside the app: $left"
  [ ! -e "$updates/staged.json" ] || fail "the stage was not cleared after the update was applied"
  local rc=0
  "$exe" update apply >"$work/apply2.out" 2>&1 || rc=$?
  [ "$rc" = 1 ] || fail "a second update apply exited $rc, want 1 (nothing staged): $(cat "$work/apply2.out")"
  expect "nothing staged" 'no update is staged' "$work/apply2.out"
  left=$(ls -A "$updates")
  [ -z "$left" ] || fail "the applied update was left in $updates: $left"
}

# mac_update: the test on macOS (see the header).
mac_update() {
  local new_app=${OPENWORKER_MACOS_NEW_APP:-build/bin/OpenWorker.app} v
  [ -x "$new_app/Contents/MacOS/openworker" ] || fail "no $new_app: run scripts/build-macos.sh first (or set OPENWORKER_MACOS_NEW_APP)"
  v=$(version_of "$new_app/Contents/MacOS/openworker") || fail "$new_app/Contents/MacOS/openworker version failed"
  [ -n "$v" ] || fail "$new_app/Contents/MacOS/openworker version printed no version"
  [ "$v" != "$old_version" ] || fail "$new_app is $old_version, the older version: the update needs a newer one"
  if "$new_app/Contents/MacOS/openworker" version | grep -q 'test build'; then fail "$new_app is a test build: the update is a release build"; fi
  local asset=OpenWorker-$v-macos-universal.app.zip t0=$SECONDS
  step "the update: $new_app ($v) zipped, a feed signed by a throwaway key, served on 127.0.0.1"
  mkdir -p "$srv"
  zip_app "$new_app" "$srv/$asset"
  serve "$srv"
  feeds "$v" "$asset"
  older_app

  step "refused feeds, update check"
  old_checks "$v"
  expect "update check: newer" '"newer": true' "$work/check.json"
  expect "update check: the macOS file" "\"url\": \"$url/$asset\"" "$work/check.json"

  step "update download, update apply"
  local t=$SECONDS
  "$old_exe" update download --feed "$url/feed.json" >"$work/download.out" 2>&1 || fail "update download exited $?: $(tail -n 5 "$work/download.out")"
  expect "download progress" 'downloaded 100%' "$work/download.out"
  expect "download verified" "OpenWorker $v is downloaded and verified" "$work/download.out"
  [ -f "$updates/staged.json" ] || fail "update download staged nothing"
  echo "downloaded and verified $(wc -c <"$srv/$asset" | tr -d ' ') bytes in $((SECONDS - t)) s"
  "$old_exe" update apply >"$work/apply.out" 2>&1 || fail "update apply exited $?: $(cat "$work/apply.out")"
  cat "$work/apply.out"
  expect "update apply" "OpenWorker $v is installed in place of" "$work/apply.out"
  unset OPENWORKER_UPDATE_TEST_KEY

  step "the updated app"
  updated "$new_app" "$v"
  echo "update step (without the older build): $((SECONDS - t0)) s"
}

srv=$work/srv
if [ -z "$mac" ]; then
  rehearse
  echo
  echo "macos-update-smoke: rehearsal OK; download and apply of the .app run on macOS only"
  exit 0
fi
mac_update
echo
echo "macos-update-smoke: OK"
