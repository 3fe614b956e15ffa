# shellcheck shell=bash
# shellcheck disable=SC2154 # the variables are the sourcing script's
# A block of scripts/app-e2e.sh, sourced by it in file-name order: it uses
# the helpers and variables defined there (start_e2e_app, click, wait_state,
# state, fail, $tmp, $shots, ...).
# --- a chat's model, and Never (issue 39 item 10) ---
# In its own HOME, a scripted server listing two models ("scripted" and
# "second-model"): the chat's first turn goes to "scripted"; Shift+Tab
# from the composer reaches the Model select by it and Down picks
# "second-model" (model-picker.png); the next turn's request asks for it
# (the server's log) and its reply shows (model-second-reply.png); the
# journal has the setting_changed row. Then a tool call's consent dialog:
# Alt+A opens More choices, Tab moves to "Never for …" (never-focus.png:
# its focus ring), Space answers; the next call of the tool is denied with
# no dialog (policy:user); Settings → Permissions lists "Never" with
# Revoke (permissions-never.png), and Revoke takes it back.
# docs/app.md#model-in-a-chat, docs/consent.md#never.
echo "app-e2e: a chat's model, and Never"
r22="$tmp/model-never"
mkdir -p "$r22/home" "$r22/config/OpenWorker" "$r22/data"
cat > "$r22/script.json" <<'JSON'
[
  {"text": "Hello from the first model."},
  {"text": "Hello from **second-model**, the model you just chose."},
  {"text": "Looking.", "tool_calls": [{"id": "n_1", "name": "device__system_info_get", "arguments": {}}]},
  {"text": "Understood, I will never use it."},
  {"text": "Looking again.", "tool_calls": [{"id": "n_2", "name": "device__system_info_get", "arguments": {}}]},
  {"text": "It was refused without asking you."}
]
JSON
"$tmp/scriptmodel" -script "$r22/script.json" -addr 127.0.0.1:0 -models scripted,second-model >"$r22/model.out" 2>"$r22/model.log" &
pids+=($!)
for _ in $(seq 50); do grep -q '^listening ' "$r22/model.out" 2>/dev/null && break; sleep 0.1; done
r22_model="$(sed -n 's/^listening //p' "$r22/model.out")"
[ -n "$r22_model" ] || fail "model and never: the scripted model did not start"
r22_db="$r22/config/OpenWorker/journal.db"
# r22_pixels FILE COLOUR: how many pixels of COLOUR the screenshot has.
r22_pixels() {
  convert "$1" -fill black +opaque "$2" -fill white -opaque "$2" -format '%[fx:round(mean*w*h)]' info:
}
stop_shown_app
(
  in_app_env "$r22" OPENAI_API_KEY="scripted-test-key" OPENWORKER_COWORKERS="$tmp/bundles" OPENWORKER_COWORKER="e2e-assistant" \
    OPENWORKER_SERVERS="$tmp/servers.json" OPENWORKER_E2E_ADDR="$hook" \
    "$tmp/openworker" --base-url "$r22_model" --model scripted >>"$r22/app.log" 2>&1
) &
pids+=($!)
wait_state '"session_id"' "model and never: no chat opened (app log: $(tail -n 5 "$r22/app.log"))"
wait_state '"model":"scripted"' "model and never: the chat does not use the scripted model"
sleep 1.5
xdotool type --delay 20 "Hello"
xdotool key Return
wait_state '"turns":\["completed"\]' "model and never: the first turn did not complete"
grep -q 'request 0: model="scripted"' "$r22/model.log" || fail "model and never: the first turn did not ask for scripted: $(cat "$r22/model.log")"

# The Model select sits just before the message box: Shift+Tab reaches it.
xdotool key shift+Tab
sleep 0.4
xdotool key Down
wait_state '"model":"second-model"' "model and never: Down on the Model select did not switch the chat's model"
sleep 0.7
import -window root "$shots/model-picker.png"
xdotool key Tab
sleep 0.3
xdotool type --delay 20 "Who answers now?"
xdotool key Return
wait_state '"turns":\["completed","completed"\]' "model and never: the turn after the switch did not complete"
grep -q 'request 1: model="second-model"' "$r22/model.log" || fail "model and never: the second turn did not ask for second-model: $(cat "$r22/model.log")"
sleep 0.7
import -window root "$shots/model-second-reply.png"
"$tmp/openworker" journal show --db "$r22_db" --json >"$r22/journal.json" || fail "model and never: journal show failed"
grep -q 'session setting changed: model from \\"scripted\\" to \\"second-model\\"' "$r22/journal.json" ||
  fail "model and never: the journal has no setting change: $(grep -o '"code": *"[a-z_]*"' "$r22/journal.json" | tr '\n' ' ')"

