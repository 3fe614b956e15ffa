#!/usr/bin/env bash
# Contrast check of the built frontend (docs/app.md#contrast-check): axe-core's
# WCAG 2.1 A and AA rules, color-contrast among them, on every screen, in the light and the dark
# theme, in Debian's headless Chromium, with fake bindings; no network but
# 127.0.0.1. Needs `npm ci` in frontend/; it builds frontend/dist first
# (about 5 s; the whole check takes about 20 s). Screenshots of each screen go to $CONTRAST_SHOTS when set.
#
#   scripts/contrast-check.sh
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
ensure_apt chromium
cd frontend
npm run build --silent >/dev/null
exec node contrast/check.mjs ${CONTRAST_SHOTS:+--shots "$CONTRAST_SHOTS"}
