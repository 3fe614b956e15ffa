#!/usr/bin/env bash
# Build and launch OpenWorker Desktop from source (the README's quick start).
#
#   scripts/app-run.sh [APP FLAGS...]      e.g. --coworkers ~/my-bundles
#
# Idempotent: on Debian/Ubuntu it installs the Linux build dependencies only
# when they are missing (scripts/lib.sh ensure_apt: apt-get, with sudo when not root), runs `npm ci`
# only when frontend/node_modules is missing or stale, rebuilds, and starts
# the app. Needs Go >= 1.26 and Node.js >= 20.19 (with npm) on PATH.
# App flags can also be given as OPENWORKER_<FLAG> environment variables.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "$(uname -s)" = "Linux" ]; then
  . scripts/lib.sh
  # WebKitGTK 4.0 where it is installed or shipped; Debian 13 and Ubuntu
  # 24.04 ship only 4.1, which app-build.sh then builds against (webkit2_41).
  webkit=libwebkit2gtk-4.0-dev
  if ! dpkg-query -W -f='${Status}' "$webkit" 2>/dev/null | grep -q "install ok installed" &&
    ! apt-cache show "$webkit" >/dev/null 2>&1 && apt-cache show libwebkit2gtk-4.1-dev >/dev/null 2>&1; then
    webkit=libwebkit2gtk-4.1-dev
  fi
  ensure_apt gcc pkg-config libgtk-3-dev "$webkit" || { echo "app-run: the Linux build packages are missing" >&2; exit 2; }
fi

command -v go >/dev/null || { echo "app-run: Go 1.26 or newer is needed (https://go.dev/dl/)" >&2; exit 2; }
gov="$(go env GOVERSION | sed 's/^go//')"
case "$gov" in 1.2[6-9]*|1.[3-9][0-9]*) ;; *) echo "app-run: Go $gov is too old; 1.26 or newer is needed" >&2; exit 2;; esac
command -v npm >/dev/null || { echo "app-run: Node.js 20.19+ with npm is needed (https://nodejs.org/)" >&2; exit 2; }
node -e 'const [a,b]=process.versions.node.split(".").map(Number); process.exit(a>20||(a===20&&b>=19)?0:1)' ||
  { echo "app-run: Node.js $(node --version) is too old; 20.19 or newer is needed (Vite 8)" >&2; exit 2; }

scripts/app-build.sh build/bin/openworker
echo "app-run: starting build/bin/openworker"
exec build/bin/openworker "$@"
