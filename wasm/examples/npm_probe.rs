//! What the npm package's `validate` does for one call, natively, for instruction counts
//! (issue #17): analysis at validate depth plus the result's JSON text, everything but the JS
//! glue (the text's copy into wasm memory, `JSON.parse` of the result).
//!
//! `cargo build --release -p logicmd-wasm --example npm_probe`
//! `valgrind --tool=callgrind --toggle-collect='*validate_all*' target/release/examples/npm_probe corpus 11`
//!
//! WHAT is `steps-1000`, `steps-5000`, `corpus` or a file; TIMES defaults to 1.

// A probe program reads files and prints; the package itself never does.
#![allow(clippy::disallowed_methods, clippy::print_stdout)]

#[path = "../../core/benches/support/corpus.rs"]
mod corpus;
#[path = "../../core/benches/support/documents.rs"]
mod documents;
#[path = "../../core/benches/support/generate.rs"]
mod generate;

use documents::documents;

/// Makes the npm `validate` result of every text `times` times; the function callgrind's
/// `--toggle-collect` counts.
#[inline(never)]
fn validate_all(texts: &[String], times: usize) -> usize {
    let mut bytes = 0;
    for _ in 0..times {
        for text in texts {
            bytes += logicmd_wasm::validate_json(text).len();
        }
    }
    bytes
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let what = args.first().map_or("corpus", String::as_str);
    let times: usize = args.get(1).and_then(|t| t.parse().ok()).unwrap_or(1);
    let texts = documents(what);
    let bytes: usize = texts.iter().map(String::len).sum();
    let results = validate_all(&texts, times);
    println!(
        "{} documents, {bytes} bytes, x{times}: {results} bytes of results",
        texts.len()
    );
}
