# Step 1g of scripts/test-windows-wine.sh: the desktop app started where no
# WebView2 runtime is installed (Wine has none). Sourced; uses $wine, $exe,
# $tmp, $appdata, $winuser, fail, expect.
#
# The app must check before it creates any file (app/webviewcheck.go):
# its own message on stderr and in a native message box, exit code 4
# (app.ExitNoWebView), and nothing new under the Wine user's folders (no
# %APPDATA%\OpenWorker, no journal, no Documents\OpenWorker Coworkers).
# There is no person to click OK: OPENWORKER_TEST_BOX_TIMEOUT makes the box
# close itself after 5 s (MessageBoxTimeoutW); where Wine has a display the
# run taking that long shows the box was up and waited (without one the box
# may fail at once, and the step says so).

win_no_webview() {
  local home=$WINEPREFIX/drive_c/users/$winuser marker=$tmp/nowv.marker rc=0 t
  : >"$marker"
  sleep 1 # the marker's time must be older than anything the start writes
  t=$SECONDS
  OPENWORKER_TEST_BOX_TIMEOUT=5 timeout 120 "$wine" "$exe" >"$tmp/nowv.out" 2>&1 || rc=$?
  local secs=$((SECONDS - t))
  tr -d '\r' <"$tmp/nowv.out" | head -n 3
  [ "$rc" = 4 ] || fail "the start without WebView2 exited $rc, want 4 (app.ExitNoWebView): $(tail -n 5 "$tmp/nowv.out")"
  expect "the app's own message" 'the Microsoft WebView2 Runtime is not installed' "$tmp/nowv.out"
  expect "what to do offline" 'Evergreen Standalone Installer' "$tmp/nowv.out"
  # The box can only be seen where Wine has a display; this script runs
  # Wine without one (DISPLAY unset), where the box may fail at once. The
  # exit code, the message and "no file made" are checked either way.
  [ "$secs" -ge 5 ] || echo "note: the start ended in $secs s: Wine showed no message box (no display); the message, the exit code and no file made are what this step proves"
  local made
  made=$(find "$home" -newer "$marker" -type f 2>/dev/null | grep -v '/AppData/Local/Temp/' || true)
  [ -z "$made" ] || fail "the start without WebView2 created files: $made"
  [ ! -e "$appdata/OpenWorker/journal.db" ] || [ "$appdata/OpenWorker/journal.db" -ot "$marker" ] || fail "a journal was made"
  echo "no WebView2: exit 4 after the box's $secs s, the message on stderr, no file made under $home"
}
