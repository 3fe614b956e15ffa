# shellcheck shell=bash
# shellcheck disable=SC2154 # the variables are the sourcing script's
# A block of scripts/app-e2e.sh, sourced by it in file-name order: it uses
# the helpers and variables defined there (start_e2e_app, click, wait_state,
# state, fail, $tmp, $shots, $db, ...).
# --- theme and shortcuts (issue 12) ---
# Ctrl+, opens Settings; a click on its Appearance entry, then on "Dark",
# saves the theme (GET /state says "dark"); Ctrl+Tab goes
# back to the chat and Ctrl+N opens a second chat with its coworker
# (docs/app.md#keys, docs/app.md#theme).
echo "app-e2e: theme and shortcuts"
win="$(xdotool search --name '^OpenWorker$' | head -n1 || true)"
[ -n "$win" ] || fail "no OpenWorker window found"
state | grep -q '"theme":"system"' || fail "the theme at first start is not \"system\": $(state)"
xdotool mousemove --window "$win" 700 400
xdotool key ctrl+comma
sleep 0.8
import -window root "$shots/settings-shortcut.png"
# Settings shows the section chosen last: Appearance is an entry of its
# navigation list.
xdotool mousemove --window "$win" 308 378 sleep 0.2 click 1
sleep 0.8
import -window root "$shots/settings-appearance.png"
xdotool mousemove --window "$win" 642 175 sleep 0.2 click 1 # Dark
for _ in $(seq 25); do state | grep -q '"theme":"dark"' && break; sleep 0.2; done
state | grep -q '"theme":"dark"' || fail "Ctrl+, then Dark did not save the dark theme: $(state)"
settings_file="$tmp/config/OpenWorker/settings.json"
grep -q '"theme": "dark"' "$settings_file" || fail "settings.json has no dark theme: $(cat "$settings_file")"
if grep -q "$tmp/bundles" "$settings_file"; then fail "saving the theme wrote this run's --coworkers to settings.json: $(cat "$settings_file")"; fi
sleep 0.5
import -window root "$shots/dark-settings.png"
chats_before="$(state | grep -o '"session_id"' | wc -l)"
xdotool key ctrl+Tab
sleep 0.5
xdotool key ctrl+n
for _ in $(seq 50); do [ "$(state | grep -o '"session_id"' | wc -l)" -gt "$chats_before" ] && break; sleep 0.2; done
[ "$(state | grep -o '"session_id"' | wc -l)" -gt "$chats_before" ] || fail "Ctrl+Tab then Ctrl+N opened no new chat: $(state)"
sleep 0.8
import -window root "$shots/dark.png"
xdotool key ctrl+Tab
sleep 0.8
import -window root "$shots/dark-chat.png"
# --- end theme and shortcuts ---
