# Step 4 of scripts/test-windows-wine.sh: the NSIS installer, silent, under
# Wine. Sourced; uses $wine, $exe, $tmp, $appdata, $winuser, fail, expect.
#
# The installer is a 64-bit program (Target amd64-unicode in
# build/windows/installer/openworker.nsi), so wine64 runs it: no wine32, no
# i386 packages (this kernel cannot execute 32-bit programs at all). The
# step never skips: when there is no installer to test it fails.

# shellcheck source=scripts/release-lib.sh
. scripts/release-lib.sh

# old_installer: sets old_setup and old_version to an installer of the
# same source stamped 0.0.1 (OPENWORKER_WINE_OLD_SETUP, else built into
# build/bin/old by release_build_at, scripts/release-lib.sh: the Go build is
# cached, so mostly makensis), for the upgrade over a running older version.
# scripts/windows-install-smoke.sh does the same on Windows.
old_installer() {
  old_version=0.0.1
  old_setup=${OPENWORKER_WINE_OLD_SETUP:-}
  if [ -z "$old_setup" ]; then
    local t=$SECONDS
    old_setup=$(release_build_at windows "$old_version" build/bin/old "$tmp/build-old.log") || fail "building the older installer failed"
    echo "older installer ($old_version) built in $((SECONDS - t)) s"
  fi
  [ -f "$old_setup" ] || fail "no older installer at $old_setup"
}

# installer_prefix: makes the prefix one the installer runs in silently
# (Windows 10, a WebView2 runtime registered); step 5 uses it too.
installer_prefix() {
  # The installer refuses Windows before 10 (exit 64); a new prefix says
  # Windows 7, Wine 8's default.
  "$wine" winecfg /v win10 >/dev/null 2>&1 || fail "winecfg /v win10 failed"
  # The installer runs Microsoft's WebView2 bootstrapper when no runtime is
  # registered, and the bootstrapper downloads it from the internet. This
  # test sends nothing off the machine, so it registers a runtime version
  # first (the key the installer reads, build/windows/installer/webview2.nsh)
  # and the installer says "already installed". The GUI cannot run under
  # Wine anyway (the script's header).
  "$wine" reg add 'HKCU\Software\Microsoft\EdgeUpdate\Clients\{F3017226-FE2A-4295-8BDF-00C3A9A7E4C5}' \
    /v pv /t REG_SZ /d 1.0.0.0 /f >/dev/null 2>&1 || fail "could not register a WebView2 version in the prefix"
}

