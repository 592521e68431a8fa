#!/usr/bin/env bash
# The Python package (python/): builds its wheel with the pinned maturin, installs it into a
# fresh virtualenv with the pinned test tools (python/tests/requirements.txt), and runs pytest
# there: the conformance suite and the examples against the CLI binary, runs (providers,
# reviews, traces, the OpenAI provider over loopback HTTP), threads and the GIL, errors, compat
# against the reference SDK, mypy --strict. Then the same abi3 wheel in Python 3.9 (the oldest
# it claims), when one is installed.
#
# The wheel is a dev-profile build: the tests need the same answers, not the speed, and it
# reuses the debug build of core that `cargo test` just made (about 30 s instead of minutes for
# a release build; docs/decisions.md, "Python package"). `maturin build --release` makes the
# release wheel (the benchmark's: python/bench/bench.py).
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
python="${PYTHON:-python3}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

"$python" -m venv "$work/venv"
venv="$work/venv/bin"
"$venv/python" -m pip install --quiet --disable-pip-version-check -r python/tests/requirements.txt

"$venv/maturin" build --quiet --locked --manifest-path python/Cargo.toml --out "$work/wheels"
wheel="$(ls "$work"/wheels/logicmd-*.whl)"
"$venv/python" -m pip install --quiet --disable-pip-version-check --no-deps "$wheel"

# The CLI binary the tests compare with (built by `cargo test --workspace` already).
cargo build --quiet --locked -p logicmd-cli
export LOGICMD_CLI="$repo/target/debug/logicmd" LOGICMD_WHEEL="$wheel"
(cd python/tests && "$venv/python" -m pytest -q -p no:cacheprovider .)

# The stable ABI's floor: the same wheel in Python 3.9.
python39="${PYTHON39:-}"
if [[ -z "$python39" ]]; then
  python39="$(ls "${PYENV_ROOT:-$HOME/.pyenv}"/versions/3.9*/bin/python3.9 2>/dev/null | tail -1 || true)"
fi
if [[ -n "$python39" ]]; then
  "$python39" -m venv "$work/venv39"
  "$work/venv39/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps "$wheel"
  (cd python/tests && "$work/venv39/bin/python" smoke.py)
else
  echo "python 3.9 not installed: the abi3 wheel was not tried in it (set PYTHON39)" >&2
fi
