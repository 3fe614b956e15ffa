# shellcheck shell=bash
# shellcheck disable=SC2154 # the variables are the sourcing script's
# A block of scripts/app-e2e.sh, sourced by it in file-name order: it uses
# the helpers and variables defined there (click, wait_state, state, fail,
# stop_shown_app, in_app_env, start_script_model, $tmp, $shots, $hook, ...).
# --- default limits and tokens (issue 36 item 5) ---
# In its own HOME, with a coworker whose manifest sets tokens_per_day but
# not tokens_per_run: Settings → Limits takes a default tokens_per_run of
# 50,000 (Alt+L goes to it; typed "50000", saved with Return;
# settings.json has it) after
# "0.5" was refused naming the field (limits-settings-error.png,
# limits-settings.png); the coworker's editor shows its own tokens_per_day
# and, for the empty tokens per run, "default: 50,000 from Settings"
# (limits-editor.png); Start chat there, two turns with the scripted model
# reporting 1,240 + 232 and 2,000 + 100 tokens (the journal's model_usage
# holds them, checked with sqlite3 where it is installed); Activity lists
# the run with "3,572 tokens (3,240 in, 332 out)" (limits-activity.png)
# and, under Tokens, the coworker's today and last 7 days
# (limits-tokens.png). Needs jq.
echo "app-e2e: default limits and tokens"
# Where things are, in window coordinates (1240x820): the sidebar's
# Coworkers and Activity; the Coworkers card's Edit (y scanned); the
# Activity list's Tokens button; the editor's Start chat. (Settings →
# Limits is reached with Alt+L, wherever the sections above put it.)
LT_COWORKERS_Y=69 LT_ACTIVITY_Y=103 LT_EDIT_X=396 LT_TOKENS_X=374 LT_TOKENS_Y=30
LT_ED_START_X=1030 LT_ED_HEADER_Y=32
lt="$tmp/limits"
mkdir -p "$lt/home" "$lt/config" "$lt/data" "$lt/bundles/budget-helper/coworker"
cat >"$lt/bundles/budget-helper/coworker/manifest.md" <<'MD'
---
id: budget-helper
name: Budget Helper
description: Answers in a few words, within its budget.
version: 1.0.0
limits: {tokens_per_day: 200000}
---
You answer in a few words.
MD
echo '{"version":3,"tools":[]}' >"$lt/bundles/budget-helper/coworker/tools.json"
cat >"$lt/script.json" <<'JSON'
[
  {"text": "Short answer: **yes**.", "input_tokens": 1240, "output_tokens": 232},
  {"text": "Still yes.", "input_tokens": 2000, "output_tokens": 100}
]
JSON
start_script_model "$lt/script.json" "$lt/model.out" "limits block"
lt_db="$lt/config/OpenWorker/journal.db"
lt_settings="$lt/config/OpenWorker/settings.json"
stop_shown_app
(
  in_app_env "$lt" OPENAI_API_KEY="scripted-test-key" OPENWORKER_COWORKERS="$lt/bundles" OPENWORKER_E2E_ADDR="$hook" \
    "$tmp/openworker" --base-url "$script_model_url" --model scripted >"$lt/app.log" 2>&1
) &
pids+=($!)
wait_state '"list_loads":[1-9]' "the app did not start for the limits block (app log: $(tail -n 5 "$lt/app.log"))"
sleep 1.5
for _ in 1 2 3; do click 1208 103; sleep 0.3; done # the start's notices go

# lt_wheel N: N wheel steps down over the main area.
lt_wheel() { xdotool mousemove --window "$(perm_win)" 700 500 click --repeat "$1" --delay 80 5; sleep 0.8; }

# Settings → Limits: "0.5" is refused naming the field; 50000 saved with Return.
xdotool key ctrl+comma
sleep 1.5
xdotool key alt+l
sleep 0.8
xdotool type --delay 40 "0.5"
sleep 0.5
import -window root "$shots/limits-settings-error.png"
xdotool key ctrl+a
xdotool type --delay 40 "50000"
xdotool key Return
for _ in $(seq 100); do jq -e '.limits.tokens_per_run == 50000' "$lt_settings" >/dev/null 2>&1 && break; sleep 0.2; done
jq -e '.limits.tokens_per_run == 50000' "$lt_settings" >/dev/null 2>&1 || fail "Settings → Limits did not save tokens_per_run 50000: $(cat "$lt_settings" 2>&1)"
[ "$(jq -c '.limits' "$lt_settings")" = '{"tokens_per_run":50000,"tokens_per_day":0,"tool_calls_per_run":0}' ] ||
  fail "settings.json limits = $(jq -c '.limits' "$lt_settings"); want only tokens_per_run 50000"
sleep 1
import -window root "$shots/limits-settings.png"

# The coworker's editor: its own tokens per day, the default for tokens per run.
click 60 "$LT_COWORKERS_Y"
sleep 1
# lt_edits: how many times the editor opened a coworker (GET /state "editor").
lt_edits() { state | grep -o '"edit ' | wc -l || true; }
opened="$(lt_edits)"
for y in $(seq 150 12 760); do
  click "$LT_EDIT_X" "$y"
  for _ in $(seq 5); do [ "$(lt_edits)" -gt "$opened" ] && break 2; sleep 0.2; done
done
[ "$(lt_edits)" -gt "$opened" ] || fail "Edit on Budget Helper's card did not open the editor"
sleep 1.5
wait_state '"catalog ' "the editor did not list the tools"
sleep 1
lt_wheel 80 # the Limits fieldset is the editor's last
sleep 0.5
import -window root "$shots/limits-editor.png"

# Start chat (the editor's header): two turns, their usage reported.
click "$LT_ED_START_X" "$LT_ED_HEADER_Y"
wait_state '"session_id"' "Start chat in the editor opened no chat"
sleep 1
xdotool type --delay 20 "Is it within budget?"
xdotool key Return
wait_state '"turns":\["completed"\]' "the first turn did not complete"
sleep 0.5
xdotool type --delay 20 "And now?"
xdotool key Return
wait_state '"turns":\["completed","completed"\]' "the second turn did not complete"
lt_session="$(state | grep -o '"session_id":"[^"]*"' | head -n1 | cut -d'"' -f4)"
if command -v sqlite3 >/dev/null; then
  got="$(sqlite3 "$lt_db" "SELECT sum(input_tokens) || ' ' || sum(output_tokens) || ' ' || count(*) FROM model_usage WHERE session_id = '$lt_session' AND coworker = 'budget-helper'")"
  [ "$got" = "3240 332 2" ] || fail "the journal's usage of $lt_session is \"$got\"; want 3240 in, 332 out, 2 responses"
fi
sleep 0.5

# Activity: the run's tokens in the list and its detail; Tokens: per coworker.
click 60 "$LT_ACTIVITY_Y"
sleep 1.5
import -window root "$shots/limits-activity.png"
click "$LT_TOKENS_X" "$LT_TOKENS_Y"
sleep 1.5
import -window root "$shots/limits-tokens.png"
"$tmp/openworker" journal verify --db "$lt_db" >/dev/null 2>&1 || fail "the journal does not verify after the limits block: $("$tmp/openworker" journal verify --db "$lt_db" 2>&1)"
# --- end default limits and tokens (issue 36 item 5) ---
