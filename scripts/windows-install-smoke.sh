#!/usr/bin/env bash
# Smoke test of the Windows installer built by scripts/build-windows.sh
# (docs/ci.md; CI: .github/workflows/test-windows.yml).
#
#   bash scripts/windows-install-smoke.sh
#
# Everywhere: reads the names the installer uses from the NSIS script and the
# build's defines.nsh (install dir, uninstall key, product and exe names,
# version), checks that the script writes and removes what this test
# expects, and, with 7z, that the installer holds the exe (byte-identical to
# build/bin/openworker.exe), the uninstaller and the example coworkers.
#
# On Windows (Git Bash) it then installs for real: setup.exe /S, checks the
# files under %LOCALAPPDATA%\Programs\OpenWorker, the Start-menu and desktop
# shortcuts, the HKCU uninstall key, the .mcpb/.dxt associations under
# HKCU\Software\Classes and `openworker.exe version`; runs
# uninstall.exe /S, waits (bounded) for its copy in %TEMP% to finish, checks
# that all of it is gone and that %APPDATA%\OpenWorker (journal, settings)
# was kept. It refuses to run over an existing install.
set -euo pipefail
cd "$(dirname "$0")/.."
step() { printf '\n==> %s\n' "$*"; }
fail() { echo "FAIL: $*" >&2; exit 1; }

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
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
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

case "$(uname -s)" in
MINGW* | MSYS* | CYGWIN*) ;;
*)
  echo
  echo "windows-install-smoke: static checks OK; the silent install/uninstall runs on Windows only"
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

step "silent install: $setup /S"
"$setup" /S || fail "the installer exited with $?"
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
echo "uninstalled: files, shortcuts, $regkey and the associations gone; $datadir kept"
echo
echo "windows-install-smoke: OK"
