# shellcheck shell=bash
# shellcheck disable=SC2154 # the variables are the sourcing script's
# A block of scripts/app-e2e.sh, sourced by it in file-name order: it uses
# the helpers and variables defined there (start_e2e_app, click, wait_state,
# state, fail, $tmp, $shots, $db, ...).
# --- Settings in sections, the window at 800×600, the splash (issue 39 items 6, 8, 9) ---
# In its own HOME: the window asks for at least 800×600 (its
# WM_NORMAL_HINTS' minimum size); at 800×600 every screen is shot
# (small-*.png). Settings opens on Model; a click on the first entry of its
# navigation list, then Right arrows walk every section by keyboard
# (sections-NN-ID-light.png), the focus ring of the entry visible (more
# pixels of the ring colour than with the mouse focus, sections-focus-*.png).
# Coworkers' folder is typed and saved with Enter: settings.json has it
# and nothing else changed; the "Saved." line goes after 6 s, and the
# window before and after differs only within that line (content does not
# move). Then the same walk in the dark theme. Last, a start with the
# script bundle held back 4 s (OPENWORKER_E2E_SLOW_START) shows the splash
# of index.html (splash.png) before the app's script runs; the
# paint timings of both starts come from the e2e hook.
# docs/app.md#settings, docs/app.md#window-size-and-splash.
echo "app-e2e: settings sections at 800x600"
ss="$tmp/sections"
mkdir -p "$ss/home" "$ss/config/OpenWorker" "$ss/data" "$ss/folder"
echo '{"servers": {}}' >"$ss/servers.json"
ss_ids=(model coworkers servers extensions permissions limits background notifications appearance diagnostics about)
# ss_start [VAR=VALUE...]: the app on this block's HOME, no chat open; waits for its coworker list.
ss_start() {
  stop_shown_app
  (
    in_app_env "$ss" OPENAI_API_KEY="scripted-test-key" OPENWORKER_COWORKERS="$tmp/bundles" \
      OPENWORKER_SERVERS="$ss/servers.json" OPENWORKER_E2E_ADDR="$hook" "$@" \
      "$tmp/openworker" --base-url "$model_url" --model scripted >>"$ss/app.log" 2>&1
  ) &
  pids+=($!)
}
ss_ready() {
  wait_state '"painted"' "settings sections: the window did not report its paint (app log: $(tail -n 5 "$ss/app.log"))"
  sleep 1
}
# ss_win: the app's shown window (perm_win's first match can be GTK's
# unmapped leader window).
ss_win() { xdotool search --onlyvisible --name '^OpenWorker$' | head -n1; }
ss_shot() { import -window "$(ss_win)" "$1"; }
ss_click() { xdotool mousemove --window "$(ss_win)" "$1" "$2" sleep 0.2 click 1; }
# ss_pixels FILE COLOUR: how many pixels of COLOUR the shot has.
ss_pixels() { convert "$1" -fill black +opaque "$2" -fill white -opaque "$2" -format '%[fx:round(mean*w*h)]' info:; }
# ss_walk THEME RING: Settings at 800×600, each section shot, by keyboard.
ss_walk() {
  local win i n before after
  win="$(ss_win)"
  xdotool windowsize "$win" 800 600
  sleep 0.8
  ss_click 60 137 # Settings in the sidebar
  sleep 1
  ss_shot "$shots/sections-00-model-$1.png"
  ss_nav_locate "$shots/sections-00-model-$1.png"
  ss_click "$ss_nav_x" "$ss_nav_y" # the first entry, Model: focused by the mouse (no ring)
  sleep 0.5
  ss_shot "$ss/mouse-$1.png"
  before="$(ss_pixels "$ss/mouse-$1.png" "$2")"
  n=0
  for i in "${ss_ids[@]:1}"; do
    n=$((n + 1))
    xdotool key Right
    sleep 0.8
    ss_shot "$shots/sections-$(printf %02d "$n")-$i-$1.png"
  done
  xdotool key Home
  sleep 0.8
  ss_shot "$shots/sections-focus-$1.png"
  after="$(ss_pixels "$shots/sections-focus-$1.png" "$2")"
  echo "app-e2e: settings sections ($1): ring pixels $before by the mouse, $after by the keyboard"
  [ "$after" -ge $((before + 100)) ] || fail "settings sections ($1): no visible focus ring on the nav entry after Home ($before pixels of $2 before, $after after)"
  # Each section looks different from the one before.
  for n in $(seq 1 $((${#ss_ids[@]} - 1))); do
    local a b d
    a="$(ls "$shots"/sections-"$(printf %02d $((n - 1)))"-*-"$1".png)"; b="$(ls "$shots"/sections-"$(printf %02d "$n")"-*-"$1".png)"
    d="$(compare -metric AE "$a" "$b" null: 2>&1 || true)"
    [ "${d%% *}" -ge 500 ] 2>/dev/null || fail "settings sections ($1): $(basename "$b") looks as $(basename "$a") ($d pixels differ): the Right arrow did not change the section"
  done
}

# ss_nav_locate SHOT: sets ss_nav_x, ss_nav_y to the middle of the list's
# current entry in SHOT (window coordinates): its accent bar (3 px of
# #2f62e8, the only accent between x 226 and 380 at 800×600).
ss_nav_locate() {
  local g h x y
  g="$(convert "$1" -crop 154x560+226+40 +repage -fill black +opaque "#2f62e8" -trim -format '%w %h %X %Y' info: 2>/dev/null || true)"
  read -r _ h x y <<<"$g"
  [ -n "$h" ] && [ "$h" -ge 10 ] || fail "settings sections: no current entry in the list of $(basename "$1") ($g)"
  ss_nav_x=$((226 + ${x#+} + 50)); ss_nav_y=$((40 + ${y#+} + h / 2))
  echo "app-e2e: settings sections: the current entry is at $ss_nav_x,$ss_nav_y"
}
ss_start
ss_ready
grep -o '"painted":{[^}]*}' <<<"$(state)" | sed 's/^/app-e2e: paint timings of a normal start: /'
# The smallest window: 800×600 (app/run.go MinWidth, MinHeight), as the
# window asks its window manager (Xvfb has none to enforce it).
hints="$(xprop -id "$(ss_win)" WM_NORMAL_HINTS)"
echo "app-e2e: window size hints: $(grep -i 'minimum size' <<<"$hints" | xargs)"
grep -qi 'minimum size: 800 by 600' <<<"$hints" || fail "settings sections: the window does not ask for a minimum of 800x600: $hints"
xdotool windowsize "$(ss_win)" 800 600
sleep 1
# Every screen at 800×600 (looked at, not asserted).
for sc in "coworkers:69" "activity:103" "settings:137" "inbox:476" "schedules:510"; do
  ss_click 60 "${sc##*:}"
  sleep 1
  ss_shot "$shots/small-${sc%%:*}.png"
done
ss_walk light "#1d4ed8"

# Save one section: Coworkers' folder, with Enter. Only that field is
# written. The list is one Tab stop: Tab goes from it to the folder field.
ss_click 60 137
sleep 0.5
ss_click "$ss_nav_x" "$ss_nav_y"
xdotool key Right
sleep 1
xdotool key Tab
xdotool key ctrl+a
xdotool type --delay 10 "$ss/folder"
xdotool key Return
for _ in $(seq 50); do grep -q "\"coworkers_dir\": *\"$ss/folder\"" "$ss/config/OpenWorker/settings.json" 2>/dev/null && break; sleep 0.2; done
grep -q "\"coworkers_dir\": *\"$ss/folder\"" "$ss/config/OpenWorker/settings.json" || fail "settings sections: Enter in the folder field did not save it: $(cat "$ss/config/OpenWorker/settings.json" 2>/dev/null)"
grep -q '"approval_mode": *"ask"' "$ss/config/OpenWorker/settings.json" || fail "settings sections: saving Coworkers changed another field: $(cat "$ss/config/OpenWorker/settings.json")"
# The focus leaves the field (its blinking caret would differ between the shots).
xdotool key Tab
xdotool mousemove --window "$(ss_win)" 790 590
sleep 0.5
ss_shot "$shots/sections-saved.png"
# The "Saved." line goes after 6 s: nothing else moves.
sleep 7
ss_shot "$shots/sections-saved-gone.png"
compare -metric AE "$shots/sections-saved.png" "$shots/sections-saved-gone.png" "$ss/saved-diff.png" 2>/dev/null || true
box="$(convert "$shots/sections-saved.png" "$shots/sections-saved-gone.png" -compose difference -composite -threshold 5% -trim -format '%w %h %X %Y' info: 2>/dev/null || true)"
echo "app-e2e: settings sections: the status line's going changed only the box (w h x y) $box"
read -r _ bh _ _ <<<"$box"
[ -n "$bh" ] && [ "$bh" -gt 1 ] || fail "settings sections: the Saved line did not go (no change: $box)"
[ "$bh" -le 40 ] || fail "settings sections: more than the status line moved when it went ($box)"

# The dark theme: the same walk.
python3 - "$ss/config/OpenWorker/settings.json" <<'PY'
import json, sys
p = sys.argv[1]
s = json.load(open(p))
s["theme"] = "dark"
json.dump(s, open(p, "w"))
PY
ss_start
ss_ready
ss_walk dark "#8fb0ff"

# The splash: index.html is served with it, and a start whose script is
# held back 4 s shows it. The window starts hidden and appears when its
# page paints the splash. Shots of the screen (Xvfb's root is black
# without the window) are taken until the window is on it, then until the
# splash's sidebar is (#10131a, the dark theme saved above: 100 000 pixels
# and more): it must be there while the app's script is still held back
# (within 10 shots of the window appearing, well inside the 4 s). How long
# the window showed without it is printed, not timed against a bound (a
# shot takes 100 to 500 ms on a busy machine); the paint timings the page
# reports follow.
grep -q 'id="splash"' frontend/dist/index.html || fail "settings sections: index.html has no splash"
stop_shown_app
t0="$(date +%s%N)"
ss_start OPENWORKER_E2E_SLOW_START=4s
found=""
appeared=""
prev="$t0"
for k in $(seq 120); do
  import -window root "$ss/splash-$k.png"
  now="$(date +%s%N)"
  if [ -z "$appeared" ] && [ "$(convert "$ss/splash-$k.png" -format '%[fx:mean>0.01]' info:)" = 1 ]; then
    appeared="$k"
    echo "app-e2e: splash: the window appeared between $(((prev - t0) / 1000000)) and $(((now - t0) / 1000000)) ms after the start"
  fi
  if [ -n "$appeared" ] && [ "$(ss_pixels "$ss/splash-$k.png" "#10131a")" -ge 100000 ]; then found="$k"; break; fi
  if [ -n "$appeared" ] && [ $((k - appeared)) -ge 10 ]; then break; fi
  prev="$now"
done
[ -n "$appeared" ] || fail "settings sections: the window did not appear within 120 shots"
[ -n "$found" ] || fail "settings sections: the window showed no splash in the 10 shots after it appeared (last: $ss/splash-$k.png)"
cp "$ss/splash-$found.png" "$shots/splash.png"
echo "app-e2e: splash: in shot $found, $((found - appeared)) shot(s) after the window appeared ($(((now - t0) / 1000000)) ms after the start)"
ss_ready
grep -o '"painted":{[^}]*}' <<<"$(state)" | sed 's/^/app-e2e: paint timings of the slowed start: /'
stop_shown_app
# --- end Settings in sections ---
