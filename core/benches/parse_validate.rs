//! Parse + validate throughput (issue #17): over the corpus (fixtures, examples, conformance
//! suite), and over the generated documents of 1,000 and 5,000 steps (`support/generate.rs`),
//! plus compile, lint, graph + layout, one edit (apply + re-validate) and one keystroke's reparse
//! of those. Run with
//! `cargo bench -p logicmd --bench parse_validate`.

#[path = "support/corpus.rs"]
mod corpus;
#[path = "support/generate.rs"]
mod generate;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("parse_validate");
    for (label, typical) in [("corpus", false), ("typical_corpus", true)] {
        let corpus: Vec<String> = corpus::corpus(typical)
            .into_iter()
            .map(|(_, text)| text)
            .collect();
        let bytes: usize = corpus.iter().map(String::len).sum();
        group.throughput(Throughput::Bytes(bytes as u64));
        group.bench_function(BenchmarkId::new(label, corpus.len()), |b| {
            b.iter(|| {
                corpus
                    .iter()
                    .map(|text| logicmd::validate(text).diagnostics.len())
                    .sum::<usize>()
            })
        });
    }
    for steps in [1_000, 5_000] {
        let text = generate::generated(steps);
        let report = logicmd::validate(&text);
        assert!(
            report.valid,
            "generated document must be valid: {:?}",
            report.diagnostics.first()
        );
        group.throughput(Throughput::Bytes(text.len() as u64));
        group.sample_size(20);
        group.bench_function(BenchmarkId::new("steps", steps), |b| {
            b.iter(|| logicmd::validate(&text).valid)
        });
        group.bench_function(BenchmarkId::new("parse_only", steps), |b| {
            b.iter(|| logicmd::Document::parse(&text).document.is_some())
        });
        let document = logicmd::Document::parse(&text).document.expect("parses");
        // A keystroke in a description: derived from the previous parse instead of parsing.
        let typed = text.replacen("Step 1 combines", "Step 1x combines", 1);
        assert!(document.reparse(&typed).is_some());
        group.bench_function(BenchmarkId::new("reparse_keystroke", steps), |b| {
            b.iter(|| document.reparse(&typed).map(|d| d.text().len()))
        });
        group.bench_function(BenchmarkId::new("compile", steps), |b| {
            b.iter(|| logicmd::compile::compile(document.json()).map(|c| c.steps.len()))
        });
        let edit = logicmd::edit::Edit::Set {
            path: format!("steps.step_{}.description", steps / 2),
            value: serde_json::json!("An edited description"),
        };
        group.bench_function(BenchmarkId::new("edit", steps), |b| {
            b.iter(|| logicmd::edit::apply(&text, &edit).map(|a| a.text.len()))
        });
        group.bench_function(BenchmarkId::new("graph_layout", steps), |b| {
            b.iter(|| {
                let mut graph = logicmd::graph::from_document(&document);
                logicmd::graph::layout(&mut graph, logicmd::graph::LayoutOptions::default());
                graph.nodes.len()
            })
        });
        let loader = logicmd::loader::MemoryLoader::new();
        group.bench_function(BenchmarkId::new("lint", steps), |b| {
            b.iter(|| logicmd::lint::lint(&document, "bench.logic.md", &loader).len())
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
