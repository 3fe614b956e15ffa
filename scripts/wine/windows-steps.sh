# Step 2 of scripts/test-windows-wine.sh: what is Windows' own. Sourced;
# uses its helpers (ow, winpath, start_model, expect, make_bundle, fail).

# The default journal, settings, servers file and extensions folder are
# under %APPDATA%\OpenWorker (os.UserConfigDir on Windows), and other
# clients' configs are found under %APPDATA% too.
win_appdata() {
  local ow_dir=$appdata/OpenWorker
  [ ! -e "$ow_dir" ] || fail "$ow_dir exists before the first run"
  start_model appdata '[{"text": "Hello from the default journal."}]'
  # shellcheck disable=SC2046
  ow run --coworkers "$examples_win" --coworker device-assistant $(model_flags appdata) --approve bypass "Hi" \
    >"$tmp/appdata-run.out" 2>"$tmp/appdata-run.err" || fail "run without --db exited $?: $(cat "$tmp/appdata-run.err")"
  stop_model appdata
  [ -f "$ow_dir/journal.db" ] || fail "run without --db wrote no $ow_dir/journal.db: $(find "$WINEPREFIX/drive_c/users" -name journal.db)"
  echo "journal: %APPDATA%\\OpenWorker\\journal.db"
  ow journal verify >"$tmp/appdata-verify.out" 2>&1 || fail "journal verify (default journal) exited $?: $(cat "$tmp/appdata-verify.out")"
  ow journal list >"$tmp/appdata-list.out" 2>&1 || fail "journal list (default journal) exited $?"
  expect "default journal" 'Hi' "$tmp/appdata-list.out"

  # Claude Desktop's config under %APPDATA%\Claude is found, and importing
  # it writes servers.json and settings.json under %APPDATA%\OpenWorker.
  mkdir -p "$appdata/Claude"
  local exe_json
  exe_json=$(winpath "$exe" | sed 's/\\/\\\\/g')
  printf '{"mcpServers": {"wined": {"command": "%s", "args": ["mcp", "serve", "device"]}}}\n' "$exe_json" \
    >"$appdata/Claude/claude_desktop_config.json"
  ow servers import >"$tmp/import-list.out" 2>&1 || fail "servers import (list) exited $?: $(cat "$tmp/import-list.out")"
  cat "$tmp/import-list.out"
  expect "servers import" 'AppData\\Roaming\\Claude\\claude_desktop_config\.json' "$tmp/import-list.out"
  ow servers import "C:\\users\\$winuser\\AppData\\Roaming\\Claude\\claude_desktop_config.json" --write \
    >"$tmp/import.out" 2>&1 || fail "servers import --write exited $?: $(cat "$tmp/import.out")"
  [ -f "$ow_dir/servers.json" ] || fail "servers import --write wrote no $ow_dir/servers.json: $(cat "$tmp/import.out")"
  [ -f "$ow_dir/settings.json" ] || fail "servers import --write wrote no $ow_dir/settings.json"
  grep -q 'servers.json' "$ow_dir/settings.json" || fail "settings.json does not name the servers file: $(cat "$ow_dir/settings.json")"
  echo "settings: %APPDATA%\\OpenWorker\\settings.json names $(grep -o '"[^"]*servers.json"' "$ow_dir/settings.json")"

  # doctor reads the same defaults and starts the imported provider.
  ow doctor >"$tmp/doctor.out" 2>&1 || fail "doctor exited $?"
  grep -E 'path|servers file|provider' "$tmp/doctor.out" | head -n 12
  expect "doctor" 'path .*AppData\\Roaming\\OpenWorker\\journal\.db' "$tmp/doctor.out"
  expect "doctor" 'servers file .*AppData\\Roaming\\OpenWorker\\servers\.json' "$tmp/doctor.out"
  expect "doctor" 'provider wined .*started, [0-9]+ tools' "$tmp/doctor.out"

  ow extension list >"$tmp/ext-list.out" 2>&1 || fail "extension list exited $?: $(cat "$tmp/ext-list.out")"
  cat "$tmp/ext-list.out"
  expect "extension list" 'AppData\\Roaming\\OpenWorker\\extensions' "$tmp/ext-list.out"
}

# Bundles and journal in a folder whose name has spaces and non-ASCII
# characters (UTF-16 paths through the Windows API and SQLite's).
win_odd_path() {
  local d="$tmp/Dossier partagé — 日本 ñ"
  mkdir -p "$d"
  cp -r examples/coworkers "$d/Mes coworkers"
  start_model odd '[
  {"tool_calls": [{"id": "o1", "name": "device__system_info_get", "arguments": {}}]},
  {"text": "Fine from a folder with spaces."}
]'
  # shellcheck disable=SC2046
  ow run --coworkers "$(winpath "$d/Mes coworkers")" --coworker device-assistant $(model_flags odd) --approve bypass \
    --db "$(winpath "$d/journal é.db")" --workspace "$(winpath "$d")" "Anything odd?" >"$tmp/odd.out" 2>"$tmp/odd.err" ||
    fail "run in \"$d\" exited $?: $(cat "$tmp/odd.err")"
  stop_model odd
  cat "$tmp/odd.out"
  expect "odd path" 'Fine from a folder with spaces\.' "$tmp/odd.out"
  expect "odd path" '✓ device\.system_info_get succeeded' "$tmp/odd.err"
  [ -f "$d/journal é.db" ] || fail "no journal at \"$d/journal é.db\": $(ls "$d")"
  ow journal verify --db "$(winpath "$d/journal é.db")" >"$tmp/odd-verify.out" 2>&1 || fail "journal verify exited $?: $(cat "$tmp/odd-verify.out")"
  cat "$tmp/odd-verify.out"
}

