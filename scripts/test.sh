#!/usr/bin/env bash
# Runs every check the project has: formatting, lints, all tests (Rust, Python, Node, headless Chromium),
# the wasm32 builds, and that the benchmarks compile.
# Installs what it needs first (scripts/bootstrap.sh is idempotent and pinned).
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"

step() { printf '\n==> %s\n' "$*" >&2; }

step "bootstrap (pinned tools)"
scripts/bootstrap.sh
# shellcheck source=scripts/env.sh
source scripts/env.sh

step "cargo fmt --check"
cargo fmt --all -- --check

step "cargo clippy -D warnings"
cargo clippy --workspace --all-targets --locked -- -D warnings

step "cargo test (unit, integration, conformance, fixtures, property, CLI, doc)"
# Snapshots are asserted, never accepted here: a changed output fails (INSTA_UPDATE=no, no forced
# pass), and every snapshot file must be one a test asserts (scripts/unreferenced-snapshots.sh,
# fed by the references insta records during the run).
snapshot_refs="$(mktemp)"
INSTA_UPDATE=no INSTA_FORCE_PASS=0 INSTA_SNAPSHOT_REFERENCES_FILE="$snapshot_refs" \
  cargo test --workspace --locked
step "no unreferenced or pending snapshot"
scripts/unreferenced-snapshots.sh "$snapshot_refs"
rm -f "$snapshot_refs"

step "Python package: dev wheel in a fresh virtualenv, pytest (conformance and examples against the CLI, runs, threads, compat), mypy --strict"
scripts/test-python.sh

step "evals on Ray: a local single-node Ray in a fresh virtualenv runs 1,000 cases, rows equal to the local pool's and the CLI's"
scripts/test-evals-ray.sh

step "JavaScript tests (Mermaid output parses with Mermaid's parser; schema verdicts equal ajv's)"
npm ci --prefix tests/js --silent --no-audit --no-fund
node --test tests/js/

step "VS Code extension: pinned npm install, its client against \`logicmd lsp\`, its grammar, packaged by vsce"
npm ci --prefix editors/vscode --silent --no-audit --no-fund
LOGICMD_BIN="$repo/target/debug/logicmd" node --test editors/vscode/test/
(cd editors/vscode && npx --no-install vsce package --out "$repo/target/logicmd-vscode.vsix")

step "MCP server: the official MCP Inspector (CLI mode) and conformance suite against \`logicmd mcp\`, pinned npm versions"
scripts/test-mcp.sh

step "core, the ide layer, the wasm bindings and the studio build for wasm32-unknown-unknown"
cargo build -p logicmd -p logicmd-ide -p logicmd-wasm -p logicmd-studio --target wasm32-unknown-unknown --locked

step "npm package and studio: build, tsc, Node, browser and studio tests"
scripts/test-web.sh

step "builder embedding: logicmd/xyflow in Node and against @xyflow/react's types, the React Flow example in Chromium, the Flowise node"
LOGICMD_NPM_BUILT=1 scripts/test-builders.sh

step "benchmarks compile and link"
# In the test profile, on the dependencies `cargo test` has just built: clippy --all-targets has type-checked
# them already, and an optimised build of every bench (12.5 of CI's 41 minutes) adds no check, only the time
# it takes; running a bench (`cargo bench --bench NAME`) builds it optimised.
cargo build --workspace --benches --locked

step "all checks passed"
