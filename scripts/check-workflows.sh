#!/usr/bin/env bash
# Lints the GitHub workflow files (.github/workflows/*.yml) with actionlint,
# which also runs shellcheck on their `run:` scripts, and shellchecks the
# release and CI scripts (the steps of the test-windows and test-macos
# workflows, docs/ci.md). Debian 12, root or sudo; needs the Go module proxy.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

ensure_apt shellcheck
step "actionlint"
go run github.com/rhysd/actionlint/cmd/actionlint@v1.7.12 -no-color .github/workflows/*.yml
step "shellcheck (release and CI scripts)"
shellcheck -x scripts/release-lib.sh scripts/build-windows.sh scripts/build-macos.sh \
  scripts/check-windows-installer.sh scripts/check-workflows.sh \
  scripts/test-go-native.sh scripts/windows-install-smoke.sh scripts/macos-verify.sh scripts/macos-update-smoke.sh \
  scripts/test-windows-wine.sh scripts/conformance.sh scripts/conformance/client.sh
echo "workflows, release and CI scripts OK"
