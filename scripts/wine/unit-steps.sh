# Step 3 of scripts/test-windows-wine.sh: Windows unit tests under Wine.
# Sourced; uses $wine, $tmp, fail.

# The packages with Windows code (harness/settings: the config folder's
# paths, the settings file's mode; harness/servers: the clients' %APPDATA%
# files; tools/files: drive letters, backslashes and os.Root on Windows
# paths). app/ is built without the desktop tags,
# as its unit tests always are: no window, so no WebView2 (which Wine
# lacks, see the script's header).
# harness/a2a (61 tests) and tools/device (27) passed whole under Wine on
# their first run (2026-12-06). OPENWORKER_WINE_UNIT_PKGS (space separated)
# runs other packages. Binaries are named by the whole package path
# (harness_mcp_launch.test.exe), so packages named alike do not clash.
# internal/update (the staged update's apply: the exe replaced by rename,
# the stage's checks) and harness/schedule (the schedule's times in a named
# zone) were added 2026-12-06, and harness/extension (its tests set the
# home and config folders Windows' way too: USERPROFILE, AppData); see
# docs/ci.md#under-wine for their seconds. harness/internal/atomicfile
# (a file replaced while another process opens it: the sharing violation
# Windows gives for that moment is waited out) was added 2026-12-06.
# harness/sandbox (the low-integrity token and labels; the placement's
# checks with Windows roots and %AppData%), harness/mcp/launch (PATHEXT,
# the file's stored spelling) and harness/cli (the CLI driven as a
# person would: its TestMain takes the openworker.exe this step builds
# once, OPENWORKER_TEST_BINARY, as the prefix has no Go to build it) were
# added 2026-12-07; what failed on their first run was Windows' (tests
# that assumed Unix paths, $HOME, SIGINT or exit code -1 for a kill, and
# two fixes: the next page command's quotes, schedule times in $TZ) but
# for the Wine-only failures listed below.
unit_pkgs=(./harness/journal ./harness/mcp ./harness/servers ./harness/model ./harness/settings ./platform/windows ./app ./tools/files
  ./harness/a2a ./tools/device ./internal/update ./harness/schedule ./harness/extension ./harness/internal/atomicfile
  ./harness/sandbox ./harness/mcp/launch ./harness/cli)
if [ -n "${OPENWORKER_WINE_UNIT_PKGS:-}" ]; then read -r -a unit_pkgs <<<"$OPENWORKER_WINE_UNIT_PKGS"; fi

