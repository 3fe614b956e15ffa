# shellcheck shell=bash
# shellcheck disable=SC2154 # the variables are the sourcing script's
# A block of scripts/app-e2e.sh, sourced by it in file-name order: it uses
# the helpers and variables defined there (start_e2e_app, click, wait_state,
# state, fail, $tmp, $shots, $db, ...).
# --- sampling (issue 14) ---
# A server asks the session's model for a completion during a call
# (docs/mcp.md#sampling): the coworker sample-helper allows sampling for
# the provider "sample" (mcptest's sampleserver, stdio); the scripted model
# calls sample.summarize; after the call's consent the sampling variant of
# the consent dialog shows the messages and the model; Send once (Alt+O)
# lets the scripted model answer; the call returns its summary and the
# journal holds an openworker.sampling invocation with its approval.
echo "app-e2e: sampling"
go build -o "$tmp/sampleserver" ./harness/mcp/mcptest/cmd/sampleserver
printf '{"servers": {"sample": {"type": "stdio", "command": "%s"}}}\n' "$tmp/sampleserver" > "$tmp/sample-servers.json"
mkdir -p "$tmp/bundles/sample-helper/coworker"
sed 's/e2e-assistant/sample-helper/; s/E2E Assistant/Sample Helper/; s/^version: 1.0.0$/version: 1.0.0\nsampling: [sample]/' \
  "$tmp/bundles/e2e-assistant/coworker/manifest.md" > "$tmp/bundles/sample-helper/coworker/manifest.md"
echo '{"version":3,"tools":["sample.summarize"]}' > "$tmp/bundles/sample-helper/coworker/tools.json"
cat > "$tmp/sample-script.json" <<'JSON'
[
  {"text": "Summarizing.", "tool_calls": [{"id": "s_1", "name": "sample__summarize", "arguments": {"text": "The quokka is a small wallaby of Rottnest Island that seems to smile."}}]},
  {"text": "A smiling wallaby of Rottnest Island."},
  {"text": "The server summarized it: a smiling wallaby."}
]
JSON
"$tmp/scriptmodel" -script "$tmp/sample-script.json" -addr 127.0.0.1:0 >"$tmp/sample-model.out" 2>>"$tmp/model.log" &
pids+=($!)
for _ in $(seq 50); do grep -q '^listening ' "$tmp/sample-model.out" 2>/dev/null && break; sleep 0.1; done
sample_model="$(sed -n 's/^listening //p' "$tmp/sample-model.out")"
[ -n "$sample_model" ] || fail "the sampling block's scripted model did not start"
stop_shown_app
(
  in_app_env "$tmp" OPENAI_API_KEY="scripted-test-key" OPENWORKER_COWORKERS="$tmp/bundles" OPENWORKER_COWORKER="sample-helper" \
    OPENWORKER_SERVERS="$tmp/sample-servers.json" OPENWORKER_E2E_ADDR="$hook" \
    "$tmp/openworker" --base-url "$sample_model" --model scripted >>"$tmp/app.log" 2>&1
) &
pids+=($!)
wait_state '"session_id"' "no chat with sample-helper opened"
sleep 1.5
xdotool type --delay 20 "Summarize the quokka"
xdotool key Return
wait_state '"pending":1' "no consent dialog for sample.summarize"
sleep 0.8
xdotool key alt+o
wait_state '"sampling":1' "the server's sampling request did not reach the consent dialog"
sleep 1
import -window root "$shots/sampling.png"
xdotool key alt+o
wait_state 'sample.summarize succeeded .*summary by [^"]*: A smiling wallaby of Rottnest Island.' "the call did not return the model's summary"
wait_state '"turns":\["completed"\]' "the turn with the sampling request did not complete"
sleep 0.7
import -window root "$shots/sampling-answered.png"
sample_session="$(state | grep -o '"session_id":"[^"]*"' | head -n1 | cut -d'"' -f4)"
"$tmp/openworker" journal show --db "$db" --json "$sample_session" >"$tmp/sample-journal.json" || fail "journal show failed"
node - "$tmp/sample-journal.json" <<'JS' || fail "the journal has no approved, succeeded openworker.sampling invocation: $(head -c 3000 "$tmp/sample-journal.json")"
const d = JSON.parse(require("fs").readFileSync(process.argv[2], "utf8"));
const ids = new Set(d.invocations.filter((i) => i.tool === "openworker.sampling" && i.status === "succeeded").map((i) => i.id));
process.exit(d.approvals.some((a) => ids.has(a.invocation_id) && a.decision === "allow_once") ? 0 : 1);
JS
# --- end sampling (issue 14) ---