# Never, by keyboard: Alt+A opens More choices on "Always for …"; Tab is "Never for …".
xdotool type --delay 20 "Check this computer"
xdotool key Return
wait_state '"pending":1' "model and never: no consent dialog for the first call"
# The dialog painted (its 2 px ring on the dialog itself: waited for, as a
# loaded machine paints late) and past its 500 ms of disarm.
for _ in $(seq 40); do
  import -window root "$r22/dialog.png"
  [ "$(r22_pixels "$r22/dialog.png" "#1d4ed8")" -ge 1000 ] && break
  sleep 0.5
done
sleep 1
xdotool key alt+a
sleep 0.6
xdotool key Tab
# More choices opened (the window changed) and the focus ring moved from
# the dialog to "Never for …", a red button: more red pixels than before.
red0="$(r22_pixels "$r22/dialog.png" "#c53030")"
red=0 changed=0 ring=0
for _ in $(seq 40); do
  sleep 0.5
  import -window root "$shots/never-focus.png"
  changed="$(compare -metric AE -fuzz 2% "$r22/dialog.png" "$shots/never-focus.png" null: 2>&1 || true)"
  red="$(r22_pixels "$shots/never-focus.png" "#c53030")"
  ring="$(r22_pixels "$shots/never-focus.png" "#1d4ed8")"
  [ "${changed%% *}" -ge 2000 ] 2>/dev/null && [ "$red" -ge $((red0 + 1000)) ] && [ "$ring" -ge 300 ] && break
done
echo "app-e2e: model and never: $changed pixels changed on Alt+A, Tab; red pixels $red0 before, $red after; ring pixels $ring"
[ "$red" -ge $((red0 + 1000)) ] || fail "model and never: Alt+A, Tab shows no Never button (red pixels $red0 before, $red after)"
[ "$ring" -ge 300 ] || fail "model and never: no focus ring on Never ($ring pixels of #1d4ed8)"
state | grep -q '"pending":1' || fail "model and never: Alt+A, Tab answered the dialog: $(state)"
xdotool key space
wait_state '"pending":0' "model and never: Space on Never did not answer"
wait_state '"turns":\["completed","completed","completed"\]' "model and never: the turn with the Never answer did not complete"
"$tmp/openworker" journal policies --db "$r22_db" >"$r22/policies.txt" 2>&1 || fail "model and never: journal policies failed: $(cat "$r22/policies.txt")"
grep -Eq 'device.system_info_get +never ' "$r22/policies.txt" || fail "model and never: Never saved no deny policy: $(cat "$r22/policies.txt")"

# The next call of the tool is denied without a dialog.
xdotool type --delay 20 "Check again"
xdotool key Return
for _ in $(seq 150); do
  st="$(state)"
  echo "$st" | grep -q '"pending":1' && fail "model and never: a Never tool asked again: $st"
  echo "$st" | grep -q '"turns":\["completed","completed","completed","completed"\]' && break
  sleep 0.2
done
wait_state '"turns":\["completed","completed","completed","completed"\]' "model and never: the turn after Never did not complete"
"$tmp/openworker" journal show --db "$r22_db" --json >"$r22/journal2.json" || fail "model and never: journal show failed"
grep -q 'policy:user' "$r22/journal2.json" || fail "model and never: the second call was not denied by the saved Never"
sleep 0.7
import -window root "$shots/never-denied.png"

# Settings → Permissions (its entry in the navigation list) lists Never with Revoke.
click 60 137
sleep 1
click "${R22_PERMS_X:-300}" "${R22_PERMS_Y:-241}"
sleep 1
xdotool mousemove --window "$(perm_win)" 700 700
sleep 0.5
import -window root "$shots/permissions-never.png"
click "${R22_REVOKE_X:-1147}" "${R22_REVOKE_Y:-463}"
for _ in $(seq 50); do "$tmp/openworker" journal policies --db "$r22_db" 2>/dev/null | grep -q ' ask ' && break; sleep 0.2; done
"$tmp/openworker" journal policies --db "$r22_db" | grep -q ' ask ' || fail "model and never: Revoke in Permissions did not take Never back: $("$tmp/openworker" journal policies --db "$r22_db")"
sleep 0.5
import -window root "$shots/permissions-never-revoked.png"
stop_shown_app
# --- end a chat's model, and Never ---
