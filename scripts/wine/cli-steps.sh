# Step 1 of scripts/test-windows-wine.sh: the CLI end to end as
# openworker.exe under Wine. Sourced; uses its helpers (ow, winpath,
# start_model, expect, fail, $tmp, $exe, $examples_win, $db_win).

cli_version() {
  ow version >"$tmp/version.out" 2>&1 || fail "openworker.exe version exited $?: $(cat "$tmp/version.out")"
  cat "$tmp/version.out"
  expect "version" '^openworker .*\(commit .*, built .*\)' "$tmp/version.out"
  if [ -n "$built_version" ]; then expect "version" "$built_version" "$tmp/version.out"; fi
}

cli_check_good() {
  ow check --coworkers "$examples_win" >"$tmp/check.out" 2>&1 || fail "check of examples/coworkers exited $?: $(cat "$tmp/check.out")"
  cat "$tmp/check.out"
  expect "check" 'device\.battery_status_get .*mcp:device' "$tmp/check.out"
  expect "check" 'device\.system_info_get .*mcp:device' "$tmp/check.out"
  # The device provider is this same exe, found and started as a Windows program.
  expect "check" 'mcp:device runs .*openworker\.exe' "$tmp/check.out"
}

# make_bundle DIR ID TOOLS_JSON writes a bundle (manifest.md, tools.json).
make_bundle() {
  mkdir -p "$1/$2/coworker"
  cat >"$1/$2/coworker/manifest.md" <<MD
---
id: $2
name: Wine $2
description: Answers questions about this computer.
version: 1.0.0
---
You answer questions about this computer with your tools.
MD
  printf '%s\n' "$3" >"$1/$2/coworker/tools.json"
}

cli_check_broken() {
  local b=$tmp/broken-bundles rc=0
  make_bundle "$b" good-one '{"version":3,"tools":["device.system_info_get"]}'
  make_bundle "$b" typo-key '{"version": 3,
 "tools": ["device.system_info_get"],
 "tool": []}'
  make_bundle "$b" no-such-tool '{"version":3,"tools":["device.system_info_get","device.no_such_tool"]}'
  ow check --coworkers "$(winpath "$b")" >"$tmp/check-broken.out" 2>&1 || rc=$?
  cat "$tmp/check-broken.out"
  [ "$rc" = 2 ] || fail "check with broken bundles exited $rc, want 2"
  expect "check broken" 'good-one' "$tmp/check-broken.out"
  # The error names the file (a Windows path) and the line of the bad key.
  expect "check broken" 'typo-key.*tools\.json.*3' "$tmp/check-broken.out"
  expect "check broken" 'no_such_tool' "$tmp/check-broken.out"
}

cli_run() {
  start_model run '[
  {"text": "Looking.", "tool_calls": [{"id": "c1", "name": "device__battery_status_get", "arguments": {}}]},
  {"tool_calls": [{"id": "c2", "name": "device__system_info_get", "arguments": {}}]},
  {"text": "Your Windows computer is fine."}
]'
  # shellcheck disable=SC2046 # model_flags prints several words on purpose
  ow run --coworkers "$examples_win" --coworker device-assistant $(model_flags run) \
    --approve bypass --db "$db_win" "How is my computer?" >"$tmp/run.out" 2>"$tmp/run.err" ||
    fail "run exited $?: $(cat "$tmp/run.err")"
  stop_model run
  cat "$tmp/run.out" "$tmp/run.err"
  expect "run" 'Your Windows computer is fine\.' "$tmp/run.out"
  expect "run" '✓ device\.battery_status_get succeeded' "$tmp/run.err"
  expect "run" '✓ device\.system_info_get succeeded' "$tmp/run.err"
  [ -f "$tmp/journal.db" ] || fail "no journal at $tmp/journal.db"

  # --approve ask (the default) with no terminal (stdin, stdout and stderr
  # are pipes or files: console_windows.go attaches no console): the call
  # is denied and stderr says how to go on.
  start_model ask '[
  {"tool_calls": [{"id": "a1", "name": "device__battery_status_get", "arguments": {}}]},
  {"text": "I was not allowed to look."}
]'
  # shellcheck disable=SC2046
  ow run --coworkers "$examples_win" --coworker device-assistant $(model_flags ask) \
    --db "$(winpath "$tmp/ask.db")" "Battery?" </dev/null >"$tmp/ask.out" 2>"$tmp/ask.err" ||
    fail "run --approve ask without a terminal exited $?: $(cat "$tmp/ask.err")"
  stop_model ask
  cat "$tmp/ask.err"
  expect "ask without a terminal" 'approve bypass' "$tmp/ask.err"
  expect "ask without a terminal" '✗ device\.battery_status_get' "$tmp/ask.err"
  ! grep -q 'battery_status_get succeeded' "$tmp/ask.err" || fail "the call ran although no one could approve it"
}

cli_journal() {
  ow journal list --db "$db_win" >"$tmp/jlist.out" 2>&1 || fail "journal list exited $?: $(cat "$tmp/jlist.out")"
  cat "$tmp/jlist.out"
  expect "journal list" 'device-assistant' "$tmp/jlist.out"
  ow journal show --db "$db_win" --json >"$tmp/jshow.json" 2>"$tmp/jshow.err" || fail "journal show exited $?: $(cat "$tmp/jshow.err")"
  ow journal show --db "$db_win" >"$tmp/jshow.out" 2>&1 || fail "journal show exited $?"
  head -n 30 "$tmp/jshow.out"
  expect "journal show" 'device\.battery_status_get' "$tmp/jshow.out"
  expect "journal show" 'device\.system_info_get' "$tmp/jshow.out"
  grep -c '"succeeded"' "$tmp/jshow.json" | { read -r n; [ "$n" -ge 1 ] || fail "journal show --json has no succeeded call"; }
  ow journal verify --db "$db_win" >"$tmp/jverify.out" 2>&1 || fail "journal verify exited $?: $(cat "$tmp/jverify.out")"
  cat "$tmp/jverify.out"
  expect "journal verify" '^ok: [0-9]+ chain entries' "$tmp/jverify.out"
}

cli_serve() {
  start_model serve '[
  {"tool_calls": [{"id": "s1", "name": "device__system_info_get", "arguments": {}}]},
  {"text": "Approved and done."}
]'
  # shellcheck disable=SC2046
  python3 scripts/wine/stdio-turn.py device-assistant "What runs here?" -- \
    timeout 120 "$wine" "$exe" serve --stdio --coworkers "$examples_win" $(model_flags serve) \
    --db "$(winpath "$tmp/serve.db")" >"$tmp/serve.sid" || fail "serve --stdio turn failed"
  stop_model serve
  local sid
  sid=$(cat "$tmp/serve.sid")
  echo "session $sid"
  ow journal show "$sid" --db "$(winpath "$tmp/serve.db")" >"$tmp/serve-show.out" 2>&1 || fail "journal show $sid exited $?"
  expect "serve journal" 'device\.system_info_get' "$tmp/serve-show.out"
  expect "serve journal" 'prompt' "$tmp/serve-show.out"
}
