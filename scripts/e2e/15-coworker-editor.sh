# shellcheck shell=bash
# shellcheck disable=SC2154 # the variables are the sourcing script's
# A block of scripts/app-e2e.sh, sourced by it in file-name order: it uses
# the helpers and variables defined there (start_e2e_app, click, wait_state,
# state, fail, $tmp, $shots, $db, ...).
# --- coworker editor and one-step tools (issue 34) ---
# In its own HOME, with a Claude Desktop config naming an MCP server "kit"
# (the Go echo server) and a scripted model that records what each request
# offered (-record): Settings → Alt+M imports kit (the dialog's last step,
# "Give these tools to…", is left with Esc); Coworkers → New coworker… →
# the Files assistant template opens the editor, where the keyboard finds
# the tools' filter, ticks kit.echo, types the working folder, and Ctrl+S
# saves; Start chat: the model is offered kit__echo beside the template's
# files tools, under the template's instructions. The instructions edited
# and saved again are what the next chat's model is told. Delete (in the
# editor) moves the coworker to the trash; Undo on the toast puts it back.
# Then a second start hands a .mcpb to the running app: its install dialog
# installs it with Return and ends with "Give these tools to…", where
# Return makes a new coworker named after the extension with its tools,
# whose chat offers them (docs/app.md#coworker-editor,
# docs/app.md#one-step-tools).
ed_node="$(command -v node || true)"
ed_cli="$root/harness/mcp/testdata/npm/node_modules/@anthropic-ai/mcpb/dist/cli/cli.js"
if [ -z "$ed_node" ] || [ ! -f "$ed_cli" ]; then
  [ -z "${CI:-}" ] || fail "coworker editor: node or the mcpb CLI is missing"
  echo "app-e2e: coworker editor: skipped (node, sh harness/mcp/testdata/npm/install.sh)"
else
  echo "app-e2e: coworker editor"
  # Where things are, in window coordinates (of the window perm_win finds,
  # at 10,10 of the screen; the app's is 1240x820 at 20,20): the
  # Coworkers header's New coworker…; the editor's sticky header (its
  # buttons are right-aligned: Delete, Open folder, Start chat, Close,
  # Save); x of the first card's Start chat and Edit (y varies with the
  # card: scanned); the Undo of the one toast (top right).
  ED_NEW_X=1160 ED_NEW_Y=40 ED_HEADER_Y=42 ED_DELETE_X=830 ED_START_X=1040
  ED_CARD_START_X=314 ED_EDIT_X=396 ED_UNDO_X=1157 ED_UNDO_Y=103
  ed="$tmp/editor"
  mkdir -p "$ed/home/Downloads" "$ed/config/Claude" "$ed/data" "$ed/bundles" "$ed/work" "$ed/src/server"
  printf 'Buy milk.\n' >"$ed/work/todo.txt"
  CGO_ENABLED=0 go build -trimpath -o "$ed/kitserver" ./harness/extension/extensiontest/cmd/echoserver || fail "go build echoserver failed"
  cat >"$ed/config/Claude/claude_desktop_config.json" <<JSON
{"mcpServers": {"kit": {"command": "$ed/kitserver", "env": {"ECHO_PREFIX": "kit"}}}}
JSON
  # The .mcpb of part (b): the echo server, with one optional setting.
  cp "$ed/kitserver" "$ed/src/server/echoserver"
  cat >"$ed/src/manifest.json" <<'JSON'
{
  "manifest_version": "0.3", "name": "echo", "display_name": "Echo (e2e)", "version": "1.0.0",
  "description": "A Go MCP server that echoes, packed by the e2e test.",
  "author": {"name": "OpenWorker e2e"},
  "server": {"type": "binary", "entry_point": "server/echoserver", "mcp_config": {
    "command": "${__dirname}/server/echoserver", "args": ["--dir", "${__dirname}"], "env": {"ECHO_PREFIX": "${user_config.prefix}"}}},
  "tools": [{"name": "echo", "description": "Echo a text"}, {"name": "settings", "description": "Show the settings"}],
  "user_config": {"prefix": {"type": "string", "title": "Prefix", "description": "What the echo starts with.", "default": "e2e"}},
  "compatibility": {"platforms": ["darwin", "win32", "linux"]}
}
JSON
  "$ed_node" "$ed_cli" pack "$ed/src" "$ed/home/Downloads/echo.mcpb" >"$ed/pack.log" 2>&1 || fail "mcpb pack failed: $(tail -n 5 "$ed/pack.log")"
  cat >"$ed/script.json" <<'JSON'
