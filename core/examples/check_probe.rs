//! Probe: the studio's deferred check (schema + lint through the front door) on a generated document.
#![allow(clippy::disallowed_methods, clippy::print_stdout)]
#[path = "../benches/support/generate.rs"]
mod generate;
use logicmd::analysis::{Options, Parsed};

#[inline(never)]
fn check_all(parsed: &Parsed, times: usize) -> usize {
    let loader = logicmd::loader::MemoryLoader::default();
    let mut n = 0;
    for _ in 0..times {
        n += logicmd::analysis::check(parsed, &Options::lint("doc.logic.md"), &loader).len();
    }
    n
}

/// The studio's document has its JSON view made by the time it is checked (and the schema program
/// is loaded once per page): made here outside the counted function.
#[inline(never)]
fn parsed_json(parsed: &Parsed) -> usize {
    let loader = logicmd::loader::MemoryLoader::default();
    logicmd::analysis::check(parsed, &Options::lint("doc.logic.md"), &loader).len()
}

fn main() {
    let steps: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(5000);
    let text = generate::generated(steps);
    let (_, parsed, _) = logicmd::analysis::parse(&text, &Options::lint("doc.logic.md"));
    let parsed = parsed.expect("parses");
    let _ = parsed_json(&parsed);
    println!("{} diagnostics", check_all(&parsed, 1));
}
