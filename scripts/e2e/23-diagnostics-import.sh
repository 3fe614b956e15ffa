# shellcheck shell=bash
# shellcheck disable=SC2154 # the variables are the sourcing script's
# A block of scripts/app-e2e.sh, sourced by it in file-name order: it uses
# the helpers and variables defined there (start_e2e_app, click, wait_state,
# state, fail, $tmp, $shots, $root, ...).
# --- secrets to the keychain on import, the Diagnostics screen (issue 39 item 5) ---
# In its own HOME, with a private unlocked gnome-keyring (start_keyring):
# Claude Desktop's file at its usual place holds a GitHub token in "env" and
# a bearer token in "headers". Settings → Alt+M lists it; its preview
# shows, per secret, "moves to the keychain" ticked (diag39-import.png);
# Return imports: servers.json holds ${input:…} and neither token
# (docs/servers.md#secrets-move-to-the-keychain).
# Then Alt+I opens Diagnostics: the servers file has a device server a
# coworker uses, an npx server a coworker uses that never started (a local
# stand-in that fails: nothing is downloaded) and one no coworker uses. The
# screen asks before the npx one (diag39-ask.png); "Skip it" shows the
# report: device started, npx not started, the unused one named
# (diag39-report-light.png, and after a restart in the dark theme
# diag39-report-dark.png). Alt+C copies it.
echo "app-e2e: secrets to the keychain on import, Diagnostics"
# Where things are, in window coordinates: the import dialog's "Import 2
# servers" and the Diagnostics question's "Skip them".
D39_IMPORT_X=175 D39_IMPORT_Y=576 D39_SKIP_X=415 D39_SKIP_Y=257
d39="$tmp/diag39"
mkdir -p "$d39/home" "$d39/config/Claude" "$d39/config/OpenWorker" "$d39/data" "$d39/bundles" "$d39/bin" "$d39/run"
chmod 700 "$d39/run"
d39_bus="$(command -v dbus-daemon || true)"; d39_keyring="$(command -v gnome-keyring-daemon || true)"
if [ -z "$d39_bus" ] || [ -z "$d39_keyring" ]; then
  [ -z "${CI:-}" ] || fail "diag39: dbus-daemon or gnome-keyring-daemon is missing (apt-get install dbus gnome-keyring)"
  echo "app-e2e: diag39: skipped (dbus-daemon or gnome-keyring-daemon is not installed)"