# Tests that fail under Wine 8 for Wine's own reasons (not Windows'), each
# with why; docs/install.md#tested-under-wine lists them too. They are
# skipped by name (go test -skip), so any other failure still fails.
#   TestImportWritesThroughALink: Wine 8 creates the symbolic link
#     (CreateSymbolicLinkW) but opening the file through it fails with "not
#     found"; Windows follows it (the windows-latest runner has the right).
#   TestAddCoworkerIDClash: replacing a coworker moves the old folder into
#     a temporary one and removes that with os.RemoveAll. Windows 10+ deletes
#     with POSIX semantics (a name goes at once); Wine 8 has none, so the
#     emptied folder's entries are "delete pending" until their handles
#     close and the temporary folder is still there when the test looks
#     (gone a moment later, at the test's clean-up). The handles are the
#     app's folder watcher's (ReadDirectoryChangesW on the old coworker's
#     folders): with the watcher closed first the test passed 10 of 10
#     runs under Wine, and failed 10 of 10 without (2026-12-02).
#   TestSymlinkEscapeRefused, TestSymlinkAfterListingRefused (tools/files):
#     the same Wine 8 links: a link made by os.Symlink is neither followed
#     nor seen by Lstat, so the files tools answer "does not exist" (and
#     a write at the link's name makes a new file there) instead of "leads
#     outside the folder". The folder outside is unchanged all the same
#     (the tests' snapshot passes under Wine); Windows follows the links.
#   TestPlacementForNeverAddsWhatWidens (harness/extension): the same
#     Wine 8 links again: its links to a root and to the home folder are
#     not followed, so they are taken for plain folders and added (its
#     other checks, the read list among them, pass under Wine, 2026-12-06).
#   TestWatcherFollowsLinkedCoworkers (app): the same Wine 8 links: the
#     linked coworker's folder is not followed, so no change through the
#     link is seen (no reload within 30 s under Wine, 2026-12-06).
#   TestFiftyConcurrentRuns (harness/journal): 50 test processes at once
#     under one wineserver, which serialises their file locks; a writer ran
#     out of its 2-minute retry bound under Wine (2026-12-06). The same
#     retries pass it on Linux every run; Windows runs it on the
#     windows-latest runner (docs/ci.md).
#   TestWindowsLowIntegrity, TestReleasePutsTheLabelBack,
#   TestRestoreLeftLabelsAfterACrash, TestALowFolderIsLeftAlone
#     (harness/sandbox): Wine 8 has no mandatory integrity control. It
#     keeps no integrity label on a file: SetSecurityInfo with
#     LABEL_SECURITY_INFORMATION succeeds and the label read back is
#     none, and GetNamedSecurityInfo and SetNamedSecurityInfo of the label
#     answer "Access denied" (Wine asks for ACCESS_SYSTEM_SECURITY, where
#     Windows needs READ_CONTROL or WRITE_OWNER). Nor does it confine a
#     low-integrity token: with the labels read through handles and the
#     test's server prebuilt (sandboxtest.HostileEnv), the sandboxed
#     program wrote outside its write list, and whoami has no /all
#     (2026-12-07). Windows enforces both; the tests run on windows-latest.
#   TestRunInterrupted (harness/cli): Ctrl-C for a child on Windows is a
#     CTRL_BREAK_EVENT to its process group (GenerateConsoleCtrlEvent, as
#     Go's own os/signal tests send it); Wine 8 fails the call ("Invalid
#     access"; after FreeConsole and AllocConsole, or under a terminal,
#     "Invalid handle"), so no interrupt reaches the run (2026-12-07).
unit_skip='^(TestImportWritesThroughALink|TestAddCoworkerIDClash|TestSymlinkEscapeRefused|TestSymlinkAfterListingRefused|TestPlacementForNeverAddsWhatWidens|TestWatcherFollowsLinkedCoworkers|TestFiftyConcurrentRuns|TestWindowsLowIntegrity|TestReleasePutsTheLabelBack|TestRestoreLeftLabelsAfterACrash|TestALowFolderIsLeftAlone|TestRunInterrupted)$'

# unit_flags PKG prints the extra flags of PKG's test binary.
# harness/cli: -test.short, with which TestUnattendedParkResumeExactlyOnce
# does 10 rounds of started, parked, killed and resumed runs instead of 50
# (18 s under Wine instead of 107 s; Linux and windows-latest do 50), and
# a bound of 480 s instead of 200 for the package, which starts the CLI
# and its providers as processes in nearly every test (72 s alone under
# Wine, 2026-12-07).
unit_flags() {
  case $1 in
  ./harness/cli) echo "-test.short -test.timeout=480s" ;;
  *) echo "-test.timeout=200s" ;;
  esac
}

# wine_overlay writes a `go build -overlay` file that patches one line of
# the Go standard library for the test binaries only (never the product's
# exe): Go's os.RemoveAll (and t.TempDir's clean-up) deletes with
# FileDispositionInformationEx and falls back to the older call when
# Windows says it does not know it (STATUS_INVALID_INFO_CLASS, ...); Wine 8
# answers STATUS_NOT_IMPLEMENTED instead, which Go does not expect, so
# every removal fails with "unlinkat ...: Invalid function". The patch
# adds that status to the fallback's list. Without it (or with
# OPENWORKER_WINE_NO_OVERLAY=1) the clean-up failures are listed apart.
wine_overlay() {
  local src out=$1
  src=$(go env GOROOT)/src/internal/syscall/windows/at_windows.go
  mkdir -p "$out"
  sed 's|^\tcase STATUS_INVALID_INFO_CLASS, .*|&\n\t\tNTStatus(0xC0000002), // STATUS_NOT_IMPLEMENTED: Wine 8 (scripts/wine/unit-steps.sh)|' \
    "$src" >"$out/at_windows.go"
  if cmp -s "$src" "$out/at_windows.go"; then
    echo "the Go ${src#*/src/} no longer has the line the Wine overlay patches: building without it"
    return 1
  fi
  printf '{"Replace": {"%s": "%s"}}\n' "$src" "$out/at_windows.go" >"$out/overlay.json"
}

