#!/usr/bin/env bash
# Runs the Go tests of OpenWorker Desktop natively on the OS it runs on
# (docs/ci.md); CI: .github/workflows/test-windows.yml and test-macos.yml.
#
#   bash scripts/test-go-native.sh          # macOS, Windows (Git Bash): go test ./...
#                                           # Linux: compile every test binary for
#                                           # windows/amd64 (cgo, mingw-w64) and darwin/arm64
#                                           # (cgo off), the builds the workflows run
#   bash scripts/test-go-native.sh cross    # the Linux mode, on any OS
#
# Natively it first builds the frontend (frontend/dist is embedded) and
# installs the npm MCP servers the harness/mcp tests start. cgo (go-sqlite3)
# needs a C compiler: clang from the Xcode command line tools on macOS, gcc
# (mingw-w64) on PATH on Windows. The tests that open real dialogs and
# notifications (platform/*/desktop_*_test.go) run only with
# OPENWORKER_DESKTOP_TESTS=1, which the workflows set.
#
# Environment: GO_TEST_FLAGS (default -count=1), e.g. "-count=1 -race".
set -euo pipefail
cd "$(dirname "$0")/.."
step() { printf '\n==> %s\n' "$*"; }
start=$SECONDS

mode=${1:-}
case "$(uname -s)" in
  Darwin) os=darwin ;;
  MINGW* | MSYS* | CYGWIN*) os=windows ;;
  *) os=linux ;;
esac
[ -z "$mode" ] && { [ "$os" = linux ] && mode=cross || mode=native; }

case "$mode" in
native)
  [ "$os" != linux ] || { echo "native mode runs on macOS or Windows; on Linux run scripts/test.sh" >&2; exit 2; }
  export CGO_ENABLED=1
  if [ "$os" = darwin ]; then
    # $TMPDIR is /var/folders/…, and /var is a link to /private/var: a test
    # that compares a temp path with one the system resolved (os.Getwd,
    # filepath.EvalSymlinks, a child's cwd) would see two names for one
    # folder. Resolved once here, t.TempDir and os.TempDir give the real one.
    TMPDIR=$(cd "${TMPDIR:-/tmp}" && pwd -P)
    export TMPDIR MACOSX_DEPLOYMENT_TARGET=12.0
    echo "TMPDIR=$TMPDIR (symlinks resolved)"
  fi
  step "frontend build (embedded by the app)"
  npm --prefix frontend ci --no-audit --no-fund --loglevel=error
  npm --prefix frontend run build --silent
  step "npm MCP servers for harness/mcp"
  sh harness/mcp/testdata/npm/install.sh >/dev/null
  step "go env"
  go version
  go env GOOS GOARCH CGO_ENABLED CC
  cc=$(go env CC)
  command -v "$cc" >/dev/null || { echo "the C compiler $cc (cgo, for go-sqlite3) is not on PATH: install mingw-w64 gcc on Windows (choco install mingw) or the Xcode command line tools on macOS" >&2; exit 2; }
  "$cc" --version | head -n 1
  step "go test ./... ($os, desktop tests: ${OPENWORKER_DESKTOP_TESTS:-off})"
  # shellcheck disable=SC2086 # GO_TEST_FLAGS is a list of flags
  go test ${GO_TEST_FLAGS:--count=1} ./...
  ;;
cross)
  # compile DIR/ builds the test binaries of every package into DIR, hiding
  # the "no test files" lines; a compile error fails the script.
  compile() {
    go test -c -o "$1" ./... >"$out/log" 2>&1 || { cat "$out/log" >&2; return 1; }
    grep -v 'no test files' "$out/log" || true
  }
  out=$(mktemp -d)
  trap 'rm -rf "$out"' EXIT
  cc=${OPENWORKER_WINDOWS_CC:-x86_64-w64-mingw32-gcc}
  command -v "$cc" >/dev/null || { echo "$cc not found (Debian: apt-get install gcc-mingw-w64-x86-64)" >&2; exit 2; }
  t=$SECONDS
  step "compile every test binary for windows/amd64 (cgo, $cc)"
  GOOS=windows GOARCH=amd64 CGO_ENABLED=1 CC=$cc compile "$out/windows/"
  [ "$(find "$out/windows" -name '*.test.exe' | wc -l)" -gt 0 ] || { echo "no Windows test binary was built" >&2; exit 1; }
  echo "windows: $(find "$out/windows" -name '*.test.exe' | wc -l) test binaries in $((SECONDS - t))s"
  t=$SECONDS
  step "compile every test binary for darwin/arm64 (cgo off: the SDK is only on a Mac)"
  GOOS=darwin GOARCH=arm64 CGO_ENABLED=0 compile "$out/darwin/"
  [ "$(find "$out/darwin" -name '*.test' | wc -l)" -gt 0 ] || { echo "no macOS test binary was built" >&2; exit 1; }
  echo "darwin: $(find "$out/darwin" -name '*.test' | wc -l) test binaries in $((SECONDS - t))s"
  ;;
*)
  echo "usage: $0 [native|cross]" >&2; exit 2 ;;
esac
echo "test-go-native ($mode) OK in $((SECONDS - start))s"
