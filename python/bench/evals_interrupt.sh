#!/usr/bin/env bash
# Ctrl-C during `python -m logicmd.evals run … --out FILE` (a hostile new user's report, issue
# #36): 30,000 cases with synthetic answers, SIGINT at 4 s and, if still running, at 5 s. Prints
# the exit status, the seconds from the first SIGINT to the exit, the rows in FILE and the
# tracebacks on standard error. Usage: python/bench/evals_interrupt.sh PYTHON [RUNS]
set -euo pipefail
set -m # the eval runs as a job of its own: SIGINT is not ignored as in a script's background
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
python="$1"
runs="${2:-3}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp "$repo/cli/tests/evals/capital.logic.md" "$work/"
"$python" -c "
import json
with open('$work/cases.jsonl', 'w') as f:
    for i in range(30000):
        f.write(json.dumps({'id': f'c{i}', 'input': {'country': f'n{i}'}, 'expected': {'city': 'Paris'}}) + '\n')
"
cd "$work"
for _ in $(seq 1 "$runs"); do
  rm -f out.jsonl out.jsonl.lock
  "$python" -m logicmd.evals run capital.logic.md --data cases.jsonl --dry-run --out out.jsonl 2>err.txt >/dev/null &
  pid=$!
  sleep 4
  first=$(date +%s.%N)
  kill -INT "$pid"
  for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.01; done
  if kill -0 "$pid" 2>/dev/null; then sleep 1; kill -INT "$pid" 2>/dev/null || true; fi
  status=0
  wait "$pid" || status=$?
  end=$(date +%s.%N)
  rows=$([ -f out.jsonl ] && wc -l <out.jsonl || echo "no file")
  echo "exit $status, $(echo "$end - $first" | bc) s after the first SIGINT, rows: $rows, tracebacks: $(grep -c Traceback err.txt || true)"
done