unit_tests() {
  local bin=$tmp/unit rc=0 p name overlay=()
  mkdir -p "$bin"
  : >"$tmp/cleanup-only.txt"
  if [ -z "${OPENWORKER_WINE_NO_OVERLAY:-}" ] && wine_overlay "$bin/overlay"; then
    overlay=(-overlay "$bin/overlay/overlay.json")
    echo "test binaries built with the Wine overlay of Go's Deleteat (see scripts/wine/unit-steps.sh)"
  fi
  # -trimpath as scripts/build-windows.sh: the cgo objects (SQLite) of the
  # exe's build are reused from the build cache.
  for p in "${unit_pkgs[@]}"; do
    name=$(tr / _ <<<"${p#./}")
    CGO_ENABLED=1 CC=x86_64-w64-mingw32-gcc CXX=x86_64-w64-mingw32-g++ GOOS=windows GOARCH=amd64 \
      nice -n 10 go test -c -trimpath "${overlay[@]}" -o "$bin/$name.test.exe" "$p" || fail "go test -c $p for windows failed"
  done
  # harness/cli's tests drive the openworker binary; its TestMain builds
  # one with `go`, which the prefix lacks, so it is built here once, as
  # the test binaries are (the overlay too: its removals run under Wine),
  # and named by OPENWORKER_TEST_BINARY (internal/testbin).
  local testbin=()
  if [[ " ${unit_pkgs[*]} " == *" ./harness/cli "* ]]; then
    CGO_ENABLED=1 CC=x86_64-w64-mingw32-gcc CXX=x86_64-w64-mingw32-g++ GOOS=windows GOARCH=amd64 \
      nice -n 10 go build -trimpath "${overlay[@]}" -o "$bin/openworker.exe" . || fail "go build openworker.exe for harness/cli's tests failed"
    testbin=("OPENWORKER_TEST_BINARY=$(winpath "$bin/openworker.exe")")
  fi
  for p in "${unit_pkgs[@]}"; do
    name=$(tr / _ <<<"${p#./}")
    local t=$SECONDS
    # Run in the package's folder, as go test does (testdata/). CI is unset
    # for the binary: the tests that need Node.js skip (no Windows Node in
    # the prefix) instead of failing as they must on a CI runner.
    # Into a file, not a pipe: Wine's helper processes (winedevice.exe,
    # started with the first program) inherit the handles and would keep
    # a pipe open after the test binary exits.
    # A binary that ends without a result (the test timeout's panic) is
    # run once more, saying so and which tests it had started: once in CI
    # here (2026-12-02) the app binary stopped mid-run under load while
    # the same binary passed in 40 s alone. That was a deadlock of the
    # app's folder watcher at a test's clean-up (fixed: app/watcher.go,
    # docs/app.md#live-reload); the retry stays for a binary the load
    # alone may stop. A real failure is never retried, and a second run
    # without a result fails the step.
    # ZONEINFO: the binaries are built with -trimpath, so Go finds no
    # GOROOT and with it no zone database (Windows itself has none Go
    # reads); the build's own lib/time/zoneinfo.zip serves, through Wine's
    # Z: drive (harness/schedule's tests load America/New_York).
    local try crc zoneinfo flags bound
    zoneinfo=$(winpath "$(go env GOROOT)/lib/time/zoneinfo.zip")
    read -r -a flags <<<"$(unit_flags "$p")"
    bound=$(sed -n 's/.*-test\.timeout=\([0-9]*\)s.*/\1/p' <<<"${flags[*]}")
    for try in 1 2; do
      (cd "$p" && env -u CI ZONEINFO="$zoneinfo" "${testbin[@]}" timeout $((bound + 20)) "$wine" "$bin/$name.test.exe" -test.v=test2json -test.count=1 "${flags[@]}" \
        -test.skip="$unit_skip" >"$bin/$name.out" 2>&1) || true
      go tool test2json -t -p "${p#./}" <"$bin/$name.out" >"$bin/$name.json"
      crc=0
      python3 scripts/wine/gotest-classify.py "${p#./}" "$tmp/cleanup-only.txt" <"$bin/$name.json" || crc=$?
      if [ "$crc" != 2 ] || [ "$try" != 1 ]; then break; fi
      echo "RETRY: the test binary of $name ended without a result (above); running it once more"
      tail -n 40 "$bin/$name.out" | sed 's/^/  | /'
    done
    [ "$crc" = 0 ] || rc=1
    echo "  ($((SECONDS - t)) s)"
  done
  return $rc
}
