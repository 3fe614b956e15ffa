#!/usr/bin/env bash
# Regenerate the TypeScript bindings of the desktop app (frontend/src/wailsjs)
# after changing a bound method of a service of app/ (Window, Chats, …; docs/app.md#where-things-live).
# The output is committed; TestBindingsInSync fails when it is stale.
set -euo pipefail
cd "$(dirname "$0")/.."
go run -tags bindings ./app/internal/bindgen
echo "bindings written to frontend/src/wailsjs"
