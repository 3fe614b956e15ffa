# shellcheck shell=bash
# shellcheck disable=SC2154 # the variables are the sourcing script's
# A block of scripts/app-e2e.sh, sourced by it in file-name order: it uses
# the helpers and variables defined there (start_e2e_app, click, wait_state,
# state, fail, $tmp, $shots, $db, ...).
# --- Permissions, grants, Retry and reconciliation (issue 12) ---
# A new run of the app on its own scripted model (--base-url/--model are
# for this run only): "Always" puts the answer in Settings → Permissions
# and a grant in the chat header; Revoke makes the next call ask again; a
# failed turn is retried in the same chat; a call left unknown is
# reconciled in Activity and reads "resolved".
echo "app-e2e: permissions, retry and reconciliation"
pkill -fx "$tmp/openworker" || true
for _ in $(seq 100); do pgrep -fx "$tmp/openworker" >/dev/null || break; sleep 0.1; done
cat > "$tmp/script2.json" <<'JSON'
[
  {"text": "Looking.", "tool_calls": [{"id": "p_1", "name": "device__system_info_get", "arguments": {}}]},
  {"text": "Checked once."},
  {"text": "Looking again.", "tool_calls": [{"id": "p_2", "name": "device__system_info_get", "arguments": {}}]},
  {"text": "Checked again."},
  {"err": 500, "err_message": "scripted outage"},
  {"text": "Back after the outage."}
]
JSON
"$tmp/scriptmodel" -script "$tmp/script2.json" -addr 127.0.0.1:0 >"$tmp/model2.out" 2>"$tmp/model2.log" &
pids+=($!)
for _ in $(seq 50); do grep -q '^listening ' "$tmp/model2.out" 2>/dev/null && break; sleep 0.1; done
model2="$(sed -n 's/^listening //p' "$tmp/model2.out")"
[ -n "$model2" ] || fail "the second scripted model did not start"
(
  in_app_env "$tmp" OPENAI_API_KEY="scripted-test-key" OPENWORKER_COWORKERS="$tmp/bundles" OPENWORKER_COWORKER="e2e-assistant" \
    OPENWORKER_SERVERS="$tmp/servers.json" OPENWORKER_E2E_ADDR="$hook" \
    "$tmp/openworker" --base-url "$model2" --model scripted >>"$tmp/app.log" 2>&1
) &
pids+=($!)
wait_state '"session_id"' "no chat opened after the restart"
sleep 1.5
xdotool type --delay 20 "Check this computer"
xdotool key Return
wait_state '"pending":1' "no consent dialog for the first call"
sleep 0.8
# Alt+A opens "More choices" with the focus on "Always for …"; Return
# presses it (docs/consent.md#answering-in-the-app).
xdotool key alt+a
sleep 0.6
xdotool key Return
wait_state '"turns":\["completed"\]' "the turn with the always-allowed call did not complete"
wait_state '"grants":\["device.system_info_get"\]' "the chat holds no grant after Always"
sleep 0.7
import -window root "$shots/grants.png"
"$tmp/openworker" journal policies --db "$db" >"$tmp/policies.txt" 2>&1 || fail "journal policies failed: $(cat "$tmp/policies.txt")"
grep -q "device.system_info_get" "$tmp/policies.txt" || fail "Always saved no policy: $(cat "$tmp/policies.txt")"
# Settings → Permissions (its entry in Settings' navigation list) lists
# the answer; Revoke takes it back and ends the open chat's grant.
click 60 137
sleep 1
click 302 242 # Permissions, in the navigation list
sleep 1
xdotool mousemove --window "$(perm_win)" 700 500
sleep 0.8
import -window root "$shots/permissions.png"
click 1136 463 # Revoke, in the saved answers table
for _ in $(seq 50); do "$tmp/openworker" journal policies --db "$db" 2>/dev/null | grep -q ' ask ' && break; sleep 0.2; done
"$tmp/openworker" journal policies --db "$db" | grep -q ' ask ' || fail "Revoke in Permissions did not take the answer back: $("$tmp/openworker" journal policies --db "$db")"
wait_state '"grants":\[\]' "Revoke left the open chat's grant"
sleep 0.5
import -window root "$shots/permissions-revoked.png"
# Back in the chat, the same tool asks again.
click 100 206
sleep 1
xdotool type --delay 20 "And again?"
xdotool key Return
wait_state '"pending":1' "the call did not ask again after Revoke"
sleep 0.8
import -window root "$shots/asks-again.png"
xdotool key alt+o
wait_state '"turns":\["completed","completed"\]' "the turn after Revoke did not complete"
# A turn the model fails is retried in the same chat.
xdotool type --delay 20 "Once more"
xdotool key Return
wait_state '"turns":\["completed","completed","failed"\]' "the scripted outage did not fail the turn"
sleep 0.8
import -window root "$shots/failed-turn.png"
click 1187 727
wait_state '"turns":\["completed","completed","failed","completed"\]' "Retry did not run the turn again"
sleep 0.7
import -window root "$shots/retried.png"
n5="$(grep -c 'request 4: .*messages=9' "$tmp/model2.log" || true)"; n6="$(grep -c 'request 5: .*messages=9' "$tmp/model2.log" || true)"
[ "$n5" = 1 ] && [ "$n6" = 1 ] || fail "the retried request did not send the same history (the prompt once): $(tail -n 3 "$tmp/model2.log")"
# A call left unknown (journalbench writes 50 sessions, one with an
# unknown call) is resolved from Activity → Needs attention and reads
# "resolved"; the session stays on screen after it leaves the filter.
go run ./harness/journal/internal/journalbench gen -db "$db" -sessions 50 >/dev/null || fail "journalbench gen failed"
# Each click twice, a second apart: a second click on the same entry, filter
# or row changes nothing, and a click lost while the list re-renders (the
# Activity badge appears as the journal changes) does not derail the rest.
for xy in "60 103" "368 81" "380 135"; do
  click ${xy% *} ${xy#* }
  sleep 1
  click ${xy% *} ${xy#* }
  sleep 0.6
done
import -window root "$shots/needs-attention.png"
for _ in 1 2; do # once more if the press was lost: the button is gone once it worked
  click 920 298
  for _ in $(seq 25); do "$tmp/openworker" journal list --db "$db" --unknown 2>/dev/null | grep -q . || break 2; sleep 0.2; done
done
[ -z "$("$tmp/openworker" journal list --db "$db" --unknown 2>/dev/null)" ] || fail "the unknown call was not reconciled: $("$tmp/openworker" journal list --db "$db" --unknown)"
sleep 0.8
import -window root "$shots/resolved.png"
