#!/usr/bin/env bash
# Builds and serves the studio with an example document loaded.
# Until the studio lands (issue #7), this builds the CLI and validates the bundled examples,
# printing each diagnostic with its source snippet.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
scripts/bootstrap.sh --minimal
# shellcheck source=scripts/env.sh
source scripts/env.sh
cargo build --release -p logicmd-cli --locked
target/release/logicmd lint examples/
