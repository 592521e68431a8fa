//! The throughput probe (issue #17), beside the criterion bench:
//! - `throughput_probe write DIR` writes the generated documents (`steps-1000.logic.md`,
//!   `steps-5000.logic.md`) for the npm bench (`wasm/bench/throughput.mjs`);
//! - `throughput_probe heap` prints the peak heap of parse + validate per document, against the
//!   document's size (a counting allocator);
//! - `throughput_probe run WHAT [TIMES]` validates `steps-1000`, `steps-5000`, `corpus` or a file once (or
//!   TIMES times), for instruction counts:
//!   `valgrind --tool=callgrind --toggle-collect='*validate_all*' target/release/examples/throughput_probe run corpus`
//! - `throughput_probe rate FILE ROUNDS WARMUP_MS` measures parse + validate of the texts of FILE
//!   (a JSON array of strings) as `wasm/bench/throughput.mjs` measures a pipeline: one cold
//!   round, rounds for WARMUP_MS, then the median of ROUNDS rounds, printed as
//!   `{"rate": MB/s, "cold": MB/s}` (MB = 10^6 bytes). The npm bench runs it beside js-yaml +
//!   ajv on the same sets in the same run, so the native ratio to the warmed reference is printed
//!   from one run (issue #38);
//! - `throughput_probe kept WHAT TIMES` times TIMES validations while the report of a first one
//!   is kept alive, as the criterion bench (and the studio, holding the current document) does,
//!   and prints the milliseconds per pass: the heap's layout decides how many pages the
//!   allocator gives back and faults in again per pass, and differs from `run`'s (docs/perf.md,
//!   round seven).
//!
//! `cargo run --release -p logicmd --example throughput_probe -- heap`

// A probe program reads and writes files, prints and reads the clock; core itself never does
// (core/clippy.toml).
#![allow(
    clippy::disallowed_methods,
    clippy::disallowed_types,
    clippy::print_stdout
)]

#[path = "../benches/support/corpus.rs"]
mod corpus;
#[path = "../benches/support/documents.rs"]
mod documents;
#[path = "../benches/support/generate.rs"]
mod generate;

use documents::documents;

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The system allocator, counting live and peak bytes.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let live = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
        PEAK.fetch_max(live, Ordering::Relaxed);
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if new_size > layout.size() {
            let grown = new_size - layout.size();
            let live = LIVE.fetch_add(grown, Ordering::Relaxed) + grown;
            PEAK.fetch_max(live, Ordering::Relaxed);
        } else {
            LIVE.fetch_sub(layout.size() - new_size, Ordering::Relaxed);
        }
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Peak bytes allocated while validating `text`, above what was live before.
fn peak_of(text: &str) -> usize {
    let before = LIVE.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let report = logicmd::validate(text);
    let peak = PEAK.load(Ordering::Relaxed) - before;
    drop(report);
    peak
}

fn heap() {
    println!("document          bytes   peak heap   peak / size");
    for steps in [1_000, 5_000] {
        let text = generate::generated(steps);
        let peak = peak_of(&text);
        let ratio = peak as f64 / text.len() as f64;
        println!(
            "steps-{steps:<6} {:>10} {peak:>11} {ratio:>12.1}×",
            text.len()
        );
    }
    let corpus = corpus::corpus(true);
    let (largest, text) = corpus
        .iter()
        .max_by_key(|(_, text)| text.len())
        .expect("the corpus is not empty");
    let peak = peak_of(text);
    let name = largest.file_name().unwrap_or_default().to_string_lossy();
    let ratio = peak as f64 / text.len() as f64;
    println!(
        "{name} (largest in corpus) {} {peak} {ratio:.1}×",
        text.len()
    );
}

/// Validates every text `times` times: the function callgrind's `--toggle-collect` counts (the
/// schema's one-time parse included, as a process pays it once).
#[inline(never)]
fn validate_all(texts: &[String], times: usize) -> usize {
    let mut errors = 0;
    for _ in 0..times {
        for text in texts {
            errors += logicmd::validate(text).diagnostics.len();
        }
    }
    errors
}

/// MB/s of one round of parse + validate over `texts` (`bytes` long in all).
fn round(texts: &[String], bytes: usize) -> f64 {
    let started = std::time::Instant::now();
    let valid = texts.iter().filter(|t| logicmd::validate(t).valid).count();
    std::hint::black_box(valid);
    bytes as f64 / started.elapsed().as_secs_f64() / 1e6
}

/// The median MB/s of `rounds` rounds after rounds for `warm_up_ms` (at least one), and the
/// first, cold round's: what the npm bench measures of each pipeline.
fn rate(texts: &[String], rounds: usize, warm_up_ms: u64) -> (f64, f64) {
    let bytes: usize = texts.iter().map(String::len).sum();
    let cold = round(texts, bytes);
    let warming_until = std::time::Instant::now() + std::time::Duration::from_millis(warm_up_ms);
    loop {
        round(texts, bytes);
        if std::time::Instant::now() >= warming_until {
            break;
        }
    }
    let mut rates: Vec<f64> = (0..rounds).map(|_| round(texts, bytes)).collect();
    rates.sort_by(f64::total_cmp);
    (rates[rates.len() / 2], cold)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        ["write", dir] => {
            std::fs::create_dir_all(dir).expect("creates the directory for the documents");
            for steps in [1_000, 5_000] {
                let path = std::path::Path::new(dir).join(format!("steps-{steps}.logic.md"));
                std::fs::write(&path, generate::generated(steps)).expect("writes the document");
                println!("{}", path.display());
            }
        }
        ["heap"] => heap(),
        ["run", what, rest @ ..] => {
            let times: usize = rest.first().and_then(|t| t.parse().ok()).unwrap_or(1);
            let texts = documents(what);
            let bytes: usize = texts.iter().map(String::len).sum();
            let errors = validate_all(&texts, times);
            println!(
                "{} documents, {bytes} bytes, x{times}: {errors} diagnostics",
                texts.len()
            );
        }
        ["rate", file, rounds, warm_up_ms] => {
            let text = std::fs::read_to_string(file).expect("reads the texts");
            let texts: Vec<String> = serde_json::from_str(&text).expect("a JSON array of strings");
            let rounds: usize = rounds.parse().unwrap_or(15).max(1);
            let warm_up_ms: u64 = warm_up_ms.parse().unwrap_or(2_000);
            let (rate, cold) = rate(&texts, rounds, warm_up_ms);
            println!("{{\"rate\": {rate:.3}, \"cold\": {cold:.3}}}");
        }
        ["kept", what, times] => {
            let times: usize = times.parse().unwrap_or(1).max(1);
            let texts = documents(what);
            let kept: Vec<logicmd::Report> = texts.iter().map(|t| logicmd::validate(t)).collect();
            let start = std::time::Instant::now();
            let errors = validate_all(&texts, times);
            let per_pass = start.elapsed().as_secs_f64() * 1e3 / times as f64;
            println!(
                "{per_pass:.3} ms per pass, {errors} diagnostics ({} reports kept)",
                kept.len()
            );
        }
        _ => println!(
            "usage: throughput_probe write DIR | heap | run steps-1000|steps-5000|corpus [TIMES] | rate FILE ROUNDS WARMUP_MS | kept WHAT TIMES"
        ),
    }
}
