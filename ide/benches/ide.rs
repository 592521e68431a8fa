//! The editor's queries on the generated 5,000-step document (issue #17's, 1.37 MB): completion,
//! hover, go to definition, and diagnostics after a one-character edit (the incremental reparse
//! and the check). Criterion measures the medians; after it, each query is timed 200 times one
//! call at a time and the 50th/95th percentiles are printed (what an editor waits for).
//!
//! `cargo bench -p logicmd-ide --bench ide`

#![allow(
    clippy::disallowed_types,
    clippy::disallowed_methods,
    reason = "the benchmark times single calls; the layer it measures reads no clock"
)]

#[path = "../../core/benches/support/generate.rs"]
mod generate;

use std::hint::black_box;
use std::sync::Arc;
use std::time::{Duration, Instant};

use criterion::Criterion;
use logicmd::source::Span;
use logicmd_ide::files::MemoryFiles;
use logicmd_ide::{completion, hover, navigation, Workspace};

const ID: &str = "bench.logic.md";
const STEPS: usize = 5_000;

/// The generated document with one expression at the end, so completion inside `{{ }}` and an
/// expression's hover are measured on a document of that size too.
fn document() -> String {
    let text = generate::generated(STEPS);
    let last = format!("  step_{}:\n", STEPS - 1);
    let at = text.find(&last).expect("the last step") + last.len();
    let mut text = text;
    // A blank line where a new key of the last step is being typed, then an expression.
    text.insert_str(
        at,
        "    \n    verification:\n      check: \"{{ steps.step_4998.output.summary != '' }}\"\n",
    );
    text
}

struct Queries {
    text: String,
    /// In the last step's `needs` list, after `[`.
    needs_value: usize,
    /// At the start of a new key line of the last step.
    new_key: usize,
    /// After `steps.step_4998.output.` in the expression.
    expression_member: usize,
    /// On a `needs` reference in the middle of the document.
    reference: usize,
    /// On a key.
    key: usize,
    /// Inside a description in the middle of the document (the one-character edit).
    description: usize,
}

fn queries(text: String) -> Queries {
    let last = format!("  step_{}:\n", STEPS - 1);
    let last_at = text.find(&last).expect("the last step");
    let needs_value = last_at + text[last_at..].find("needs: [").expect("needs") + "needs: [".len();
    let new_key = last_at + last.len() + "    ".len();
    let expression_member =
        text.find("step_4998.output.").expect("the expression") + "step_4998.output.".len();
    let middle = text.find("  step_2500:\n").expect("the middle step");
    let reference = middle + text[middle..].find("needs: [").expect("needs") + "needs: [".len() + 2;
    let key = middle + text[middle..].find("instructions").expect("a key") + 3;
    let description = middle + text[middle..].find("combines").expect("the description");
    Queries {
        text,
        needs_value,
        new_key,
        expression_member,
        reference,
        key,
        description,
    }
}

fn workspace(text: &str) -> Workspace {
    let mut workspace = Workspace::new(Arc::new(MemoryFiles::new()));
    workspace.open(ID, text.to_owned());
    workspace.raw_diagnostics(ID);
    workspace
}

/// One character typed and taken back: the document is the same after each pair, so every
/// iteration measures the same edit.
fn type_and_check(workspace: &mut Workspace, at: usize, flip: &mut bool) -> usize {
    let span = if *flip {
        Span::new(at, at + 1)
    } else {
        Span::empty(at)
    };
    let inserted = if *flip { "" } else { "x" };
    *flip = !*flip;
    workspace.edit(ID, span, inserted).expect("inside the text");
    workspace.raw_diagnostics(ID).len()
}

fn criterion_benches(c: &mut Criterion, q: &Queries) {
    let mut group = c.benchmark_group("ide_5000_steps");
    group.sample_size(30);
    let mut ws = workspace(&q.text);
    group.bench_function("completion_needs", |b| {
        b.iter(|| completion::completion(&mut ws, ID, black_box(q.needs_value)).len())
    });
    group.bench_function("completion_key", |b| {
        b.iter(|| completion::completion(&mut ws, ID, black_box(q.new_key)).len())
    });
    group.bench_function("completion_expression", |b| {
        b.iter(|| completion::completion(&mut ws, ID, black_box(q.expression_member)).len())
    });
    group.bench_function("hover_reference", |b| {
        b.iter(|| hover::hover(&mut ws, ID, black_box(q.reference)))
    });
    group.bench_function("hover_key", |b| {
        b.iter(|| hover::hover(&mut ws, ID, black_box(q.key)))
    });
    group.bench_function("definition", |b| {
        b.iter(|| navigation::definition(&mut ws, ID, black_box(q.reference)))
    });
    let mut flip = false;
    group.bench_function("diagnostics_after_one_character", |b| {
        b.iter(|| type_and_check(&mut ws, q.description, &mut flip))
    });
    group.finish();
}

/// Each query `runs` times, one call timed at a time: (p50, p95).
fn percentiles(runs: usize, mut query: impl FnMut()) -> (Duration, Duration) {
    let mut times: Vec<Duration> = (0..runs)
        .map(|_| {
            let start = Instant::now();
            query();
            start.elapsed()
        })
        .collect();
    times.sort();
    (times[runs / 2], times[runs * 95 / 100])
}

fn print_percentiles(q: &Queries) {
    let mut ws = workspace(&q.text);
    let mut flip = false;
    let mut rows: Vec<(&str, (Duration, Duration))> = vec![
        (
            "completion_needs",
            percentiles(200, || {
                black_box(completion::completion(&mut ws, ID, q.needs_value));
            }),
        ),
        (
            "completion_key",
            percentiles(200, || {
                black_box(completion::completion(&mut ws, ID, q.new_key));
            }),
        ),
        (
            "completion_expression",
            percentiles(200, || {
                black_box(completion::completion(&mut ws, ID, q.expression_member));
            }),
        ),
        (
            "hover_reference",
            percentiles(200, || {
                black_box(hover::hover(&mut ws, ID, q.reference));
            }),
        ),
        (
            "hover_key",
            percentiles(200, || {
                black_box(hover::hover(&mut ws, ID, q.key));
            }),
        ),
        (
            "definition",
            percentiles(200, || {
                black_box(navigation::definition(&mut ws, ID, q.reference));
            }),
        ),
    ];
    rows.push((
        "diagnostics_after_one_character",
        percentiles(200, || {
            black_box(type_and_check(&mut ws, q.description, &mut flip));
        }),
    ));
    println!(
        "\nide on {STEPS} steps ({} bytes), 200 calls each:",
        q.text.len()
    );
    println!("{:<34} {:>10} {:>10}", "query", "p50", "p95");
    for (name, (p50, p95)) in rows {
        println!("{name:<34} {:>8.2}ms {:>8.2}ms", ms(p50), ms(p95));
    }
}

fn ms(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1000.0
}

fn main() {
    let q = queries(document());
    let mut criterion = Criterion::default().configure_from_args();
    criterion_benches(&mut criterion, &q);
    criterion.final_summary();
    if std::env::args().any(|a| a == "--bench") {
        print_percentiles(&q);
    }
}
