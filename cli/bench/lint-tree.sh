#!/usr/bin/env bash
# `logicmd lint .` on 1,000 generated documents against the reference pipeline as a CLI (issue #34):
# the median wall time of ROUNDS runs each, interleaved, after one warm-up run each (the files in
# the page cache). Figures go in docs/perf.md.
#
#   cargo build --release -p logicmd-cli
#   (cd tests/js && npm ci)          # js-yaml and ajv, pinned there
#   cli/bench/lint-tree.sh [ROUNDS] [N]
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
rounds="${1:-9}"
count="${2:-1000}"
logicmd="${LOGICMD_BIN:-$repo/target/release/logicmd}"
modules="${LOGICMD_REFERENCE_MODULES:-$repo/tests/js}"
tree="$(mktemp -d)"
trap 'rm -rf "$tree"' EXIT
python3 "$repo/cli/bench/gen_tree.py" "$tree" "$count"
git -C "$tree" init -q   # a project root, as in a real repository

run_logicmd() { (cd "$tree" && "$logicmd" lint . >/dev/null 2>&1) || true; }
run_reference() { (cd "$tree" && LOGICMD_REFERENCE_MODULES="$modules" node "$repo/cli/bench/reference-lint.mjs" . >/dev/null 2>&1) || true; }
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
median() { sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

run_logicmd; run_reference
logicmd_times=(); reference_times=()
for _ in $(seq "$rounds"); do
  start=$(now_ms); run_logicmd; logicmd_times+=($(( $(now_ms) - start )))
  start=$(now_ms); run_reference; reference_times+=($(( $(now_ms) - start )))
done
l=$(printf '%s\n' "${logicmd_times[@]}" | median)
r=$(printf '%s\n' "${reference_times[@]}" | median)
echo "files: $count ($(du -sh "$tree" | cut -f1)), rounds: $rounds, cores: $(nproc)"
echo "logicmd lint .      median ${l} ms  (runs: ${logicmd_times[*]})"
echo "reference pipeline  median ${r} ms  (runs: ${reference_times[*]})"
awk -v l="$l" -v r="$r" 'BEGIN { printf "reference / logicmd: %.1fx\n", r / l }'
(cd "$tree" && "$logicmd" lint . 2>/dev/null | tail -1) || true
(cd "$tree" && LOGICMD_REFERENCE_MODULES="$modules" node "$repo/cli/bench/reference-lint.mjs" . | tail -1) || true
