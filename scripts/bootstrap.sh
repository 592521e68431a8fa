#!/usr/bin/env bash
# Installs the pinned tools the project needs into a project-local tools directory.
# Idempotent: every tool already present at its pinned version is skipped.
#
#   scripts/bootstrap.sh [--minimal]     --minimal: only what the Rust test suite needs
#
# The tools directory is $LOGICMD_TOOLS_DIR, default <repo>/.tools. Source scripts/env.sh
# afterwards (the README commands do) to put it on PATH.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=scripts/versions.sh
source "$repo/scripts/versions.sh"
tools="${LOGICMD_TOOLS_DIR:-$repo/.tools}"
mkdir -p "$tools/bin"
minimal=false
[[ "${1:-}" == "--minimal" ]] && minimal=true

log() { printf '[bootstrap] %s\n' "$*" >&2; }

# has_version CMD EXPECTED: true when CMD --version prints EXPECTED.
has_version() {
  local out
  out="$("$1" --version 2>/dev/null || true)"
  [[ "$out" == *"$2"* ]]
}

ensure_wasm_target() {
  if rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
    log "wasm32-unknown-unknown target: present"
  else
    log "installing rust target wasm32-unknown-unknown"
    rustup target add wasm32-unknown-unknown
  fi
}

# cargo_tool BINARY CRATE VERSION [extra cargo install args...]
cargo_tool() {
  local bin="$1" crate="$2" version="$3"
  shift 3
  if has_version "$tools/bin/$bin" "$version"; then
    log "$crate $version: present"
    return
  fi
  log "installing $crate $version (this compiles from source and can take minutes)"
  cargo install --quiet --root "$tools" "$crate" --version "=$version" "$@"
}

# wasm-split-cli has no --version: a stamp next to it records the version installed.
ensure_wasm_split() {
  local stamp="$tools/bin/wasm-split-cli.version"
  if [[ -x "$tools/bin/wasm-split-cli" && "$(cat "$stamp" 2>/dev/null)" == "$WASM_SPLIT_VERSION" ]]; then
    log "wasm_split_cli_support $WASM_SPLIT_VERSION: present"
    return
  fi
  log "installing wasm_split_cli_support $WASM_SPLIT_VERSION (compiles from source, about 5 minutes)"
  cargo install --quiet --root "$tools" wasm_split_cli_support --version "=$WASM_SPLIT_VERSION" \
    --features build-binary --locked
  printf '%s\n' "$WASM_SPLIT_VERSION" > "$stamp"
}

ensure_binaryen() {
  # wasm-opt prints `wasm-opt version 132 (version_132)`: the major version is binaryen's.
  if has_version "$tools/bin/wasm-opt" "version ${BINARYEN_VERSION%%.*} "; then
    log "binaryen $BINARYEN_VERSION: present"
    return
  fi
  log "installing npm binaryen@$BINARYEN_VERSION"
  mkdir -p "$tools/npm"
  npm install --silent --no-audit --no-fund --prefix "$tools/npm" "binaryen@$BINARYEN_VERSION"
  ln -sf "$tools/npm/node_modules/.bin/wasm-opt" "$tools/bin/wasm-opt"
}

ensure_chromium() {
  if command -v chromium >/dev/null && command -v chromedriver >/dev/null; then
    log "chromium + chromedriver: present ($(chromium --version 2>/dev/null | head -1))"
    return
  fi
  log "installing Debian chromium + chromium-driver"
  local sudo=""
  [[ "$(id -u)" != 0 ]] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends chromium chromium-driver >/dev/null
}

ensure_wasm_target
if [[ "$minimal" == false ]]; then
  cargo_tool wasm-bindgen wasm-bindgen-cli "$WASM_BINDGEN_VERSION"
  cargo_tool trunk trunk "$TRUNK_VERSION" --locked
  cargo_tool wasm-pack wasm-pack "$WASM_PACK_VERSION" --locked
  ensure_wasm_split
  ensure_binaryen
  ensure_chromium
fi
log "tools ready in $tools"
