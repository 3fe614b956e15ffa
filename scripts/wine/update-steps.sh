# Step 5 of scripts/test-windows-wine.sh: an update applied under Wine
# replaces the installed exe (docs/update.md, issue 38). Sourced; uses
# $wine, $exe, $tmp, $appdata, $winuser, $built_version, fail, expect,
# installer_prefix (installer-steps.sh).
#
# An older build (0.0.9) made with the test-key hook (OPENWORKER_UPDATE_TEST_BUILD=1:
# the build tag updatetestkey, internal/update/key_testhook.go) is
# installed; a throwaway key made here signs a feed served on 127.0.0.1
# that points at the installer under test (the release build, version
# $built_version). The installed exe refuses a feed changed after signing
# and one the release key did not sign (nothing staged, the exe
# unchanged), then checks, downloads and applies the good one (`update
# apply` starts the staged installer silently, as the app does at its next
# start); the installed exe must then be the new one and say so.

# update_old_installer: sets upd_old_setup to the test-key installer
# stamped $upd_old_version (OPENWORKER_WINE_UPDATE_OLD_SETUP, else built into
# build/bin/update-old by release_build_at, scripts/release-lib.sh: the Go
# build is cached but for the packages the tag changes, then makensis).
# scripts/macos-update-smoke.sh does the same for the macOS app.
update_old_installer() {
  upd_old_version=0.0.9
  upd_old_setup=${OPENWORKER_WINE_UPDATE_OLD_SETUP:-}
  if [ -z "$upd_old_setup" ]; then
    local t=$SECONDS
    upd_old_setup=$(OPENWORKER_UPDATE_TEST_BUILD=1 release_build_at windows "$upd_old_version" build/bin/update-old "$tmp/build-update-old.log") ||
      fail "building the older test-key installer failed"
    echo "older test-key installer ($upd_old_version) built in $((SECONDS - t)) s"
  fi
  [ -f "$upd_old_setup" ] || fail "no older test-key installer at $upd_old_setup"
}

# update_serve DIR: serves DIR on 127.0.0.1 and sets upd_url to its base URL.
update_serve() {
  python3 -u -m http.server --bind 127.0.0.1 --directory "$1" 0 >"$tmp/upd-http.out" 2>"$tmp/upd-http.log" &
  upd_http_pid=$!
  # The step runs in a subshell: its own EXIT trap ends the server.
  trap 'kill "$upd_http_pid" 2>/dev/null || true' EXIT
  local port=""
  for _ in $(seq 100); do
    port=$(sed -n 's/^Serving HTTP on 127\.0\.0\.1 port \([0-9]*\).*/\1/p' "$tmp/upd-http.out")
    [ -z "$port" ] || break
    sleep 0.1
  done
  [ -n "$port" ] || fail "the feed server did not start: $(cat "$tmp/upd-http.log")"
  upd_url=http://127.0.0.1:$port
}

# update_refused WHAT FEED [ENV...]: `update download --feed FEED` exits 1,
# says nothing changed, and stages nothing.
update_refused() {
  local what=$1 feed=$2 rc=0
  shift 2
  env "$@" timeout 120 "$wine" "$upd_inst/openworker.exe" update download --feed "$feed" >"$tmp/upd-refused.out" 2>&1 || rc=$?
  [ "$rc" = 1 ] || fail "$what: update download exited $rc, want 1: $(tail -n 5 "$tmp/upd-refused.out")"
  expect "$what" 'nothing was changed' "$tmp/upd-refused.out"
  [ ! -e "$appdata/OpenWorker/updates/staged.json" ] || fail "$what: an update was staged: $(cat "$appdata/OpenWorker/updates/staged.json")"
  cmp -s "$upd_inst/openworker.exe" "$upd_old_exe" || fail "$what: the installed exe changed"
  echo "refused ($what): $(tr -d '\r' <"$tmp/upd-refused.out" | grep -m1 'nothing was changed' | cut -c1-160)"
}

