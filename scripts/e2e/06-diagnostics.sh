# shellcheck shell=bash
# shellcheck disable=SC2154 # the variables are the sourcing script's
# A block of scripts/app-e2e.sh, sourced by it in file-name order: it uses
# the helpers and variables defined there (start_e2e_app, click, wait_state,
# state, fail, $tmp, $shots, $db, ...).
# --- diagnostics (issue 13, issue 39 item 5) ---
# Settings, then Alt+I opens the Diagnostics screen, which runs at once
# (nothing here may download) and shows the report; Alt+C copies it and
# says "Diagnostics copied" (docs/app.md#diagnostics). With xclip
# installed, the clipboard holds the report's sections and the started
# device provider, and not this run's API key.
echo "app-e2e: Diagnostics"
win="$(xdotool search --name '^OpenWorker$' | head -n1 || true)"
[ -n "$win" ] || fail "no OpenWorker window for Diagnostics"
xdotool mousemove --window "$win" 60 137 click 1
sleep 0.8
xdotool mousemove --window "$win" 700 500
xdotool key alt+i
wait_state '"diagnostics report"' "Alt+I in Settings did not run the diagnostics"
sleep 1
xdotool key alt+c
sleep 1
import -window root "$shots/diagnostics-copied.png"
if command -v xclip >/dev/null; then
  clip="$(timeout 5 xclip -o -selection clipboard 2>/dev/null || true)"
  for want in "[webview]" "[journal]" "verify       ok:" "provider device  ok:" "[model]" "reachable  ok: yes"; do
    grep -qF -- "$want" <<<"$clip" || fail "the copied diagnostics lack '$want': $clip"
  done
  if grep -qF "scripted-test-key" <<<"$clip"; then fail "the copied diagnostics hold the API key: $clip"; fi
else
  echo "app-e2e: xclip is missing: the clipboard's text is not checked (look at diagnostics-copied.png)"
fi
# --- end diagnostics ---
