# shellcheck shell=bash
# shellcheck disable=SC2154 # the variables are the sourcing script's
# A block of scripts/app-e2e.sh, sourced by it in file-name order: it uses
# the helpers and variables defined there (start_e2e_app, click, wait_state,
# state, fail, $tmp, $shots, $db, ...).
# --- MCP Apps (issue 19) ---
# Interactive tool views (docs/mcp-apps.md): the appserver
# (harness/mcp/mcptest/cmd/appserver, a go-sdk MCP server on stdio, its
# counter page inlining the real ext-apps App client) serves a coworker
# "viewer" that selects apps.counter_show, apps.counter_bump,
# apps.hostile_show, apps.big_show and apps.text_show, not
# apps.secret_peek. In its own HOME (an empty sidebar and journal): the
# scripted model calls counter_show; the view renders under its card
# (apps-view.png); a click on its Bump button (the rect the window reported
# with ViewShown, in the e2e state, plus the window's origin from xdotool)
# asks consent naming "the app view of apps.counter_show" as the origin;
# approved, counter_bump runs and is journaled with the view as its origin
# and, in its arguments, the count the view showed (0: the view got its
# tool result);
# a second click, denied, is reported back into the view
# (apps-denied.png). A second turn calls hostile_show (floods, calls
# secret_peek, navigates the top window, opens a pop-up), big_show (over
# 2 MB) and text_show (text/plain): each is refused and shown in its card
# (apps-refused.png), secret_peek never runs, and the chat still takes a
# prompt.
apps_extapps="$root/harness/mcp/testdata/npm/node_modules/@modelcontextprotocol/ext-apps/dist/src"
if [ ! -f "$apps_extapps/app-with-deps.js" ]; then
  [ -z "${CI:-}" ] || fail "mcp apps: @modelcontextprotocol/ext-apps is missing (sh harness/mcp/testdata/npm/install.sh)"
  echo "app-e2e: mcp apps: skipped (@modelcontextprotocol/ext-apps is not installed: sh harness/mcp/testdata/npm/install.sh)"
else
  echo "app-e2e: mcp apps"
  ap="$tmp/apps"
  mkdir -p "$ap/home" "$ap/config" "$ap/data" "$ap/bundles/viewer/coworker"
  go build -o "$ap/appserver" ./harness/mcp/mcptest/cmd/appserver || fail "mcp apps: go build appserver failed"
  printf '{"servers": {"apps": {"transport": "stdio", "command": "%s", "args": ["-extapps", "%s"]}}}\n' \
    "$ap/appserver" "$apps_extapps" > "$ap/servers.json"
  sed 's/e2e-assistant/viewer/; s/E2E Assistant/Viewer/' "$tmp/bundles/e2e-assistant/coworker/manifest.md" > "$ap/bundles/viewer/coworker/manifest.md"
  echo '{"version":3,"tools":["apps.counter_show","apps.counter_bump","apps.hostile_show","apps.big_show","apps.text_show"]}' \
    > "$ap/bundles/viewer/coworker/tools.json"
  cat > "$ap/script.json" <<'JSON'
