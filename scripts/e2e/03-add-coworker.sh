# shellcheck shell=bash
# shellcheck disable=SC2154 # the variables are the sourcing script's
# A block of scripts/app-e2e.sh, sourced by it in file-name order: it uses
# the helpers and variables defined there (start_e2e_app, click, wait_state,
# state, fail, $tmp, $shots, $db, ...).
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
for _ in $(seq 300); do state | grep -q '"key":"notifications"' && break; sleep 0.2; done # up to 60 s: a loaded machine starts slowly
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
# The temporary folder goes right after the rename (a deferred RemoveAll):
# give it a moment before calling it left behind.
for _ in $(seq 20); do compgen -G "$tmp/bundles/.adding-*" >/dev/null || break; sleep 0.1; done
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
