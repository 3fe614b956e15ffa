# shellcheck shell=bash
# shellcheck disable=SC2154 # the variables are the sourcing script's
# A block of scripts/app-e2e.sh, sourced by it in file-name order: it uses
# the helpers and variables defined there (start_e2e_app, click, wait_state,
# state, fail, $tmp, $shots, $db, ...).
# --- sign-in (issue 14) ---
# A remote MCP server that needs a sign-in (docs/app.md#sign-in):
# oauthtest's authorization server and the streamable HTTP server it
# protects, on 127.0.0.1 (cmd/oauthserver); a real Secret Service (a
# private D-Bus session bus and gnome-keyring-daemon, unlocked, under this
# block's HOME) keeps the tokens. The coworker remote-helper uses
# remote.whoami: the sign-in dialog shows; Sign in opens the page (the
# e2e build's opener follows it with an HTTP GET to the loopback callback
# instead of a browser, app/e2e_hook.go); the call succeeds; Settings
# lists the server as signed in; Sign out deletes it. No issued token is
# in any file of the run (logs, journal, settings).
sign_bus="$(command -v dbus-daemon || true)"; sign_keyring="$(command -v gnome-keyring-daemon || true)" # start_keyring runs them
if [ -z "$sign_bus" ] || [ -z "$sign_keyring" ]; then
  [ -z "${CI:-}" ] || fail "sign-in: dbus-daemon or gnome-keyring-daemon is missing (apt-get install dbus gnome-keyring)"
  echo "app-e2e: sign-in: skipped (dbus-daemon or gnome-keyring-daemon is not installed)"
else
  echo "app-e2e: sign-in"
  sin="$tmp/signin"
  mkdir -p "$sin/home" "$sin/config" "$sin/data" "$sin/run" "$sin/bundles/remote-helper/coworker" "$sin/secret"
  chmod 700 "$sin/run" "$sin/secret"
  go build -o "$tmp/oauthserver" ./harness/mcp/oauth/oauthtest/cmd/oauthserver
  "$tmp/oauthserver" -tokens "$sin/secret/issued.txt" >"$sin/oauthserver.out" 2>"$sin/oauthserver.log" &
  oauth_pid=$!
  pids+=("$oauth_pid")
  for _ in $(seq 50); do grep -q '^issuer ' "$sin/oauthserver.out" 2>/dev/null && break; sleep 0.1; done
  remote_url="$(sed -n 's/^mcp //p' "$sin/oauthserver.out")"
  [ -n "$remote_url" ] || fail "the test authorization server did not start: $(cat "$sin/oauthserver.log")"
  printf '{"servers": {"remote": {"transport": "streamable_http", "url": "%s"}}}\n' "$remote_url" > "$sin/servers.json"
  sed 's/e2e-assistant/remote-helper/; s/E2E Assistant/Remote Helper/' "$tmp/bundles/e2e-assistant/coworker/manifest.md" \
    > "$sin/bundles/remote-helper/coworker/manifest.md"
  echo '{"version":3,"tools":["remote.whoami"]}' > "$sin/bundles/remote-helper/coworker/tools.json"
  cat > "$sin/script.json" <<'JSON'
[
  {"text": "Asking the server who you are.", "tool_calls": [{"id": "r_1", "name": "remote__whoami", "arguments": {}}]},
  {"text": "The remote server greeted you."}
]
JSON
  start_script_model "$sin/script.json" "$sin/model.out" sign-in
  sin_model="$script_model_url"
  start_keyring "$sin" sign-in
  sin_bus="$keyring_bus"
  stop_shown_app
  (
    in_app_env "$sin" XDG_RUNTIME_DIR="$sin/run" DBUS_SESSION_BUS_ADDRESS="$sin_bus" OPENAI_API_KEY="scripted-test-key" \
      OPENWORKER_COWORKERS="$sin/bundles" OPENWORKER_COWORKER="remote-helper" \
      OPENWORKER_SERVERS="$sin/servers.json" OPENWORKER_E2E_ADDR="$hook" \
      "$tmp/openworker" --base-url "$sin_model" --model scripted >"$sin/app.log" 2>&1
  ) &
  pids+=($!)
  wait_state '"sign_ins":1' "no sign-in dialog for remote (app log: $(tail -n 5 "$sin/app.log"))"
  sleep 1
  import -window root "$shots/signin.png"
  # Sign in by keyboard: the dialog holds the focus, Tab goes to Cancel,
  # then Sign in (the URL's length moves the button, so no coordinates).
  xdotool key Tab Tab Return
  wait_state '"followed":1' "Sign in did not open (and follow) the sign-in page"
  wait_state '"signed_in":\["remote"\]' "the sign-in was not kept in the keychain"
  wait_state '"session_id"' "no chat with remote-helper opened after the sign-in"
  sleep 1.5
  xdotool type --delay 20 "Who am I there?"
  xdotool key Return
  wait_state '"pending":1' "no consent dialog for remote.whoami"
  sleep 0.8
  xdotool key alt+o
  wait_state 'remote.whoami succeeded .*hello' "remote.whoami did not succeed after the sign-in"
  wait_state '"turns":\["completed"\]' "the turn with remote.whoami did not complete"
  sleep 0.7
  import -window root "$shots/signin-called.png"
  click 60 137
  sleep 1.5
  click 288 174 # Settings → Servers (its navigation list): it lists the sign-in
  sleep 1
  xdotool mousemove --window "$(perm_win)" 700 500
  xdotool click --repeat 40 --delay 20 5 # to the bottom of the section
  sleep 0.8
  import -window root "$shots/signin-settings.png"
  click 1139 442 # its Sign out (Inputs and sign-ins, the last group of Servers)
  wait_state '"signed_in":\[\]' "Sign out did not delete the sign-in"
  sleep 0.8
  import -window root "$shots/signin-signed-out.png"
  stop_shown_app
  kill "$oauth_pid"
  wait "$oauth_pid" || fail "the test authorization server did not write its tokens"
  [ -s "$sin/secret/issued.txt" ] || fail "the test authorization server issued no token"
  leaked="$(grep -rlaF -f "$sin/secret/issued.txt" "$tmp" --exclude=issued.txt || true)"
  [ -z "$leaked" ] || fail "an issued token is in $leaked"
  start_e2e_app "when started again after the sign-in steps"
  sleep 1
fi
# --- end sign-in (issue 14) ---