update_apply() {
  local setup=${OPENWORKER_WINE_SETUP:-$(dirname "$exe")/OpenWorker-$built_version-windows-amd64-setup.exe}
  [ -f "$setup" ] || fail "no installer at $setup to update to (build it with scripts/build-windows.sh)"
  update_old_installer
  upd_old_exe=$(dirname "$upd_old_setup")/openworker.exe
  upd_inst="$WINEPREFIX/drive_c/users/$winuser/AppData/Local/Programs/OpenWorker"
  [ ! -e "$upd_inst/openworker.exe" ] || fail "OpenWorker is installed before the update step: $upd_inst"
  installer_prefix
  local t0=$SECONDS

  # The throwaway key and the feeds: good, changed after signing, and
  # signed by the throwaway key but read by the release key.
  local srv=$tmp/upd-srv
  mkdir -p "$srv"
  go build -o "$tmp/update-feed" ./internal/cmd/update-feed
  local key
  key=$("$tmp/update-feed" keygen -dir "$tmp/upd-key") || fail "update-feed keygen failed"
  cp "$setup" "$srv/OpenWorker-$built_version-windows-amd64-setup.exe"
  update_serve "$srv"
  "$tmp/update-feed" sign -key "$tmp/upd-key/update.key" -version "$built_version" -notes "The Wine update test." -out "$srv/feed.json" \
    "windows-amd64=$srv/OpenWorker-$built_version-windows-amd64-setup.exe=$upd_url/OpenWorker-$built_version-windows-amd64-setup.exe" ||
    fail "update-feed sign failed"
  sed 's/The Wine update test\./A changed feed./' "$srv/feed.json" >"$srv/changed.json"
  cp "$srv/feed.json.minisig" "$srv/changed.json.minisig"
  cmp -s "$srv/feed.json" "$srv/changed.json" && fail "the changed feed is the same as the good one"

  timeout 180 "$wine" "$upd_old_setup" /S >"$tmp/upd-setup-old.log" 2>&1 || fail "the older test-key installer exited $?: $(tail -n 20 "$tmp/upd-setup-old.log")"
  "$wine" "$upd_inst/openworker.exe" version >"$tmp/upd-old-version.out" 2>&1 || fail "the installed $upd_old_version openworker.exe version exited $?"
  expect "older installed version" "openworker $upd_old_version " "$tmp/upd-old-version.out"
  expect "the test-key build" 'test build: trusts the update key' "$tmp/upd-old-version.out"
  echo "installed $upd_old_version (test-key build) in $((SECONDS - t0)) s"

  export OPENWORKER_UPDATE_TEST_KEY=$key
  update_refused "a feed changed after signing" "$upd_url/changed.json"
  update_refused "the throwaway key's feed, without the test key" "$upd_url/feed.json" OPENWORKER_UPDATE_TEST_KEY=
  local rc=0
  "$wine" "$upd_inst/openworker.exe" update check --feed "$upd_url/changed.json" --json >"$tmp/upd-check-bad.json" 2>/dev/null || rc=$?
  [ "$rc" = 1 ] || fail "update check --json of the changed feed exited $rc, want 1"
  expect "the JSON error" '"refused": true' "$tmp/upd-check-bad.json"

  "$wine" "$upd_inst/openworker.exe" update check --feed "$upd_url/feed.json" --json >"$tmp/upd-check.json" 2>&1 || fail "update check exited $?: $(cat "$tmp/upd-check.json")"
  expect "update check: newer" '"newer": true' "$tmp/upd-check.json"
  expect "update check: the version" "\"latest\": \"$built_version\"" "$tmp/upd-check.json"
  local t1=$SECONDS
  "$wine" "$upd_inst/openworker.exe" update download --feed "$upd_url/feed.json" >"$tmp/upd-download.out" 2>&1 || fail "update download exited $?: $(tail -n 5 "$tmp/upd-download.out")"
  expect "download progress" 'downloaded 100%' "$tmp/upd-download.out"
  expect "download verified" "OpenWorker $built_version is downloaded and verified" "$tmp/upd-download.out"
  [ -f "$appdata/OpenWorker/updates/staged.json" ] || fail "update download staged nothing"
  echo "downloaded and verified $(stat -c %s "$setup") bytes in $((SECONDS - t1)) s"

  t1=$SECONDS
  "$wine" "$upd_inst/openworker.exe" update apply >"$tmp/upd-apply.out" 2>&1 || fail "update apply exited $?: $(cat "$tmp/upd-apply.out")"
  expect "update apply" "Started the installer of OpenWorker $built_version silently" "$tmp/upd-apply.out"
  # The installer runs on after `update apply` has exited: wait for the
  # installed exe to be the new one (and the uninstall key to say so: the
  # installer writes it last).
  local done=""
  for _ in $(seq 240); do
    if cmp -s "$upd_inst/openworker.exe" "$exe" &&
      "$wine" reg query 'HKCU\Software\Microsoft\Windows\CurrentVersion\Uninstall\OpenWorker' /v DisplayVersion 2>/dev/null | grep -q "$built_version"; then
      done=1
      break
    fi
    sleep 0.5
  done
  [ -n "$done" ] || fail "120 s after update apply the installed exe is not the $built_version one"
  echo "the installer replaced the exe in $((SECONDS - t1)) s"
  unset OPENWORKER_UPDATE_TEST_KEY
  "$wine" "$upd_inst/openworker.exe" version >"$tmp/upd-new-version.out" 2>&1 || fail "the updated openworker.exe version exited $?"
  tr -d '\r' <"$tmp/upd-new-version.out"
  expect "updated version" "openworker $built_version " "$tmp/upd-new-version.out"
  if grep -q 'test build' "$tmp/upd-new-version.out"; then fail "the updated exe is still the test-key build"; fi
  [ ! -e "$appdata/OpenWorker/updates/staged.json" ] || fail "the stage was not cleared after the update was applied"
  # Nothing staged now; the installer's file goes at the next apply (or
  # the app's next start) once the installer has exited: it may still be
  # running for a moment after it wrote the uninstall key.
  local left=""
  for _ in $(seq 30); do
    rc=0
    "$wine" "$upd_inst/openworker.exe" update apply >"$tmp/upd-apply2.out" 2>&1 || rc=$?
    [ "$rc" = 1 ] || fail "a second update apply exited $rc, want 1 (nothing staged): $(cat "$tmp/upd-apply2.out")"
    expect "nothing staged" 'no update is staged' "$tmp/upd-apply2.out"
    left=$(ls -A "$appdata/OpenWorker/updates")
    [ -n "$left" ] || break
    sleep 1
  done
  [ -z "$left" ] || fail "the applied installer was left in the update folder: $left"

  timeout 120 "$wine" "$upd_inst/uninstall.exe" /S >"$tmp/upd-uninst.log" 2>&1 || fail "the uninstaller exited $?"
  for _ in $(seq 120); do [ ! -e "$upd_inst/openworker.exe" ] && break; sleep 0.5; done
  [ ! -e "$upd_inst/openworker.exe" ] || fail "the exe is still installed 60 s after uninstall.exe /S"
  echo "update step (without the build): $((SECONDS - t0)) s"
}
