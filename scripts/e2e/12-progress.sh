# shellcheck shell=bash
# shellcheck disable=SC2154 # the variables are the sourcing script's
# A block of scripts/app-e2e.sh, sourced by it in file-name order: it uses
# the helpers and variables defined there (start_e2e_app, click, wait_state,
# state, fail, $tmp, $shots, $db, ...).
# --- progress (issue 14) ---
# Progress on the tool card (docs/app.md#long-content): the scripted model
# calls server-everything's trigger-long-running-operation (6 s, 5 steps;
# the server sends progress with numbers and no message); after the
# consent prompt the collapsed running card shows "N of 5 (P%)" and a bar;
# then the call succeeds and the row shows the result.
everything="$root/harness/mcp/testdata/npm/node_modules/@modelcontextprotocol/server-everything/dist/index.js"
if ! command -v node >/dev/null || [ ! -f "$everything" ]; then
  [ -z "${CI:-}" ] || fail "progress: node or server-everything is missing (sh harness/mcp/testdata/npm/install.sh)"
  echo "app-e2e: progress: skipped (node or server-everything is not installed: sh harness/mcp/testdata/npm/install.sh)"
else
  echo "app-e2e: progress"
  printf '{"servers": {"everything": {"transport": "stdio", "command": "%s", "args": ["%s", "stdio"]}}}\n' \
    "$(command -v node)" "$everything" > "$tmp/progress-servers.json"
  mkdir -p "$tmp/bundles/waiter/coworker"
  sed 's/e2e-assistant/waiter/; s/E2E Assistant/Waiter/' "$tmp/bundles/e2e-assistant/coworker/manifest.md" > "$tmp/bundles/waiter/coworker/manifest.md"
  echo '{"version":3,"tools":["everything.trigger-long-running-operation"]}' > "$tmp/bundles/waiter/coworker/tools.json"
  cat > "$tmp/progress-script.json" <<'JSON'
[
  {"text": "Starting the long operation.", "tool_calls": [{"id": "p_1", "name": "everything__trigger-long-running-operation", "arguments": {"duration": 6, "steps": 5}}]},
  {"text": "The long operation finished."}
]
JSON
  "$tmp/scriptmodel" -script "$tmp/progress-script.json" -addr 127.0.0.1:0 >"$tmp/progress-model.out" 2>>"$tmp/model.log" &
  pids+=($!)
  for _ in $(seq 50); do grep -q '^listening ' "$tmp/progress-model.out" 2>/dev/null && break; sleep 0.1; done
  progress_model="$(sed -n 's/^listening //p' "$tmp/progress-model.out")"
  [ -n "$progress_model" ] || fail "the progress block's scripted model did not start"
  stop_shown_app
  (
    in_app_env "$tmp" OPENAI_API_KEY="scripted-test-key" OPENWORKER_COWORKERS="$tmp/bundles" OPENWORKER_COWORKER="waiter" \
      OPENWORKER_SERVERS="$tmp/progress-servers.json" OPENWORKER_E2E_ADDR="$hook" \
      "$tmp/openworker" --base-url "$progress_model" --model scripted >>"$tmp/app.log" 2>&1
  ) &
  pids+=($!)
  wait_state '"session_id"' "no chat with waiter opened"
  sleep 1.5
  xdotool type --delay 20 "Run the long operation"
  xdotool key Return
  wait_state '"pending":1' "no consent dialog for trigger-long-running-operation"
  sleep 0.8
  xdotool key alt+o
  wait_state '"pending":0' "the consent dialog did not close"
  sleep 3
  import -window root "$shots/progress.png"
  wait_state 'trigger-long-running-operation succeeded' "the long-running call did not succeed"
  wait_state '"turns":\["completed"\]' "the turn with the long-running call did not complete"
  sleep 0.7
  import -window root "$shots/progress-done.png"
fi
# --- end progress (issue 14) ---
