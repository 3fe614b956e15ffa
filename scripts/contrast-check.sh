#!/usr/bin/env bash
# Contrast check of the built frontend (docs/app.md#contrast-check): axe-core's
# WCAG 2.1 A and AA rules, color-contrast among them, on every screen, in the light and the dark
# theme, in Debian's headless Chromium, with fake bindings; no network but
# 127.0.0.1. Needs `npm ci` in frontend/; it builds frontend/dist first
# (about 5 s; the whole check takes about 20 s). A screenshot of each screen and theme goes to
# artifacts/screenshots/contrast/ (or $CONTRAST_SHOTS, relative to frontend/).
#
#   scripts/contrast-check.sh
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
ensure_apt chromium
cd frontend
if ! out="$(npm run build --silent 2>&1)"; then echo "$out" >&2; exit 1; fi
exec node contrast/check.mjs --shots "${CONTRAST_SHOTS:-../artifacts/screenshots/contrast}"
