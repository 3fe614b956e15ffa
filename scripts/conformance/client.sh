#!/usr/bin/env bash
# The MCP client under test of the official conformance suite
# (scripts/conformance.sh, docs/mcp.md#conformance): one `openworker run`
# turn against the suite's server at URL.
#
#   client.sh URL        (the suite appends URL; it sets
#                         MCP_CONFORMANCE_SCENARIO and, for some
#                         scenarios, MCP_CONFORMANCE_CONTEXT)
#
# It writes a servers.json naming URL as the streamable HTTP server "conf",
# a coworker that selects the server's whole tool list, and a script for a
# scripted model on 127.0.0.1 (harness/model/modeltest/cmd/scriptmodel)
# that calls the scenario's tool once and then answers. The sign-in page is
# "opened" by an xdg-open on PATH that fetches the URL and follows its
# redirect to OpenWorker's loopback listener, as a browser would. There is
# no OS keychain: DBUS_SESSION_BUS_ADDRESS names no bus, and HOME is a
# fresh folder per scenario, so sign-ins go to the encrypted file store.
# A question from the server (elicitation) is answered on a terminal
# (util-linux `script`) by accepting every default; so the run asks
# (--approve ask: bypass declines every question unasked) and the
# coworker's policy allows each call.
#
# Environment: OPENWORKER (the binary), SCRIPTMODEL (the scripted model
# binary), NODE (a Node.js 22 used as the browser). Exit status is run's.
set -euo pipefail
url=${1:?usage: client.sh URL}
scenario=${MCP_CONFORMANCE_SCENARIO:?the conformance suite sets MCP_CONFORMANCE_SCENARIO}
: "${OPENWORKER:?set OPENWORKER to the openworker binary}" "${SCRIPTMODEL:?set SCRIPTMODEL to the scriptmodel binary}" "${NODE:?set NODE to node}"

tmp=$(mktemp -d)
model_pid=""
cleanup() {
  [ -n "$model_pid" ] && kill "$model_pid" 2>/dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT

# ctx KEY prints MCP_CONFORMANCE_CONTEXT's KEY, or nothing.
ctx() {
  "$NODE" -e 'const c = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT || "{}"); process.stdout.write(String(c[process.argv[1]] ?? ""))' "$1"
}

tool=test-tool args='{}'
case $scenario in
  initialize) tool="" ;;
  tools_call) tool=add_numbers args='{"a": 2, "b": 3}' ;;
  elicitation-sep1034-client-defaults) tool=test_client_elicitation_defaults ;;
  sse-retry) tool=test_reconnection ;;
esac

# The servers file: the oauth entry carries what the scenario gives a
# pre-registered client; its secret is referenced (an environment
# variable), never written. A scenario that gives a client id and no
# secret (auth/client-credentials-jwt: a private key, which OpenWorker
# cannot use) gets the id alone.
oauth=""
client_id=$(ctx client_id)
if [ -n "$client_id" ]; then
  export CONFORMANCE_CLIENT_SECRET
  CONFORMANCE_CLIENT_SECRET=$(ctx client_secret)
  extra=""
  if [ -n "$CONFORMANCE_CLIENT_SECRET" ]; then
    # shellcheck disable=SC2016 # the reference is written as is; run substitutes it
    extra=', "client_secret": "${CONFORMANCE_CLIENT_SECRET}"'
    case $scenario in auth/client-credentials-*) extra="$extra"', "grant_type": "client_credentials"' ;; esac
  fi
  oauth=", \"oauth\": {\"client_id\": \"$client_id\"$extra}"
fi
printf '{"servers": {"conf": {"transport": "streamable_http", "url": "%s"%s}}}\n' "$url" "$oauth" >"$tmp/servers.json"

mkdir -p "$tmp/coworkers/conf/coworker"
printf -- '---\nid: conf\nname: conformance\nversion: 1.0.0\npolicy:\n  "*": allow\n---\nCall the tool you are asked to call.\n' >"$tmp/coworkers/conf/coworker/manifest.md"
printf '{"version": 1, "mcp": ["conf"]}\n' >"$tmp/coworkers/conf/coworker/tools.json"

if [ -n "$tool" ]; then
  printf '[{"tool_calls": [{"name": "conf__%s", "arguments": %s}]}, {"text": "done"}]\n' "$tool" "$args" >"$tmp/script.json"
else
  printf '[{"text": "done"}]\n' >"$tmp/script.json"
fi
"$SCRIPTMODEL" -script "$tmp/script.json" -addr 127.0.0.1:0 >"$tmp/model.out" 2>"$tmp/model.log" &
model_pid=$!
for _ in $(seq 100); do grep -q '^listening ' "$tmp/model.out" 2>/dev/null && break; sleep 0.05; done
base=$(sed -n 's/^listening //p' "$tmp/model.out")
[ -n "$base" ] || { echo "the scripted model did not start: $(cat "$tmp/model.log")" >&2; exit 1; }

# The browser: fetch the sign-in page and follow its redirects (to the
# loopback listener), like a person who is already signed in.
mkdir -p "$tmp/bin" "$tmp/home"
cat >"$tmp/bin/xdg-open" <<EOF
#!/bin/sh
exec "$NODE" -e 'fetch(process.argv[1]).then(r => r.text()).then(() => process.exit(0), e => { console.error(String(e)); process.exit(3) })' "\$1"
EOF
chmod +x "$tmp/bin/xdg-open"

cmd=("$OPENWORKER" run --coworkers "$tmp/coworkers" --coworker conf --servers "$tmp/servers.json"
  --db "$tmp/journal.db" --provider openai --base-url "$base" --model scripted --approve ask
  "Call the tool.")
export PATH="$tmp/bin:$PATH" HOME="$tmp/home" XDG_CONFIG_HOME="$tmp/home/.config" XDG_DATA_HOME="$tmp/home/.local/share"
export DBUS_SESSION_BUS_ADDRESS="unix:path=$tmp/no-bus" OPENAI_API_KEY=conformance
# The suite expects this client ID metadata document URL (auth/basic-cimd).
export OPENWORKER_CLIENT_METADATA_URL=https://conformance-test.local/client-metadata.json
unset XDG_RUNTIME_DIR

if [ "$scenario" = elicitation-sep1034-client-defaults ]; then
  # A terminal to answer on: [a]nswer, then Enter keeps each of the five defaults.
  quoted=$(printf '%q ' "${cmd[@]}")
  printf 'a\n\n\n\n\n\n' | timeout 25 script -qefc "$quoted" /dev/null
else
  timeout 25 "${cmd[@]}" </dev/null
fi
