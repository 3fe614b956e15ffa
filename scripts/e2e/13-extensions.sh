# shellcheck shell=bash
# shellcheck disable=SC2154 # the variables are the sourcing script's
# A block of scripts/app-e2e.sh, sourced by it in file-name order: it uses
# the helpers and variables defined there (start_e2e_app, click, wait_state,
# state, fail, $tmp, $shots, $db, ...).
# --- extension installer (issue 15) ---
# Installing a .mcpb in the window (docs/app.md#opening-an-extension): the
# official mcpb CLI packs @modelcontextprotocol/server-memory as a node
# extension whose settings are a directory (data_dir) and a sensitive
# string (api_token). In its own HOME with a real Secret Service (a
# private D-Bus session bus and gnome-keyring-daemon, as the sign-in
# block), Settings → Install extension… (Alt+X) opens the GTK file
# chooser, which takes the path typed after Ctrl+L; the dialog shows the
# extension, the form is filled from the keyboard, Return installs. Then,
# without a restart, the coworker memory-keeper (memory.read_graph) gets a
# Start chat; its call asks for approval (installing grants none), runs,
# and the journal has it succeeded. Remove (confirmed in its row) takes it
# away. The token is in no file of the run.
ext_node="$(command -v node || true)"
ext_cli="$root/harness/mcp/testdata/npm/node_modules/@anthropic-ai/mcpb/dist/cli/cli.js"
ext_memory="$root/harness/mcp/testdata/npm/node_modules/@modelcontextprotocol/server-memory/dist/index.js"
ext_bus="$(command -v dbus-daemon || true)"; ext_keyring="$(command -v gnome-keyring-daemon || true)"
if [ -z "$ext_node" ] || [ ! -f "$ext_cli" ] || [ ! -f "$ext_memory" ] || [ -z "$ext_bus" ] || [ -z "$ext_keyring" ] || ! command -v xclip >/dev/null; then
  [ -z "${CI:-}" ] || fail "extensions: node, the mcpb CLI, server-memory, dbus-daemon, gnome-keyring-daemon or xclip is missing"
  echo "app-e2e: extensions: skipped (node, sh harness/mcp/testdata/npm/install.sh, dbus, gnome-keyring or xclip is missing)"
else
  echo "app-e2e: extension installer"
  ex="$tmp/extensions"
  mkdir -p "$ex/home/Downloads" "$ex/config" "$ex/data" "$ex/run" "$ex/notes" "$ex/src/server" "$ex/bundles/memory-keeper/coworker"
  chmod 700 "$ex/run"
  ext_token="tok-e2e-$RANDOM$RANDOM-secret"
  cat > "$ex/src/manifest.json" <<'JSON'
{
  "manifest_version": "0.3", "name": "memory", "display_name": "Memory (e2e)", "version": "1.0.0",
  "description": "A knowledge graph memory, packed by the e2e test.",
  "author": {"name": "OpenWorker e2e", "email": "e2e@example.com"},
  "server": {"type": "node", "entry_point": "server/index.mjs", "mcp_config": {
    "command": "node", "args": ["${__dirname}/server/index.mjs"],
    "env": {"MEMORY_FILE_PATH": "${user_config.data_dir}/memory.jsonl", "API_TOKEN": "${user_config.api_token}"}}},
  "tools": [{"name": "create_entities", "description": "Create entities"}, {"name": "read_graph", "description": "Read the graph"}],
  "user_config": {
    "api_token": {"type": "string", "title": "API token", "description": "A secret the server is given.", "sensitive": true, "required": true},
    "data_dir": {"type": "directory", "title": "Data folder", "description": "Where the memory file is kept.", "required": true}
  },
  "compatibility": {"platforms": ["darwin", "win32", "linux"], "runtimes": {"node": ">=18.0.0"}}
}
JSON
  printf '// server-memory, as installed for the tests\nawait import("file://%s");\n' "$ext_memory" > "$ex/src/server/index.mjs"
  "$ext_node" "$ext_cli" pack "$ex/src" "$ex/home/Downloads/memory.mcpb" >"$ex/pack.log" 2>&1 ||
    fail "mcpb pack failed: $(tail -n 5 "$ex/pack.log")"
  sed 's/e2e-assistant/memory-keeper/; s/E2E Assistant/Memory Keeper/' "$tmp/bundles/e2e-assistant/coworker/manifest.md" \
    > "$ex/bundles/memory-keeper/coworker/manifest.md"
  echo '{"version":3,"tools":["memory.read_graph"]}' > "$ex/bundles/memory-keeper/coworker/tools.json"
  cat > "$ex/script.json" <<'JSON'
