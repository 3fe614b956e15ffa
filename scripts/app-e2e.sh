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
# The blocks are scripts/e2e/NN-topic.sh, sourced in order (add a new one
# there, numbered after the last).
# Needs: xvfb xdotool xclip imagemagick libgtk-3-dev libwebkit2gtk-4.0-dev, Node, Go;
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
# The helpers of the blocks (scripts/e2e/):
perm_win() { xdotool search --name '^OpenWorker$' | head -n1; }
# click X Y: a click in window coordinates; the pointer rests first, since
# WebKitGTK can drop a press that comes with the motion into a new element.
click() { xdotool mousemove --window "$(perm_win)" "$1" "$2" sleep 0.2 click 1; }
# wait_state PATTERN WHAT: waits up to 30 s for PATTERN in the e2e state.
wait_state() {
  for _ in $(seq 150); do state | grep -q "$1" && return 0; sleep 0.2; done
  fail "$2: $(state)"
}
# stop_shown_app: quit the app whose window is up (whatever its flags), and
# wait until it is gone.
stop_shown_app() {
  local pid w found=()
  # Every app with a window, shown or hidden (a window starts hidden until
  # its splash paints, and "keep running" hides it on close): one left
  # running would take the next start as its second launch.
  for w in $(xdotool search --name '^OpenWorker$' 2>/dev/null || true); do
    pid="$(xdotool getwindowpid "$w" 2>/dev/null || true)"
    if [ -n "$pid" ]; then found+=("$pid"); fi
  done
  [ "${#found[@]}" -gt 0 ] || return 0
  for pid in $(printf '%s\n' "${found[@]}" | sort -u); do
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || continue 2; sleep 0.1; done
    fail "the app (pid $pid) did not stop within 10 s"
  done
}
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

# start_script_model SCRIPT OUT WHAT: a scripted model serving SCRIPT on
# 127.0.0.1 (its output in OUT). Sets script_model_url to its URL; fails
# naming WHAT. (Not in $(...): the process must join pids here.)
start_script_model() {
  "$tmp/scriptmodel" -script "$1" -addr 127.0.0.1:0 >"$2" 2>>"$tmp/model.log" &
  pids+=($!)
  for _ in $(seq 50); do grep -q '^listening ' "$2" 2>/dev/null && break; sleep 0.1; done
  script_model_url="$(sed -n 's/^listening //p' "$2")"
  [ -n "$script_model_url" ] || fail "$3: the scripted model did not start"
}

# start_keyring ROOT WHAT: a private D-Bus session bus with an unlocked
# gnome-keyring on it, for an app started with HOME and XDG folders under
# ROOT (ROOT/run is its XDG_RUNTIME_DIR). Sets keyring_bus to the bus
# address; fails naming WHAT. Needs dbus-daemon and gnome-keyring-daemon.
# The bus has the tests' own configuration (internal/testbus/session.conf:
# no service directories), so nothing installed here, a notification
# daemon or another keyring, is activated on it.
start_keyring() {
  dbus-daemon --config-file="$root/internal/testbus/session.conf" --nofork --print-address=3 3>"$1/bus" >/dev/null 2>&1 &
  pids+=($!)
  for _ in $(seq 50); do [ -s "$1/bus" ] && break; sleep 0.1; done
  keyring_bus="$(head -n1 "$1/bus")"
  [ -n "$keyring_bus" ] || fail "$2: the private D-Bus session bus did not start"
  (printf 'e2e-keyring' | env HOME="$1/home" XDG_DATA_HOME="$1/data" XDG_RUNTIME_DIR="$1/run" DBUS_SESSION_BUS_ADDRESS="$keyring_bus" \
    gnome-keyring-daemon --foreground --unlock --components=secrets >"$1/keyring.log" 2>&1) &
  pids+=($!)
  sleep 1
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
# The blocks, in order (scripts/e2e/NN-topic.sh); each leaves the app as
# the next expects it. OPENWORKER_E2E_BLOCKS="09|14" runs only those (for
# working on one block; the blocks that start their own app stand alone).
for block in scripts/e2e/[0-9][0-9]-*.sh; do
  n="$(basename "$block")"; n="${n%%-*}"
  if [ -n "${OPENWORKER_E2E_BLOCKS:-}" ] && ! [[ "$n" =~ ^(${OPENWORKER_E2E_BLOCKS})$ ]]; then
    echo "app-e2e: block $n skipped (OPENWORKER_E2E_BLOCKS=$OPENWORKER_E2E_BLOCKS)"
    continue
  fi
  # shellcheck source=/dev/null
  . "$block"
done

echo "app-e2e: screenshots in $shots:"
ls -1 "$shots"
echo "app-e2e: 1 passed, 0 failed"
