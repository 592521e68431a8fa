//! The package's wasm keeps its relocations (`--emit-relocs`): scripts/build-npm.sh's split step
//! needs them to move the run engine into a module of its own, loaded on first use (issue #38,
//! docs/decisions.md "npm package: the engine loaded on first use"). Only the cdylib's own link
//! gets the flag, so the dependencies build as before.
fn main() {
    if std::env::var("CARGO_CFG_TARGET_ARCH").as_deref() == Ok("wasm32") {
        println!("cargo:rustc-link-arg-cdylib=--emit-relocs");
    }
}
