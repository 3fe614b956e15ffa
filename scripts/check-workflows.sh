#!/usr/bin/env bash
# Lints the GitHub workflow files (.github/workflows/*.yml) with actionlint,
# which also runs shellcheck on their `run:` scripts, and shellchecks the
# release scripts. Debian 12, root or sudo; needs the Go module proxy.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

ensure_apt shellcheck
step "actionlint"
go run github.com/rhysd/actionlint/cmd/actionlint@v1.7.12 -no-color .github/workflows/*.yml
step "shellcheck (release scripts)"
shellcheck -x scripts/release-lib.sh scripts/build-windows.sh scripts/build-macos.sh \
  scripts/check-windows-installer.sh scripts/check-workflows.sh
echo "workflows and release scripts OK"
