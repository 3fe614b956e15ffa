#!/usr/bin/env bash
# Runs the Windows build of OpenWorker Desktop under Wine on Debian 12 (root
# or sudo), so the Windows code paths run on every CI run here (issue 18;
# docs/ci.md#under-wine). scripts/test.sh calls it (not with QUICK=1).
#
#   bash scripts/test-windows-wine.sh
#
# Environment:
#   OPENWORKER_WINE_EXE   a built openworker.exe to test (scripts/test.sh passes
#                         build/bin/openworker.exe, built just before by
#                         check-windows-installer.sh); unset: scripts/build-windows.sh
#                         builds it and the installer first
#   OPENWORKER_WINE_SETUP the installer to test in step 4 (default: the one
#                         beside the exe, named from defines.nsh)
#   OPENWORKER_WINE_UPDATE_OLD_SETUP  the test-key installer step 5 installs
#                         first (default: built into build/bin/update-old)
#   OPENWORKER_WINE_KEEP=1 keep the temporary folder (prefix, logs) for a look
#   OPENWORKER_WINE_STEPS  run only the steps whose number matches this
#                         extended regexp: "1|2" runs all of steps 1 and 2
#                         (1a … 2e), "2[a-c]" 2a to 2c, "3|4" steps 3 and 4;
#                         default all
#
# It installs Wine (wine64) and mingw-w64, builds the bcryptprimitives.dll
# shim (build/windows/wine/bcryptprimitives.c: Go >= 1.22 programs need it
# under Wine 8), makes a fresh Wine prefix in a temporary folder and runs,
# printing each step's name, seconds and result, then a summary:
#   1. the CLI end to end as openworker.exe: version, check (good and broken
#      bundles), run with the scripted model on 127.0.0.1 and the device MCP
#      provider (a Windows child process), journal list/show/verify, and
#      serve --stdio driving a turn with an approval (scripts/wine/stdio-turn.py);
#   2. Windows behaviour: the default journal, settings and extensions paths
#      under %APPDATA%; a folder with spaces and non-ASCII characters; CRLF
#      bundle files; a stdio provider's process tree (cmd.exe starting the
#      device server and a background grandchild) ended by the Job object
#      when `run` is killed, while a second process uses the same journal;
#      `serve` killed in the middle of a call: the call is unknown at the
#      next open (the lease died with the process), `journal reconcile`;
#   1g. the desktop app started without WebView2 (Wine has none): its own
#      message, exit code 4, no file made (scripts/wine/webview-steps.sh);
#   3. the Windows unit tests of the packages with Windows code (the list
#      is unit_pkgs in scripts/wine/unit-steps.sh), cross-built with
#      `go test -c` (cgo by mingw-w64) and run under Wine (scripts/wine/
#      unit-steps.sh: a build overlay for Wine's answer to Go's file
#      deletion; the Wine-only failures skipped by name, each with why);
#      failures that are only the clean-up of t.TempDir (Wine 8: "unlinkat
#      ...: Invalid function") are reported apart and do not fail the run;
#      any other failure does;
#   4. the installer (a 64-bit NSIS program, run by wine64: this kernel
#      runs no 32-bit program): an older build (0.0.1) installed and left
#      running, upgraded by the new one (which closes it), then files, shortcuts,
#      uninstall key, associations, `openworker.exe version` from the
#      installed folder, silent uninstall keeping %APPDATA%\OpenWorker, and
#      one (/REMOVEDATA) removing it. It never skips: no installer to test
#      is a failure;
#   5. an update applied under Wine (scripts/wine/update-steps.sh): an
#      older build made with the test-key hook installed, a feed signed
#      with a throwaway key served on 127.0.0.1 pointing at the installer
#      under test; a feed changed after signing and one the release key
#      did not sign are refused with nothing staged or changed; `update
#      check`, `update download` and `update apply` (the staged installer,
#      silently) replace the installed exe with the new version.
# The prefix's Desktop, Documents and the other user folders are folders of
# its own, not Wine's links into $HOME, so nothing here writes to the home
# folder of the user running it.
# Not tested here: the desktop window. It needs the WebView2 runtime, which
# Wine does not provide (its Edge-based runtime does not run under Wine 8),
# so `openworker.exe` with no subcommand cannot show a window; the window is
# tested by the Linux e2e (scripts/app-e2e.sh) and on windows-latest
# (docs/ci.md). What is Wine's own and not Windows' is listed in
# docs/install.md#tested-under-wine.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
total=$SECONDS

