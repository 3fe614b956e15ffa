#!/usr/bin/env bash
# Regenerate the TypeScript bindings of the desktop app (frontend/src/wailsjs)
# after changing a bound method of app.App. The output is committed.
set -euo pipefail
cd "$(dirname "$0")/.."
go run -tags bindings ./app/internal/bindgen
echo "bindings written to frontend/src/wailsjs"
