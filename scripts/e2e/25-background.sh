# shellcheck shell=bash
# shellcheck disable=SC2154 # the variables are the sourcing script's
# A block of scripts/app-e2e.sh, sourced by it in file-name order: it uses
# the helpers and variables defined there (click, wait_state, state, fail,
# stop_shown_app, in_app_env, $tmp, $shots, $hook, ...).
# --- running in the background (issue 36) ---
# In its own HOME, light theme: Settings (Ctrl+,) → Background → a click
# on "Keep running with the window closed" saves it (settings.json
# keep_running; settings-background-light.png). The window is closed as a
# window manager's close button does (xdotool finds it, wm-close.py sends
# WM_DELETE_WINDOW): it is hidden, the process stays. A schedule added
# then from the terminal (every minute) comes due and runs while the
# window is hidden: its run succeeds and the journal holds the model's
# answer. Launching the app again shows the window (the wake socket;
# background-reopened.png). Then the dark theme: Settings → Background
# again (settings-background-dark.png), and Shift+Tab from the wait's field
# onto "Start at login" shows the box's focus ring
# (settings-background-focus.png: box first, text beside it, ring whole).
# docs/app.md#running-in-the-background, docs/app.md#settings.
echo "app-e2e: running in the background"
# Where things are, in window coordinates (1240x820): Settings' navigation
# list entry "Background", that section's "Keep running with the window
# closed" checkbox (the box, before its text on the same line), and the
# "Unattended question wait" field.
BG_NAV_X=${BG_NAV_X:-300} BG_NAV_Y=${BG_NAV_Y:-309}
BG_KEEP_X=${BG_KEEP_X:-448} BG_KEEP_Y=${BG_KEEP_Y:-179}
BG_WAIT_X=${BG_WAIT_X:-498} BG_WAIT_Y=${BG_WAIT_Y:-330}
bg="$tmp/background"
mkdir -p "$bg/home" "$bg/config/OpenWorker" "$bg/data" "$bg/bundles"
cp -r "$tmp/bundles/e2e-assistant" "$bg/bundles/"
printf '{"provider": "openai", "approval_mode": "ask", "theme": "light"}\n' >"$bg/config/OpenWorker/settings.json"
cat >"$bg/script.json" <<'JSON'
[
  {"text": "Background check done while the window was hidden."},
  {"text": "Another background check done."},
  {"text": "And another."}
]
JSON
start_script_model "$bg/script.json" "$bg/model.out" "background block"
bg_db="$bg/config/OpenWorker/journal.db"
# bg_start: the app on this block's HOME (schedules looked at every 2 s).
bg_start() {
  (
    in_app_env "$bg" OPENAI_API_KEY="scripted-test-key" OPENWORKER_COWORKERS="$bg/bundles" OPENWORKER_E2E_ADDR="$hook" \
      OPENWORKER_E2E_SCHEDULE_TICK=2s "$tmp/openworker" --base-url "$script_model_url" --model scripted >>"$bg/app.log" 2>&1
  ) &
  pids+=($!)
}
# bg_settings NAME: Settings → Background at its top, screenshot $shots/NAME.png.
bg_settings() {
  xdotool mousemove --window "$(perm_win)" 700 400
  xdotool key ctrl+comma
  sleep 1
  click "$BG_NAV_X" "$BG_NAV_Y"
  sleep 0.8
  xdotool mousemove --window "$(perm_win)" 700 400
  xdotool click --repeat 20 --delay 20 4 # the page's top
  sleep 0.8
  import -window root "$shots/$1.png"
}
stop_shown_app
bg_start
wait_state '"list_loads":[1-9]' "the app did not start for the background block (app log: $(tail -n 5 "$bg/app.log"))"
sleep 1.5
for _ in 1 2 3; do click 1208 103; sleep 0.3; done # the start's notices go
bg_pid="$(xdotool search --onlyvisible --name '^OpenWorker$' getwindowpid 2>/dev/null | head -n1 || true)"
[ -n "$bg_pid" ] || fail "background block: no visible OpenWorker window"
bg_settings bg-before-click
click "$BG_KEEP_X" "$BG_KEEP_Y"
wait_state '"keep_running":true' "a click on Keep running did not save it (see bg-before-click.png for where it is)"
grep -q '"keep_running": true' "$bg/config/OpenWorker/settings.json" || fail "settings.json has no keep_running: $(cat "$bg/config/OpenWorker/settings.json")"
sleep 0.8
import -window root "$shots/settings-background-light.png"