fail() { echo "FAIL: $*" >&2; exit 1; }

step "apt packages (wine64, mingw-w64)"
ensure_apt wine64 gcc-mingw-w64-x86-64
wine=/usr/lib/wine/wine64
wineserver=/usr/lib/wine/wineserver
[ -x "$wine" ] || fail "$wine missing after installing wine64"
"$wine" --version

tmp=$(mktemp -d /tmp/openworker-wine.XXXXXX)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  WINEPREFIX=$tmp/prefix "$wineserver" -k 2>/dev/null || true
  if [ -n "${OPENWORKER_WINE_KEEP:-}" ]; then echo "kept $tmp"; else rm -rf "$tmp"; fi
}
trap cleanup EXIT

# The exe under test.
exe=${OPENWORKER_WINE_EXE:-}
if [ -z "$exe" ]; then
  t=$SECONDS
  step "build (scripts/build-windows.sh)"
  bash scripts/build-windows.sh >"$tmp/build.log" 2>&1 || { tail -n 30 "$tmp/build.log" >&2; fail "scripts/build-windows.sh failed"; }
  exe=build/bin/openworker.exe
  echo "built in $((SECONDS - t)) s"
fi
[ -f "$exe" ] || fail "no $exe: run scripts/build-windows.sh or set OPENWORKER_WINE_EXE"
exe=$(realpath "$exe")
built_version=$(sed -n 's/^!define VERSION "\(.*\)"$/\1/p' "$(dirname "$exe")/windows-work/defines.nsh" 2>/dev/null || true)

# selected NAME: the step NAME ("2a. default paths …") is to run:
# OPENWORKER_WINE_STEPS is unset, or matches its number whole, with or
# without its letter ("2" and "2a" both select 2a).
selected() { [ -z "${OPENWORKER_WINE_STEPS:-}" ] || grep -Eq -- "^(${OPENWORKER_WINE_STEPS})[a-z]?\." <<<"$1"; }