else
  # The npx stand-in: named npx (so it may download), it only fails.
  printf '#!/bin/sh\necho "npm ERR! code ENOTCACHED (e2e stand-in: nothing is downloaded)" >&2\nexit 1\n' >"$d39/bin/npx"
  chmod +x "$d39/bin/npx"
  cat >"$d39/servers.json" <<JSON
{"servers": {
  "fetcher": {"transport": "stdio", "command": "$d39/bin/npx", "args": ["-y", "@example/fetcher-mcp"]},
  "idle": {"transport": "stdio", "command": "$d39/bin/npx", "args": ["-y", "@example/idle-mcp"]}
}}
JSON
  for cw in helper:device.system_info_get fetch:fetcher.fetch; do
    id="${cw%%:*}"; tool="${cw#*:}"
    mkdir -p "$d39/bundles/$id/coworker"
    printf -- '---\nid: %s\nname: %s\ndescription: A coworker of the diagnostics block.\nversion: 1.0.0\n---\nYou help.\n' "$id" "Diag $id" >"$d39/bundles/$id/coworker/manifest.md"
    echo "{\"version\":3,\"tools\":[\"$tool\"]}" >"$d39/bundles/$id/coworker/tools.json"
  done
  cat >"$d39/config/Claude/claude_desktop_config.json" <<'JSON'
{"mcpServers": {
  "github": {"command": "github-mcp-server", "args": ["stdio"], "env": {"GITHUB_PERSONAL_ACCESS_TOKEN": "ghp_e2eSecretToken0123456789abcdefghij", "GITHUB_TOOLSETS": "repos"}},
  "crm": {"url": "http://127.0.0.1:9/mcp", "headers": {"Authorization": "Bearer crm-e2e-secret-9876543210", "Accept": "application/json"}}
}}
JSON
  printf '{"servers_path": "%s", "theme": "light"}\n' "$d39/servers.json" >"$d39/config/OpenWorker/settings.json"
  start_keyring "$d39" diag39
  d39_kbus="$keyring_bus"
  d39_start() {
    stop_shown_app
    (
      in_app_env "$d39" XDG_RUNTIME_DIR="$d39/run" DBUS_SESSION_BUS_ADDRESS="$d39_kbus" OPENAI_API_KEY="scripted-test-key" \
        OPENWORKER_COWORKERS="$d39/bundles" OPENWORKER_E2E_ADDR="$hook" \
        "$tmp/openworker" --base-url "$model_url" --model scripted >>"$d39/app.log" 2>&1
    ) &
    pids+=($!)
    wait_state '"list_loads":[1-9]' "diag39: the app did not start (app log: $(tail -n 5 "$d39/app.log"))"
    sleep 1.5
    for _ in 1 2 3; do click 1208 103; sleep 0.3; done # the start's notices go
  }
  d39_start

  # The import preview: the found file, then its preview.
  xdotool key ctrl+comma
  sleep 1
  xdotool key alt+m
  sleep 1.5
  xdotool key Tab Return
  wait_state '"servers import 2 secrets"' "diag39: the Claude Desktop file was not previewed with its 2 secrets"
  sleep 1.2
  import -window root "$shots/diag39-import.png"
  click "$D39_IMPORT_X" "$D39_IMPORT_Y" # Import 2 servers
  for _ in $(seq 100); do grep -q 'input:github-GITHUB_PERSONAL_ACCESS_TOKEN' "$d39/servers.json" 2>/dev/null && break; sleep 0.2; done
  grep -q '"${input:github-GITHUB_PERSONAL_ACCESS_TOKEN}"' "$d39/servers.json" || fail "diag39: the import did not write the token as an input: $(cat "$d39/servers.json")"
  grep -q 'Bearer ${input:crm-header-Authorization}' "$d39/servers.json" || fail "diag39: the Authorization header is not an input: $(cat "$d39/servers.json")"
  if grep -qE 'ghp_e2e|crm-e2e-secret' "$d39/servers.json"; then fail "diag39: servers.json holds a token: $(cat "$d39/servers.json")"; fi
  sleep 1
  import -window root "$shots/diag39-imported.png"
  xdotool key Escape
  sleep 0.8

  # Diagnostics: asked first about the npx server that never started.
  xdotool key alt+i
  wait_state '"diagnostics plan 1 downloads"' "diag39: Alt+I did not open Diagnostics with 1 server that may download"
  sleep 1.2
  import -window root "$shots/diag39-ask.png"
  click "$D39_SKIP_X" "$D39_SKIP_Y" # Skip it
  wait_state '"diagnostics report"' "diag39: Skip them did not run the diagnostics"
  sleep 1.5
  import -window root "$shots/diag39-report-light.png"
  xdotool key alt+c
  sleep 0.8
  if command -v xclip >/dev/null; then
    clip="$(timeout 5 xclip -o -selection clipboard 2>/dev/null || true)"
    for want in "provider device" "ok: stdio" "provider fetcher  unavailable: not started: npx may still be downloading the package" "no coworker uses crm, files, github, idle" "reachable  ok: yes"; do
      grep -qF -- "$want" <<<"$clip" || fail "diag39: the report lacks '$want': $clip"
    done
  fi

  # The same report in the dark theme.
  sed -i 's/"theme": *"light"/"theme": "dark"/' "$d39/config/OpenWorker/settings.json"
  d39_start
  xdotool key ctrl+comma
  sleep 1
  xdotool key alt+i
  wait_state '"diagnostics plan 1 downloads"' "diag39 (dark): Alt+I did not open Diagnostics"
  sleep 1
  click "$D39_SKIP_X" "$D39_SKIP_Y" # Skip it
  for _ in $(seq 150); do [ "$(state | grep -o '"diagnostics report"' | wc -l)" -ge 1 ] && break; sleep 0.2; done
  sleep 1.5
  import -window root "$shots/diag39-report-dark.png"
  stop_shown_app
fi
# --- end secrets to the keychain on import, Diagnostics ---
