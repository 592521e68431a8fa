#!/usr/bin/env bash
# Builds the npm package `logicmd` into wasm/pkg (wasm-pack, wasm-release profile) and prints
# the size of the .wasm raw and gzipped. Needs the tools of scripts/bootstrap.sh on PATH.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
# shellcheck source=scripts/env.sh
source scripts/env.sh

wasm-pack --quiet build wasm --target web --profile wasm-release --out-dir pkg --out-name logicmd
node wasm/npm/finish-package.mjs wasm/pkg
wasm_file=wasm/pkg/logicmd_bg.wasm
printf 'logicmd_bg.wasm: %s bytes raw, %s bytes gzipped\n' \
  "$(wc -c < "$wasm_file")" "$(gzip -9c "$wasm_file" | wc -c)"