[
  {"text": "Reading the memory.", "tool_calls": [{"id": "m_1", "name": "memory__read_graph", "arguments": {}}]},
  {"text": "The memory is empty so far."}
]
JSON
  start_script_model "$ex/script.json" "$ex/model.out" extensions
  ex_model="$script_model_url"
  start_keyring "$ex" extensions
  ex_bus="$keyring_bus"
  stop_shown_app
  (
    in_app_env "$ex" XDG_RUNTIME_DIR="$ex/run" DBUS_SESSION_BUS_ADDRESS="$ex_bus" OPENAI_API_KEY="scripted-test-key" \
      OPENWORKER_COWORKERS="$ex/bundles" OPENWORKER_E2E_ADDR="$hook" \
      "$tmp/openworker" --base-url "$ex_model" --model scripted >"$ex/app.log" 2>&1
  ) &
  pids+=($!)
  wait_state '"list_loads":[1-9]' "the app did not start for the extension block (app log: $(tail -n 5 "$ex/app.log"))"
  sleep 1.5
  xdotool key ctrl+comma
  sleep 1
  xdotool key alt+x # Settings → Install extension…: the GTK file chooser
  sleep 1.5
  # The path goes in by the clipboard: typed, the location box's inline
  # completion of /tmp/openworker-… can mangle it.
  printf '%s' "$ex/home/Downloads/memory.mcpb" | xclip -selection clipboard -quiet >/dev/null 2>&1 &
  ex_clip=$!
  pids+=("$ex_clip")
  sleep 0.3
  xdotool key ctrl+l
  sleep 0.3
  xdotool key ctrl+v
  sleep 0.5
  xdotool key Return
  kill "$ex_clip" 2>/dev/null || true
  wait_state "\"previews\":\[\"$ex/home/Downloads/memory.mcpb\"\]" "the install dialog did not show memory.mcpb"
  sleep 1.2
  # The first field has the focus: API token (sensitive), then Data folder.
  xdotool type --delay 10 "$ext_token"
  xdotool key Tab
  xdotool type --delay 10 "$ex/notes"
  sleep 0.5
  import -window root "$shots/extension-dialog.png"
  xdotool key Return
  wait_state '"extensions":\["memory 1.0.0 memory"\]' "Return in the form did not install the extension (app log: $(tail -n 5 "$ex/app.log"))"
  sleep 1
  xdotool mousemove --window "$(perm_win)" 700 500
  xdotool click --repeat 40 --delay 20 5 # to the bottom: Extensions lists it
  sleep 0.8
  import -window root "$shots/extensions-settings.png"
  # No restart: the coworker that needs memory.read_graph can start now.
  click 60 69
  sleep 1.2
  import -window root "$shots/extension-coworkers.png"
  # Start chat of memory-keeper, the one card, at the foot of the card: its
  # height depends on the lines above (the provider line once checked, the
  # "Uses extension" line, wrapped or not), so try downwards from the
  # lowest it can be until a chat opens (a click on the card's text does
  # nothing).
  for y in $(seq 232 12 400); do
    click 300 "$y"
    for _ in $(seq 5); do state | grep -q '"session_id"' && break 2; sleep 0.2; done
  done
  wait_state '"session_id"' "Start chat of memory-keeper did not open a chat after the install"
  sleep 1.5
  xdotool type --delay 20 "What do you remember?"
  xdotool key Return
  wait_state '"pending":1' "no consent dialog for memory.read_graph (installing grants no approval)"
  sleep 0.8
  xdotool key alt+o
  wait_state 'memory.read_graph succeeded' "memory.read_graph did not succeed"
  wait_state '"turns":\["completed"\]' "the turn with memory.read_graph did not complete"
  sleep 0.7
  import -window root "$shots/extension-called.png"
  "$tmp/openworker" journal show --db "$ex/config/OpenWorker/journal.db" --json >"$ex/journal.json" || fail "journal show failed (extensions)"
  grep -q '"tool": *"memory.read_graph"' "$ex/journal.json" || fail "the journal has no memory.read_graph invocation"
  grep -Eq '"status": *"succeeded"' "$ex/journal.json" || fail "memory.read_graph did not succeed in the journal"
  grep -Eq '"decision": *"allow_once"' "$ex/journal.json" || fail "memory.read_graph ran without an approval"
  leaked="$(grep -rlaF "$ext_token" "$ex" "$tmp/config" "$tmp/data" "$tmp/app.log" || true)"
  [ -z "$leaked" ] || fail "the sensitive value is in $leaked (installed)"
  # Settings → Extensions → Remove, Yes, remove: gone for new chats, its
  # keychain value too (the record lists it no more).
  xdotool key ctrl+comma
  sleep 1
  xdotool mousemove --window "$(perm_win)" 700 500
  xdotool click --repeat 40 --delay 20 5
  sleep 0.8
  click 1081 478 # Remove of the one row
  sleep 0.5
  import -window root "$shots/extension-remove.png"
  xdotool key Return # Yes, remove (it has the focus)
  wait_state '"extensions":\[\]' "Remove did not remove the extension"
  [ ! -e "$ex/config/OpenWorker/extensions/memory" ] || fail "the extension's folder stayed after Remove"
  stop_shown_app
  leaked="$(grep -rlaF "$ext_token" "$ex" "$tmp/config" "$tmp/data" "$tmp/app.log" || true)"
  [ -z "$leaked" ] || fail "the sensitive value is in $leaked"
  start_e2e_app "when started again after the extension steps"
  sleep 1
fi
# --- end extension installer (issue 15) ---
