# shellcheck shell=bash
# shellcheck disable=SC2154 # the variables are the sourcing script's
# A block of scripts/app-e2e.sh, sourced by it in file-name order: it uses
# the helpers and variables defined there (start_e2e_app, click, wait_state,
# state, fail, $tmp, $shots, $db, ...).
# --- prompts (issue 14) ---
# A coworker that uses server-everything (pinned in harness/mcp/testdata/npm)
# gets its MCP prompts as "/" commands in the composer (docs/app.md#prompts):
# "/args" lists args-prompt, Enter opens its arguments form, "Lyon" and
# Return fill the message box with the prompt's text (nothing is sent),
# and Return sends it: the journal holds it as the turn's user message.
# Its own HOME, config, servers file, bundle and scripted model.
everything="$root/harness/mcp/testdata/npm/node_modules/@modelcontextprotocol/server-everything/dist/index.js"
if ! command -v node >/dev/null || [ ! -f "$everything" ]; then
  [ -z "${CI:-}" ] || fail "prompts: node or server-everything is missing (sh harness/mcp/testdata/npm/install.sh)"
  echo "app-e2e: prompts: skipped (node or server-everything is not installed: sh harness/mcp/testdata/npm/install.sh)"
else
  echo "app-e2e: prompts"
  mkdir -p "$tmp/prompts/home" "$tmp/prompts/config" "$tmp/prompts/data" "$tmp/prompts/bundles/prompter/coworker"
  printf -- '---\nid: prompter\nname: Prompter\ndescription: Uses the prompts of server-everything.\nversion: 1.0.0\n---\nAnswer briefly.\n' \
    > "$tmp/prompts/bundles/prompter/coworker/manifest.md"
  echo '{"version":3,"tools":["everything.echo"]}' > "$tmp/prompts/bundles/prompter/coworker/tools.json"
  printf '{"servers": {"everything": {"transport": "stdio", "command": "%s", "args": ["%s", "stdio"]}}}\n' \
    "$(command -v node)" "$everything" > "$tmp/prompts/servers.json"
  echo '[{"text": "Mild and dry in Lyon.", "delay": "30ms"}]' > "$tmp/prompts/script.json"
  "$tmp/scriptmodel" -script "$tmp/prompts/script.json" -addr 127.0.0.1:0 >"$tmp/prompts/model.out" 2>>"$tmp/model.log" &
  pids+=($!)
  for _ in $(seq 50); do grep -q '^listening ' "$tmp/prompts/model.out" 2>/dev/null && break; sleep 0.1; done
  prompts_model="$(sed -n 's/^listening //p' "$tmp/prompts/model.out")"
  [ -n "$prompts_model" ] || fail "the prompts block's scripted model did not start"
  stop_shown_app
  (
    in_app_env "$tmp/prompts" OPENAI_API_KEY="scripted-test-key" OPENWORKER_COWORKERS="$tmp/prompts/bundles" OPENWORKER_COWORKER="prompter" \
      OPENWORKER_SERVERS="$tmp/prompts/servers.json" OPENWORKER_E2E_ADDR="$hook" \
      "$tmp/openworker" --base-url "$prompts_model" --model scripted >"$tmp/prompts/app.log" 2>&1
  ) &
  pids+=($!)
  wait_state '"session_id"' "no prompter chat opened (app log: $(tail -n 5 "$tmp/prompts/app.log"))"
  sleep 1.5
  xdotool type --delay 40 "/args"
  sleep 1.5
  import -window root "$shots/prompts-list.png"
  xdotool key Return
  sleep 0.8
  import -window root "$shots/prompts-form.png"
  xdotool type --delay 40 "Lyon"
  xdotool key Return
  sleep 1.2
  import -window root "$shots/prompts-filled.png"
  state | grep -q '"turns":\[\]' || fail "choosing a prompt sent something: $(state)"
  xdotool key Return
  wait_state '"turns":\["completed"\]' "the turn with the prompt's text did not complete"
  sleep 0.7
  import -window root "$shots/prompts-sent.png"
  "$tmp/openworker" journal show --db "$tmp/prompts/config/OpenWorker/journal.db" --json >"$tmp/prompts/journal.json" || fail "journal show failed"
  grep -q "What's weather in Lyon?" "$tmp/prompts/journal.json" || fail "the journal has no user message with the prompt's text"
  stop_shown_app
  start_e2e_app "when started again after the prompts steps"
  sleep 1
fi
# --- end prompts (issue 14) ---