# Bundle files saved with CRLF line ends (Notepad, Git's autocrlf) load.
win_crlf() {
  local b=$tmp/crlf-bundles
  mkdir -p "$b"
  cp -r examples/coworkers/device-assistant "$b/"
  find "$b" -type f \( -name '*.md' -o -name '*.json' \) -exec sed -i 's/$/\r/' {} +
  grep -q $'\r$' "$b/device-assistant/coworker/manifest.md" || fail "the manifest was not converted to CRLF"
  ow check --coworkers "$(winpath "$b")" >"$tmp/crlf.out" 2>&1 || fail "check of CRLF bundles exited $?: $(cat "$tmp/crlf.out")"
  cat "$tmp/crlf.out"
  expect "crlf" 'device\.battery_status_get .*mcp:device' "$tmp/crlf.out"
}

# wine_pids MARK prints the pids of the processes whose command line holds MARK.
wine_pids() {
  local p
  for p in /proc/[0-9]*; do
    { tr '\0' ' ' <"$p/cmdline"; } 2>/dev/null | grep -qF -- "$1" && echo "${p#/proc/}"
  done
  return 0
}

# A stdio provider that is a wrapper (a .cmd file, run by cmd.exe) which
# starts a grandchild in the background and then the real server: when
# `run` is killed, the Job object must end them all. The grandchild (a
# `run` of a copy of openworker.exe, waiting for a model that answers in
# 10 minutes) reads no stdin, so only the job can end it: the server
# itself would also stop when its stdin closes. The copy has a name of its
# own, so its processes can be told apart. Meanwhile a second process
# reads and writes the journal the first run holds.
win_job_kill() {
  local tree=$tmp/tree-provider
  mkdir -p "$tree"
  cp "$exe" "$tree/openworker-tree.exe"
  start_model sleeper '[{"text": "never sent", "delay": "600s"}]'
  local tree_exe
  tree_exe=$(winpath "$tree/openworker-tree.exe")
  # The wrapper runs `version` first: the job takes the wrapper just after
  # it starts (docs/mcp.md), and a process it spawned before that would
  # escape; that first instant is not what this test is about.
  {
    echo '@echo off'
    echo "\"$tree_exe\" version >nul"
    echo "start \"\" /b \"$tree_exe\" run --coworkers \"$examples_win\" --coworker device-assistant $(model_flags sleeper) --approve bypass --db \"$(winpath "$tmp/sleeper.db")\" hold-the-tree >nul 2>nul"
    echo "\"$tree_exe\" mcp serve device"
  } | sed 's/$/\r/' >"$tree/tree.cmd"
  printf '{"servers": {"tree": {"transport": "stdio", "command": "%s", "args": []}}}\n' \
    "$(winpath "$tree/tree.cmd" | sed 's/\\/\\\\/g')" >"$tmp/tree-servers.json"
  make_bundle "$tmp/tree-bundles" tree-user '{"version":3,"tools":["tree.system_info_get"]}'
  start_model tree '[
  {"tool_calls": [{"id": "t1", "name": "tree__system_info_get", "arguments": {}}]},
  {"text": "never sent", "delay": "120s"}
]'
  local jdb
  jdb=$(winpath "$tmp/tree.db")
  # shellcheck disable=SC2046
  "$wine" "$exe" run --coworkers "$(winpath "$tmp/tree-bundles")" --coworker tree-user --servers "$(winpath "$tmp/tree-servers.json")" \
    $(model_flags tree) --approve bypass --db "$jdb" "Start the tree" >"$tmp/tree.out" 2>"$tmp/tree.err" &
  local runpid=$!
  # Wait for the call to finish: the provider (cmd.exe and its child) is up
  # and the model is now holding its second reply.
  for _ in $(seq 120); do grep -q 'tree.system_info_get succeeded' "$tmp/tree.err" 2>/dev/null && break; sleep 0.5; done
  grep -q 'tree.system_info_get succeeded' "$tmp/tree.err" || { kill -9 "$runpid"; fail "the tree provider's call did not succeed: $(cat "$tmp/tree.err")"; }
  # The grandchild is up once it asked the sleeper model.
  for _ in $(seq 60); do grep -q 'request [0-9]' "$tmp/sleeper.model.log" 2>/dev/null && break; sleep 0.5; done
  grep -q 'request [0-9]' "$tmp/sleeper.model.log" || { kill -9 "$runpid"; fail "the wrapper's background grandchild never asked its model: $(cat "$tmp/sleeper.model.log")"; }
  echo "provider processes (openworker-tree.exe) while run waits: $(wine_pids openworker-tree.exe | wc -l), the grandchild among them: $(wine_pids hold-the-tree | wc -l)"
  [ -n "$(wine_pids hold-the-tree)" ] || { kill -9 "$runpid"; fail "no grandchild process (hold-the-tree) while the run waits"; }

  # A second process on the journal the running `run` holds open.
  ow journal list --db "$jdb" >"$tmp/tree-list.out" 2>&1 || { kill -9 "$runpid"; fail "journal list while another process holds the journal exited $?: $(cat "$tmp/tree-list.out")"; }
  expect "held journal" 'tree-user' "$tmp/tree-list.out"
  start_model tree2 '[{"text": "A second run while the first waits."}]'
  # shellcheck disable=SC2046
  ow run --coworkers "$examples_win" --coworker device-assistant $(model_flags tree2) --approve bypass --db "$jdb" "second" \
    >"$tmp/tree2.out" 2>"$tmp/tree2.err" || { kill -9 "$runpid"; fail "a second run on the held journal exited $?: $(cat "$tmp/tree2.err")"; }
  stop_model tree2
  expect "held journal" 'A second run while the first waits' "$tmp/tree2.out"
  echo "a second run and journal list worked while the first run held the journal"

  # Kill the first run the hard way (no clean-up of its own): Wine ends the
  # Windows process, its handles close, and the job kills its processes.
  kill -9 "$runpid"
  wait "$runpid" 2>/dev/null || true
  stop_model tree
  local left=""
  for _ in $(seq 40); do
    left=$(wine_pids openworker-tree.exe)
    [ -z "$left" ] && break
    sleep 0.5
  done
  stop_model sleeper
  [ -z "$left" ] || fail "20 s after run was killed the provider's process tree still runs: pids $left ($(wine_pids hold-the-tree | wc -l) of them the grandchild)"
  echo "the provider's process tree (wrapper, server, background grandchild) ended with the killed run"
  ow journal list --db "$jdb" >"$tmp/tree-list2.out" 2>&1 || fail "journal list after the kill exited $?"
  cat "$tmp/tree-list2.out"
  expect "after the kill" 'interrupted' "$tmp/tree-list2.out"
  ow journal verify --db "$jdb" >"$tmp/tree-verify.out" 2>&1 || fail "journal verify after the kill exited $?: $(cat "$tmp/tree-verify.out")"
}