installer() {
  local setup=${OPENWORKER_WINE_SETUP:-}
  old_installer
  if [ -z "$setup" ]; then
    [ -n "$built_version" ] || fail "no defines.nsh beside $exe, so no installer to test (build it with scripts/build-windows.sh, or set OPENWORKER_WINE_SETUP)"
    setup=$(dirname "$exe")/OpenWorker-$built_version-windows-amd64-setup.exe
  fi
  [ -f "$setup" ] || fail "no installer at $setup (build it with scripts/build-windows.sh)"
  local product
  product=$(sed -n 's/^!define PRODUCT_NAME "\(.*\)"$/\1/p' "$(dirname "$exe")/windows-work/defines.nsh")
  [ -n "$product" ] || fail "no PRODUCT_NAME in defines.nsh"
  local inst="$WINEPREFIX/drive_c/users/$winuser/AppData/Local/Programs/OpenWorker"
  local startlnk="$appdata/Microsoft/Windows/Start Menu/Programs/$product.lnk"
  local desk="$WINEPREFIX/drive_c/users/$winuser/Desktop/$product.lnk"
  [ ! -e "$inst" ] || fail "$inst exists before the install"
  # The data the uninstaller must keep: step 2a's journal when it ran,
  # else a stand-in (OPENWORKER_WINE_STEPS=4 runs this step alone).
  mkdir -p "$appdata/OpenWorker"
  [ -f "$appdata/OpenWorker/journal.db" ] || : >"$appdata/OpenWorker/journal.db"
  echo keep >"$appdata/OpenWorker/installer-marker"

  installer_prefix
  : >"$tmp/before-install"
  # The upgrade: an older build of the same source installed first and
  # left running, so the new installer must close it (running.nsh).
  local old_pid=""
  if [ -n "${old_setup:-}" ]; then
    timeout 180 "$wine" "$old_setup" /S >"$tmp/setup-old.log" 2>&1 || fail "the older installer exited $?: $(tail -n 20 "$tmp/setup-old.log")"
    "$wine" "$inst/openworker.exe" version >"$tmp/old-version.out" 2>&1 || fail "the older installed openworker.exe version exited $?"
    expect "older installed version" "$old_version" "$tmp/old-version.out"
    # A long-running process of the installed exe (the device MCP server
    # waiting on stdin): its image is locked as the window's would be.
    sleep 600 | "$wine" "$inst/openworker.exe" mcp serve device >"$tmp/old-running.log" 2>&1 &
    old_pid=$!
    pids+=("$old_pid")
    # Running once it answers nothing yet still lives (Wine's tasklist lists
    # nothing here, so the wine process of the exe is what is watched).
    sleep 5
    kill -0 "$old_pid" 2>/dev/null || fail "the older openworker.exe did not keep running: $(cat "$tmp/old-running.log")"
    echo "older $old_version installed and running (pid $old_pid)"
  fi
  local t0=$SECONDS
  timeout 300 "$wine" "$setup" /S >"$tmp/setup.log" 2>&1 || fail "the installer exited $?: $(tail -n 20 "$tmp/setup.log")"
  if [ -n "$old_pid" ]; then
    echo "upgrade over the running $old_version took $((SECONDS - t0)) s"
    for _ in $(seq 30); do kill -0 "$old_pid" 2>/dev/null || break; sleep 1; done
    if kill -0 "$old_pid" 2>/dev/null; then fail "the older openworker.exe still runs after the upgrade"; fi
  fi
  for f in openworker.exe uninstall.exe examples/coworkers/device-assistant/coworker/manifest.md; do
    [ -f "$inst/$f" ] || fail "installed file missing: $inst/$f ($(ls "$inst" 2>&1))"
  done
  cmp "$inst/openworker.exe" "$exe" || fail "the installed exe differs from $exe"
  [ -f "$startlnk" ] || fail "Start-menu shortcut missing: $startlnk"
  [ -f "$desk" ] || fail "desktop shortcut missing: $desk"
  # The prefix's Desktop is a folder of its own (own_user_folders), so the
  # shortcut is not in the home folder of whoever runs the tests.
  [ ! -L "$(dirname "$desk")" ] || fail "the prefix's Desktop is a link: $(readlink "$(dirname "$desk")")"
  local leaked
  leaked=$(find "$HOME" -maxdepth 2 -name "$product.lnk" -newer "$tmp/before-install" 2>/dev/null)
  [ -z "$leaked" ] || fail "the installer wrote into the real home folder: $leaked"
  "$wine" reg query 'HKCU\Software\Microsoft\Windows\CurrentVersion\Uninstall\OpenWorker' >"$tmp/reg.out" 2>&1 ||
    fail "no HKCU uninstall key: $(cat "$tmp/reg.out")"
  tr -d '\r' <"$tmp/reg.out" | grep -E 'DisplayName|DisplayVersion|QuietUninstallString'
  expect "uninstall key" "DisplayVersion.*$built_version" "$tmp/reg.out"
  "$wine" "$inst/openworker.exe" version >"$tmp/inst-version.out" 2>&1 || fail "the installed openworker.exe version exited $?"
  cat "$tmp/inst-version.out"
  expect "installed version" "$built_version" "$tmp/inst-version.out"
  # .mcpb and .dxt open with the app, per user (docs/install.md#file-associations).
  local ext
  for ext in mcpb dxt; do
    "$wine" reg query "HKCU\\Software\\Classes\\.$ext" /ve >"$tmp/assoc.out" 2>&1 || fail "no HKCU\\Software\\Classes\\.$ext: $(cat "$tmp/assoc.out")"
    expect ".$ext association" "OpenWorker\\.$ext" "$tmp/assoc.out"
    "$wine" reg query "HKCU\\Software\\Classes\\OpenWorker.$ext\\shell\\open\\command" /ve >"$tmp/assoc.out" 2>&1 ||
      fail "no open command for OpenWorker.$ext: $(cat "$tmp/assoc.out")"
    expect ".$ext open command" 'openworker\.exe" "%1"' "$tmp/assoc.out"
  done
  echo "installed: files, shortcuts, uninstall key, .mcpb and .dxt associations, openworker.exe version"

  # The app writes its toast identity at its first notification
  # (platform/windows, go-toast); the uninstaller must remove it.
  "$wine" reg add 'HKCU\Software\Classes\AppUserModelId\OpenWorker' /v DisplayName /t REG_SZ /d OpenWorker /f >/dev/null 2>&1 ||
    fail "could not write the AppUserModelId key"
  timeout 120 "$wine" "$inst/uninstall.exe" /S >"$tmp/uninst.log" 2>&1 || fail "the uninstaller exited $?"
  # It returns at once and finishes from a copy in %TEMP%.
  for _ in $(seq 120); do [ ! -e "$inst/openworker.exe" ] && [ ! -e "$startlnk" ] && break; sleep 0.5; done
  [ ! -e "$inst/openworker.exe" ] || fail "the exe is still installed 60 s after uninstall.exe /S"
  [ ! -e "$startlnk" ] || fail "the Start-menu shortcut is still there after the uninstall"
  [ ! -e "$desk" ] || fail "the desktop shortcut is still there after the uninstall"
  if "$wine" reg query 'HKCU\Software\Microsoft\Windows\CurrentVersion\Uninstall\OpenWorker' >/dev/null 2>&1; then
    fail "the uninstall key is still there after the uninstall"
  fi
  for ext in mcpb dxt; do
    if "$wine" reg query "HKCU\\Software\\Classes\\OpenWorker.$ext" >/dev/null 2>&1; then
      fail "HKCU\\Software\\Classes\\OpenWorker.$ext is still there after the uninstall"
    fi
  done
  [ -f "$appdata/OpenWorker/installer-marker" ] || fail "the silent uninstall removed %APPDATA%\\OpenWorker (it must keep the journal)"
  [ -f "$appdata/OpenWorker/journal.db" ] || fail "the silent uninstall removed the journal"
  # Nothing left of the program: no install folder, no key under
  # HKCU\Software\Classes\AppUserModelId (the toast identity).
  [ ! -e "$inst" ] || fail "the uninstall left $inst: $(find "$inst" | head)"
  if "$wine" reg query 'HKCU\Software\Classes\AppUserModelId\OpenWorker' >/dev/null 2>&1; then
    fail "HKCU\\Software\\Classes\\AppUserModelId\\OpenWorker is still there after the uninstall"
  fi
  echo "uninstalled: files, shortcuts, key and associations gone; %APPDATA%\\OpenWorker (journal, settings) kept"

  # Again, and this time the silent uninstall is told to remove the data
  # (/REMOVEDATA ticks "Also remove my journal and settings").
  timeout 180 "$wine" "$setup" /S >"$tmp/setup2.log" 2>&1 || fail "the second install exited $?: $(tail -n 20 "$tmp/setup2.log")"
  [ -f "$inst/uninstall.exe" ] || fail "the second install wrote no uninstall.exe"
  timeout 120 "$wine" "$inst/uninstall.exe" /S /REMOVEDATA >"$tmp/uninst2.log" 2>&1 || fail "uninstall.exe /S /REMOVEDATA exited $?"
  for _ in $(seq 120); do [ ! -e "$inst/openworker.exe" ] && [ ! -e "$appdata/OpenWorker" ] && break; sleep 0.5; done
  [ ! -e "$inst/openworker.exe" ] || fail "the exe is still installed 60 s after uninstall.exe /S /REMOVEDATA"
  [ ! -e "$appdata/OpenWorker" ] || fail "uninstall.exe /S /REMOVEDATA left %APPDATA%\\OpenWorker: $(ls "$appdata/OpenWorker")"
  echo "uninstalled with /REMOVEDATA: %APPDATA%\\OpenWorker (journal, settings) removed"
}
