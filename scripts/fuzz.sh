#!/usr/bin/env bash
# Runs each Go fuzz target of the parsers that read person- or
# network-supplied text for a short fixed time (FUZZTIME, default 8s) and
# prints executions per second per target (docs/limits.md#fuzzing). A crash
# fails the script; Go writes the input to testdata/fuzz/<Target>/ in the
# package, where `go test` replays it from then on: commit it with the fix.
#
#   scripts/fuzz.sh                       every target
#   FUZZTIME=60s scripts/fuzz.sh          longer
#   scripts/fuzz.sh FuzzServe             the targets whose name matches
set -euo pipefail
cd "$(dirname "$0")/.."
fuzztime=${FUZZTIME:-8s}
only=${1:-}

# package target
targets=(
  "./harness/bundle FuzzManifest"
  "./harness/bundle FuzzSkillFrontMatter"
  "./harness/bundle FuzzToolsJSON"
  "./harness/servers FuzzServersConfig"
  "./harness/extension/manifest FuzzManifest"
  "./harness/agentimport FuzzImport"
  "./harness/a2a FuzzCard"
  "./harness/mcp/oauth FuzzDiscover"
  "./harness/elicit FuzzParse"
  "./harness/protocol FuzzServe"
  "./harness/internal/jsonfile FuzzParse"
  "./harness/internal/jsonfile FuzzParseJSONC"
  "./internal/termsafe FuzzText"
)

failed=0
printf '%-32s %-22s %12s %10s\n' package target execs execs/s
for t in "${targets[@]}"; do
  read -r pkg name <<<"$t"
  if [ -n "$only" ] && [[ "$name" != *"$only"* ]]; then continue; fi
  log=$(mktemp)
  if ! go test -run '^$' -fuzz "^${name}\$" -fuzztime "$fuzztime" -parallel 2 "$pkg" >"$log" 2>&1; then
    failed=1
    echo "CRASH in $pkg $name:" >&2
    tail -40 "$log" >&2
  fi
  execs=$(grep -o 'execs: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*' || echo 0)
  secs=$(grep -o 'elapsed: [0-9]*s' "$log" | tail -1 | grep -o '[0-9]*' || echo 0)
  rate=0
  [ "${secs:-0}" -gt 0 ] && rate=$((execs / secs))
  printf '%-32s %-22s %12s %10s\n' "$pkg" "$name" "$execs" "$rate"
  rm -f "$log"
done
exit $failed
