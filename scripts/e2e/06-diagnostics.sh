# shellcheck shell=bash
# shellcheck disable=SC2154 # the variables are the sourcing script's
# A block of scripts/app-e2e.sh, sourced by it in file-name order: it uses
# the helpers and variables defined there (start_e2e_app, click, wait_state,
# state, fail, $tmp, $shots, $db, ...).
# --- diagnostics (issue 13) ---
# Settings → Support → Copy diagnostics (Alt+I: no coordinates, the
# section's place depends on Permissions) puts the report of `openworker
# doctor` on the clipboard and says "Diagnostics copied"
# (docs/app.md#diagnostics). With
# xclip installed, the clipboard holds the report's sections and the
# started device provider, and not this run's API key.
echo "app-e2e: Copy diagnostics"
win="$(xdotool search --name '^OpenWorker$' | head -n1 || true)"
[ -n "$win" ] || fail "no OpenWorker window for Copy diagnostics"
xdotool mousemove --window "$win" 60 137 click 1
sleep 0.8
xdotool mousemove --window "$win" 700 500
xdotool click --repeat 40 --delay 20 5
sleep 0.5
xdotool key alt+i
sleep 2
import -window root "$shots/diagnostics-copied.png"
if command -v xclip >/dev/null; then
  clip="$(timeout 5 xclip -o -selection clipboard 2>/dev/null || true)"
  for want in "[webview]" "[journal]" "verify       ok:" "provider device  ok:" "[model]"; do
    grep -qF -- "$want" <<<"$clip" || fail "the copied diagnostics lack '$want': $clip"
  done
  if grep -qF "scripted-test-key" <<<"$clip"; then fail "the copied diagnostics hold the API key: $clip"; fi
else
  echo "app-e2e: xclip is missing: the clipboard's text is not checked (look at diagnostics-copied.png)"
fi
# --- end diagnostics ---
