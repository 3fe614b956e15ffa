# shellcheck shell=bash
# shellcheck disable=SC2154 # the variables are the sourcing script's
# A block of scripts/app-e2e.sh, sourced by it in file-name order: it uses
# the helpers and variables defined there (start_e2e_app, click, wait_state,
# state, fail, $tmp, $shots, $db, ...).
# --- chats sidebar (issue 12) ---
# The sidebar lists every journaled chat, newest first, titled by its
# first prompt (docs/app.md#chats); the list survives a restart on the same
# HOME and config; the search box finds a chat by a word of its messages.
# /state says what the journal lists first (listed), how often the window
# read the list (list_loads) and the newest search it asked for
# (searched); the screenshots show what the sidebar drew. Its own
# scripted model, HOME and config (so its own journal: what ran before,
# such as journalbench's sessions dated after now, does not matter).
echo "app-e2e: chats sidebar"
cat > "$tmp/chats-script.json" <<'JSON'
[{"text": "This is a Linux computer; its host name is quokka.", "delay": "30ms"}]
JSON
"$tmp/scriptmodel" -script "$tmp/chats-script.json" -addr 127.0.0.1:0 >"$tmp/chats-model.out" 2>>"$tmp/model.log" &
pids+=($!)
for _ in $(seq 50); do grep -q '^listening ' "$tmp/chats-model.out" 2>/dev/null && break; sleep 0.1; done
chats_model="$(sed -n 's/^listening //p' "$tmp/chats-model.out")"
[ -n "$chats_model" ] || fail "the chats sidebar's scripted model did not start"
mkdir -p "$tmp/chats/home" "$tmp/chats/config" "$tmp/chats/data"
chats_start() { # chats_start LOG [ENV=VALUE...]: the app on this block's HOME, config and model
  local log="$1"
  shift
  (
    in_app_env "$tmp/chats" OPENAI_API_KEY="scripted-test-key" OPENWORKER_COWORKERS="$tmp/bundles" \
      OPENWORKER_E2E_ADDR="$hook" "$@" "$tmp/openworker" --base-url "$chats_model" --model scripted >"$log" 2>&1
  ) &
  pids+=($!)
}
chats_window() { # the app's window, once the window has read the chat list
  for _ in $(seq 100); do state | grep -q '"list_loads":[1-9]' && break; sleep 0.2; done
  state | grep -q '"list_loads":[1-9]' || fail "the window did not read the chat list within 20 s: $(state)"
  win="$(xdotool search --onlyvisible --name '^OpenWorker$' | head -n1 || true)"
  [ -n "$win" ] || fail "no OpenWorker window"
}
stop_shown_app
chats_start "$tmp/app-chats.log" OPENWORKER_COWORKER=e2e-assistant
for _ in $(seq 100); do state | grep -q '"session_id"' && break; sleep 0.2; done
chats_session="$(state | grep -o '"session_id":"[^"]*"' | head -n1 | cut -d'"' -f4 || true)"
[ -n "$chats_session" ] || fail "no chat opened for the chats sidebar steps: $(state)"
chats_window
sleep 1
xdotool type --delay 20 "What computer am I on?"
xdotool key Return
for _ in $(seq 150); do state | grep -q '"turns":\["completed"\]' && break; sleep 0.2; done
state | grep -q '"turns":\["completed"\]' || fail "the chats sidebar's turn did not complete: $(state)"
# Newest first: the chat heads the list, titled by its prompt.
chats_first() { state | grep -q "\"listed\":\[{\"id\":\"$chats_session\",\"title\":\"What computer am I on?\"}"; }
for _ in $(seq 25); do chats_first && break; sleep 0.2; done
chats_first || fail "chat $chats_session does not head the list titled \"What computer am I on?\": $(state | cut -c1-600)"
xdotool mousemove --window "$win" 700 760
sleep 0.7
import -window root "$shots/chats.png"

# Quit and start again on the same HOME and config (this block's), opening
# no chat: the chat is still listed, first.
echo "app-e2e: restarting the app"
stop_shown_app
chats_start "$tmp/app-chats-restarted.log"
chats_window
chats_first || fail "after a restart chat $chats_session is not listed first: $(state | cut -c1-600)"
sleep 1.5
import -window root "$shots/chats-after-restart.png"

# Search for a word of the model's answer, not of the title: the search
# box (in the Chats header) asks the journal's index.
xdotool mousemove --window "$win" 150 174 click 1
sleep 0.3
xdotool type --delay 40 "quokka"
chats_found() { state | grep -q "\"searched\":{\"text\":\"quokka\",\"found\":\[\"$chats_session\"\]}"; }
for _ in $(seq 50); do chats_found && break; sleep 0.2; done
chats_found || fail "searching the chats for \"quokka\" did not find only $chats_session: $(state | grep -o '"searched":.*')"
sleep 0.7
import -window root "$shots/chats-search.png"
# Leave the app as this block found it: on the e2e's HOME and config, a
# chat open (so that a block after this one starts from the same place).
stop_shown_app
start_e2e_app "when started again after the chats sidebar steps"
sleep 1
# --- end chats sidebar (issue 12) ---
