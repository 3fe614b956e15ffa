# shellcheck shell=bash
# shellcheck disable=SC2154 # the variables are the sourcing script's
# A block of scripts/app-e2e.sh, sourced by it in file-name order: it uses
# the helpers and variables defined there (start_e2e_app, click, wait_state,
# state, fail, $tmp, $shots, $db, ...).
# --- model picker (issue 12) ---
# Settings lists the scripted server's models (scriptmodel lists "scripted"
# by default) as soon as it opens, since the server is on this computer,
# and Test connection reports success with its latency
# (docs/app.md#model-picker). The /state hook shows what the app answered.
echo "app-e2e: Settings model picker and Test connection"
win="$(xdotool search --name '^OpenWorker$' | head -n1 || true)"
[ -n "$win" ] || fail "no OpenWorker window for the model picker"
xdotool mousemove --window "$win" 60 137 click 1
sleep 0.8
# Settings shows the section chosen last: Model is the first entry of its
# navigation list.
xdotool mousemove --window "$win" 282 106 sleep 0.2 click 1
for _ in $(seq 50); do state | grep -q '"models":{[^}]*"models":\["scripted"\]' && break; sleep 0.2; done
state | grep -q '"models":{[^}]*"models":\["scripted"\]' || fail "Settings did not list the scripted model: $(state)"
sleep 0.7
import -window root "$shots/settings-models.png"
# Alt+T is "Test connection" of the selected provider (no coordinates:
# banners above the model fields move them).
xdotool key alt+t
for _ in $(seq 50); do state | grep -q '"connection":{"ok":true' && break; sleep 0.2; done
state | grep -q '"connection":{"ok":true,[^}]*"via":"models","listed":true' ||
  fail "Test connection did not report success with the model listed: $(state)"
xdotool mousemove --window "$win" 700 800
sleep 0.7
import -window root "$shots/settings-test-connection.png"
# --- end model picker ---
