#!/usr/bin/env bash
# Builds the npm package, packs it as users would receive it, installs the tarball into
# tests/npm, then type-checks a TypeScript user of it and runs the Node and browser tests.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"

scripts/build-npm.sh
tarball_dir="$(mktemp -d)"
trap 'rm -rf "$tarball_dir"' EXIT
tarball="$(cd wasm/pkg && npm pack --silent --pack-destination "$tarball_dir" 2>/dev/null | tail -1)"
npm ci --prefix tests/npm --silent --no-audit --no-fund
npm install --prefix tests/npm --silent --no-audit --no-fund --no-save "$tarball_dir/$tarball"

echo "tsc --noEmit tests/npm/usage.ts" >&2
(cd tests/npm && node node_modules/typescript/bin/tsc -p tsconfig.json)
node --test tests/npm/
