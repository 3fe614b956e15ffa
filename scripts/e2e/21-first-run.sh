# shellcheck shell=bash
# shellcheck disable=SC2154 # the variables are the sourcing script's
# A block of scripts/app-e2e.sh, sourced by it in file-name order: it uses
# the helpers and variables defined there (click, wait_state, state, fail,
# stop_shown_app, in_app_env, $tmp, $shots, $hook, ...).
# --- the first-run setup (issue 39 item 7, docs/app.md#first-run) ---
# Each start has an empty config dir (at most a theme) and no model
# anywhere, so the setup opens by itself. A scripted model started with
# -ollama stands in for Ollama on this computer (OLLAMA_HOST points at it:
# GET /api/tags lists "scripted" and "qwen2.5:7b", /v1 answers chats).
#  1. dark, with a keychain (gnome-keyring on a private bus): the model
#     step lists Ollama's models (first-run-model-dark.png); Tab x3 and
#     Return take "Use an API key instead" (first-run-key-dark.png); base
#     URL, model and key typed, Enter saves them: settings.json has the
#     base URL, no file under the config dir has the key; Return tests the
#     connection (first-run-tested-dark.png); Esc ends the setup:
#     settings.json says setup_done and keeps the theme.
#  2. light, nothing listening at OLLAMA_HOST: "Ollama is not running on
#     this computer" and the API-key path (first-run-not-running.png).
#  3. light, the whole walk by keyboard only: Return on the preselected
#     model saves it (settings.json: the fake Ollama's /v1 and "scripted"),
#     Return tests the connection (ok, in the e2e state), Return continues,
#     Return keeps the Device Assistant, Return starts the chat; a message
#     gets the scripted reply; the journal's session is the Device
#     Assistant's. first-run.png (the model step, light) is for the README.
#     Settings → "Run setup again" opens it again (first-run-again.png).
#     The start's toast (desktop notifications unavailable: no D-Bus here)
#     waits while the setup is open (first-run-toasts-held.png: no toast
#     over or under the dialog) and shows once it closes
#     (first-run-toasts-after.png), docs/app.md#dialogs-and-toasts.
echo "app-e2e: first-run setup"
fr="$tmp/firstrun"
mkdir -p "$fr"
cat > "$fr/script.json" <<'JSON'
[
  {"text": "Hello! I am your **Device Assistant**. Ask me about this computer: its system, its battery.", "delay": "30ms"}
]
JSON
"$tmp/scriptmodel" -script "$fr/script.json" -addr 127.0.0.1:0 -ollama -models "scripted,qwen2.5:7b" >"$fr/ollama.out" 2>>"$tmp/model.log" &
pids+=($!)
for _ in $(seq 50); do grep -q '^listening ' "$fr/ollama.out" 2>/dev/null && break; sleep 0.1; done
fr_ollama="$(sed -n 's/^listening http:\/\///p' "$fr/ollama.out")"
fr_ollama="${fr_ollama%/v1}"
[ -n "$fr_ollama" ] || fail "first run: the fake Ollama did not start"
# A port nothing listens on (bound, then closed).
fr_dead="127.0.0.1:$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')"

# fr_start ROOT OLLAMA_HOST RUNNING [VAR=VALUE...]: the app on an empty
# config under ROOT (no model: no key, no base URL, no --model), waited for
# until the setup has looked for Ollama (running true or false, as RUNNING
# says) and the window shows it (fr_painted).
fr_start() {
  local root="$1" host="$2" running="$3"
  shift 3
  stop_shown_app
  mkdir -p "$root/home/Documents" "$root/config/OpenWorker" "$root/data"
  (
    in_app_env "$root" env -u OPENAI_BASE_URL -u ANTHROPIC_BASE_URL OLLAMA_HOST="$host" OPENWORKER_E2E_ADDR="$hook" "$@" \
      "$tmp/openworker" >>"$root/app.log" 2>&1
  ) &
  pids+=($!)
  wait_state "\"ollama\":{\"running\":$running" "first run: the setup did not look for Ollama at $host (app log: $(tail -n 5 "$root/app.log"))"
  fr_painted "$root/painted.png"
}
# fr_painted FILE: waits up to 60 s until a screenshot (kept in FILE) shows
# a drawn page, not the bare window colour (a loaded machine paints late;
# keys sent before that are lost), then a second more.
fr_painted() {
  local colours=0
  for _ in $(seq 120); do
    import -window root "$1"
    colours="$(convert "$1" -format '%k' info:)"
    [ "$colours" -ge 500 ] && break
    sleep 0.5
  done
  [ "$colours" -ge 500 ] || fail "first run: the window shows no page after 60 s ($colours colours)"
  sleep 1
}
# fr_settings_has ROOT PATTERN WHAT: waits up to 30 s for PATTERN in ROOT's settings.json.
fr_settings_has() {
  local f="$1/config/OpenWorker/settings.json"
  for _ in $(seq 150); do grep -Eq "$2" "$f" 2>/dev/null && return 0; sleep 0.2; done
  fail "first run: $3: settings.json is $(cat "$f" 2>/dev/null || echo missing)"
}

