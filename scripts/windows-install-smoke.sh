#!/usr/bin/env bash
# Smoke test of the Windows installer built by scripts/build-windows.sh
# (docs/ci.md; CI: .github/workflows/test-windows.yml).
#
#   bash scripts/windows-install-smoke.sh            # the checks below
#   bash scripts/windows-install-smoke.sh build-old  # only build the older installer (a workflow step)
#
# Everywhere: reads the names the installer uses from the NSIS script and the
# build's defines.nsh (install dir, uninstall key, product and exe names,
# version), checks that the script writes and removes what this test
# expects, and, with 7z, that the installer holds the exe (byte-identical to
# build/bin/openworker.exe), the uninstaller and the example coworkers.
#
# On Windows (Git Bash) it then installs for real, as an upgrade over a
# running older version (docs/install.md#upgrades), as
# scripts/wine/installer-steps.sh does under Wine: the older installer
# (the same source stamped 0.0.1) /S, its `openworker.exe version`, the
# installed exe left running (`mcp serve device`, answering an MCP
# initialize on stdin, so its image is locked as the window's would be);
# then the new setup.exe /S over it, which must close it: the old process
# is gone afterwards. Then it checks the files under
# %LOCALAPPDATA%\Programs\OpenWorker, the Start-menu and desktop shortcuts,
# the HKCU uninstall key, the .mcpb/.dxt associations under
# HKCU\Software\Classes and `openworker.exe version` (the new version);
# writes the toast identity HKCU\Software\Classes\AppUserModelId\OpenWorker
# as the app does at its first notification; runs uninstall.exe /S, waits
# (bounded) for its copy in %TEMP% to finish, checks that all of it is gone
# (the install folder, shortcuts, keys, associations and the AppUserModelId
# key) and that %APPDATA%\OpenWorker (journal, settings) was kept. It refuses
# to run over an existing install.
#
# Environment:
#   OPENWORKER_SMOKE_OLD_SETUP  the older installer to upgrade from (its
#       version is read from its name, OpenWorker-VERSION-windows-amd64-setup.exe).
#       Default: build/bin/old/OpenWorker-0.0.1-windows-amd64-setup.exe (the
#       test-windows workflow's cross-build job makes it beside the new one),
#       built there on Windows by release_build_at (scripts/release-lib.sh)
#       when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/release-lib.sh
. scripts/release-lib.sh
step() { printf '\n==> %s\n' "$*"; }
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The older version the upgrade starts from.
old_setup=${OPENWORKER_SMOKE_OLD_SETUP:-build/bin/old/OpenWorker-0.0.1-windows-amd64-setup.exe}
old_version=$(basename "$old_setup" | sed -n 's/^OpenWorker-\(.*\)-windows-amd64-setup\.exe$/\1/p')
[ -n "$old_version" ] || fail "OPENWORKER_SMOKE_OLD_SETUP=$old_setup: name it OpenWorker-VERSION-windows-amd64-setup.exe (the version is read from the name)"
# build_old builds $old_setup: this source stamped $old_version.
build_old() {
  step "build the older version ($old_version) to upgrade from"
  local t=$SECONDS
  old_setup=$(release_build_at windows "$old_version" "$(dirname "$old_setup")" "$tmp/build-old.log") || fail "building the older installer failed"
  echo "built $old_setup in $((SECONDS - t)) s"
}
case "$*" in
"") ;;
build-old) build_old; exit 0 ;;
*) echo "usage: $0 [build-old]" >&2; exit 2 ;;
esac

nsi=build/windows/installer/openworker.nsi
defines=build/bin/windows-work/defines.nsh
exe_built=build/bin/openworker.exe
{ [ -f "$defines" ] && [ -f "$exe_built" ]; } || fail "no build in build/bin: run scripts/build-windows.sh first"

