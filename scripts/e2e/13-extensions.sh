# shellcheck shell=bash
# shellcheck disable=SC2154 # the variables are the sourcing script's
# A block of scripts/app-e2e.sh, sourced by it in file-name order: it uses
# the helpers and variables defined there (start_e2e_app, click, wait_state,
# state, fail, $tmp, $shots, $db, ...).
# --- extension installer (issues 15 and 16) ---
# Installing a .mcpb in the window (docs/app.md#opening-an-extension): the
# official mcpb CLI packs the echo server (a static Go MCP server,
# harness/extension/extensiontest/cmd/echoserver) as a binary extension
# whose settings are a sensitive string (api_token) and a directory
# (data_dir). In its own HOME with a real Secret Service (a private D-Bus
# session bus and gnome-keyring-daemon, as the sign-in block), Settings →
# Install extension… (Alt+X) opens the GTK file chooser, which takes the
# path typed after Ctrl+L; the dialog shows the extension, the form is
# filled from the keyboard, "Run it in a sandbox" is ticked with Space
# (docs/sandbox.md#extensions), Return on Install installs, and Esc leaves
# the dialog's last step ("Give these tools to…") at Not now. Then, without
# a restart, the coworker echo-keeper (echo.echo) gets a Start chat; its
# call asks for approval (installing grants none) with the Access row
# "sandboxed: …", runs inside the sandbox, and the journal has it
# succeeded under the sandboxed placement. The row's Sandbox switch in
# Settings turns it off; Remove (confirmed in its row) takes it away. The token is in no file of the run.
ext_node="$(command -v node || true)"
ext_cli="$root/harness/mcp/testdata/npm/node_modules/@anthropic-ai/mcpb/dist/cli/cli.js"
ext_bus="$(command -v dbus-daemon || true)"; ext_keyring="$(command -v gnome-keyring-daemon || true)"
if [ -z "$ext_node" ] || [ ! -f "$ext_cli" ] || [ -z "$ext_bus" ] || [ -z "$ext_keyring" ] || ! command -v xclip >/dev/null; then
  [ -z "${CI:-}" ] || fail "extensions: node, the mcpb CLI, dbus-daemon, gnome-keyring-daemon or xclip is missing"
  echo "app-e2e: extensions: skipped (node, sh harness/mcp/testdata/npm/install.sh, dbus, gnome-keyring or xclip is missing)"
else
  echo "app-e2e: extension installer"
  ex="$tmp/extensions"
  mkdir -p "$ex/home/Downloads" "$ex/config" "$ex/data" "$ex/run" "$ex/notes" "$ex/src/server" "$ex/bundles/echo-keeper/coworker"
  chmod 700 "$ex/run"
  ext_token="tok-e2e-$RANDOM$RANDOM-secret"
  cat > "$ex/src/manifest.json" <<'JSON'
{
  "manifest_version": "0.3", "name": "echo", "display_name": "Echo (e2e)", "version": "1.0.0",
  "description": "A Go MCP server that echoes, packed by the e2e test.",
  "author": {"name": "OpenWorker e2e", "email": "e2e@example.com"},
  "server": {"type": "binary", "entry_point": "server/echoserver", "mcp_config": {
    "command": "${__dirname}/server/echoserver", "args": ["--dir", "${__dirname}"],
    "env": {"ECHO_PREFIX": "e2e", "ECHO_TOKEN": "${user_config.api_token}", "ECHO_WORKDIR": "${user_config.data_dir}"}}},
  "tools": [{"name": "echo", "description": "Echo a text"}, {"name": "settings", "description": "Show the settings"}],
  "user_config": {
    "api_token": {"type": "string", "title": "API token", "description": "A secret the server is given.", "sensitive": true, "required": true},
    "data_dir": {"type": "directory", "title": "Data folder", "description": "A folder it may write in.", "required": true}
  },
  "compatibility": {"platforms": ["darwin", "win32", "linux"]}
}
JSON
  CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o "$ex/src/server/echoserver" ./harness/extension/extensiontest/cmd/echoserver ||
    fail "go build echoserver failed"
  "$ext_node" "$ext_cli" pack "$ex/src" "$ex/home/Downloads/echo.mcpb" >"$ex/pack.log" 2>&1 ||
    fail "mcpb pack failed: $(tail -n 5 "$ex/pack.log")"
  sed 's/e2e-assistant/echo-keeper/; s/E2E Assistant/Echo Keeper/' "$tmp/bundles/e2e-assistant/coworker/manifest.md" \
    > "$ex/bundles/echo-keeper/coworker/manifest.md"
  echo '{"version":3,"tools":["echo.echo"]}' > "$ex/bundles/echo-keeper/coworker/tools.json"
  cat > "$ex/script.json" <<'JSON'
