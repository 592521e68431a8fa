#!/usr/bin/env bash
# logicmd.evals on Ray: builds the Python package's wheel with the pinned maturin, installs it
# with its `ray` extra (the pinned Ray) into a fresh virtualenv, and runs python/tests-ray there:
# a local single-node Ray started by the test (no dashboard, usage stats off) runs 1,000 cases
# with the synthetic and a scripted provider, compared row by row with the local pool and with
# `logicmd evals run`. Run by scripts/test.sh (Ray is a download of about 70 MB the first time; pip caches it).
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
python="${PYTHON:-python3}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export RAY_USAGE_STATS_ENABLED=0

"$python" -m venv "$work/venv"
venv="$work/venv/bin"
"$venv/python" -m pip install --quiet --disable-pip-version-check maturin==1.16.0 pytest==9.2.0
"$venv/maturin" build --quiet --locked --manifest-path python/Cargo.toml --out "$work/wheels"
wheel="$(ls "$work"/wheels/logicmd-*.whl)"
"$venv/python" -m pip install --quiet --disable-pip-version-check "${wheel}[ray]"

cargo build --quiet --locked -p logicmd-cli
export LOGICMD_CLI="$repo/target/debug/logicmd"
(cd python/tests-ray && "$venv/python" -m pytest -q -p no:cacheprovider .)