# A crash in the middle of a call: `serve --stdio` is killed while its call
# (mcptest's askserver, cross-built, asking the person a question) is
# executing. The next open finds the row executing and its owner gone (the
# lease's LockFileEx lock died with the process), makes it unknown, and
# `journal reconcile` records the person's answer.
win_reconcile() {
  GOOS=windows GOARCH=amd64 CGO_ENABLED=0 nice -n 10 go build -trimpath -o "$tmp/askserver.exe" ./harness/mcp/mcptest/cmd/askserver
  printf '{"servers": {"ask": {"transport": "stdio", "command": "%s", "args": []}}}\n' \
    "$(winpath "$tmp/askserver.exe" | sed 's/\\/\\\\/g')" >"$tmp/ask-servers.json"
  make_bundle "$tmp/ask-bundles" ask-user '{"version":3,"tools":["ask.signup"]}'
  start_model crash '[
  {"tool_calls": [{"id": "k1", "name": "ask__signup", "arguments": {}}]},
  {"text": "never sent"}
]'
  local jdb inv
  jdb=$(winpath "$tmp/crash.db")
  # shellcheck disable=SC2046
  python3 scripts/wine/stdio-turn.py --kill-at-elicitation ask-user "Sign me up" -- \
    "$wine" "$exe" serve --stdio --coworkers "$(winpath "$tmp/ask-bundles")" --servers "$(winpath "$tmp/ask-servers.json")" \
    $(model_flags crash) --db "$jdb" >"$tmp/crash.inv" || fail "could not stop serve in the middle of a call"
  stop_model crash
  inv=$(cat "$tmp/crash.inv")
  echo "killed while $inv was executing"
  ow journal list --unknown --db "$jdb" >"$tmp/unknown.out" 2>&1 || fail "journal list --unknown exited $?: $(cat "$tmp/unknown.out")"
  cat "$tmp/unknown.out"
  expect "unknown after the crash" "$inv" "$tmp/unknown.out"
  ow journal list --unknown --json --db "$jdb" >"$tmp/unknown.json" 2>&1 || fail "journal list --unknown --json exited $?"
  expect "unknown after the crash" 'pid [0-9]+ \(openworker serve\), stopped while it was running' "$tmp/unknown.json"
  ow journal reconcile "$inv" --outcome not_applied --db "$jdb" >"$tmp/reconcile.out" 2>&1 || fail "journal reconcile exited $?: $(cat "$tmp/reconcile.out")"
  cat "$tmp/reconcile.out"
  ow journal list --unknown --db "$jdb" >"$tmp/unknown2.out" 2>&1 || fail "journal list --unknown exited $?"
  ! grep -q "$inv" "$tmp/unknown2.out" || fail "$inv still waits for reconciliation: $(cat "$tmp/unknown2.out")"
  ow journal verify --db "$jdb" >"$tmp/crash-verify.out" 2>&1 || fail "journal verify after the reconcile exited $?: $(cat "$tmp/crash-verify.out")"
  cat "$tmp/crash-verify.out"
}