[
  {"text": "Your folder holds todo.txt."},
  {"text": "Votre dossier contient todo.txt."},
  {"text": "Echo is ready."}
]
JSON
  rec="$ed/requests.jsonl"
  "$tmp/scriptmodel" -script "$ed/script.json" -addr 127.0.0.1:0 -record "$rec" >"$ed/model.out" 2>>"$tmp/model.log" &
  pids+=($!)
  for _ in $(seq 50); do grep -q '^listening ' "$ed/model.out" 2>/dev/null && break; sleep 0.1; done
  ed_model="$(sed -n 's/^listening //p' "$ed/model.out")"
  [ -n "$ed_model" ] || fail "coworker editor: the scripted model did not start"
  stop_shown_app
  (
    in_app_env "$ed" OPENAI_API_KEY="scripted-test-key" OPENWORKER_COWORKERS="$ed/bundles" OPENWORKER_E2E_ADDR="$hook" \
      "$tmp/openworker" --base-url "$ed_model" --model scripted >"$ed/app.log" 2>&1
  ) &
  pids+=($!)
  wait_state '"list_loads":[1-9]' "the app did not start for the editor block (app log: $(tail -n 5 "$ed/app.log"))"
  sleep 1.5
  # The start's notices (notifications unavailable without D-Bus) go, so
  # the Undo toast below is the one at the top.
  for _ in 1 2 3; do click 1208 103; sleep 0.3; done
  # recorded N FIELD: the JSON of the Nth model request (from 1).
  recorded() { for _ in $(seq 150); do [ "$(wc -l <"$rec" 2>/dev/null || echo 0)" -ge "$1" ] && break; sleep 0.2; done; sed -n "${1}p" "$rec"; }
  # editor_count: how many times the editor opened something (GET /state "editor").
  editor_count() { state | grep -o '"editor":\[[^]]*\]' | grep -o '"new \|"edit ' | wc -l; }
  # catalog_count: how many times a tool list was read for the editor or Give tools.
  catalog_count() { state | grep -o '"editor":\[[^]]*\]' | grep -o '"catalog ' | wc -l; }

  # (a) Import kit from Claude Desktop's config: Alt+M in Settings.
  xdotool key ctrl+comma
  sleep 1
  xdotool key alt+m
  sleep 1.5
  import -window root "$shots/editor-import-found.png"
  xdotool key Tab Return # the one config found: its preview
  sleep 1.5
  xdotool key Tab Return # Import 1 server
  for _ in $(seq 100); do grep -qs '"kit"' "$ed/config/OpenWorker/servers.json" && break; sleep 0.2; done
  grep -qs '"kit"' "$ed/config/OpenWorker/servers.json" || fail "Import 1 server did not write kit to the servers file: $(ls "$ed/config/OpenWorker")"
  wait_state '"catalog 1"' "the import's last step did not list kit's tools"
  sleep 1
  import -window root "$shots/editor-import-give.png"
  xdotool key Escape # Not now
  sleep 0.8

  # New coworker… → the Files assistant template → the editor.
  click 60 69
  sleep 1
  for _ in 1 2 3 4 5; do # a press that comes with the motion can be dropped: again until the dialog asks for the templates
    click "$ED_NEW_X" "$ED_NEW_Y"
    for _ in $(seq 10); do state | grep -q '"templates"' && break 2; sleep 0.2; done
  done
  wait_state '"templates"' "New coworker… did not open its dialog"
  sleep 1
  import -window root "$shots/editor-new.png"
  # Blank first, then the templates by name: ↓ to the Files assistant.
  files_at="$(for m in examples/coworkers/*/coworker/manifest.md; do sed -n 's/^name: //p' "$m"; done | sort | grep -n '^Files' | cut -d: -f1)"
  [ -n "$files_at" ] || fail "no Files template in examples/coworkers"
  for _ in $(seq "$files_at"); do xdotool key Down; sleep 0.1; done
  catalogs="$(catalog_count)"
  xdotool key Return
  wait_state '"new files-assistant"' "the New coworker dialog did not open the Files assistant template"
  for _ in $(seq 150); do [ "$(catalog_count)" -gt "$catalogs" ] && break; sleep 0.2; done
  [ "$(catalog_count)" -gt "$catalogs" ] || fail "the editor did not list the tools: $(state)"
  sleep 1
  import -window root "$shots/editor-template.png"
  # From Name: Description, Id, Version, then the working folder.
  xdotool key Tab Tab Tab Tab
  xdotool type --delay 10 "$ed/work"
  # Choose…, Write, Preview, Instructions, then the tools' filter.
  xdotool key Tab Tab Tab Tab Tab
  xdotool type --delay 20 "kit.echo"
  sleep 0.5
  xdotool key Tab Tab Tab space # Look again, all of kit, kit.echo: ticked
  sleep 0.8
  import -window root "$shots/editor-filled.png"
  xdotool key ctrl+s
  cw="$ed/bundles/files-assistant/coworker"
  for _ in $(seq 100); do grep -qs '"kit.echo"' "$cw/tools.json" && break; sleep 0.2; done
  grep -qs '"kit.echo"' "$cw/tools.json" || fail "Ctrl+S did not save files-assistant with kit.echo: $(cat "$cw/tools.json" 2>&1)"
  grep -q "^folder: $ed/work\$" "$cw/manifest.md" || fail "the working folder was not saved: $(cat "$cw/manifest.md")"
  sleep 1
  import -window root "$shots/editor-saved.png"
  click "$ED_START_X" "$ED_HEADER_Y" # Start chat
  wait_state '"session_id"' "Start chat in the editor opened no chat"
  sleep 1
  xdotool type --delay 20 "What is in my folder?"
  xdotool key Return
  wait_state '"turns":\["completed"\]' "the first chat with files-assistant did not complete"
  first="$(recorded 1)"
  echo "$first" | grep -q '"kit__echo"' || fail "the model was not offered kit__echo: $first"
  echo "$first" | grep -q '"files__' || fail "the model was not offered the template's files tools: $first"
  template_line="$(sed -n '/^---$/,/^---$/!p' examples/coworkers/files-assistant/coworker/manifest.md | grep -m1 -v '^\s*$' | cut -c1-40)"
  echo "$first" | grep -qF "$template_line" || fail "the model was not told the template's instructions ($template_line): $first"
  sleep 0.5
  import -window root "$shots/editor-chat.png"

  # Edit the instructions: the next chat's model is told the new ones.
  click 60 69
  sleep 1.2
  import -window root "$shots/editor-coworkers.png"
  opened="$(editor_count)"
  for y in $(seq 150 12 760); do
    click "$ED_EDIT_X" "$y"
    for _ in $(seq 5); do [ "$(editor_count)" -gt "$opened" ] && break 2; sleep 0.2; done
  done
  [ "$(editor_count)" -gt "$opened" ] || fail "Edit on the coworker's card did not open the editor"
  sleep 1.5
  xdotool key Tab Tab Tab Tab Tab Tab Tab Tab # Description, Id, Version, folder, Choose…, Write, Preview, the instructions
  xdotool key ctrl+End Return Return
  xdotool type --delay 20 "Always answer in French."
  xdotool key ctrl+s
  for _ in $(seq 100); do grep -qs "Always answer in French." "$cw/manifest.md" && break; sleep 0.2; done
  grep -qs "Always answer in French." "$cw/manifest.md" || fail "the edited instructions were not saved: $(cat "$cw/manifest.md")"
  sleep 1
  import -window root "$shots/editor-edited.png"
  chats_before="$(state | grep -o '"session_id"' | wc -l)"
  click "$ED_START_X" "$ED_HEADER_Y"
  for _ in $(seq 50); do [ "$(state | grep -o '"session_id"' | wc -l)" -gt "$chats_before" ] && break; sleep 0.2; done
  sleep 1
  xdotool type --delay 20 "And now?"
  xdotool key Return
  second="$(recorded 2)"
  echo "$second" | grep -q "Always answer in French." || fail "the next chat's model was not told the edited instructions: $second"
  echo "$first" | grep -q "Always answer in French." && fail "the first chat was told instructions written after it"
  sleep 1

  # Delete it (in the editor) and Undo.
  click 60 69
  sleep 1.2
  opened="$(editor_count)"
  for y in $(seq 150 12 760); do
    click "$ED_EDIT_X" "$y"
    for _ in $(seq 5); do [ "$(editor_count)" -gt "$opened" ] && break 2; sleep 0.2; done
  done
  [ "$(editor_count)" -gt "$opened" ] || fail "Edit on the coworker's card did not open the editor (to delete)"
  sleep 1.5
  click "$ED_DELETE_X" "$ED_HEADER_Y"
  for _ in $(seq 50); do [ ! -e "$ed/bundles/files-assistant" ] && break; sleep 0.2; done
  [ ! -e "$ed/bundles/files-assistant" ] || fail "Delete did not move files-assistant away"
  compgen -G "$ed/bundles/.trash/files-assistant-*" >/dev/null || fail "files-assistant is not in the trash: $(ls -a "$ed/bundles" "$ed/bundles/.trash" 2>&1)"
  sleep 0.8
  import -window root "$shots/editor-deleted.png"
  click "$ED_UNDO_X" "$ED_UNDO_Y"
  for _ in $(seq 50); do [ -f "$cw/manifest.md" ] && break; sleep 0.2; done
  [ -f "$cw/manifest.md" ] || fail "Undo did not bring files-assistant back"
  grep -q "Always answer in French." "$cw/manifest.md" || fail "the coworker came back changed"
  sleep 1.2
  import -window root "$shots/editor-restored.png"

  # (b) A .mcpb handed to the running app (a second start), installed, and
  # its tools given to a new coworker in the same dialog. In the dark theme.
  xdotool key ctrl+comma
  sleep 1
  click 304 378 # Settings → Appearance (its navigation list)
  sleep 1
  for _ in 1 2 3; do # Appearance: Dark (its radio; a press that comes with the motion can be dropped: again)
    click 611 175
    for _ in $(seq 10); do state | grep -q '"theme":"dark"' && break 2; sleep 0.2; done
  done
  wait_state '"theme":"dark"' "Dark did not switch the theme"
  (in_app_env "$ed" timeout 20 "$tmp/openworker" "$ed/home/Downloads/echo.mcpb") >"$ed/second.log" 2>&1 || fail "the second start with echo.mcpb failed: $(cat "$ed/second.log")"
  wait_state "\"previews\":\[[^]]*$ed/home/Downloads/echo.mcpb" "the install dialog did not show echo.mcpb"
  sleep 1.2
  xdotool key Return # in the Prefix box: Install
  wait_state '"extensions":\["echo 1.0.0 echo"\]' "Return did not install echo.mcpb (app log: $(tail -n 5 "$ed/app.log"))"
  wait_state '"catalog 1"[^]]*"catalog 1"' "the install dialog's last step did not list echo's tools"
  sleep 1
  import -window root "$shots/extension-give.png"
  xdotool key Return # in the new coworker's name: Give 2 tools
  ew="$ed/bundles/echo-e2e/coworker"
  for _ in $(seq 100); do [ -f "$ew/tools.json" ] && break; sleep 0.2; done
  [ -f "$ew/tools.json" ] || fail "Give did not make the coworker echo-e2e: $(ls "$ed/bundles")"
  for t in echo.echo echo.settings; do grep -q "\"$t\"" "$ew/tools.json" || fail "echo-e2e was not given $t: $(cat "$ew/tools.json")"; done
  grep -q '^name: Echo (e2e)$' "$ew/manifest.md" || fail "the new coworker is not named after the extension: $(cat "$ew/manifest.md")"
  click 60 69
  sleep 1.5
  import -window root "$shots/extension-given.png"
  # Its chat offers its tools: Start chat of the first card (Echo (e2e)).
  chats_before="$(state | grep -o '"session_id"' | wc -l)"
  for y in $(seq 150 12 760); do
    click "$ED_CARD_START_X" "$y"
    for _ in $(seq 5); do [ "$(state | grep -o '"session_id"' | wc -l)" -gt "$chats_before" ] && break 2; sleep 0.2; done
  done
  [ "$(state | grep -o '"session_id"' | wc -l)" -gt "$chats_before" ] || fail "Start chat of echo-e2e opened no chat"
  sleep 1
  xdotool type --delay 20 "Ready?"
  xdotool key Return
  third="$(recorded 3)"
  for t in echo__echo echo__settings; do echo "$third" | grep -q "\"$t\"" || fail "the new coworker's chat did not offer $t: $third"; done
  sleep 1
  import -window root "$shots/extension-given-chat.png"
  stop_shown_app
  start_e2e_app "when started again after the editor steps"
  sleep 1
fi
# --- end coworker editor and one-step tools (issue 34) ---