[
  {"text": "Echoing it.", "tool_calls": [{"id": "e_1", "name": "echo__echo", "arguments": {"text": "hello from the sandbox"}}]},
  {"text": "It came back: e2e: hello from the sandbox."}
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
  printf '%s' "$ex/home/Downloads/echo.mcpb" | xclip -selection clipboard -quiet >/dev/null 2>&1 &
  ex_clip=$!
  pids+=("$ex_clip")
  sleep 0.3
  xdotool key ctrl+l
  sleep 0.3
  xdotool key ctrl+v
  sleep 0.5
  xdotool key Return
  kill "$ex_clip" 2>/dev/null || true
  wait_state "\"previews\":\[\"$ex/home/Downloads/echo.mcpb\"\]" "the install dialog did not show echo.mcpb"
  sleep 1.2
  # The first field has the focus: API token (sensitive), then Data folder.
  xdotool type --delay 10 "$ext_token"
  xdotool key Tab
  xdotool type --delay 10 "$ex/notes"
  # Tab past Choose… to "Run it in a sandbox"; Space ticks it; Tab to
  # Install, Return installs (Return on the box itself does nothing).
  xdotool key Tab Tab space
  sleep 0.5
  import -window root "$shots/extension-dialog.png"
  xdotool key Tab Return
  wait_state '"extensions":\["echo 1.0.0 echo"\]' "Install did not install the extension (app log: $(tail -n 5 "$ex/app.log"))"
  grep -q '"sandbox"' "$ex/config/OpenWorker/extensions/echo/installed.json" ||
    fail "the extension was installed without the sandbox ticked in the dialog: $(cat "$ex/config/OpenWorker/extensions/echo/installed.json")"
  # The dialog ends with "Give these tools to…" (docs/app.md#one-step-tools):
  # echo-keeper selects echo.echo already, so Esc (Not now).
  wait_state '"catalog 1"' "the install dialog did not end with Give these tools to…"
  sleep 0.5
  xdotool key Escape
  sleep 1
  xdotool mousemove --window "$(perm_win)" 700 500
  xdotool click --repeat 40 --delay 20 5 # to the bottom: Extensions lists it
  sleep 0.8
  import -window root "$shots/extensions-settings.png"
  # No restart: the coworker that needs echo.echo can start now.
  click 60 69
  sleep 1.2
  import -window root "$shots/extension-coworkers.png"
  # Start chat of echo-keeper, the one card, at the foot of the card: its
  # height depends on the lines above (the provider line once checked, the
  # sandbox's words, the "Uses extension" line, wrapped or not), so try downwards from the
  # lowest it can be until a chat opens (a click on the card's text does
  # nothing).
  for y in $(seq 232 12 460); do
    click 300 "$y"
    for _ in $(seq 5); do state | grep -q '"session_id"' && break 2; sleep 0.2; done
  done
  wait_state '"session_id"' "Start chat of echo-keeper did not open a chat after the install"
  sleep 1.5
  xdotool type --delay 20 "Echo something, please."
  xdotool key Return
  wait_state '"pending":1' "no consent dialog for echo.echo (installing grants no approval)"
  wait_state '"pending_access":\["sandboxed: ' "the consent request for echo.echo does not say it is sandboxed: $(state)"
  sleep 0.8
  import -window root "$shots/extension-consent.png"
  xdotool key alt+o
  wait_state 'echo.echo succeeded' "echo.echo did not succeed inside the sandbox"
  wait_state '"turns":\["completed"\]' "the turn with echo.echo did not complete"
  sleep 0.7
  import -window root "$shots/extension-called.png"
  "$tmp/openworker" journal show --db "$ex/config/OpenWorker/journal.db" --json >"$ex/journal.json" || fail "journal show failed (extensions)"
  grep -q '"tool": *"echo.echo"' "$ex/journal.json" || fail "the journal has no echo.echo invocation"
  grep -Eq '"status": *"succeeded"' "$ex/journal.json" || fail "echo.echo did not succeed in the journal"
  grep -Eq '"decision": *"allow_once"' "$ex/journal.json" || fail "echo.echo ran without an approval"
  grep -Eq '"placement": *"on this computer \(sandboxed: ' "$ex/journal.json" || fail "the journal does not record the call's sandbox: $(grep -o '"placement": *"[^"]*"' "$ex/journal.json")"
  grep -q 'e2e: hello from the sandbox' "$ex/journal.json" || fail "the journal has not the echo's answer"
  leaked="$(grep -rlaF "$ext_token" "$ex" "$tmp/config" "$tmp/data" "$tmp/app.log" || true)"
  [ -z "$leaked" ] || fail "the sensitive value is in $leaked (installed)"
  # Settings → Extensions → Remove, Yes, remove: gone for new chats, its
  # keychain value too (the record lists it no more).
  xdotool key ctrl+comma
  sleep 1
  xdotool mousemove --window "$(perm_win)" 700 500
  xdotool click --repeat 40 --delay 20 5
  sleep 0.8
  # The Sandbox switch of the row ("Sandboxed"), off: the record loses its
  # sandbox. (The window perm_win finds is at 10,10 of the screen.)
  click 976 263 # (Settings opens on Extensions again: the section chosen last)
  for _ in $(seq 25); do grep -q '"sandbox"' "$ex/config/OpenWorker/extensions/echo/installed.json" || break; sleep 0.2; done
  ! grep -q '"sandbox"' "$ex/config/OpenWorker/extensions/echo/installed.json" ||
    fail "the Sandbox switch in Settings did not turn the sandbox off (app log: $(grep -i sandbox "$ex/config/OpenWorker/logs/openworker.log" | tail -n 5))"
  sleep 0.5
  import -window root "$shots/extensions-settings-full-access.png"
  click 1141 267 # Remove of the one row
  sleep 0.5
  import -window root "$shots/extension-remove.png"
  xdotool key Return # Yes, remove (it has the focus)
  wait_state '"extensions":\[\]' "Remove did not remove the extension"
  [ ! -e "$ex/config/OpenWorker/extensions/echo" ] || fail "the extension's folder stayed after Remove"
  stop_shown_app
  leaked="$(grep -rlaF "$ext_token" "$ex" "$tmp/config" "$tmp/data" "$tmp/app.log" || true)"
  [ -z "$leaked" ] || fail "the sensitive value is in $leaked"
  start_e2e_app "when started again after the extension steps"
  sleep 1
fi
# --- end extension installer (issues 15 and 16) ---