# define NAME FILE prints the value of `!define NAME "value"` in FILE.
define() { sed -n "s/^!define $1 \"\(.*\)\"[[:space:]]*\$/\1/p" "$2" | head -n 1; }
product=$(define PRODUCT_NAME "$defines")
exe_name=$(define EXE_NAME "$defines")
version=$(define VERSION "$defines")
key=$(define UNINST_KEY "$nsi")
instdir_nsis=$(sed -n 's/^InstallDir "\(.*\)"[[:space:]]*$/\1/p' "$nsi")
setup=build/bin/OpenWorker-$version-windows-amd64-setup.exe
{ [ -n "$product" ] && [ -n "$exe_name" ] && [ -n "$version" ]; } || fail "$defines lacks PRODUCT_NAME, EXE_NAME or VERSION"
[ -f "$setup" ] || fail "installer $setup missing: run scripts/build-windows.sh"

step "installer script: per-user install, what it writes and removes"
sub=${instdir_nsis#\$LOCALAPPDATA\\}
[ "$sub" != "$instdir_nsis" ] || fail "$nsi: InstallDir \"$instdir_nsis\" is not under \$LOCALAPPDATA (this test knows the per-user install only)"
grep -q '^RequestExecutionLevel user' "$nsi" || fail "$nsi: not a per-user installer (RequestExecutionLevel user)"
case "$key" in "Software\\Microsoft\\Windows\\CurrentVersion\\Uninstall\\"?*) ;; *) fail "$nsi: UNINST_KEY \"$key\" is not an uninstall key" ;; esac
for v in DisplayName DisplayVersion InstallLocation UninstallString QuietUninstallString; do
  grep -qF "WriteRegStr HKCU \"\${UNINST_KEY}\" \"$v\"" "$nsi" || fail "$nsi does not write $v to HKCU\\$key"
done
# shellcheck disable=SC2016 # NSIS variables, not shell ones
for line in 'DeleteRegKey HKCU "${UNINST_KEY}"' 'Delete "$SMPROGRAMS\${PRODUCT_NAME}.lnk"' 'Delete "$DESKTOP\${PRODUCT_NAME}.lnk"' \
  'Delete "$INSTDIR\uninstall.exe"' 'Delete "$INSTDIR\${EXE_NAME}"' 'RMDir "$INSTDIR"'; do
  grep -qF "$line" "$nsi" || fail "$nsi: the uninstaller lacks: $line"
done
echo "product \"$product\", $exe_name $version, \$LOCALAPPDATA\\$sub, HKCU\\$key"

examples=(examples/coworkers/device-assistant/coworker/manifest.md examples/coworkers/device-assistant/coworker/tools.json)
if command -v 7z >/dev/null; then
  step "installer contents (7z)"
  7z l "$setup" >"$tmp/list.txt"
  for f in "$exe_name" uninstall.exe "${examples[@]}"; do
    grep -qF " $f" "$tmp/list.txt" || fail "installer lacks $f"
  done
  7z e -y -o"$tmp/x" "$setup" "$exe_name" >/dev/null
  cmp "$tmp/x/$exe_name" "$exe_built" || fail "the exe in the installer differs from $exe_built"
  echo "installer holds $exe_name (same bytes as $exe_built), uninstall.exe and the example coworkers"
else
  echo "7z not on PATH: installer contents not listed"
fi

step "the older version to upgrade from"
[ "$old_version" != "$version" ] || fail "the older installer $old_setup has the version under test, $version: an upgrade needs an older one"
[ -f "$old_setup" ] || [ -z "${OPENWORKER_SMOKE_OLD_SETUP:-}" ] || fail "OPENWORKER_SMOKE_OLD_SETUP=$old_setup: no such file"
if [ -f "$old_setup" ]; then
  echo "upgrade from $old_setup ($old_version)"
  if command -v 7z >/dev/null; then
    7z l "$old_setup" >"$tmp/old-list.txt"
    grep -qF " $exe_name" "$tmp/old-list.txt" || fail "the older installer $old_setup lacks $exe_name"
  fi
else
  echo "upgrade from $old_version: no $old_setup yet (built on Windows)"
fi

case "$(uname -s)" in
MINGW* | MSYS* | CYGWIN*) ;;
*)
  echo
  echo "windows-install-smoke: static checks OK; the upgrade and the silent install/uninstall run on Windows only"
  exit 0 ;;
esac

