# Pinned versions of the tools scripts/bootstrap.sh installs. One place to change them.
# wasm-bindgen-cli must equal the `wasm-bindgen` crate version in Cargo.toml.
WASM_BINDGEN_VERSION=0.2.130
TRUNK_VERSION=0.21.14
WASM_PACK_VERSION=0.15.1
BINARYEN_VERSION=132.0.0
# The split step of the studio (scripts/split-wasm.sh) and of the npm package (scripts/build-npm.sh):
# crate wasm_split_cli_support, binary wasm-split-cli; it must read what the wasm_split_helpers in
# Cargo.lock (leptos's, and the npm package's pin in Cargo.toml) writes.
WASM_SPLIT_VERSION=0.2.4