# Close the window as a window manager would: hidden, the process stays.
# (the visible toplevel: perm_win's first match is GTK's 10x10 leader window)
python3 "$root/scripts/e2e/wm-close.py" "$(xdotool search --onlyvisible --name '^OpenWorker$' | head -n1)" || fail "wm-close.py could not ask the window to close"
for _ in $(seq 100); do [ -z "$(xdotool search --onlyvisible --name '^OpenWorker$' 2>/dev/null)" ] && break; sleep 0.2; done
[ -z "$(xdotool search --onlyvisible --name '^OpenWorker$' 2>/dev/null)" ] || fail "closing the window with keep running on did not hide it"
sleep 2
kill -0 "$bg_pid" 2>/dev/null || fail "closing the window with keep running on ended the app (app log: $(tail -n 5 "$bg/app.log"))"
grep -q 'window hidden: the app keeps running' "$bg/config/OpenWorker/logs/openworker.log" || fail "the app's log does not say the window was hidden"
import -window root "$shots/background-hidden.png"

# A schedule added now is due in a minute: it runs while the window is hidden.
"$tmp/openworker" schedule add --db "$bg_db" --coworker e2e-assistant --every 1m --prompt "Check in the background" >"$bg/add.out" 2>&1 ||
  fail "schedule add failed: $(cat "$bg/add.out")"
for _ in $(seq 500); do state | grep -q '"schedules":\["ses_[^ ]* succeeded"\]' && break; sleep 0.2; done
state | grep -q '"schedules":\["ses_[^ ]* succeeded"\]' || fail "the schedule did not run while the window was hidden: $(state) (app log: $(tail -n 5 "$bg/app.log"))"
[ -z "$(xdotool search --onlyvisible --name '^OpenWorker$' 2>/dev/null)" ] || fail "the window showed itself while the schedule ran"
bg_session="$(state | grep -o '"schedules":\["ses_[^ ]*' | sed 's/.*\["//')"
"$tmp/openworker" journal show --db "$bg_db" --json "$bg_session" >"$bg/show.json" || fail "journal show $bg_session failed"
grep -q 'Background check done while the window was hidden' "$bg/show.json" || fail "the journal lacks the hidden run's answer: $(head -c 600 "$bg/show.json")"

# Launching the app again shows the window; the second start exits.
(in_app_env "$bg" timeout 60 "$tmp/openworker") >"$bg/second.log" 2>&1 || fail "the second start failed: $(cat "$bg/second.log")"
for _ in $(seq 100); do [ -n "$(xdotool search --onlyvisible --name '^OpenWorker$' 2>/dev/null)" ] && break; sleep 0.2; done
[ -n "$(xdotool search --onlyvisible --name '^OpenWorker$' 2>/dev/null)" ] || fail "launching the app again did not show the hidden window: $(cat "$bg/second.log")"
[ "$(xdotool search --onlyvisible --name '^OpenWorker$' getwindowpid 2>/dev/null | head -n1)" = "$bg_pid" ] || fail "the window shown is not the first app's"
sleep 1
import -window root "$shots/background-reopened.png"

# The dark theme: Settings → Background again.
stop_shown_app
tmpjson="$(jq '.theme = "dark"' "$bg/config/OpenWorker/settings.json")" && printf '%s\n' "$tmpjson" >"$bg/config/OpenWorker/settings.json"
bg_start
wait_state '"keep_running":true' "the app did not start again for the dark Background section"
sleep 1.5
for _ in 1 2 3; do click 1208 103; sleep 0.3; done
bg_settings settings-background-dark
click "$BG_WAIT_X" "$BG_WAIT_Y"
xdotool key shift+Tab
sleep 0.5
import -window root "$shots/settings-background-focus.png"
"$tmp/openworker" journal verify --db "$bg_db" >/dev/null 2>&1 || fail "the journal does not verify after the background block: $("$tmp/openworker" journal verify --db "$bg_db" 2>&1)"
# keep running is on here: the next block's stop_shown_app kills the process, which quits it all the same.
# --- end running in the background (issue 36) ---
