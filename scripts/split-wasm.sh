#!/usr/bin/env bash
# Trunk post_build hook (Trunk.toml): splits the studio's wasm so run mode is a chunk of its own,
# fetched on the first Run (issue #17, docs/decisions.md "Studio size").
#
# Trunk 0.21 builds cargo → wasm-bindgen → (wasm-opt) with no split step, so this redoes the last
# part from the linker's output, which keeps its relocations (web/build.rs): wasm-split-cli
# (wasm_split_cli_support, the splitter of leptos's `wasm_split` macros) → wasm-bindgen on the
# main module → wasm-opt -Oz on every module (release) → the results replace Trunk's staged
# `<name>_bg.wasm` and `<name>.js` under the same hashed names, next to the chunks and their
# loader `__wasm_split.js`; the integrity hashes in the staged index.html are recomputed.
#
# Trunk sets TRUNK_STAGING_DIR, TRUNK_PROFILE (debug|release), TRUNK_SOURCE_DIR.
# LOGICMD_KEEP_NAMES=1 skips wasm-opt, which strips the name section: a build for the CPU
# profilers (tests/web/cpu-profile.mjs), same cargo profile otherwise.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
staging="${TRUNK_STAGING_DIR:?run by trunk as a post_build hook}"
case "${TRUNK_PROFILE:-debug}" in
  release) profile=studio ;; # index.html: data-cargo-profile-release="studio"
  *) profile=debug ;;
esac
target_dir="${CARGO_TARGET_DIR:-$repo/target}"
linked="$target_dir/wasm32-unknown-unknown/$profile/logicmd-studio.wasm"

log() { printf '[split-wasm] %s\n' "$*" >&2; }

staged=("$staging"/logicmd-studio-*_bg.wasm)
if [[ ${#staged[@]} -ne 1 || ! -f "${staged[0]}" ]]; then
  log "expected one staged logicmd-studio-*_bg.wasm in $staging, found: ${staged[*]}"
  exit 1
fi
name="$(basename "${staged[0]}" _bg.wasm)"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

log "splitting $linked ($profile)"
wasm-split-cli --target web --out-name "$name" "$linked" "$work/split"
wasm-bindgen --target web --no-typescript --keep-lld-exports \
  --out-dir "$work/split" --out-name "$name" "$work/split/$name.wasm"
rm "$work/split/$name.wasm"

modules=("$work/split/${name}_bg.wasm")
for chunk in "$work"/split/*.wasm; do
  [[ "$chunk" == "${modules[0]}" ]] || modules+=("$chunk")
done
if [[ "$profile" == studio && "${LOGICMD_KEEP_NAMES:-0}" != 1 ]]; then
  for module in "${modules[@]}"; do
    wasm-opt -Oz --enable-bulk-memory --enable-nontrapping-float-to-int \
      --enable-sign-ext --enable-mutable-globals \
      "$module" -o "$module.opt"
    mv "$module.opt" "$module"
  done
fi

# wasm-bindgen may emit snippets (inline JS); Trunk staged them already from its own run.
rm -rf "$work/split/snippets"
cp "$work"/split/* "$staging/"

# Trunk's subresource integrity hashes are of the files it built: give the replaced ones theirs.
html="$staging/index.html"
for file in "$name.js" "${name}_bg.wasm"; do
  sri="sha384-$(openssl dgst -sha384 -binary "$staging/$file" | openssl base64 -A)"
  sed -i -E "s#(href=\"[^\"]*/$file\"[^>]*integrity=\")sha384-[^\"]*\"#\1$sri\"#" "$html"
done
# The main module imports the chunks' loader: fetched only once the main module has arrived and
# been parsed, unless it is preloaded beside it (issue #38: a step less before the studio starts).
loader_sri="sha384-$(openssl dgst -sha384 -binary "$staging/__wasm_split.js" | openssl base64 -A)"
sed -i "s#</head>#<link rel=\"modulepreload\" href=\"/__wasm_split.js\" crossorigin=\"anonymous\" integrity=\"$loader_sri\"></head>#" "$html"
log "main ${name}_bg.wasm + $((${#modules[@]} - 1)) chunk(s) staged"