[
  {"text": "Here is the counter.", "tool_calls": [{"id": "v_1", "name": "apps__counter_show", "arguments": {}}]},
  {"text": "The counter is above: press Bump to add one."},
  {"text": "Showing the other views.", "tool_calls": [
    {"id": "v_2", "name": "apps__hostile_show", "arguments": {}},
    {"id": "v_3", "name": "apps__big_show", "arguments": {}},
    {"id": "v_4", "name": "apps__text_show", "arguments": {}}]},
  {"text": "Those views were refused where they misbehaved."},
  {"text": "Still here: the chat works."}
]
JSON
  start_script_model "$ap/script.json" "$ap/model.out" "mcp apps"
  ap_model="$script_model_url"
  ap_db="$ap/config/OpenWorker/journal.db"
  stop_shown_app
  (
    in_app_env "$ap" OPENAI_API_KEY="scripted-test-key" OPENWORKER_COWORKERS="$ap/bundles" OPENWORKER_COWORKER="viewer" \
      OPENWORKER_SERVERS="$ap/servers.json" OPENWORKER_E2E_ADDR="$hook" \
      "$tmp/openworker" --base-url "$ap_model" --model scripted >"$ap/app.log" 2>&1
  ) &
  pids+=($!)
  wait_state '"session_id"' "no chat with viewer opened (app log: $(tail -n 5 "$ap/app.log"))"
  ap_session="$(state | grep -o '"session_id":"[^"]*"' | head -n1 | cut -d'"' -f4)"
  sleep 1.5
  xdotool type --delay 20 "Show me the counter"
  xdotool key Return
  wait_state '"pending":1' "no consent dialog for apps.counter_show"
  sleep 0.8
  xdotool key alt+o
  wait_state '"turns":\["completed"\]' "the turn with apps.counter_show did not complete"
  wait_state '"views":\[{' "the counter view was not shown (no ViewShown in the state)"
  sleep 1.5
  import -window root "$shots/apps-view.png"

  # apps_view_rect: "X Y W H" of the newest view the window reported
  # (ViewShown: the iframe's CSS-pixel rect in the window's viewport).
  apps_view_rect() {
    local v k n out=""
    v="$(state | grep -o '"views":\[[^]]*\]' | grep -o '{[^}]*}' | tail -n1)"
    for k in x y w h; do
      n="$(printf '%s' "$v" | grep -o "\"$k\":-\?[0-9.]*" | head -n1 | cut -d: -f2)"
      out="$out ${n%.*}"
    done
    echo "$out"
  }
  # apps_click_bump: a click in the Bump button (260×96 CSS px at the top
  # left of the counter page): the window's origin on the screen, plus the
  # view's rect, plus an offset inside the button. The pointer rests first,
  # as click does in 01-permissions.sh.
  apps_click_bump() {
    local win geo wx wy vx vy vw vh
    win="$(xdotool search --onlyvisible --name '^OpenWorker$' | head -n1)"
    [ -n "$win" ] || fail "mcp apps: no OpenWorker window"
    geo="$(xdotool getwindowgeometry --shell "$win")"
    wx="$(printf '%s\n' "$geo" | sed -n 's/^X=//p')"; wy="$(printf '%s\n' "$geo" | sed -n 's/^Y=//p')"
    read -r vx vy vw vh <<<"$(apps_view_rect)"
    if [ -z "$vh" ] || [ "$vw" -lt 120 ] || [ "$vh" -lt 48 ]; then
      fail "mcp apps: the view's rect is not usable: '$vx $vy $vw $vh' ($(state))"
    fi
    xdotool mousemove "$((wx + vx + 80))" "$((wy + vy + 45))" sleep 0.3 click 1
  }

  echo "app-e2e: mcp apps: Bump, approved"
  apps_click_bump
  wait_state '"pending":1' "a click on Bump in the counter view asked no consent for apps.counter_bump"
  wait_state '"pending_origin":\["the app view of apps.counter_show"\]' "the consent request for Bump does not name the app view of apps.counter_show as its origin"
  sleep 0.8
  import -window root "$shots/apps-consent.png"
  xdotool key alt+o
  wait_state '"pending":0' "the consent dialog for Bump did not close"
  wait_state 'apps.counter_bump succeeded' "apps.counter_bump from the view did not succeed"
  sleep 1
  import -window root "$shots/apps-bumped.png"
  "$tmp/openworker" journal show --db "$ap_db" --json "$ap_session" >"$ap/journal.json" || fail "journal show failed (mcp apps)"
  grep -q '"tool": *"apps.counter_bump"' "$ap/journal.json" || fail "the journal has no apps.counter_bump invocation"
  grep -Eq '"origin": *"view:[^"]+"' "$ap/journal.json" || fail "the journal has no invocation with a view as its origin: $(grep -o '"origin": *"[^"]*"' "$ap/journal.json")"
  # The page sends the count it shows as "seen": 0 only if counter_show's
  # result reached it (postMessage clones what the host sends; a value it
  # cannot clone never arrives).
  grep -Eq '"seen": *0([^0-9]|$)' "$ap/journal.json" ||
    fail "the counter view did not get its tool result: the bump's arguments have no \"seen\": 0 ($(grep -A3 '"arguments"' "$ap/journal.json" | tr -s ' \n' ' '))"
  grep -q 'ui://counter/view.html' "$ap/journal.json" || fail "the journal does not name the counter's view (ui_uri)"
  grep -Eq '"ui_digest": *"sha256:[0-9a-f]{64}"' "$ap/journal.json" || fail "the journal has no digest of the counter's view"
  "$tmp/openworker" journal show --db "$ap_db" "$ap_session" >"$ap/journal.txt" || fail "journal show failed (mcp apps, text)"
  grep -q 'from: the app view of apps.counter_show' "$ap/journal.txt" || fail "journal show does not say the bump came from the app view: $(grep -n 'from:\|view:' "$ap/journal.txt")"
  grep -q 'view: ui://counter/view.html (' "$ap/journal.txt" || fail "journal show does not print the view's URI and size"
  if command -v sqlite3 >/dev/null; then
    ap_origin="$(sqlite3 "$ap_db" "SELECT origin FROM invocations WHERE tool = 'apps.counter_bump' AND status = 'succeeded'")"
    ap_counter="$(sqlite3 "$ap_db" "SELECT id FROM invocations WHERE tool = 'apps.counter_show'")"
    [ "$ap_origin" = "view:$ap_counter" ] || fail "the succeeded bump's origin is '$ap_origin', want view:$ap_counter"
    ap_seen="$(sqlite3 "$ap_db" "SELECT json_extract(arguments, '$.seen') FROM invocations WHERE tool = 'apps.counter_bump' AND status = 'succeeded'")"
    [ "$ap_seen" = "0" ] || fail "the succeeded bump says the view showed '$ap_seen', want 0 (counter_show's result)"
    [ -z "$(sqlite3 "$ap_db" "SELECT 1 FROM invocations WHERE ui_uri IS NOT NULL AND ui_digest IS NULL")" ] ||
      fail "an invocation has a view's URI and no digest"
  fi

  echo "app-e2e: mcp apps: Bump, denied"
  apps_click_bump
  wait_state '"pending":1' "a second click on Bump asked no consent"
  wait_state '"pending_origin":\["the app view of apps.counter_show"\]' "the second consent request does not name the app view"
  sleep 0.8
  xdotool key alt+d
  wait_state '"pending":0' "Deny did not close the consent dialog"
  wait_state 'apps.counter_bump refused' "the denied bump is not journaled refused"
  sleep 1.2
  import -window root "$shots/apps-denied.png"
  "$tmp/openworker" journal show --db "$ap_db" --json "$ap_session" >"$ap/journal2.json" || fail "journal show failed (mcp apps, denied)"
  grep -Eq '"decision": *"deny"' "$ap/journal2.json" || fail "the journal has no deny for the second bump"
  grep -Eq '"seen": *1([^0-9]|$)' "$ap/journal2.json" || fail "the second bump does not say the view showed 1 (the first bump's result)"

  echo "app-e2e: mcp apps: hostile, big and text views"
  # The focus may be in the counter's frame: Ctrl+L goes to the message box.
  xdotool key ctrl+l
  sleep 0.3
  xdotool type --delay 20 "Show the other views"
  xdotool key Return
  # Three read-only calls, each asked (in order, or stacked): Alt+O until the
  # turn is done.
  for _ in $(seq 150); do
    st="$(state)"
    echo "$st" | grep -q '"turns":\["completed","completed"\]' && break
    if echo "$st" | grep -q '"pending":[1-9]'; then sleep 0.8; xdotool key alt+o; sleep 0.4; else sleep 0.2; fi
  done
  wait_state '"turns":\["completed","completed"\]' "the turn with the hostile, big and text views did not complete"
  wait_state '"view_refusals":\[[^]]*flood' "the hostile view's flood was not refused (view_refusals in the state)"
  sleep 1.5
  import -window root "$shots/apps-refused.png"
  st="$(state)"
  echo "app-e2e: mcp apps: refusals: $(echo "$st" | grep -o '"view_refusals":\[[^]]*\]')"
  # big_show and text_show are not shown: the window rendered at most the
  # counter's view and the hostile one (which may be closed for its flood
  # before it reports being shown).
  shown="$(echo "$st" | grep -o '"views":\[[^]]*\]' | grep -o '"invocation_id":"[^"]*"' | cut -d'"' -f4 | sort -u)"
  [ "$(printf '%s\n' "$shown" | grep -c .)" -le 2 ] || fail "the window showed more views than the counter's and the hostile one: $st"
  if command -v sqlite3 >/dev/null; then
    for t in big_show text_show; do
      inv="$(sqlite3 "$ap_db" "SELECT id FROM invocations WHERE tool = 'apps.$t'")"
      [ -n "$inv" ] || fail "apps.$t is not journaled"
      ! printf '%s\n' "$shown" | grep -qxF "$inv" || fail "the window showed the view of apps.$t ($inv), which should be refused"
    done
  fi
  "$tmp/openworker" journal show --db "$ap_db" --json "$ap_session" >"$ap/journal3.json" || fail "journal show failed (mcp apps, hostile)"
  for t in hostile_show big_show text_show; do
    grep -q "apps.$t succeeded" <<<"$st" || fail "apps.$t did not succeed (a view that is refused does not fail its call): $st"
  done
  # A name no selected tool has is journaled by the name asked (alias), with
  # no tool, as for the model (docs/journal.md).
  grep -q '"alias": *"secret_peek"' "$ap/journal3.json" || fail "the hostile view's call of secret_peek is not journaled"
  if command -v sqlite3 >/dev/null; then
    peek="$(sqlite3 "$ap_db" "SELECT status || ' ' || coalesce(error_code, '') || ' ' || coalesce(origin, '') FROM invocations WHERE alias = 'secret_peek'")"
    case "$peek" in "refused not_selected view:"*) ;; *) fail "the hostile view's secret_peek is '$peek', want refused not_selected from the view" ;; esac
    [ -z "$(sqlite3 "$ap_db" "SELECT id FROM invocations WHERE tool IN ('apps.big_show', 'apps.text_show') AND ui_digest IS NOT NULL")" ] ||
      fail "a refused view (big or text) has a digest in the journal"
  fi
  leaked="$(grep -rlaF "peeked-7c1d-secret" "$ap/config" "$ap/data" "$ap/app.log" "$tmp/model.log" 2>/dev/null || true)"
  [ -z "$leaked" ] || fail "secret_peek's secret is in $leaked"
  # The hostile page posted SetTheme to the window's own message handler
  # (WebKit gives it to every frame): nothing changed, and the Gate logged
  # the call without its token (docs/mcp-apps.md#bindings).
  ! grep -rqsE '"theme": *"dark"' "$ap/config" || fail "a view's direct call to the app set the theme"
  grep -rqsF "without the window's token" "$ap" || fail "the Gate did not log the hostile view's call without the token"
  # The chat is still usable.
  xdotool key ctrl+l
  sleep 0.3
  xdotool type --delay 20 "Are you still there?"
  xdotool key Return
  wait_state '"turns":\["completed","completed","completed"\]' "the chat did not take a prompt after the hostile view"
  sleep 0.7
  import -window root "$shots/apps-after.png"
  stop_shown_app
  start_e2e_app "when started again after the mcp apps steps"
  sleep 1
fi
# --- end MCP Apps (issue 19) ---