# own_user_folders DIR: Wine makes the user's Desktop, Documents, Downloads,
# Music, Pictures, Videos and Templates links into $HOME (or its XDG
# folders); each becomes an empty folder of the prefix, so an installer's
# desktop shortcut lands in the prefix and never in the real home folder.
own_user_folders() {
  local f
  for f in "$1"/*; do
    if [ -L "$f" ]; then rm -f "$f" && mkdir "$f"; fi
  done
  for f in Desktop Documents; do
    if [ -L "$1/$f" ] || [ ! -d "$1/$f" ]; then fail "the prefix has no folder of its own at $1/$f"; fi
  done
}

step "Wine prefix and the bcryptprimitives.dll shim"
t=$SECONDS
export WINEPREFIX=$tmp/prefix WINEDEBUG=-all WINEARCH=win64
# No Mono or Gecko install prompts; no display: nothing here opens a window.
export WINEDLLOVERRIDES="mscoree,mshtml="
unset DISPLAY WAYLAND_DISPLAY
# The Windows programs must not reach a real model: only the scripted one.
unset OPENAI_API_KEY OPENAI_BASE_URL ANTHROPIC_API_KEY ANTHROPIC_BASE_URL OLLAMA_HOST OPENWORKER_CONFIG_DIR
x86_64-w64-mingw32-gcc -shared -O2 -s -o "$tmp/bcryptprimitives.dll" build/windows/wine/bcryptprimitives.c -ladvapi32
"$wine" wineboot -i >"$tmp/wineboot.log" 2>&1 || { cat "$tmp/wineboot.log" >&2; fail "wineboot -i failed"; }
"$wineserver" -w
cp "$tmp/bcryptprimitives.dll" "$WINEPREFIX/drive_c/windows/system32/"
winuser=$(id -un)   # Wine names the Windows user after the Unix one
own_user_folders "$WINEPREFIX/drive_c/users/$winuser"
# One wineserver for the whole run (each program would otherwise start one).
"$wineserver" -p
appdata=$WINEPREFIX/drive_c/users/$winuser/AppData/Roaming
[ -d "$appdata" ] || fail "wineboot made no $appdata"
echo "prefix $WINEPREFIX (user $winuser) in $((SECONDS - t)) s"

go build -o "$tmp/scriptmodel" ./harness/model/modeltest/cmd/scriptmodel

# winpath PATH prints the Windows path of a Linux path (Wine's Z: drive).
winpath() { printf 'Z:%s' "${1//\//\\}"; }
# ow ARGS...: openworker.exe under Wine, bounded.
ow() { timeout 120 "$wine" "$exe" "$@"; }
# start_model NAME JSON: serves the scripted replies JSON on 127.0.0.1 and
# writes its base URL to $tmp/NAME.url.
start_model() {
  printf '%s\n' "$2" >"$tmp/$1.script.json"
  "$tmp/scriptmodel" -script "$tmp/$1.script.json" -addr 127.0.0.1:0 >"$tmp/$1.model.out" 2>"$tmp/$1.model.log" &
  echo $! >"$tmp/$1.model.pid"
  for _ in $(seq 50); do grep -q '^listening ' "$tmp/$1.model.out" 2>/dev/null && break; sleep 0.1; done
  sed -n 's/^listening //p' "$tmp/$1.model.out" >"$tmp/$1.url"
  [ -s "$tmp/$1.url" ] || fail "the scripted model $1 did not start: $(cat "$tmp/$1.model.log")"
}
stop_model() { kill "$(cat "$tmp/$1.model.pid")" 2>/dev/null || true; }
model_flags() { echo --provider openai --base-url "$(cat "$tmp/$1.url")" --model scripted; }
# expect WHAT PATTERN FILE: FILE has a line matching the extended regexp PATTERN.
expect() { grep -Eq -- "$2" "$3" || { echo "--- $3" >&2; tail -n 40 "$3" >&2; fail "$1: no line matching /$2/"; }; }

examples_win=$(winpath "$PWD/examples/coworkers")
db_win=$(winpath "$tmp/journal.db")

# The step runner: each step runs in a subshell with errexit, so one failing
# step is reported and the next still runs.
results=()
failed=0
run_step() {
  local name=$1 t=$SECONDS rc
  shift
  if ! selected "$name"; then
    results+=("$(printf '%-5s %4d s  %s' skip 0 "$name (OPENWORKER_WINE_STEPS)")")
    return 0
  fi
  step "$name"
  set +e
  (set -e; "$@")
  rc=$?
  set -e
  local secs=$((SECONDS - t))
  case $rc in
  0) results+=("$(printf '%-5s %4d s  %s' ok "$secs" "$name")") ;;
  3) results+=("$(printf '%-5s %4d s  %s' skip "$secs" "$name")") ;;
  *) results+=("$(printf '%-5s %4d s  %s' FAIL "$secs" "$name")"); failed=1 ;;
  esac
  local word=FAILED
  case $rc in 0) word=ok ;; 3) word=skipped ;; esac
  echo "[$name: $secs s, $word]"
}

. scripts/wine/cli-steps.sh
. scripts/wine/windows-steps.sh
. scripts/wine/unit-steps.sh
. scripts/wine/installer-steps.sh
. scripts/wine/webview-steps.sh
. scripts/wine/update-steps.sh

run_step "1a. version" cli_version
run_step "1b. check: the example bundles (device provider as a Windows child)" cli_check_good
run_step "1c. check: broken bundles" cli_check_broken
run_step "1d. run: scripted model, two device tool calls" cli_run
run_step "1e. journal list, show, verify" cli_journal
run_step "1f. serve --stdio: a turn with an approval" cli_serve
run_step "1g. no WebView2: the app's own message, exit 4, no file made" win_no_webview
run_step "2a. default paths under %APPDATA%" win_appdata
run_step "2b. a folder with spaces and non-ASCII characters" win_odd_path
run_step "2c. CRLF bundle files" win_crlf
run_step "2d. run killed: the provider's process tree ends (Job object); a second process on the journal" win_job_kill
run_step "2e. serve killed in the middle of a call: unknown, journal reconcile" win_reconcile
run_step "3. Windows unit tests (${#unit_pkgs[@]} packages)" unit_tests
run_step "4. installer: silent install and uninstall" installer
run_step "5. update: signed feed on 127.0.0.1, refused feeds, download, apply (the installer, silently)" update_apply

echo
echo "==> summary (test-windows-wine.sh)"
printf '%s\n' "${results[@]}"
if [ -s "$tmp/cleanup-only.txt" ]; then
  echo "t.TempDir clean-up failures (Wine's, not counted as failures):"
  sed 's/^/  /' "$tmp/cleanup-only.txt"
fi
echo "total: $((SECONDS - total)) s"
[ "$failed" = 0 ] || fail "a Windows step failed under Wine (see above)"
echo "test-windows-wine: OK"
