# shellcheck shell=bash
# shellcheck disable=SC2154 # the variables are the sourcing script's
# A block of scripts/app-e2e.sh, sourced by it in file-name order: it uses
# the helpers and variables defined there (start_e2e_app, click, wait_state,
# state, fail, $tmp, $shots, $db, ...).
# --- elicitation (issue 14) ---
# A server's question during a call (docs/app.md#questions): the scripted
# model calls ask.signup of mcptest's askserver (stdio); after the consent
# prompt the question dialog appears in the window with the name field
# focused; the script types a name, goes to Accept with Tab and presses it;
# the call completes with the answer the server got.
echo "app-e2e: elicitation dialog"
go build -o "$tmp/askserver" ./harness/mcp/mcptest/cmd/askserver
printf '{"servers": {"ask": {"type": "stdio", "command": "%s"}}}\n' "$tmp/askserver" > "$tmp/ask-servers.json"
mkdir -p "$tmp/bundles/ask-helper/coworker"
sed 's/e2e-assistant/ask-helper/; s/E2E Assistant/Ask Helper/' "$tmp/bundles/e2e-assistant/coworker/manifest.md" > "$tmp/bundles/ask-helper/coworker/manifest.md"
echo '{"version":3,"tools":["ask.signup"]}' > "$tmp/bundles/ask-helper/coworker/tools.json"
cat > "$tmp/ask-script.json" <<'JSON'
[
  {"text": "Signing you up.", "tool_calls": [{"id": "a_1", "name": "ask__signup", "arguments": {}}]},
  {"text": "You are signed up."}
]
JSON
"$tmp/scriptmodel" -script "$tmp/ask-script.json" -addr 127.0.0.1:0 >"$tmp/ask-model.out" 2>>"$tmp/model.log" &
pids+=($!)
for _ in $(seq 50); do grep -q '^listening ' "$tmp/ask-model.out" 2>/dev/null && break; sleep 0.1; done
ask_model="$(sed -n 's/^listening //p' "$tmp/ask-model.out")"
[ -n "$ask_model" ] || fail "the elicitation's scripted model did not start"
pkill -fx "$tmp/openworker" || true
for _ in $(seq 100); do pgrep -fx "$tmp/openworker" >/dev/null || break; sleep 0.1; done
(
  in_app_env "$tmp" OPENAI_API_KEY="scripted-test-key" OPENWORKER_COWORKERS="$tmp/bundles" OPENWORKER_COWORKER="ask-helper" \
    OPENWORKER_SERVERS="$tmp/ask-servers.json" OPENWORKER_E2E_ADDR="$hook" \
    "$tmp/openworker" --base-url "$ask_model" --model scripted >>"$tmp/app.log" 2>&1
) &
pids+=($!)
wait_state '"session_id"' "no chat with ask-helper opened"
sleep 1.5
xdotool type --delay 20 "Sign me up"
xdotool key Return
wait_state '"pending":1' "no consent dialog for ask.signup"
sleep 0.8
xdotool key alt+o
wait_state '"questions":1' "the server's question did not reach the dialog"
sleep 1
import -window root "$shots/elicitation-dialog.png"
xdotool type --delay 30 "Ada Lovelace"
sleep 0.3
import -window root "$shots/elicitation-filled.png"
xdotool key Tab Tab space
wait_state '"questions":0' "Accept did not answer the question"
wait_state 'ask.signup succeeded .*signed up Ada Lovelace on free' "the call did not complete with the answer"
wait_state '"turns":\["completed"\]' "the turn with the question did not complete"
sleep 0.7
import -window root "$shots/elicitation-answered.png"
"$tmp/openworker" journal verify --db "$db" >/dev/null 2>&1 || fail "the journal does not verify after the question: $("$tmp/openworker" journal verify --db "$db" 2>&1)"
# --- end elicitation (issue 14) ---
