#!/usr/bin/env bash
# Speed figures of OpenWorker, measured as ratios within one run on this
# machine (absolute times on shared machines say little). It prints; it
# asserts nothing about time. Targets are in the comments beside each
# figure; see docs/mcp.md for what is parallel.
#
#   scripts/bench.sh              all figures
#   ROUNDS=5 scripts/bench.sh     more rounds (median is printed)
#   BIN=/path/openworker scripts/bench.sh   measure that binary (e.g. an older build)
#
# Figure 1: `openworker check` of a bundle that selects 10 stdio MCP
# providers which each sleep 0.2 s before they start, divided by the same
# with 1 such provider. Providers start in parallel, so the target is
# <= 1.5 (it was 10.4 when they started one after another).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
rounds=${ROUNDS:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if [ -n "${BIN:-}" ]; then
  cp "$BIN" "$work/openworker"
else
  step "build openworker"
  go build -o "$work/openworker" .
fi

# setup N: a servers.json with N providers dev0..dev(N-1), each
# `sh -c 'sleep 0.2; exec openworker mcp serve device'`, and one bundle
# selecting battery_status_get of each.
setup() {
  local n=$1 dir="$work/n$1"
  mkdir -p "$dir/coworkers/slow/coworker"
  {
    printf '{"servers": {'
    for i in $(seq 0 $((n - 1))); do
      [ "$i" -gt 0 ] && printf ','
      printf '"dev%d": {"transport": "stdio", "command": "sh", "args": ["-c", "sleep 0.2; exec %s mcp serve device"]}' "$i" "$work/openworker"
    done
    printf '}}\n'
  } >"$dir/servers.json"
  printf -- '---\nid: slow\nname: Slow providers\nversion: 1.0.0\n---\nA coworker whose providers start slowly.\n' \
    >"$dir/coworkers/slow/coworker/manifest.md"
  {
    printf '{"version": 3, "tools": ['
    for i in $(seq 0 $((n - 1))); do
      [ "$i" -gt 0 ] && printf ','
      printf '"dev%d.battery_status_get"' "$i"
    done
    printf ']}\n'
  } >"$dir/coworkers/slow/coworker/tools.json"
}

# timed N: seconds of one `check` with N providers.
timed() {
  local dir="$work/n$1" t0 t1
  t0=$(date +%s.%N)
  "$work/openworker" check --coworkers "$dir/coworkers" --servers "$dir/servers.json" >"$work/out-$1" 2>&1 ||
    { cat "$work/out-$1" >&2; echo "check with $1 providers failed" >&2; exit 1; }
  t1=$(date +%s.%N)
  awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.3f", b - a}' 
}

median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

step "check: 10 slow stdio providers / 1 (target <= 1.5)"
setup 1
setup 10
one=() ten=()
for _ in $(seq "$rounds"); do
  one+=("$(timed 1)")
  ten+=("$(timed 10)")
done
m1=$(printf '%s\n' "${one[@]}" | median)
m10=$(printf '%s\n' "${ten[@]}" | median)
printf 'check, 1 provider:   median %.3f s of %d (%s)\n' "$m1" "$rounds" "${one[*]}"
printf 'check, 10 providers: median %.3f s of %d (%s)\n' "$m10" "$rounds" "${ten[*]}"
awk -v a="$m1" -v b="$m10" 'BEGIN {printf "ratio 10/1: %.2f (target <= 1.5)\n", b / a}' 
