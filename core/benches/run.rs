//! The runtime's overhead: generated documents of 1,000 and 5,000 steps (a chain with fan-in
//! every tenth step, like `parse_validate`'s) run end to end with the synthetic provider —
//! `prepare` (parse, lint, imports), `Run::start`, and every `next()` and `feed` to the end.
//! `prepare` and the run after it are also measured apart. Run with
//! `cargo bench -p logicmd --bench run`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use logicmd::analysis::Options;
use logicmd::loader::MemoryLoader;
use logicmd::run::{prepare, ActionKind, Answer, Provider, Run, RunOptions, Source, Synthetic};
use serde_json::json;

/// A document with `steps` steps in a chain with fan-in every tenth step; every step has a
/// confidence floor and a timeout, every tenth a verification the synthetic answer meets.
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
        if i % 10 == 5 {
            text.push_str(
                "    verification:\n      check: \"{{ output.confidence >= 0.7 }}\"\n      on_fail: retry\n",
            );
        }
    }
    text.push_str("---\n# Generated\n");
    text
}

fn prepared(text: &str) -> Source {
    prepare(text, &Options::lint("bench.logic.md"), &MemoryLoader::new()).expect("prepares")
}

/// Runs `source` to its end with the synthetic provider; the number of model calls.
fn run_to_end(source: Source) -> usize {
    let mut provider = Synthetic::new(&source, 1);
    let mut run = Run::start(
        source,
        json!({"topic": "benchmarks"}),
        RunOptions::default(),
    )
    .expect("starts");
    let mut calls = 0;
    loop {
        let actions = run.next();
        if actions.is_empty() {
            panic!("the run stalled");
        }
        for action in actions {
            if let ActionKind::Complete { .. } = action.kind {
                return calls;
            }
            assert!(!action.kind.is_terminal(), "{action:?}");
            calls += usize::from(matches!(action.kind, ActionKind::CallModel { .. }));
            let Answer::Observed(observation) = provider.answer(&action, &mut |_| {}) else {
                panic!("unanswered: {action:?}");
            };
            run.feed(&action.id, observation).expect("feeds");
        }
        run.take_events();
    }
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("run");
    for steps in [1_000, 5_000] {
        let text = generated(steps);
        let source = prepared(&text);
        assert_eq!(run_to_end(source.clone()), steps, "one call per step");
        group.throughput(Throughput::Elements(steps as u64));
        group.sample_size(if steps > 1_000 { 10 } else { 20 });
        group.bench_function(BenchmarkId::new("end_to_end", steps), |b| {
            b.iter(|| run_to_end(prepared(&text)))
        });
        group.bench_function(BenchmarkId::new("prepare", steps), |b| {
            b.iter(|| prepared(&text))
        });
        group.bench_function(BenchmarkId::new("run_prepared", steps), |b| {
            b.iter(|| run_to_end(source.clone()))
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
