#!/usr/bin/env bash
# End-to-end test of the desktop app under Xvfb (issue 5 acceptance).
#
# Builds the Linux app with the e2e test hook, starts it in a throw-away
# HOME with a scripted model on 127.0.0.1 and a temporary bundles folder,
# types a prompt into the chat with xdotool, waits for the consent modal,
# checks that typing `a` and Return as it opens does not answer it,
# approves it with Alt+O, waits for the turn, and asserts with
# `openworker journal show --json` that the invocation succeeded.
# It also checks that a second start on the same config dir exits with 0
# and opens no window (no D-Bus session bus here: the app's lock file does
# it). Screenshots go to artifacts/screenshots/ (chat.png, consent.png,
# coworkers.png with a bundle that does not resolve, dismissed.png after
# closing the servers.json banner, continued.png and continued-turn.png
# after closing the chat and continuing it from Activity,
# settings-models.png and settings-test-connection.png of the model picker, ...).
#
# Needs: xvfb xdotool imagemagick libgtk-3-dev libwebkit2gtk-4.0-dev, Node, Go;
# the sign-in block also dbus-daemon and gnome-keyring-daemon (dbus, gnome-keyring).
# Never touches the real user config: HOME and XDG_* point into a temp dir.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
shots="$root/artifacts/screenshots"
mkdir -p "$shots"
rm -f "$shots"/*.png

for cmd in Xvfb xdotool import; do
  command -v "$cmd" >/dev/null || { echo "app-e2e: $cmd is missing (apt-get install xvfb xdotool imagemagick)" >&2; exit 2; }
done

tmp="$(mktemp -d /tmp/openworker-e2e.XXXXXX)"
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  if [ "${KEEP_TMP:-}" = "" ]; then rm -rf "$tmp"; else echo "app-e2e: kept $tmp"; fi
}
trap cleanup EXIT
fail() {
  echo "app-e2e: FAIL: $*" >&2
  if [ -n "${DISPLAY:-}" ]; then import -display "$DISPLAY" -window root "$shots/failure.png" 2>/dev/null || true; fi
  echo "--- app log"; tail -n 40 "$tmp/app.log" >&2 || true
  echo "--- model log"; tail -n 20 "$tmp/model.log" >&2 || true
  exit 1
}

echo "app-e2e: building"
TAGS=e2e scripts/app-build.sh "$tmp/openworker" >/dev/null
go build -o "$tmp/scriptmodel" ./harness/model/modeltest/cmd/scriptmodel

# A bundles folder with one coworker that may call one read-only device tool.
mkdir -p "$tmp/home/Documents" "$tmp/config" "$tmp/data" "$tmp/bundles/e2e-assistant/coworker"
cat > "$tmp/bundles/e2e-assistant/coworker/manifest.md" <<'MD'
---
id: e2e-assistant
name: E2E Assistant
description: Answers questions about this computer.
version: 1.0.0
---
You answer questions about this computer with your tools.
MD
echo '{"version":3,"tools":["device.system_info_get"]}' > "$tmp/bundles/e2e-assistant/coworker/tools.json"
# A broken bundle beside it: listed with its error, the rest still loads.
mkdir -p "$tmp/bundles/broken-one/coworker"
sed 's/e2e-assistant/broken-one/; s/E2E Assistant/Broken One/' "$tmp/bundles/e2e-assistant/coworker/manifest.md" > "$tmp/bundles/broken-one/coworker/manifest.md"
printf '{"version": 3,\n "tools": ["device.system_info_get"],\n "tool": []}\n' > "$tmp/bundles/broken-one/coworker/tools.json"
# One that loads but does not resolve (a tool no provider has): listed as
# broken too, as `openworker check` reports it, never with "Start chat".
mkdir -p "$tmp/bundles/no-such-tool/coworker"
sed 's/e2e-assistant/no-such-tool/; s/E2E Assistant/No Such Tool/' "$tmp/bundles/e2e-assistant/coworker/manifest.md" > "$tmp/bundles/no-such-tool/coworker/manifest.md"
echo '{"version":3,"tools":["device.system_info_get","device.no_such_tool"]}' > "$tmp/bundles/no-such-tool/coworker/tools.json"

# A servers.json with a typo: the app starts anyway and says so in a banner
# (a notice that stays until dismissed).
printf '{"servers": {\n  "typo": {"transport": "stdio", "comand": "x"}}}\n' > "$tmp/servers.json"

# The scripted model: a tool call, then a Markdown answer.
cat > "$tmp/script.json" <<'JSON'
[
  {"text": "Let me look at this computer.", "tool_calls": [{"id": "call_1", "name": "device__system_info_get", "arguments": {}}], "delay": "30ms"},
  {"text": "Your computer runs **Linux**.\n\n- The tool call was approved\n- and it `succeeded`.\n\n![tracker](https://example.com/pixel.png)", "delay": "30ms"},
  {"text": "Still **Linux**: nothing changed since you asked.", "delay": "30ms"}
]
JSON
"$tmp/scriptmodel" -script "$tmp/script.json" -addr 127.0.0.1:0 >"$tmp/model.out" 2>"$tmp/model.log" &
pids+=($!)
for _ in $(seq 50); do grep -q '^listening ' "$tmp/model.out" 2>/dev/null && break; sleep 0.1; done
model_url="$(sed -n 's/^listening //p' "$tmp/model.out")"
[ -n "$model_url" ] || fail "the scripted model did not start"

# With no display the app says so in one line and exits 1 (GTK would
# otherwise panic inside Wails with a stack trace).
echo "app-e2e: starting with no display"
set +e
env -u DISPLAY -u WAYLAND_DISPLAY HOME="$tmp/nodisplay" XDG_CONFIG_HOME="$tmp/nodisplay" timeout 20 "$tmp/openworker" \
  --config-dir "$tmp/nodisplay" >"$tmp/nodisplay.log" 2>&1
code=$?
set -e
[ "$code" = 1 ] || fail "with no display the app exited with $code, want 1: $(cat "$tmp/nodisplay.log")"
[ "$(wc -l <"$tmp/nodisplay.log")" = 1 ] && grep -q "no display found" "$tmp/nodisplay.log" ||
  fail "with no display the app did not say so in one line: $(cat "$tmp/nodisplay.log")"

display=":$((90 + RANDOM % 100))"
Xvfb "$display" -screen 0 1280x860x24 -nolisten tcp >/dev/null 2>&1 &
pids+=($!)
export DISPLAY="$display"
for _ in $(seq 50); do xdotool getdisplaygeometry >/dev/null 2>&1 && break; sleep 0.1; done

hook="127.0.0.1:$((20000 + RANDOM % 20000))"
state() { curl -fsS "http://$hook/state" 2>/dev/null || echo '{}'; }
# in_app_env ROOT [VAR=VALUE...] CMD...: runs CMD (in $tmp, replacing the
# shell: call it in a subshell) as every start of the app here: HOME and
# the XDG folders under ROOT, never the real config; none of the shell's
# API keys.
in_app_env() {
  local root="$1"
  shift
  cd "$tmp" && exec env -u OPENAI_API_KEY -u ANTHROPIC_API_KEY HOME="$root/home" XDG_CONFIG_HOME="$root/config" \
    XDG_DATA_HOME="$root/data" NO_AT_BRIDGE=1 "$@"
}

# start_e2e_app WHAT: the app on the e2e's HOME and config, on the first
# scripted model, with e2e-assistant's chat open at start (waited for; WHAT
# names the start in the failure).
start_e2e_app() {
  (
    in_app_env "$tmp" OPENAI_BASE_URL="$model_url" OPENAI_API_KEY="scripted-test-key" \
      OPENWORKER_COWORKERS="$tmp/bundles" OPENWORKER_COWORKER="e2e-assistant" OPENWORKER_MODEL="scripted" \
      OPENWORKER_SERVERS="$tmp/servers.json" OPENWORKER_E2E_ADDR="$hook" "$tmp/openworker" >>"$tmp/app.log" 2>&1
  ) &
  pids+=($!)
  for _ in $(seq 100); do state | grep -q '"session_id"' && return 0; sleep 0.2; done
  fail "no chat opened within 20 s $1: $(state)"
}

echo "app-e2e: starting the app (model $model_url)"
start_e2e_app "at the first start"
sleep 1
import -window root "$shots/start.png"

# A second start on the same config dir (Xvfb has no D-Bus session bus, so
# Wails' own lock cannot see the first one) exits with 0 and opens no window.
echo "app-e2e: starting a second instance"
before="$(xdotool search --name '^OpenWorker$' 2>/dev/null | wc -l)"
set +e
(in_app_env "$tmp" env -u DBUS_SESSION_BUS_ADDRESS timeout 20 "$tmp/openworker") >"$tmp/second.log" 2>&1
code=$?
set -e
[ "$code" = 0 ] || fail "the second instance exited with $code: $(cat "$tmp/second.log")"
grep -q "OpenWorker is already running" "$tmp/second.log" || fail "the second instance did not say the app is running: $(cat "$tmp/second.log")"
after="$(xdotool search --name '^OpenWorker$' 2>/dev/null | wc -l)"
[ "$after" -le "$before" ] || fail "$after OpenWorker X windows after a second start, $before before"

echo "app-e2e: typing the prompt"
xdotool type --delay 20 "What computer am I on?"
xdotool key Return

# Keep typing `a` (the old "Always" key) and Return while the consent
# dialog opens, as someone writing a follow-up would: neither answers it
# (docs/consent.md#answering-in-the-app).
echo "app-e2e: typing 'a' and Return while the consent dialog opens"
for _ in $(seq 100); do state | grep -q '"pending":1' && break; xdotool type --delay 0 "a"; sleep 0.2; done
state | grep -q '"pending":1' || fail "the consent modal did not appear within 20 s"
xdotool type --delay 30 "aaaa"
xdotool key Return
sleep 0.7
xdotool type --delay 30 "aa"
xdotool key Return
sleep 0.5
state | grep -q '"pending":1' || fail "typing 'a' or Return while the consent dialog opened answered it: $(state)"
import -window root "$shots/consent.png"

echo "app-e2e: approving from the keyboard (Alt+O)"
xdotool key alt+o
for _ in $(seq 150); do state | grep -q '"turns":\["completed"\]' && break; sleep 0.2; done
st="$(state)"
echo "$st" | grep -q '"turns":\["completed"\]' || fail "the turn did not complete within 30 s: $st"
sleep 0.7
import -window root "$shots/chat.png"

echo "app-e2e: checking the journal"
db="$tmp/config/OpenWorker/journal.db"
"$tmp/openworker" journal show --db "$db" --json >"$tmp/journal.json" || fail "journal show failed"
grep -q '"tool": *"device.system_info_get"' "$tmp/journal.json" || fail "the journal has no device.system_info_get invocation"
grep -Eq '"status": *"succeeded"' "$tmp/journal.json" || fail "the invocation did not succeed: $(grep -o '"status": *"[a-z_]*"' "$tmp/journal.json" | tr '\n' ' ')"
grep -Eq '"decision": *"allow_once"' "$tmp/journal.json" || fail "the journal has no allow_once approval"
# The other screens, for a person to look at (not asserted).
win="$(xdotool search --name '^OpenWorker$' | head -n1 || true)"
if [ -n "$win" ]; then
  # Sidebar entries, in window coordinates.
  for screen in "Activity:103" "Settings:137" "Coworkers:69"; do
    name="${screen%%:*}"; y="${screen##*:}"
    xdotool mousemove --window "$win" 60 "$y" click 1
    sleep 0.8
    import -window root "$shots/$(echo "$name" | tr '[:upper:]' '[:lower:]').png"
  done
  # Dismiss the servers.json banner with its close button (top right of
  # the main area), then look again.
  xdotool mousemove --window "$win" 1232 22 click 1
  xdotool mousemove --window "$win" 700 760
  sleep 0.5
  import -window root "$shots/dismissed.png"

  # Close the chat, then continue it from Activity: the earlier turn is
  # shown again and a new one runs in the same session.
  echo "app-e2e: closing the chat and continuing it from Activity"
  session="$(state | grep -o '"session_id":"[^"]*"' | head -n1 | cut -d'"' -f4)"
  xdotool mousemove --window "$win" 60 206 click 1
  sleep 0.5
  xdotool mousemove --window "$win" 1170 33 click 1
  for _ in $(seq 50); do state | grep -q '"chats":\[\]' && break; sleep 0.2; done
  state | grep -q '"chats":\[\]' || fail "Close chat did not close the chat: $(state)"
  xdotool mousemove --window "$win" 60 103 click 1
  sleep 0.8
  import -window root "$shots/activity-closed.png"
  xdotool mousemove --window "$win" 1180 27 click 1
  for _ in $(seq 50); do state | grep -q "\"session_id\":\"$session\"" && break; sleep 0.2; done
  state | grep -q "\"session_id\":\"$session\"" || fail "Continue chat did not reopen session $session: $(state)"
  sleep 0.8
  import -window root "$shots/continued.png"
  xdotool type --delay 20 "And now?"
  xdotool key Return
  for _ in $(seq 150); do state | grep -q '"turns":\["completed","completed"\]' && break; sleep 0.2; done
  state | grep -q '"turns":\["completed","completed"\]' || fail "the turn in the continued chat did not complete: $(state)"
  sleep 0.7
  import -window root "$shots/continued-turn.png"
  "$tmp/openworker" journal show --db "$db" --json "$session" >"$tmp/journal2.json" || fail "journal show failed"
  grep -q '"status": *"open"' "$tmp/journal2.json" || fail "the continued session is not open in the journal"
else
  fail "no OpenWorker window found"
fi
# --- Permissions, grants, Retry and reconciliation (issue 12) ---
# A new run of the app on its own scripted model (--base-url/--model are
# for this run only): "Always" puts the answer in Settings → Permissions
# and a grant in the chat header; Revoke makes the next call ask again; a
# failed turn is retried in the same chat; a call left unknown is
# reconciled in Activity and reads "resolved".
echo "app-e2e: permissions, retry and reconciliation"
perm_win() { xdotool search --name '^OpenWorker$' | head -n1; }
# click X Y: a click in window coordinates; the pointer rests first, since
# WebKitGTK can drop a press that comes with the motion into a new element.
click() { xdotool mousemove --window "$(perm_win)" "$1" "$2" sleep 0.2 click 1; }
wait_state() { # PATTERN WHAT
  for _ in $(seq 150); do state | grep -q "$1" && return 0; sleep 0.2; done
  fail "$2: $(state)"
}
pkill -fx "$tmp/openworker" || true
for _ in $(seq 100); do pgrep -fx "$tmp/openworker" >/dev/null || break; sleep 0.1; done
cat > "$tmp/script2.json" <<'JSON'
[
  {"text": "Looking.", "tool_calls": [{"id": "p_1", "name": "device__system_info_get", "arguments": {}}]},
  {"text": "Checked once."},
  {"text": "Looking again.", "tool_calls": [{"id": "p_2", "name": "device__system_info_get", "arguments": {}}]},
  {"text": "Checked again."},
  {"err": 500, "err_message": "scripted outage"},
  {"text": "Back after the outage."}
]
JSON
"$tmp/scriptmodel" -script "$tmp/script2.json" -addr 127.0.0.1:0 >"$tmp/model2.out" 2>"$tmp/model2.log" &
pids+=($!)
for _ in $(seq 50); do grep -q '^listening ' "$tmp/model2.out" 2>/dev/null && break; sleep 0.1; done
model2="$(sed -n 's/^listening //p' "$tmp/model2.out")"
[ -n "$model2" ] || fail "the second scripted model did not start"
(
  in_app_env "$tmp" OPENAI_API_KEY="scripted-test-key" OPENWORKER_COWORKERS="$tmp/bundles" OPENWORKER_COWORKER="e2e-assistant" \
    OPENWORKER_SERVERS="$tmp/servers.json" OPENWORKER_E2E_ADDR="$hook" \
    "$tmp/openworker" --base-url "$model2" --model scripted >>"$tmp/app.log" 2>&1
) &
pids+=($!)
wait_state '"session_id"' "no chat opened after the restart"
sleep 1.5
xdotool type --delay 20 "Check this computer"
xdotool key Return
wait_state '"pending":1' "no consent dialog for the first call"
sleep 0.8
xdotool key alt+a
wait_state '"turns":\["completed"\]' "the turn with the always-allowed call did not complete"
wait_state '"grants":\["device.system_info_get"\]' "the chat holds no grant after Always"
sleep 0.7
import -window root "$shots/grants.png"
"$tmp/openworker" journal policies --db "$db" >"$tmp/policies.txt" 2>&1 || fail "journal policies failed: $(cat "$tmp/policies.txt")"
grep -q "device.system_info_get" "$tmp/policies.txt" || fail "Always saved no policy: $(cat "$tmp/policies.txt")"
# Settings → Permissions (the last section: scrolled to the bottom) lists
# the answer; Revoke takes it back and ends the open chat's grant.
click 60 137
sleep 1
xdotool mousemove --window "$(perm_win)" 700 500
xdotool click --repeat 40 --delay 20 5
sleep 0.8
import -window root "$shots/permissions.png"
click 1145 770
for _ in $(seq 50); do "$tmp/openworker" journal policies --db "$db" 2>/dev/null | grep -q ' ask ' && break; sleep 0.2; done
"$tmp/openworker" journal policies --db "$db" | grep -q ' ask ' || fail "Revoke in Permissions did not take the answer back: $("$tmp/openworker" journal policies --db "$db")"
wait_state '"grants":\[\]' "Revoke left the open chat's grant"
sleep 0.5
import -window root "$shots/permissions-revoked.png"
# Back in the chat, the same tool asks again.
click 100 206
sleep 1
xdotool type --delay 20 "And again?"
xdotool key Return
wait_state '"pending":1' "the call did not ask again after Revoke"
sleep 0.8
import -window root "$shots/asks-again.png"
xdotool key alt+o
wait_state '"turns":\["completed","completed"\]' "the turn after Revoke did not complete"
# A turn the model fails is retried in the same chat.
xdotool type --delay 20 "Once more"
xdotool key Return
wait_state '"turns":\["completed","completed","failed"\]' "the scripted outage did not fail the turn"
sleep 0.8
import -window root "$shots/failed-turn.png"
click 1187 727
wait_state '"turns":\["completed","completed","failed","completed"\]' "Retry did not run the turn again"
sleep 0.7
import -window root "$shots/retried.png"
n5="$(grep -c 'request 4: .*messages=9' "$tmp/model2.log" || true)"; n6="$(grep -c 'request 5: .*messages=9' "$tmp/model2.log" || true)"
[ "$n5" = 1 ] && [ "$n6" = 1 ] || fail "the retried request did not send the same history (the prompt once): $(tail -n 3 "$tmp/model2.log")"
# A call left unknown (journalbench writes 50 sessions, one with an
# unknown call) is resolved from Activity → Needs attention and reads
# "resolved"; the session stays on screen after it leaves the filter.
go run ./harness/journal/internal/journalbench gen -db "$db" -sessions 50 >/dev/null || fail "journalbench gen failed"
# Each click twice, a second apart: a second click on the same entry, filter
# or row changes nothing, and a click lost while the list re-renders (the
# Activity badge appears as the journal changes) does not derail the rest.
for xy in "60 103" "368 81" "380 135"; do
  click ${xy% *} ${xy#* }
  sleep 1
  click ${xy% *} ${xy#* }
  sleep 0.6
done
import -window root "$shots/needs-attention.png"
for _ in 1 2; do # once more if the press was lost: the button is gone once it worked
  click 920 298
  for _ in $(seq 25); do "$tmp/openworker" journal list --db "$db" --unknown 2>/dev/null | grep -q . || break 2; sleep 0.2; done
done
[ -z "$("$tmp/openworker" journal list --db "$db" --unknown 2>/dev/null)" ] || fail "the unknown call was not reconciled: $("$tmp/openworker" journal list --db "$db" --unknown)"
sleep 0.8
import -window root "$shots/resolved.png"

# --- theme and shortcuts (issue 12) ---
# Ctrl+, opens Settings; a click on "Dark" in its Appearance section (at the
# top of the page) saves the theme (GET /state says "dark"); Ctrl+Tab goes
# back to the chat and Ctrl+N opens a second chat with its coworker
# (docs/app.md#keys, docs/app.md#theme).
echo "app-e2e: theme and shortcuts"
win="$(xdotool search --name '^OpenWorker$' | head -n1 || true)"
[ -n "$win" ] || fail "no OpenWorker window found"
state | grep -q '"theme":"system"' || fail "the theme at first start is not \"system\": $(state)"
xdotool mousemove --window "$win" 700 400
xdotool key ctrl+comma
sleep 0.8
import -window root "$shots/settings-shortcut.png"
xdotool mousemove --window "$win" 450 112 click 1
for _ in $(seq 25); do state | grep -q '"theme":"dark"' && break; sleep 0.2; done
state | grep -q '"theme":"dark"' || fail "Ctrl+, then Dark did not save the dark theme: $(state)"
settings_file="$tmp/config/OpenWorker/settings.json"
grep -q '"theme": "dark"' "$settings_file" || fail "settings.json has no dark theme: $(cat "$settings_file")"
if grep -q "$tmp/bundles" "$settings_file"; then fail "saving the theme wrote this run's --coworkers to settings.json: $(cat "$settings_file")"; fi
sleep 0.5
import -window root "$shots/dark-settings.png"
chats_before="$(state | grep -o '"session_id"' | wc -l)"
xdotool key ctrl+Tab
sleep 0.5
xdotool key ctrl+n
for _ in $(seq 50); do [ "$(state | grep -o '"session_id"' | wc -l)" -gt "$chats_before" ] && break; sleep 0.2; done
[ "$(state | grep -o '"session_id"' | wc -l)" -gt "$chats_before" ] || fail "Ctrl+Tab then Ctrl+N opened no new chat: $(state)"
sleep 0.8
import -window root "$shots/dark.png"
xdotool key ctrl+Tab
sleep 0.8
import -window root "$shots/dark-chat.png"
# --- end theme and shortcuts ---

# --- Adding a coworker, notifications notice, second launch (issue 12) ---
# Restarts the app on the same HOME and config with no D-Bus session bus
# (so there is no notification daemon either, and Wails' own lock cannot
# see the first instance): the startup notice names the cause; a folder
# "dropped" on the window is previewed and copied in; a second start
# raises the hidden first window through the wake socket.
start_app() { # start_app HOOK LOG: the app as above, without D-Bus, on hook HOOK
  (
    in_app_env "$tmp" env -u DBUS_SESSION_BUS_ADDRESS OPENAI_BASE_URL="$model_url" OPENAI_API_KEY="scripted-test-key" \
      OPENWORKER_COWORKERS="$tmp/bundles" OPENWORKER_MODEL="scripted" OPENWORKER_SERVERS="$tmp/servers.json" \
      OPENWORKER_E2E_ADDR="$1" "$tmp/openworker" >"$2" 2>&1
  ) &
  pids+=($!)
}
echo "app-e2e: restarting the app without a D-Bus session bus"
win="$(xdotool search --name '^OpenWorker$' | head -n1 || true)"
[ -n "$win" ] || fail "no OpenWorker window before the restart"
first_pid="$(xdotool getwindowpid "$win" 2>/dev/null || true)"
[ -n "$first_pid" ] || fail "no pid for the first window"
kill "$first_pid"
for _ in $(seq 100); do kill -0 "$first_pid" 2>/dev/null || break; sleep 0.1; done
kill -0 "$first_pid" 2>/dev/null && fail "the first app did not stop"
hook="127.0.0.1:$((20000 + RANDOM % 20000))"
start_app "$hook" "$tmp/app2.log"
for _ in $(seq 100); do state | grep -q '"key":"notifications"' && break; sleep 0.2; done
st="$(state)"
echo "$st" | grep -q '"key":"notifications"' || fail "no notice that desktop notifications are unavailable: $st"
echo "$st" | grep -q 'no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is unset)' || fail "the notifications notice does not name the cause: $st"
sleep 1
import -window root "$shots/notifications-unavailable.png"

echo "app-e2e: adding a coworker by dropping its folder"
mkdir -p "$tmp/outside/notes-keeper/coworker"
cat > "$tmp/outside/notes-keeper/coworker/manifest.md" <<'MD'
---
id: notes-keeper
name: Notes Keeper
description: Keeps notes about this computer.
version: 0.3.0
---
You keep notes about this computer.
MD
echo '{"version":3,"tools":["device.system_info_get"]}' > "$tmp/outside/notes-keeper/coworker/tools.json"
win="$(xdotool search --onlyvisible --name '^OpenWorker$' | head -n1 || true)"
[ -n "$win" ] || fail "no window after the restart"
xdotool mousemove --window "$win" 60 69 click 1
sleep 0.5
# xdotool cannot drive an XDND drag: the e2e hook's POST /drop does what
# Wails' OnFileDrop callback does with a dropped folder (app/e2e_hook.go).
curl -fsS -X POST -d "{\"paths\":[\"$tmp/outside/notes-keeper\"]}" "http://$hook/drop" || fail "POST /drop failed"
sleep 1
import -window root "$shots/add-coworker.png"
[ ! -e "$tmp/bundles/notes-keeper" ] || fail "the preview wrote $tmp/bundles/notes-keeper"
# Focus is on the dialog; Tab goes Cancel, Link, Copy into coworkers.
xdotool key Tab Tab Tab Return
for _ in $(seq 50); do [ -f "$tmp/bundles/notes-keeper/coworker/manifest.md" ] && break; sleep 0.2; done
[ -f "$tmp/bundles/notes-keeper/coworker/manifest.md" ] || fail "Copy into coworkers did not copy the bundle"
[ -L "$tmp/bundles/notes-keeper" ] && fail "the bundle was linked, not copied"
for left in "$tmp/bundles"/.adding-*; do [ -e "$left" ] && fail "a temporary folder was left in the coworkers folder: $left"; done
sleep 1
import -window root "$shots/coworkers-added.png"

echo "app-e2e: a second launch raises the hidden first window"
xdotool windowunmap "$win"
sleep 0.5
[ -z "$(xdotool search --onlyvisible --name '^OpenWorker$' 2>/dev/null)" ] || fail "the window is still visible after windowunmap"
import -window root "$shots/second-launch-hidden.png"
set +e
(in_app_env "$tmp" env -u DBUS_SESSION_BUS_ADDRESS timeout 20 "$tmp/openworker") >"$tmp/second2.log" 2>&1
code=$?
set -e
[ "$code" = 0 ] || fail "the second instance exited with $code: $(cat "$tmp/second2.log")"
grep -q "its window was brought to the front" "$tmp/second2.log" || fail "the second instance did not reach the first: $(cat "$tmp/second2.log")"
for _ in $(seq 50); do [ -n "$(xdotool search --onlyvisible --name '^OpenWorker$' 2>/dev/null)" ] && break; sleep 0.1; done
[ -n "$(xdotool search --onlyvisible --name '^OpenWorker$' 2>/dev/null)" ] || fail "the first window is not visible again after a second launch"
sleep 0.7
import -window root "$shots/second-launch.png"
# --- end of adding a coworker, notifications notice, second launch (issue 12) ---
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
chats_stop() { # quit the app whose window is up, and wait until it is gone
  local pid
  pid="$(xdotool search --onlyvisible --name '^OpenWorker$' getwindowpid 2>/dev/null | head -n1 || true)"
  [ -n "$pid" ] || return 0
  kill "$pid" 2>/dev/null || true
  for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.1; done
  fail "the app (pid $pid) did not stop within 10 s"
}
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
chats_stop
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
chats_stop
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
chats_stop
start_e2e_app "when started again after the chats sidebar steps"
sleep 1
# --- end chats sidebar (issue 12) ---

# --- model picker (issue 12) ---
# Settings lists the scripted server's models (scriptmodel lists "scripted"
# by default) as soon as it opens, since the server is on this computer,
# and Test connection reports success with its latency
# (docs/app.md#model-picker). The /state hook shows what the app answered.
echo "app-e2e: Settings model picker and Test connection"
win="$(xdotool search --name '^OpenWorker$' | head -n1 || true)"
[ -n "$win" ] || fail "no OpenWorker window for the model picker"
xdotool mousemove --window "$win" 60 137 click 1
for _ in $(seq 50); do state | grep -q '"models":{[^}]*"models":\["scripted"\]' && break; sleep 0.2; done
state | grep -q '"models":{[^}]*"models":\["scripted"\]' || fail "Settings did not list the scripted model: $(state)"
sleep 0.7
import -window root "$shots/settings-models.png"
# Alt+T is "Test connection" of the selected provider (no coordinates:
# banners above the model fields move them).
xdotool key alt+t
for _ in $(seq 50); do state | grep -q '"connection":{"ok":true' && break; sleep 0.2; done
state | grep -q '"connection":{"ok":true,[^}]*"via":"models","listed":true' ||
  fail "Test connection did not report success with the model listed: $(state)"
xdotool mousemove --window "$win" 700 800
sleep 0.7
import -window root "$shots/settings-test-connection.png"
# --- end model picker ---

# --- diagnostics (issue 13) ---
# Settings → Support → Copy diagnostics (Alt+I: no coordinates, the
# section's place depends on Permissions) puts the report of `openworker
# doctor` on the clipboard and says "Diagnostics copied"
# (docs/app.md#diagnostics). With
# xclip installed, the clipboard holds the report's sections and the
# started device provider, and not this run's API key.
echo "app-e2e: Copy diagnostics"
win="$(xdotool search --name '^OpenWorker$' | head -n1 || true)"
[ -n "$win" ] || fail "no OpenWorker window for Copy diagnostics"
xdotool mousemove --window "$win" 60 137 click 1
sleep 0.8
xdotool mousemove --window "$win" 700 500
xdotool click --repeat 40 --delay 20 5
sleep 0.5
xdotool key alt+i
sleep 2
import -window root "$shots/diagnostics-copied.png"
if command -v xclip >/dev/null; then
  clip="$(timeout 5 xclip -o -selection clipboard 2>/dev/null || true)"
  for want in "[webview]" "[journal]" "verify       ok:" "provider device  ok:" "[model]"; do
    grep -qF -- "$want" <<<"$clip" || fail "the copied diagnostics lack '$want': $clip"
  done
  if grep -qF "scripted-test-key" <<<"$clip"; then fail "the copied diagnostics hold the API key: $clip"; fi
else
  echo "app-e2e: xclip is missing: the clipboard's text is not checked (look at diagnostics-copied.png)"
fi
# --- end diagnostics ---
# --- file open and second instance (issue 13) ---
# A second start given a .mcpb (as Windows starts the program for a
# double-clicked file; the path relative to the second start's folder)
# hands it to the first instance through the wake socket (no D-Bus here)
# and exits 0; the first sends one extension:opened to the window, which
# shows "Install extension ...?" (docs/app.md#opening-an-extension). A
# file that is not an extension gets an error notice naming it.
echo "app-e2e: a second start with a .mcpb and a .txt"
mkdir -p "$tmp/ext"
printf 'PK\003\004 not really a zip' > "$tmp/ext/weather.mcpb"
echo notes > "$tmp/ext/notes.txt"
for f in ext/weather.mcpb ext/notes.txt; do
  set +e
  (in_app_env "$tmp" env -u DBUS_SESSION_BUS_ADDRESS timeout 20 "$tmp/openworker" "$f") >"$tmp/second-file.log" 2>&1
  code=$?
  set -e
  [ "$code" = 0 ] || fail "the second start with $f exited with $code: $(cat "$tmp/second-file.log")"
  grep -q "its window was brought to the front" "$tmp/second-file.log" || fail "the second start with $f did not reach the first: $(cat "$tmp/second-file.log")"
done
wait_state "\"opened\":\[{\"path\":\"$tmp/ext/weather.mcpb\",\"name\":\"weather.mcpb\",\"size\":21},{\"path\":\"$tmp/ext/notes.txt\",\"name\":\"notes.txt\",\"size\":0,\"error\":\"$tmp/ext/notes.txt is not an extension" \
  "the first instance did not receive weather.mcpb, then notes.txt"
sleep 0.7
import -window root "$shots/extension-opened.png"
# --- end file open and second instance (issue 13) ---
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
  chats_stop
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
  chats_stop
  start_e2e_app "when started again after the prompts steps"
  sleep 1
fi
# --- end prompts (issue 14) ---

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

# --- sampling (issue 14) ---
# A server asks the session's model for a completion during a call
# (docs/mcp.md#sampling): the coworker sample-helper allows sampling for
# the provider "sample" (mcptest's sampleserver, stdio); the scripted model
# calls sample.summarize; after the call's consent the sampling variant of
# the consent dialog shows the messages and the model; Send once (Alt+O)
# lets the scripted model answer; the call returns its summary and the
# journal holds an openworker.sampling invocation with its approval.
echo "app-e2e: sampling"
go build -o "$tmp/sampleserver" ./harness/mcp/mcptest/cmd/sampleserver
printf '{"servers": {"sample": {"type": "stdio", "command": "%s"}}}\n' "$tmp/sampleserver" > "$tmp/sample-servers.json"
mkdir -p "$tmp/bundles/sample-helper/coworker"
sed 's/e2e-assistant/sample-helper/; s/E2E Assistant/Sample Helper/; s/^version: 1.0.0$/version: 1.0.0\nsampling: [sample]/' \
  "$tmp/bundles/e2e-assistant/coworker/manifest.md" > "$tmp/bundles/sample-helper/coworker/manifest.md"
echo '{"version":3,"tools":["sample.summarize"]}' > "$tmp/bundles/sample-helper/coworker/tools.json"
cat > "$tmp/sample-script.json" <<'JSON'
[
  {"text": "Summarizing.", "tool_calls": [{"id": "s_1", "name": "sample__summarize", "arguments": {"text": "The quokka is a small wallaby of Rottnest Island that seems to smile."}}]},
  {"text": "A smiling wallaby of Rottnest Island."},
  {"text": "The server summarized it: a smiling wallaby."}
]
JSON
"$tmp/scriptmodel" -script "$tmp/sample-script.json" -addr 127.0.0.1:0 >"$tmp/sample-model.out" 2>>"$tmp/model.log" &
pids+=($!)
for _ in $(seq 50); do grep -q '^listening ' "$tmp/sample-model.out" 2>/dev/null && break; sleep 0.1; done
sample_model="$(sed -n 's/^listening //p' "$tmp/sample-model.out")"
[ -n "$sample_model" ] || fail "the sampling block's scripted model did not start"
# stop_shown_app: quit the app whose window is up (whatever its flags), and
# wait until it is gone.
stop_shown_app() {
  local pid
  pid="$(xdotool search --onlyvisible --name '^OpenWorker$' getwindowpid 2>/dev/null | head -n1 || true)"
  [ -n "$pid" ] || return 0
  kill "$pid" 2>/dev/null || true
  for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.1; done
  fail "the app (pid $pid) did not stop within 10 s"
}
stop_shown_app
(
  in_app_env "$tmp" OPENAI_API_KEY="scripted-test-key" OPENWORKER_COWORKERS="$tmp/bundles" OPENWORKER_COWORKER="sample-helper" \
    OPENWORKER_SERVERS="$tmp/sample-servers.json" OPENWORKER_E2E_ADDR="$hook" \
    "$tmp/openworker" --base-url "$sample_model" --model scripted >>"$tmp/app.log" 2>&1
) &
pids+=($!)
wait_state '"session_id"' "no chat with sample-helper opened"
sleep 1.5
xdotool type --delay 20 "Summarize the quokka"
xdotool key Return
wait_state '"pending":1' "no consent dialog for sample.summarize"
sleep 0.8
xdotool key alt+o
wait_state '"sampling":1' "the server's sampling request did not reach the consent dialog"
sleep 1
import -window root "$shots/sampling.png"
xdotool key alt+o
wait_state 'sample.summarize succeeded .*summary by [^"]*: A smiling wallaby of Rottnest Island.' "the call did not return the model's summary"
wait_state '"turns":\["completed"\]' "the turn with the sampling request did not complete"
sleep 0.7
import -window root "$shots/sampling-answered.png"
sample_session="$(state | grep -o '"session_id":"[^"]*"' | head -n1 | cut -d'"' -f4)"
"$tmp/openworker" journal show --db "$db" --json "$sample_session" >"$tmp/sample-journal.json" || fail "journal show failed"
node - "$tmp/sample-journal.json" <<'JS' || fail "the journal has no approved, succeeded openworker.sampling invocation: $(head -c 3000 "$tmp/sample-journal.json")"
const d = JSON.parse(require("fs").readFileSync(process.argv[2], "utf8"));
const ids = new Set(d.invocations.filter((i) => i.tool === "openworker.sampling" && i.status === "succeeded").map((i) => i.id));
process.exit(d.approvals.some((a) => ids.has(a.invocation_id) && a.decision === "allow_once") ? 0 : 1);
JS
# --- end sampling (issue 14) ---

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
sign_bus="$(command -v dbus-daemon || true)"; sign_keyring="$(command -v gnome-keyring-daemon || true)"
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
  pids+=($oauth_pid)
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
  "$tmp/scriptmodel" -script "$sin/script.json" -addr 127.0.0.1:0 >"$sin/model.out" 2>>"$tmp/model.log" &
  pids+=($!)
  for _ in $(seq 50); do grep -q '^listening ' "$sin/model.out" 2>/dev/null && break; sleep 0.1; done
  sin_model="$(sed -n 's/^listening //p' "$sin/model.out")"
  [ -n "$sin_model" ] || fail "the sign-in block's scripted model did not start"
  "$sign_bus" --session --nofork --print-address=3 3>"$sin/bus" >/dev/null 2>&1 &
  pids+=($!)
  for _ in $(seq 50); do [ -s "$sin/bus" ] && break; sleep 0.1; done
  sin_bus="$(head -n1 "$sin/bus")"
  [ -n "$sin_bus" ] || fail "the private D-Bus session bus did not start"
  (printf 'e2e-keyring' | env HOME="$sin/home" XDG_DATA_HOME="$sin/data" XDG_RUNTIME_DIR="$sin/run" DBUS_SESSION_BUS_ADDRESS="$sin_bus" \
    "$sign_keyring" --foreground --unlock --components=secrets >"$sin/keyring.log" 2>&1) &
  pids+=($!)
  sleep 1
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
  click 453 508 # Sign in (under the URL)
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
  xdotool mousemove --window "$(perm_win)" 700 500
  xdotool click --repeat 40 --delay 20 5 # to the bottom: Tools and approvals lists the sign-in
  sleep 0.8
  import -window root "$shots/signin-settings.png"
  click 941 284 # its Sign out (this HOME has no saved answers below it)
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
  chats_stop
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

echo "app-e2e: screenshots in $shots:"
ls -1 "$shots"
echo "app-e2e: 1 passed, 0 failed"
