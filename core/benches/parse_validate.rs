//! Parse + validate throughput: over the fixture corpus, and over generated documents of
//! 1,000 and 5,000 steps, plus compile, lint, graph + layout, one edit (apply + re-validate) and
//! one keystroke's reparse of those. Run with
//! `cargo bench -p logicmd --bench parse_validate`.

// A benchmark program reads its corpus from disk; core itself never does (core/clippy.toml).
#![allow(clippy::disallowed_methods)]

use std::fs;
use std::path::{Path, PathBuf};

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};

/// A document with `steps` steps in a chain with fan-in every tenth step.
fn generated(steps: usize) -> String {
    let mut text = String::from(
        "---\nspec_version: \"1.0\"\nname: generated\ndescription: Generated benchmark document\nreasoning:\n  strategy: cot\n  max_iterations: 3\nsteps:\n",
    );
    for i in 0..steps {
        text.push_str(&format!(
            "  step_{i}:\n    description: Step number {i} of the chain\n"
        ));
        text.push_str(&format!(
            "    instructions: |\n      Read the output of the previous step.\n      Produce a short summary for step {i}.\n"
        ));
        if i > 0 {
            let mut needs = vec![format!("step_{}", i - 1)];
            if i % 10 == 0 && i >= 10 {
                needs.push(format!("step_{}", i - 10));
            }
            text.push_str(&format!("    needs: [{}]\n", needs.join(", ")));
        }
        text.push_str("    confidence:\n      minimum: 0.6\n");
        text.push_str("    timeout: 30s\n");
    }
    text.push_str("---\n# Generated\n");
    text
}

fn fixture_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            fixture_files(&path, out);
        } else if path.to_string_lossy().ends_with(".logic.md") {
            out.push(path);
        }
    }
}

/// The fixture texts; `typical` leaves out the ones built to hit a limit (alias bombs, deep
/// nesting), whose cost is the cost of reaching the limit.
fn corpus(typical: bool) -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut paths = Vec::new();
    fixture_files(&root.join("tests/fixtures"), &mut paths);
    fixture_files(&root.join("../shared/conformance"), &mut paths);
    paths.sort();
    paths
        .iter()
        .filter(|p| {
            let name = p.to_string_lossy();
            !typical || !(name.contains("alias-bomb") || name.contains("/deep-"))
        })
        .filter_map(|p| fs::read_to_string(p).ok())
        .collect()
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("parse_validate");
    for (label, typical) in [("fixtures", false), ("typical_fixtures", true)] {
        let corpus = corpus(typical);
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
        let text = generated(steps);
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
        let typed = text.replacen("Step number 1 of", "Step number 1x of", 1);
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
