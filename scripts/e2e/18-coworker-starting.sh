# shellcheck shell=bash
# shellcheck disable=SC2154 # the variables are the sourcing script's
# A block of scripts/app-e2e.sh, sourced by it in file-name order: it uses
# the helpers and variables defined there (start_e2e_app, click, wait_state,
# state, fail, $tmp, $shots, $db, ...).
# --- a coworker still starting (issue 39 item 1) ---
# The app restarts on its own HOME, config and coworkers folder with one
# coworker whose MCP provider takes 15 s to start (a shell wrapper that
# sleeps, then runs `openworker mcp serve device`; its startup_timeout is
# 90 s). The Coworkers screen (the first screen) lists it as "starting…"
# with a spinner, not under "Coworkers that cannot start"
# (coworkers-starting.png), then, once the provider answered, with its tool
# (coworkers-ready.png; docs/app.md#starting).
echo "app-e2e: a coworker still starting"
cs="$tmp/starting"
mkdir -p "$cs/home" "$cs/config" "$cs/data" "$cs/bundles/slow-helper/coworker"
cat >"$cs/slow-device.sh" <<SH
#!/bin/sh
sleep 15
exec "$tmp/openworker" mcp serve device
SH
chmod +x "$cs/slow-device.sh"
printf '{"servers": {"slowdev": {"transport": "stdio", "command": "%s", "startup_timeout": 90}}}\n' "$cs/slow-device.sh" >"$cs/servers.json"
cat >"$cs/bundles/slow-helper/coworker/manifest.md" <<'MD'
---
id: slow-helper
name: Slow Helper
description: A coworker whose device provider takes 15 s to start.
version: 1.0.0
---
You help with this computer.
MD
echo '{"version":3,"tools":["slowdev.system_info_get"]}' >"$cs/bundles/slow-helper/coworker/tools.json"
stop_shown_app
hook="127.0.0.1:$((20000 + RANDOM % 20000))"
(
  in_app_env "$cs" OPENAI_BASE_URL="$model_url" OPENAI_API_KEY="scripted-test-key" OPENWORKER_MODEL="scripted" \
    OPENWORKER_COWORKERS="$cs/bundles" OPENWORKER_SERVERS="$cs/servers.json" OPENWORKER_E2E_ADDR="$hook" \
    "$tmp/openworker" >>"$tmp/app-starting.log" 2>&1
) &
pids+=($!)
# Up to 60 s for the window's first list (a loaded machine starts slowly):
# it comes back after 2 s with the coworker still starting.
for _ in $(seq 300); do state | grep -q '"coworkers":\["slow-helper starting"\]' && break; sleep 0.2; done
state | grep -q '"coworkers":\["slow-helper starting"\]' || fail "Slow Helper was not listed as starting: $(state)"
sleep 1
import -window root "$shots/coworkers-starting.png"
# Up to 120 s for the provider (15 s here) and the resolved list.
for _ in $(seq 600); do state | grep -q '"coworkers":\["slow-helper ready"\]' && break; sleep 0.2; done
state | grep -q '"coworkers":\["slow-helper ready"\]' || fail "Slow Helper did not become ready within 120 s: $(state)"
sleep 1
import -window root "$shots/coworkers-ready.png"
grep -q 'slow-helper broken' <<<"$(state)" && fail "Slow Helper was listed as broken: $(state)"
stop_shown_app
# --- end a coworker still starting ---
