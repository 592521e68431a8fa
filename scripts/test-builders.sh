#!/usr/bin/env bash
# Issue #37's builder embedding: logicmd/xyflow in Node and against @xyflow/react's types, the
# React Flow example app built by Vite and driven in headless Chromium, and the Flowise custom node
# type-checked against flowise-components' INode and run with a stub host. Builds the npm package
# first unless LOGICMD_NPM_BUILT=1 says wasm/pkg is current (scripts/test-web.sh builds it too).
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
# shellcheck source=scripts/env.sh
source scripts/env.sh

if [[ "${LOGICMD_NPM_BUILT:-}" != 1 ]]; then
  scripts/build-npm.sh
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
tarball="$(cd wasm/pkg && npm pack --silent --pack-destination "$work" 2>/dev/null | tail -1)"

# Installs a folder's pinned dependencies, then the packed logicmd as a user receives it.
install_with_logicmd() {
  npm install --prefix "$1" --silent --no-audit --no-fund
  rm -rf "$1/node_modules/logicmd"
  mkdir -p "$1/node_modules/logicmd"
  tar -xzf "$work/$tarball" -C "$1/node_modules/logicmd" --strip-components=1
}

install_with_logicmd tests/builders
echo "==> tsc: logicmd/xyflow against @xyflow/react's types" >&2
(cd tests/builders && node node_modules/typescript/bin/tsc -p tsconfig.json)

echo "==> vite build examples/reactflow-builder" >&2
install_with_logicmd examples/reactflow-builder
(cd examples/reactflow-builder && node node_modules/vite/bin/vite.js build --logLevel warn)

echo "==> tsc examples/flowise-node against flowise-components' INode" >&2
install_with_logicmd examples/flowise-node
# Only the package's own files (its declarations): its ~150 runtime dependencies (LangChain and
# more) are not needed to type-check a node, and its declarations' imports of them are library
# files tsc skips (skipLibCheck).
flowise_components=3.1.4
flowise_tarball="$(npm pack --silent --pack-destination "$work" "flowise-components@$flowise_components" | tail -1)"
rm -rf examples/flowise-node/node_modules/flowise-components
mkdir -p examples/flowise-node/node_modules/flowise-components
tar -xzf "$work/$flowise_tarball" -C examples/flowise-node/node_modules/flowise-components --strip-components=1
(cd examples/flowise-node && node node_modules/typescript/bin/tsc -p tsconfig.json)

node --test --test-concurrency=1 tests/builders/
