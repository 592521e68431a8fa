#!/usr/bin/env bash
# `logicmd run` of generated 1,000- and 5,000-step documents (synthetic provider, trace written),
# without and with --state, as whole processes: CPU (user + system) and wall time, medians of
# RUNS interleaved runs, for this tree's release build and an earlier commit's (before/after in
# one run), and the reference's dryRun beside them when REFERENCE names a build of it
# (scripts/bench/build-reference.sh). The harness is scripts/bench_run.py; figures and how to
# read them: docs/perf.md, "`logicmd run` of 1,000 and 5,000 steps (issue #38)".
#
#   scripts/bench-run.sh                  # RUNS=7 STEPS="1000 5000" BEFORE_REF=3bf3c5b
#   BEFORE=path/to/logicmd scripts/bench-run.sh     # an already built "before"
#   REFERENCE=target/reference/packages/core/dist REFERENCE_RUNS=3 scripts/bench-run.sh
#   (REFERENCE_STEPS="1000": the sizes it runs; REFERENCE_TIMEOUT=600: seconds of wall time
#   after which a reference run is stopped and reported as "> its time so far")
#
# The "before" binary is built once per commit (a git worktree of BEFORE_REF built into this
# target directory, so the dependencies are shared) and kept in target/bench-bins/COMMIT/.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
runs="${RUNS:-7}"
steps="${STEPS:-1000 5000}"
before_ref="${BEFORE_REF:-3bf3c5b}"

cargo build --quiet --release -p logicmd-cli --manifest-path "$repo/Cargo.toml"
after="$repo/target/release/logicmd"

before="${BEFORE:-}"
if [[ -z "$before" ]]; then
  commit="$(git -C "$repo" rev-parse --short "$before_ref")"
  before="$repo/target/bench-bins/$commit/logicmd"
  if [[ ! -x "$before" ]]; then
    tree="$(mktemp -d)/before"
    git -C "$repo" worktree add --quiet --detach "$tree" "$commit"
    cargo build --quiet --release -p logicmd-cli --manifest-path "$tree/Cargo.toml" \
      --target-dir "$repo/target"
    mkdir -p "$(dirname "$before")"
    cp "$repo/target/release/logicmd" "$before"
    git -C "$repo" worktree remove --force "$tree"
    # The shared target directory now holds the before build: build this tree again.
    cargo build --quiet --release -p logicmd-cli --manifest-path "$repo/Cargo.toml"
  fi
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
reference=()
if [[ -n "${REFERENCE:-}" ]]; then
  reference=(--reference "$REFERENCE" --reference-runs "${REFERENCE_RUNS:-1}"
    --reference-steps "${REFERENCE_STEPS:-$steps}" --reference-timeout "${REFERENCE_TIMEOUT:-600}")
fi
python3 "$repo/scripts/bench_run.py" measure --runs "$runs" --steps "$steps" --work "$work" \
  "${reference[@]}" "before=$before" "after=$after"
echo "before: $before; after: $after (this tree)"
