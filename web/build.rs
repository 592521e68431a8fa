//! The studio's wasm keeps its relocations (`--emit-relocs`): the build's split step
//! (scripts/split-wasm.sh) needs them to move run mode into a chunk of its own (issue #17,
//! docs/decisions.md "Studio size"). Only the studio's own link gets the flag, so its
//! dependencies and the npm package build as before.
fn main() {
    if std::env::var("CARGO_CFG_TARGET_ARCH").as_deref() == Ok("wasm32") {
        println!("cargo:rustc-link-arg-bins=--emit-relocs");
    }
}
