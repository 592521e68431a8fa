#!/usr/bin/env bash
# Builds the npm package `logicmd` into wasm/pkg and prints its sizes, raw and gzipped: the first
# load (the document tools' wasm and the JavaScript an import runs) and the run engine's module,
# loaded on first use (issue #38, docs/decisions.md "npm package: the engine loaded on first use").
# Fails when the first load grows past its ceiling. Needs the tools of scripts/bootstrap.sh on PATH.
#
# cargo (wasm-release profile; the cdylib's link keeps its relocations, wasm/build.rs) →
# wasm-split-cli (the engine behind wasm/src/engine/chunk.rs's split point into split_engine.wasm)
# → wasm-bindgen on the first-load module → wasm-opt on both → wasm/npm/finish-package.mjs (the
# package's own JS around the generated glue, the engine's loader, package.json).
#
# LOGICMD_WASM_OPT (default -O) is wasm-opt's level; a size-first build, about half the speed on
# valid documents (docs/perf.md "npm: the engine loaded on first use"):
#   CARGO_PROFILE_WASM_RELEASE_OPT_LEVEL=z LOGICMD_WASM_OPT=-Oz scripts/build-npm.sh
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
# shellcheck source=scripts/env.sh
source scripts/env.sh

profile=wasm-release
target_dir="${CARGO_TARGET_DIR:-$repo/target}"
linked="$target_dir/wasm32-unknown-unknown/$profile/logicmd_wasm.wasm"
pkg=wasm/pkg
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

cargo build --quiet -p logicmd-wasm --lib --target wasm32-unknown-unknown --profile "$profile" --locked
wasm-split-cli --target web --out-name logicmd "$linked" "$work/split"
rm -rf "$pkg"
mkdir -p "$pkg"
wasm-bindgen --target web --keep-lld-exports --out-dir "$pkg" --out-name logicmd "$work/split/logicmd.wasm"
# One split point gives one more module; a second split point would add shared chunks, which the
# package's loader (wasm/npm/engine-loader.js) does not load: refuse rather than ship them.
modules=("$work"/split/*.wasm)
if [[ ${#modules[@]} -ne 2 || ! -f "$work/split/split_engine.wasm" ]]; then
  echo "error: expected logicmd.wasm and split_engine.wasm from the split, got: ${modules[*]##*/}" >&2
  exit 1
fi
cp "$work/split/split_engine.wasm" "$pkg/"
for module in "$pkg/logicmd_bg.wasm" "$pkg/split_engine.wasm"; do
  wasm-opt "${LOGICMD_WASM_OPT:--O}" --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
    --enable-mutable-globals "$module" -o "$module.opt"
  mv "$module.opt" "$module"
done
node wasm/npm/finish-package.mjs "$pkg"

# The first load: what `import … from "logicmd"` (and `logicmd/xyflow`) fetches or reads before
# any run function is called; the lazy part: the engine's module.
gzipped() { gzip -9c "$1" | wc -c; }
first_load=0
for file in logicmd_bg.wasm logicmd.js __wasm_split.js node.js xyflow.js xyflow-node.js; do
  size="$(gzipped "$pkg/$file")"
  first_load=$((first_load + size))
  printf '%-22s %9s bytes, %8s gzipped  (first load)\n' "$file" "$(wc -c < "$pkg/$file")" "$size"
done
engine="$(gzipped "$pkg/split_engine.wasm")"
printf '%-22s %9s bytes, %8s gzipped  (loaded on first use: the run engine)\n' \
  split_engine.wasm "$(wc -c < "$pkg/split_engine.wasm")" "$engine"
printf 'first load: %s bytes gzipped; run engine, loaded on first use: %s bytes gzipped\n' \
  "$first_load" "$engine"
# Issue #38's target for what an import loads first is 400,000 B; with every document tool in the
# first load it is not met yet (docs/perf.md "npm: the engine loaded on first use"): print the gap,
# and fail on growth past the measured first load, e.g. the engine named outside
# wasm/src/engine/chunk.rs, linked into the first-load module again (about 970 KB). The ceiling
# was set 3 KB over session 7's size work (621,808 B; docs/perf.md "npm first load, session 7");
# the session's last speed round brought the first load to 623,551 B.
first_load_target=400000
first_load_ceiling=625000
printf 'first load against the 400,000 B target: %+d bytes\n' "$((first_load - first_load_target))"
if (( first_load > first_load_ceiling )); then
  echo "error: the npm package's first load is $first_load bytes gzipped, over its ceiling of $first_load_ceiling (docs/decisions.md \"npm package: the engine loaded on first use\")" >&2
  exit 1
fi
