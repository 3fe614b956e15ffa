# shellcheck shell=bash
# shellcheck disable=SC2154 # the variables are the sourcing script's
# A block of scripts/app-e2e.sh, sourced by it in file-name order: it uses
# the helpers and variables defined there (click, wait_state, state, fail,
# stop_shown_app, in_app_env, $tmp, $shots, $hook, ...).
# --- inbox and schedules (issue 36) ---
# In its own HOME: a schedule of e2e-assistant (every minute) is added
# from the terminal (`openworker schedule add`) before the app starts; the
# app runs it when due, unattended, and its call to device.system_info_get
# parks as an inbox item: the Inbox badge shows 1 (inbox-badge.png). The
# Inbox screen lists it (inbox.png); Allow once there continues the run at
# once: the call runs once, the schedule's last run says succeeded, the
# chat shows the model's answer (inbox-resumed.png); the Schedules screen
# lists the schedule with that run (schedules.png). The journal verifies.
# Needs jq.
echo "app-e2e: inbox and schedules"
# Where things are, in window coordinates (1240x820): the sidebar's Inbox and
# Schedules (below the chat list), the first item's Allow once.
IB_INBOX_Y=696 IB_SCHEDULES_Y=730 IB_ALLOW_X=300 IB_ALLOW_Y=209
ib="$tmp/inbox"
mkdir -p "$ib/home" "$ib/config" "$ib/data" "$ib/bundles"
cp -r "$tmp/bundles/e2e-assistant" "$ib/bundles/"
cat >"$ib/script.json" <<'JSON'
[
  {"text": "Looking at this computer.", "tool_calls": [{"id": "s_1", "name": "device__system_info_get", "arguments": {}}]},
  {"text": "Scheduled check done: this computer is fine."}
]
JSON
start_script_model "$ib/script.json" "$ib/model.out" "inbox block"
ib_db="$ib/config/OpenWorker/journal.db"
mkdir -p "$(dirname "$ib_db")"
"$tmp/openworker" schedule add --db "$ib_db" --coworker e2e-assistant --every 1m --prompt "Check this computer" >"$ib/add.out" 2>&1 ||
  fail "schedule add failed: $(cat "$ib/add.out")"
stop_shown_app
(
  in_app_env "$ib" OPENAI_API_KEY="scripted-test-key" OPENWORKER_COWORKERS="$ib/bundles" OPENWORKER_E2E_ADDR="$hook" \
    OPENWORKER_E2E_SCHEDULE_TICK=2s "$tmp/openworker" --base-url "$script_model_url" --model scripted >"$ib/app.log" 2>&1
) &
pids+=($!)
wait_state '"list_loads":[1-9]' "the app did not start for the inbox block (app log: $(tail -n 5 "$ib/app.log"))"
sleep 1.5
for _ in 1 2 3; do click 1208 103; sleep 0.3; done # the start's notices go
# The schedule is due a minute after it was added: wait up to 100 s.
for _ in $(seq 500); do state | grep -q '"inbox":1' && break; sleep 0.2; done
state | grep -q '"inbox":1' || fail "the scheduled run did not park in the inbox: $(state) (app log: $(tail -n 5 "$ib/app.log"))"
state | grep -q '"schedules":\["ses_[^ ]* waiting on you"\]' || fail "the schedule's run does not say waiting on you: $(state)"
[ "$("$tmp/openworker" inbox list --db "$ib_db" --json | grep -c '"kind": *"approval"')" = 1 ] ||
  fail "the terminal does not see the one open approval: $("$tmp/openworker" inbox list --db "$ib_db" 2>&1)"
sleep 1
import -window root "$shots/inbox-badge.png"
# The Inbox, below the chat list: click it, then Tab to the item's Allow once.
click 60 "$IB_INBOX_Y"
sleep 1
import -window root "$shots/inbox.png"
click "$IB_ALLOW_X" "$IB_ALLOW_Y"
wait_state '"inbox":0' "Allow once in the Inbox did not answer the item"
wait_state '"schedules":\["ses_[^ ]* succeeded"\]' "the parked run did not continue to succeeded"
session="$(state | grep -o '"schedules":\["ses_[^ ]*' | sed 's/.*\["//')"
"$tmp/openworker" journal show --db "$ib_db" --json "$session" >"$ib/show.json" || fail "journal show $session failed"
[ "$(jq '[.invocations[] | select(.tool == "device.system_info_get" and .status == "succeeded")] | length' "$ib/show.json")" = 1 ] &&
  [ "$(jq '.invocations | length' "$ib/show.json")" = 1 ] ||
  fail "the approved call is not journaled once, succeeded: $(jq -c '[.invocations[] | [.tool, .status]]' "$ib/show.json")"
[ "$(jq '[.approvals[] | select(.source == "inbox")] | length' "$ib/show.json")" = 1 ] || fail "the approval is not journaled as answered in the inbox: $(jq -c '.approvals' "$ib/show.json")"
grep -q 'Scheduled check done' "$ib/show.json" || fail "the model's answer after the approval is not in the journal"
sleep 0.5
click 60 206 # the scheduled run's chat, first in the list
sleep 1.5
import -window root "$shots/inbox-resumed.png"
click 60 "$IB_SCHEDULES_Y"
sleep 1
import -window root "$shots/schedules.png"
"$tmp/openworker" journal verify --db "$ib_db" >/dev/null 2>&1 || fail "the journal does not verify after the inbox block: $("$tmp/openworker" journal verify --db "$ib_db" 2>&1)"
# --- end inbox and schedules (issue 36) ---
