#!/usr/bin/env bash
# Runs every test of OpenWorker Desktop on a fresh Debian 12 machine (as root,
# or with sudo). It installs the apt packages, Node modules and Go modules it
# needs, then runs, in order: the frontend tests, the contrast check, go vet and gofmt, cross-vets
# for macOS and Windows, the Go tests (harness/ and app/ once, under the
# race detector; the D-Bus notification tests among them, each test process on
# a private bus of its own, internal/testbus), the official MCP conformance
# suite in client mode (scripts/conformance.sh), the parsers' fuzz targets for a
# few seconds each (scripts/fuzz.sh), the desktop end-to-end test under Xvfb
# (screenshots in artifacts/screenshots/), the Windows installer build and
# checks, the rehearsal of the macOS update smoke test, and the Windows build
# run under Wine (scripts/test-windows-wine.sh: the CLI, Windows behaviour,
# Windows unit tests, the installer). CI runs exactly this (.ci/run); the Windows and macOS runs are
# docs/ci.md.
#
#   scripts/test.sh            everything
#   QUICK=1 scripts/test.sh    skip the e2e test, the Windows installer and Wine
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
started=$SECONDS

step "apt packages"
pkgs=(gcc pkg-config dbus libgtk-3-dev libwebkit2gtk-4.0-dev shellcheck chromium)
[ -z "${QUICK:-}" ] && pkgs+=(xvfb xauth imagemagick xdotool xclip gnome-keyring curl nsis gcc-mingw-w64-x86-64 p7zip-full osslsigncode openssl wine64 sqlite3)
ensure_apt "${pkgs[@]}"

step "Go and Node modules"
go mod download
(cd frontend && npm ci --no-audit --no-fund --loglevel=error)
sh harness/mcp/testdata/npm/install.sh >/dev/null

step "frontend: unit tests, type check, build"
(cd frontend && npm test --silent && npm run check --silent && npm run build --silent)

step "frontend: contrast check (axe-core in headless Chromium, light and dark)"
bash scripts/contrast-check.sh

step "go vet and gofmt"
go vet ./...
unformatted=$(gofmt -l $(git ls-files '*.go' | grep -v '^frontend/'))
if [ -n "$unformatted" ]; then echo "gofmt would change: $unformatted" >&2; exit 1; fi

step "cross-vet for macOS and Windows (cgo-free packages)"
cgofree=$(go list ./harness/tool/... ./harness/bundle/... ./harness/consent/... ./harness/model/... \
  ./harness/mcp/... ./harness/servers/... ./harness/a2a/... ./harness/sandbox/... ./harness/agentimport/... ./harness/internal/... ./internal/redact/... ./platform/... ./tools/... ./examples/...)
GOOS=darwin GOARCH=arm64 CGO_ENABLED=0 go vet $cgofree
GOOS=windows GOARCH=amd64 CGO_ENABLED=0 go vet $cgofree
GOOS=darwin GOARCH=arm64 CGO_ENABLED=0 go build ./platform/... ./tools/notification/... ./tools/files/...
GOOS=windows GOARCH=amd64 CGO_ENABLED=0 go build ./platform/... ./tools/notification/... ./tools/files/...

# harness/ and app/ run once, under the race detector; the rest once without.
raced='^github.com/openworker/desktop/(harness|app)(/|$)'
step "go test (all packages but harness/ and app/)"
go test -count=1 $(go list ./... | grep -Ev "$raced")

step "go test -race ./harness/... ./app/..."
go test -count=1 -race ./harness/... ./app/...

step "fuzz the parsers, a short fixed time each (scripts/fuzz.sh, docs/limits.md#fuzzing)"
bash scripts/fuzz.sh

step "MCP conformance suite, client mode, against openworker run with no OS keychain (docs/mcp.md#conformance)"
bash scripts/conformance.sh

step "workflow and release-script lint (actionlint, shellcheck)"
bash scripts/check-workflows.sh

step "macOS Info.plist and entitlement templates (the Linux half of macos-verify.sh)"
bash scripts/macos-verify.sh

if [ -z "${QUICK:-}" ]; then
  step "desktop app end-to-end under Xvfb"
  bash scripts/app-e2e.sh

  # After the e2e build: the rehearsal's go build reuses its cgo packages.
  step "macOS update smoke test: its rehearsal without a Mac (feed, serving, refusals; docs/ci.md#macos-update-smoke)"
  bash scripts/macos-update-smoke.sh

  step "Windows installer: build, sign, check"
  bash scripts/check-windows-installer.sh

  step "Windows installer: the static half of the install smoke test (docs/ci.md)"
  bash scripts/windows-install-smoke.sh

  step "Windows build under Wine: CLI, Windows behaviour, unit tests, installer (docs/ci.md#under-wine)"
  OPENWORKER_WINE_EXE=build/bin/openworker.exe bash scripts/test-windows-wine.sh
fi

echo
echo "all tests passed in $((SECONDS - started)) s"
