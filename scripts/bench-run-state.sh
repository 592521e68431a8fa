#!/usr/bin/env bash
# What `logicmd run --state` costs: generated documents of 1,000 and 5,000 steps (a chain with
# fan-in every tenth step, as core/benches/run.rs generates them) run with --dry-run, with and
# without --state, each RUNS times; prints the median wall time of each and the ratio. The
# release binary is built first (or LOGICMD=path/to/logicmd measures another build, e.g. an
# older one for a before/after in one run).
#
#   scripts/bench-run-state.sh            # RUNS=5 STEPS="1000 5000" by default
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
runs="${RUNS:-5}"
steps_list="${STEPS:-1000 5000}"
if [[ -z "${LOGICMD:-}" ]]; then
  cargo build --quiet --release -p logicmd-cli --manifest-path "$repo/Cargo.toml"
  LOGICMD="$repo/target/release/logicmd"
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

generate() {
  python3 "$repo/scripts/bench_run.py" generate "$1"
}

# The run's wall time in milliseconds over RUNS runs: "median min max".
times_ms() {
  local times=()
  for _ in $(seq "$runs"); do
    rm -f "$work/state.json" "$work/state.json.lock"
    local start end
    start="$(date +%s%N)"
    "$@" > /dev/null
    end="$(date +%s%N)"
    times+=("$(( (end - start) / 1000000 ))")
  done
  printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)], a[1], a[NR]}'
}

echo "median (min-max) of $runs runs, wall time of the whole process"
printf '%-8s %20s %20s %8s %12s\n' steps "without (ms)" "--state (ms)" ratio "state bytes"
for steps in $steps_list; do
  generate "$steps" > "$work/gen.logic.md"
  base=("$LOGICMD" run "$work/gen.logic.md" --dry-run --progress off --format json --input '{"topic": "benchmarks"}')
  read -r without without_min without_max < <(times_ms "${base[@]}")
  read -r with with_min with_max < <(times_ms "${base[@]}" --state "$work/state.json")
  "${base[@]}" --state "$work/state.json" > /dev/null
  bytes="$(wc -c < "$work/state.json")"
  ratio="$(awk -v a="$with" -v b="$without" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')"
  printf '%-8s %20s %20s %8s %12s\n' "$steps" "$without ($without_min-$without_max)" \
    "$with ($with_min-$with_max)" "$ratio" "$bytes"
done