# Windows programs get "/S" as is (Git Bash would turn it into a path).
export MSYS_NO_PATHCONV=1 MSYS2_ARG_CONV_EXCL='*'
instdir="$(cygpath -u "$LOCALAPPDATA")/${sub//\\//}"
startlnk="$(cygpath -u "$APPDATA")/Microsoft/Windows/Start Menu/Programs/$product.lnk"
desklnk="$(cygpath -u -D)/$product.lnk"
datadir="$(cygpath -u "$APPDATA")/OpenWorker"
regkey="HKCU\\$key"
regval() { reg query "$regkey" /v "$1" 2>/dev/null | sed -n "s/^ *$1 *REG_[A-Z_]* *//p" | tr -d '\r'; }

[ ! -e "$instdir" ] || fail "$instdir exists: uninstall OpenWorker first (this test installs and removes it)"
made_data=""
if [ ! -e "$datadir" ]; then
  mkdir -p "$datadir"; echo keep >"$datadir/smoke-marker"; made_data=1
fi

[ -f "$old_setup" ] || build_old

step "older version: $old_setup /S, left running"
"$old_setup" /S || fail "the older installer exited with $?"
got=$("$instdir/$exe_name" version) || fail "the older \"$instdir/$exe_name\" version failed"
case "$got" in *"openworker $old_version "*) echo "$got" ;; *) fail "the older installed \`$exe_name version\` printed \"$got\", want $old_version" ;; esac
# A long-running process of the installed exe: the device MCP server,
# answering an initialize request and then waiting on stdin (the feeder
# sleeps; its pid is kept to end it). Running once it has answered.
init='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"windows-install-smoke","version":"1"}}}'
(echo "$BASHPID" >"$tmp/feeder.pid"; printf '%s\n' "$init"; exec sleep 900) |
  "$instdir/$exe_name" mcp serve device >"$tmp/old-running.out" 2>"$tmp/old-running.err" &
old_pid=$!
trap 'kill "$old_pid" "$(cat "$tmp/feeder.pid" 2>/dev/null)" 2>/dev/null || true; rm -rf "$tmp"' EXIT
for _ in $(seq 120); do
  grep -q '"id": *1' "$tmp/old-running.out" 2>/dev/null && break
  kill -0 "$old_pid" 2>/dev/null || fail "the older $exe_name mcp serve device exited: $(cat "$tmp/old-running.err")"
  sleep 0.5
done
grep -q '"id": *1' "$tmp/old-running.out" || fail "the older $exe_name mcp serve device did not answer initialize in 60 s: $(cat "$tmp/old-running.err")"
# Its Windows process id (MSYS keeps it in /proc/PID/winpid): whether it
# runs is Windows' answer (tasklist), else Git Bash's (kill -0).
winpid=$(cat "/proc/$old_pid/winpid" 2>/dev/null || true)
old_running() {
  if [ -n "$winpid" ]; then
    tasklist /FI "PID eq $winpid" /FO CSV /NH 2>/dev/null | grep -qi "\"$exe_name\""
  else
    kill -0 "$old_pid" 2>/dev/null
  fi
}
old_running || fail "tasklist does not show the older $exe_name (pid $old_pid, Windows pid $winpid)"
echo "older $old_version installed and running (pid $old_pid, Windows pid ${winpid:-unknown})"

step "upgrade: $setup /S over the running $old_version"
t=$SECONDS
"$setup" /S || fail "the installer exited with $? (5: the running $exe_name kept its file locked)"
echo "upgrade over the running $old_version took $((SECONDS - t)) s"
for _ in $(seq 60); do
  old_running || break
  sleep 0.5
done
if old_running; then fail "the older $exe_name (pid $old_pid) still runs 30 s after the upgrade"; fi
kill "$(cat "$tmp/feeder.pid")" 2>/dev/null || true
echo "the upgrade closed the running $old_version"
for f in "$exe_name" uninstall.exe "${examples[@]}"; do
  [ -f "$instdir/$f" ] || fail "installed file missing: $instdir/$f"