# 1. Dark, with a keychain: the model step, then the API-key path typed
# by keyboard (an OpenAI-compatible endpoint: the fake's /v1), Test
# connection, then Esc.
fr_dark="$fr/dark"
mkdir -p "$fr_dark/config/OpenWorker" "$fr_dark/run"
chmod 700 "$fr_dark/run"
printf '{"theme": "dark"}\n' >"$fr_dark/config/OpenWorker/settings.json"
start_keyring "$fr_dark" "first run"
fr_start "$fr_dark" "$fr_ollama" true XDG_RUNTIME_DIR="$fr_dark/run" DBUS_SESSION_BUS_ADDRESS="$keyring_bus"
state | grep -q '"models":\["scripted","qwen2.5:7b"\]' || fail "first run: the setup did not list the fake Ollama's models: $(state)"
import -window root "$shots/first-run-model-dark.png"
for _ in 1 2 3; do xdotool key Tab; sleep 0.3; done # the model, Use this model, Skip setup, Use an API key instead
xdotool key Return
sleep 1
import -window root "$shots/first-run-key-dark.png"
xdotool key Tab # from the provider (OpenAI-compatible) to Base URL
xdotool type --delay 10 "http://$fr_ollama/v1"
xdotool key Tab
xdotool type --delay 10 "scripted"
xdotool key Tab
xdotool type --delay 10 "sk-e2e-first-run-key"
sleep 0.5
import -window root "$shots/first-run-key-filled-dark.png"
xdotool key Return # Enter in the key field: Save and continue
fr_settings_has "$fr_dark" "\"base_url\": \"http://$fr_ollama/v1\"" "the API-key step did not save the base URL"
grep -rq "sk-e2e-first-run-key" "$fr_dark/config" && fail "first run: the API key was written under the config dir"
sleep 1
xdotool key Return # Test connection
wait_state '"connection":{"ok":true' "first run: Test connection (API-key path) did not succeed"
sleep 1
import -window root "$shots/first-run-tested-dark.png"
xdotool key Escape
fr_settings_has "$fr_dark" '"setup_done": true' "Esc did not mark the setup as done"
grep -q '"theme": "dark"' "$fr_dark/config/OpenWorker/settings.json" || fail "first run: the setup lost the theme"

# 2. Light, nothing at OLLAMA_HOST.
fr_start "$fr/down" "$fr_dead" false
state | grep -q 'Ollama is not running on this computer' || fail "first run: no \"not running\" for a closed port: $(state)"
import -window root "$shots/first-run-not-running.png"
xdotool key Escape
fr_settings_has "$fr/down" '"setup_done": true' "Esc (Ollama not running) did not mark the setup as done"

# 3. Light, the whole walk by keyboard.
fr_start "$fr/light" "$fr_ollama" true
state | grep -q '"key":"notifications"' || fail "first run: no start notice to hold behind the setup: $(state)"
import -window root "$shots/first-run-model-light.png"
cp "$shots/first-run-model-light.png" "$shots/first-run.png"
cp "$shots/first-run-model-light.png" "$shots/first-run-toasts-held.png"
xdotool key Return # on the preselected model: "Use this model"
fr_settings_has "$fr/light" "\"base_url\": \"http://$fr_ollama/v1\"" "Return on the model did not save the Ollama base URL"
fr_settings_has "$fr/light" '"model": "scripted"' "Return on the model did not save its name"
grep -q '"setup_done"' "$fr/light/config/OpenWorker/settings.json" && fail "first run: setup_done before the setup ended"
sleep 1
import -window root "$shots/first-run-test.png"
xdotool key Return # Test connection
wait_state '"connection":{"ok":true' "first run: Test connection did not succeed"
sleep 1
import -window root "$shots/first-run-tested.png"
wait_state '"coworkers":\[[^]]*device-assistant' "first run: the example coworkers were not copied"
xdotool key Return # Continue (the focus moved there after the test)
sleep 1
import -window root "$shots/first-run-coworker.png"
xdotool key Return # on the preselected Device Assistant: Continue
sleep 1
import -window root "$shots/first-run-chat.png"
xdotool key Return # Start chat
wait_state '"session_id"' "first run: Start chat opened no chat"
fr_settings_has "$fr/light" '"setup_done": true' "finishing did not mark the setup as done"
sleep 1.5
import -window root "$shots/first-run-toasts-after.png"
xdotool type --delay 20 "Hello, who are you?"
xdotool key Return
wait_state '"turns":\["completed"\]' "first run: the first chat got no reply"
sleep 1
import -window root "$shots/first-run-reply.png"
"$tmp/openworker" journal show --db "$fr/light/config/OpenWorker/journal.db" --json >"$fr/journal.json" || fail "first run: journal show failed"
grep -q 'device-assistant' "$fr/journal.json" || fail "first run: the chat is not the Device Assistant's: $(head -c 400 "$fr/journal.json")"
# Settings → Model (its first section) → Model provider → "Run setup
# again" opens it again (it looks for Ollama a second time); Esc closes it.
xdotool key ctrl+comma
sleep 1.2
import -window root "$shots/first-run-settings.png"
click "${FR_AGAIN_X:-525}" "${FR_AGAIN_Y:-273}"
wait_state '"ollama_probes":2' "first run: Run setup again did not open the setup"
sleep 1
import -window root "$shots/first-run-again.png"
xdotool key Escape
stop_shown_app
echo "app-e2e: first-run setup: ok"
