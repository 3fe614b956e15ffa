# shellcheck shell=bash
# shellcheck disable=SC2154 # the variables are the sourcing script's
# A block of scripts/app-e2e.sh, sourced by it in file-name order: it uses
# the helpers and variables defined there (start_e2e_app, click, wait_state,
# state, fail, $tmp, $shots, $db, ...).
# --- the consent dialog by keyboard (issue 39 item 2) ---
# In its own HOME, light theme first: a tool call's consent dialog opens
# with the focus on the dialog; Tab puts a visible focus ring on the first
# button (more pixels of the ring colour than before the Tab, in
# round2-focus-light.png); Tab, Tab, Tab, Space from the opening focus
# DENIES (the third button), never "Always": the journal's decision is
# deny and no allow_always exists. Then the same in the dark theme
# (settings.json "theme": "dark"): the ring (round2-focus-dark.png), Alt+A
# opens "More choices" without answering (round2-more-dark.png), and Esc
# denies. docs/consent.md#answering-in-the-app.
echo "app-e2e: window round two: consent by keyboard"
r2="$tmp/round2"
mkdir -p "$r2/home" "$r2/config/OpenWorker" "$r2/data"
cat > "$r2/script.json" <<'JSON'
[
  {"text": "Looking.", "tool_calls": [{"id": "k_1", "name": "device__system_info_get", "arguments": {}}]},
  {"text": "It was denied, fine."},
  {"text": "Looking again.", "tool_calls": [{"id": "k_2", "name": "device__system_info_get", "arguments": {}}]},
  {"text": "Denied again."}
]
JSON
start_script_model "$r2/script.json" "$r2/model.out" "window round two"
r2_model="$script_model_url"
r2_db="$r2/config/OpenWorker/journal.db"

# r2_start: the app on this block's HOME, e2e-assistant's chat open.
r2_start() {
  stop_shown_app
  (
    in_app_env "$r2" OPENAI_API_KEY="scripted-test-key" OPENWORKER_COWORKERS="$tmp/bundles" OPENWORKER_COWORKER="e2e-assistant" \
      OPENWORKER_SERVERS="$tmp/servers.json" OPENWORKER_E2E_ADDR="$hook" \
      "$tmp/openworker" --base-url "$r2_model" --model scripted >>"$r2/app.log" 2>&1
  ) &
  pids+=($!)
  wait_state '"session_id"' "window round two: no chat opened (app log: $(tail -n 5 "$r2/app.log"))"
  sleep 1.5
}
# r2_ring_pixels FILE COLOUR: how many pixels of COLOUR the screenshot has.
r2_ring_pixels() {
  convert "$1" -fill black +opaque "$2" -fill white -opaque "$2" -format '%[fx:round(mean*w*h)]' info:
}
# r2_ask PROMPT: sends PROMPT and waits for its consent dialog, then past
# the dialog's 500 ms of disarm.
r2_ask() {
  xdotool type --delay 20 "$1"
  xdotool key Return
  wait_state '"pending":1' "window round two: no consent dialog for \"$1\""
  sleep 1
}
# r2_ring WHAT COLOUR: checks the focus ring moves from the dialog to its
# first button on Tab, in the screenshot $shots/round2-focus-WHAT.png. The
# dialog opens focused, with a 2 px ring of COLOUR round it (at least 1000
# pixels; waited for, as a loaded machine paints late); Tab takes it to
# the first button, whose 3 px ring is the only ring then (at least 300
# pixels, and another count than before).
r2_ring() {
  local before=0 after=0
  for _ in $(seq 40); do
    import -window root "$r2/before-$1.png"
    before="$(r2_ring_pixels "$r2/before-$1.png" "$2")"
    [ "$before" -ge 1000 ] && break
    sleep 0.5
  done
  [ "$before" -ge 1000 ] || fail "window round two ($1): the focused dialog shows no ring ($before pixels of $2)"
  xdotool key Tab
  for _ in $(seq 40); do
    sleep 0.5
    import -window root "$shots/round2-focus-$1.png"
    after="$(r2_ring_pixels "$shots/round2-focus-$1.png" "$2")"
    [ "$after" -ge 300 ] && [ "$after" != "$before" ] && break
  done
  echo "app-e2e: window round two ($1): ring pixels $before on the dialog, $after after Tab"
  [ "$after" -ge 300 ] && [ "$after" != "$before" ] || fail "window round two ($1): no visible focus ring on the first button after Tab ($before pixels of $2 before, $after after)"
}

r2_start
r2_ask "What computer am I on?"
r2_ring light "#1d4ed8"
# Back to the opening focus is not possible by keys; start from the first
# button: Tab, Tab (3 in all from the dialog) reaches Deny, Space presses it.
xdotool key Tab Tab
sleep 0.3
xdotool key space
wait_state '"pending":0' "window round two: Tab, Tab, Tab, Space did not answer the dialog"
wait_state '"turns":\["completed"\]' "window round two: the first turn did not complete"
"$tmp/openworker" journal show --db "$r2_db" --json >"$r2/journal.json" || fail "window round two: journal show failed"
grep -Eq '"decision": *"deny"' "$r2/journal.json" || fail "window round two: Tab, Tab, Tab, Space did not deny: $(grep -o '"decision": *"[a-z_]*"' "$r2/journal.json")"
if grep -q 'allow_always' "$r2/journal.json"; then fail "window round two: Tab, Tab, Tab, Space recorded Always"; fi

# The dark theme: the same dialog, its ring, and Alt+A only opening More choices.
printf '{"theme": "dark"}\n' >"$r2/config/OpenWorker/settings.json"
r2_start
state | grep -q '"theme":"dark"' || fail "window round two: the dark theme did not take: $(state)"
r2_ask "And now?"
r2_ring dark "#8fb0ff"
xdotool key alt+a
# More choices opens below the buttons: the window changes (waited for).
changed=0
for _ in $(seq 40); do
  sleep 0.5
  import -window root "$shots/round2-more-dark.png"
  changed="$(compare -metric AE -fuzz 2% "$shots/round2-focus-dark.png" "$shots/round2-more-dark.png" null: 2>&1 || true)"
  [ "${changed%% *}" -ge 2000 ] 2>/dev/null && break
done
echo "app-e2e: window round two: $changed pixels changed on Alt+A"
[ "${changed%% *}" -ge 2000 ] 2>/dev/null || fail "window round two: Alt+A did not open More choices (the window did not change: $changed pixels)"
state | grep -q '"pending":1' || fail "window round two: Alt+A answered the dialog (it should only open More choices): $(state)"
xdotool key Escape
wait_state '"pending":0' "window round two: Esc did not deny"
"$tmp/openworker" journal show --db "$r2_db" --json >"$r2/journal2.json" || fail "window round two: journal show failed"
if grep -q 'allow_always' "$r2/journal2.json"; then fail "window round two: Alt+A recorded Always"; fi
stop_shown_app
# --- end the consent dialog by keyboard ---