done
cmp "$instdir/$exe_name" "$exe_built" || fail "the installed exe differs from $exe_built"
[ -f "$startlnk" ] || fail "Start-menu shortcut missing: $startlnk"
[ -f "$desklnk" ] || fail "desktop shortcut missing: $desklnk"
[ "$(regval DisplayVersion)" = "$version" ] || fail "$regkey DisplayVersion is \"$(regval DisplayVersion)\", want $version"
[ "$(regval DisplayName)" = "$product" ] || fail "$regkey DisplayName is \"$(regval DisplayName)\""
want_loc=$(cygpath -w "$instdir")
[ "$(regval InstallLocation | tr '[:upper:]' '[:lower:]')" = "$(printf '%s' "$want_loc" | tr '[:upper:]' '[:lower:]')" ] ||
  fail "$regkey InstallLocation is \"$(regval InstallLocation)\", want $want_loc"
case "$(regval QuietUninstallString)" in *'uninstall.exe" /S') ;; *) fail "$regkey QuietUninstallString is \"$(regval QuietUninstallString)\"" ;; esac
got=$("$instdir/$exe_name" version) || fail "\"$instdir/$exe_name\" version failed"
case "$got" in *"$version"*) echo "$got" ;; *) fail "installed \`$exe_name version\` printed \"$got\", want $version" ;; esac
# .mcpb and .dxt open with the app, per user (docs/install.md#file-associations).
# regdefault KEY: the default value of KEY ("(Default)" is localized).
regdefault() { reg query "$1" /ve 2>/dev/null | sed -n 's/^ *([^)]*) *REG_[A-Z_]* *//p' | tr -d '\r'; }
for ext in mcpb dxt; do
  [ "$(regdefault "HKCU\\Software\\Classes\\.$ext")" = "OpenWorker.$ext" ] ||
    fail "HKCU\\Software\\Classes\\.$ext names \"$(regdefault "HKCU\\Software\\Classes\\.$ext")\", want OpenWorker.$ext"
  open_cmd=$(regdefault "HKCU\\Software\\Classes\\OpenWorker.$ext\\shell\\open\\command")
  case "$open_cmd" in *"\\$exe_name\" \"%1\"") ;; *) fail "OpenWorker.$ext opens with \"$open_cmd\"" ;; esac
done
echo "installed: files, shortcuts, $regkey, .mcpb and .dxt associations"

# The app writes its toast identity at its first notification
# (platform/windows); the uninstaller must remove it.
aumid='HKCU\Software\Classes\AppUserModelId\OpenWorker'
reg add "$aumid" /v DisplayName /t REG_SZ /d OpenWorker /f >/dev/null || fail "could not write $aumid"

step "silent uninstall: uninstall.exe /S"
"$instdir/uninstall.exe" /S || fail "the uninstaller exited with $?"
# The uninstaller copies itself to %TEMP% and returns at once: wait for the
# copy to finish removing things (bounded: 120 s).
left=()
for _ in $(seq 120); do
  left=()
  [ ! -e "$instdir" ] || left+=("$instdir")
  [ ! -e "$startlnk" ] || left+=("$startlnk")
  [ ! -e "$desklnk" ] || left+=("$desklnk")
  ! reg query "$regkey" >/dev/null 2>&1 || left+=("$regkey")
  ! reg query "$aumid" >/dev/null 2>&1 || left+=("$aumid")
  for ext in mcpb dxt; do
    ! reg query "HKCU\\Software\\Classes\\OpenWorker.$ext" >/dev/null 2>&1 || left+=("HKCU\\Software\\Classes\\OpenWorker.$ext")
    [ "$(regdefault "HKCU\\Software\\Classes\\.$ext")" != "OpenWorker.$ext" ] || left+=("HKCU\\Software\\Classes\\.$ext (default OpenWorker.$ext)")
  done
  [ ${#left[@]} -gt 0 ] || break
  sleep 1
done
[ ${#left[@]} -eq 0 ] || fail "still there 120 s after uninstall.exe /S: ${left[*]}"
if [ -n "$made_data" ]; then
  [ -f "$datadir/smoke-marker" ] || fail "the silent uninstall removed $datadir (it must keep the journal and settings)"
  rm -rf "$datadir"
fi
echo "uninstalled: files, shortcuts, $regkey, $aumid and the associations gone; $datadir kept"
echo
echo "windows-install-smoke: OK"
