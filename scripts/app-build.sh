#!/usr/bin/env bash
# Build the desktop app for this OS (Linux: needs libgtk-3-dev and
# libwebkit2gtk-4.0-dev or, where only that is shipped (Debian 13, Ubuntu
# 24.04), libwebkit2gtk-4.1-dev; scripts/app-run.sh installs them).
#
#   scripts/app-build.sh [OUTPUT]        default build/bin/openworker
#
# Env: TAGS adds build tags (e.g. TAGS=e2e for the end-to-end test hook).
# On Linux, webkit2_41 is added when pkg-config finds webkit2gtk-4.1 but
# not webkit2gtk-4.0 (docs/install.md#from-source).
# It runs `npm ci` only when frontend/node_modules is missing or older than
# package-lock.json, then `npm run build`, then go build with the Wails tags
# (what `wails build` runs: desktop,production), stamping main.version,
# main.commit and main.date (scripts/release-lib.sh). The date is the last
# commit's unless SOURCE_DATE_EPOCH says otherwise, so building the same
# tree again gives the same executable: its SHA-256 is part of every
# session's execution identity (docs/identity.md), and a changed one means earlier
# chats cannot be continued.
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-build/bin/openworker}"
if [ ! -d frontend/node_modules ] || [ frontend/package-lock.json -nt frontend/node_modules/.package-lock.json ]; then
  (cd frontend && npm ci --no-audit --no-fund)
fi
(cd frontend && npm run build --silent)
tags="desktop,production${TAGS:+,$TAGS}"
if [ "$(go env GOOS)" = linux ] && command -v pkg-config >/dev/null &&
  ! pkg-config --exists webkit2gtk-4.0 && pkg-config --exists webkit2gtk-4.1; then
  tags="$tags,webkit2_41"
fi
# shellcheck source=scripts/release-lib.sh
. scripts/release-lib.sh
version="$(git describe --tags --always --dirty 2>/dev/null || echo dev)"
if [ -z "${SOURCE_DATE_EPOCH:-}" ]; then
  SOURCE_DATE_EPOCH="$(git log -1 --format=%ct 2>/dev/null || true)"
  export SOURCE_DATE_EPOCH
fi
echo "building the app (go build; the first build compiles SQLite and WebKit bindings and takes a few minutes)"
mkdir -p "$(dirname "$out")"
go build -tags "$tags" -ldflags "-w -s $(release_ldflags "$version" "$(release_commit)" "$(release_date)")" -o "$out" .
echo "built $out (tags $tags)"
if [ "$(go env GOOS)" = linux ]; then
  # The sandbox launcher beside it (docs/sandbox.md#linux): static and
  # small, so a sandboxed provider starts nearly as fast as another.
  CGO_ENABLED=0 go build -trimpath -ldflags "-w -s" -o "$(dirname "$out")/openworker-sandbox" ./harness/sandbox/cmd/openworker-sandbox
  echo "built $(dirname "$out")/openworker-sandbox"
fi
