//! WebAssembly bindings of `logicmd` for JavaScript visual builders. Every function takes plain
//! values and returns a plain object (never a JS `Map`) that carries `diagnostics`; arguments of
//! the wrong type throw an `Error` naming the argument.

mod convert;
mod documents;
mod engine;
mod loader;
mod next_action;
mod run;
mod text;
mod tools;
mod trace;

use wasm_bindgen::prelude::*;

pub use documents::{check, compile, format, graph, lint, parse, validate, validate_json};
pub use engine::{
    check_input, check_trace, create_run, example_input, load_run, next_action, resume_run,
    EngineRun,
};
pub use tools::{apply_edit, decode_share_link, discover, encode_share_link, eval_tree, evaluate};

/// The result and argument types, written once here and checked by `tsc` in the JS tests.
#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = include_str!("types.d.ts");

#[wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
}

/// The package version (the `logicmd` crate's).
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_owned()
}

/// The LOGIC.md spec versions this implementation validates.
#[wasm_bindgen(js_name = supportedSpecVersions)]
pub fn supported_spec_versions() -> Vec<String> {
    logicmd::schema::SUPPORTED_SPEC_VERSIONS
        .iter()
        .map(|v| (*v).to_owned())
        .collect()
}
