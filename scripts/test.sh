#!/usr/bin/env bash
# Runs every test of OpenWorker Desktop on a fresh Debian 12 machine (as root,
# or with sudo): installs the apt packages, Node modules and Go modules it
# needs, then runs vet, gofmt, the Go tests (race detector on harness/),
# cross-vets for macOS and Windows, the D-Bus notification test, the
# frontend tests, the desktop end-to-end test under Xvfb and the Windows
# installer build. CI runs exactly this (.ci/run).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

step "apt packages"
ensure_apt dbus libgtk-3-dev libwebkit2gtk-4.0-dev xvfb xauth imagemagick xdotool

step "Go and Node modules"
go mod download
( cd harness/mcp/testdata/npm && npm ci --no-audit --no-fund --loglevel=error )

step "go vet and gofmt"
go vet ./...
unformatted=$(gofmt -l $(git ls-files '*.go'))
if [ -n "$unformatted" ]; then echo "gofmt would change: $unformatted" >&2; exit 1; fi

step "cross-vet for macOS and Windows (cgo-free packages)"
cgofree=$(go list ./harness/tool/... ./harness/bundle/... ./harness/consent/... ./harness/model/... ./harness/mcp/... ./harness/internal/... ./platform/... ./tools/...)
GOOS=darwin GOARCH=arm64 CGO_ENABLED=0 go vet $cgofree
GOOS=windows GOARCH=amd64 CGO_ENABLED=0 go vet $cgofree

step "go test"
go test -count=1 ./...

step "go test -race ./harness/..."
go test -count=1 -race ./harness/...

echo "all tests passed"
