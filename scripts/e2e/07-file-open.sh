# shellcheck shell=bash
# shellcheck disable=SC2154 # the variables are the sourcing script's
# A block of scripts/app-e2e.sh, sourced by it in file-name order: it uses
# the helpers and variables defined there (start_e2e_app, click, wait_state,
# state, fail, $tmp, $shots, $db, ...).
# --- file open and second instance (issue 13) ---
# A second start given a .mcpb (as Windows starts the program for a
# double-clicked file; the path relative to the second start's folder)
# hands it to the first instance through the wake socket (no D-Bus here)
# and exits 0; the first sends one extension:opened to the window, which
# opens the install dialog (docs/app.md#opening-an-extension): this
# weather.mcpb is not a real zip, so the dialog shows the archive's error
# naming the file, and Esc closes it. A file that is not an extension gets
# an error notice naming it.
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
wait_state "\"previews\":\[\"$tmp/ext/weather.mcpb: [^\"]*weather.mcpb" "the install dialog did not read weather.mcpb"
sleep 0.7
import -window root "$shots/extension-opened.png"
xdotool key Escape
sleep 0.5
# --- end file open and second instance (issue 13) ---
