# shellcheck shell=bash
# shellcheck disable=SC2154 # the variables are the sourcing script's
# A block of scripts/app-e2e.sh, sourced by it in file-name order: it uses
# the helpers and variables defined there (start_e2e_app, click, wait_state,
# state, fail, $tmp, $shots, ...).
# --- hidden characters in the consent dialog and chat ---
# In its own HOME, a scripted model calls device.disk_usage_get with the
# path "/tmp/invoice_\u202egpj.exe\u202c and zero\u200bwidth": U+202E
# would show it as "…exe.jpg", U+200B not at all. The consent dialog shows
# ⟨U+202E⟩, ⟨U+202C⟩ and ⟨U+200B⟩ as markers (their dark red background
# painted: hidden-consent.png) under the line "These arguments hold 3
# invisible or direction-changing characters"; Esc denies. The model's
# text "\u202elive\u202c" shows ⟨U+202E⟩live⟨U+202C⟩, not "evil"
# (hidden-chat.png). docs/app.md#hidden-characters.
echo "app-e2e: hidden characters"
r26="$tmp/hidden"
mkdir -p "$r26/home" "$r26/config/OpenWorker" "$r26/data" "$r26/bundles/hidden-helper/coworker"
sed 's/e2e-assistant/hidden-helper/; s/E2E Assistant/Hidden Helper/' "$tmp/bundles/e2e-assistant/coworker/manifest.md" \
  > "$r26/bundles/hidden-helper/coworker/manifest.md"
echo '{"version":3,"tools":["device.disk_usage_get"]}' > "$r26/bundles/hidden-helper/coworker/tools.json"
echo '{"servers": {}}' > "$r26/servers.json"
cat > "$r26/script.json" <<'JSON'
[
  {"text": "Measuring your invoice. It is \u202elive\u202c, I promise.", "tool_calls": [{"id": "h_1", "name": "device__disk_usage_get", "arguments": {"path": "/tmp/invoice_\u202egpj.exe\u202c and zero\u200bwidth"}}]},
  {"text": "You said no; I will not measure it."}
]
JSON
start_script_model "$r26/script.json" "$r26/model.out" "hidden characters"
r26_model="$script_model_url"
# r26_pixels FILE COLOUR: how many pixels of COLOUR the screenshot has.
r26_pixels() {
  convert "$1" -fill black +opaque "$2" -fill white -opaque "$2" -format '%[fx:round(mean*w*h)]' info:
}
stop_shown_app
(
  in_app_env "$r26" OPENAI_API_KEY="scripted-test-key" OPENWORKER_COWORKERS="$r26/bundles" OPENWORKER_COWORKER="hidden-helper" \
    OPENWORKER_SERVERS="$r26/servers.json" OPENWORKER_E2E_ADDR="$hook" \
    "$tmp/openworker" --base-url "$r26_model" --model scripted >>"$r26/app.log" 2>&1
) &
pids+=($!)
wait_state '"session_id"' "hidden characters: no chat opened (app log: $(tail -n 5 "$r26/app.log"))"
sleep 1.5
xdotool type --delay 20 "How big is my invoice?"
xdotool key Return
wait_state '"pending":1' "hidden characters: no consent dialog for device.disk_usage_get"
# The markers' background (--hidden-bg, #9a1c1c in the light theme) painted:
# waited for, as a loaded machine paints late.
marks=0
for _ in $(seq 40); do
  sleep 0.5
  import -window root "$shots/hidden-consent.png"
  marks="$(r26_pixels "$shots/hidden-consent.png" "#9a1c1c")"
  [ "$marks" -ge 600 ] && break
done
[ "$marks" -ge 600 ] || fail "hidden characters: the consent dialog shows no ⟨U+…⟩ markers ($marks pixels of #9a1c1c; see hidden-consent.png)"
warn="$(r26_pixels "$shots/hidden-consent.png" "#fff8e6")"
[ "$warn" -ge 3000 ] || fail "hidden characters: no warning line above the arguments ($warn pixels of #fff8e6; see hidden-consent.png)"
sleep 0.5
xdotool key Escape
wait_state '"turns":\["completed"\]' "hidden characters: the turn did not complete after Esc denied the call"
sleep 1
import -window root "$shots/hidden-chat.png"
chat_marks="$(r26_pixels "$shots/hidden-chat.png" "#9a1c1c")"
[ "$chat_marks" -ge 300 ] || fail "hidden characters: the chat shows no ⟨U+202E⟩ marker in the model's text ($chat_marks pixels; see hidden-chat.png)"
# --- end hidden characters ---
