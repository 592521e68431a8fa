#!/usr/bin/env bash
# The mutation fuzzer over parse, reparse, expressions, edit and fmt (issue #13 §4): not part of the
# test command. Every find is written to fuzz/finds/ (input and why); move it to tests/fuzz/ once
# fixed, where `cargo test -p logicmd-fuzz` replays it for good.
#
#   scripts/fuzz.sh [COUNT_PER_TARGET] [SEED]      (default 2,000,000 per target: 10 million inputs)
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
count="${1:-2000000}"
seed="${2:-1}"
cargo build --release --locked -p logicmd-fuzz
exec target/release/logicmd-fuzz --target all --count "$count" --seed "$seed" --limit-ms 5000
