//! Trace check throughput on a generated 100,000-event trace shaped like the engine's (a plan
//! of steps in a chain with fan-in every tenth step; each step started, called, validated,
//! verified and finished; every fifth retried once; every fiftieth reviewed): the five
//! built-ins, the built-ins plus five user formulas, the same from JSON Lines bytes, and the
//! OTLP export. Goal: at least 1 M events/s native. Run with
//! `cargo bench -p logicmd --bench trace_check`.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use logicmd::trace::{check, export, read_jsonl, ExportOptions, Rule, TraceLimits};
use serde_json::{json, Value};

const EVENTS: usize = 100_000;

/// Events of a run of steps `step_0 … step_{n-1}`, until there are `EVENTS` of them.
fn generated() -> Vec<Value> {
    // Events per step: 6, 4 more for every fifth (a retry), 2 more for every fiftieth (a review).
    let steps = EVENTS * 50 / (6 * 50 + 4 * 10 + 2);
    let plan: Vec<Value> = (0..steps)
        .map(|i| {
            let mut after = Vec::new();
            if i > 0 {
                after.push(format!("step_{}", i - 1));
            }
            if i >= 10 && i % 10 == 0 {
                after.push(format!("step_{}", i - 10));
            }
            json!({"id": format!("step_{i}"), "kind": "step", "after": after, "chosen_by": [], "max_attempts": 3})
        })
        .collect();
    let mut events = Vec::with_capacity(EVENTS + 16);
    let mut t = 0u64;
    let mut push = |events: &mut Vec<Value>, mut event: Value| {
        event["seq"] = events.len().into();
        event["t"] = t.into();
        t += 3;
        events.push(event);
    };
    push(
        &mut events,
        json!({"event": "run_started", "kind": "logic", "input": {"topic": "bench"}, "plan": {"nodes": plan}}),
    );
    for i in 0..steps {
        let node = format!("step_{i}");
        push(
            &mut events,
            json!({"event": "node_started", "node": node, "inputs": {}}),
        );
        let attempts = if i % 5 == 0 { 2 } else { 1 };
        for attempt in 1..=attempts {
            if attempt > 1 {
                push(
                    &mut events,
                    json!({"event": "retried", "node": node, "attempt": attempt, "wait_ms": 1000, "reason": "the check failed"}),
                );
            }
            let action = format!("a{}", events.len());
            push(
                &mut events,
                json!({"event": "model_requested", "node": node, "action": action, "attempt": attempt, "request": {"system": "", "messages": []}}),
            );
            push(
                &mut events,
                json!({"event": "model_responded", "node": node, "attempt": attempt, "text": "{\"ok\": true}", "usage": {"input_tokens": 120, "output_tokens": 40}, "latency_ms": 800}),
            );
            push(
                &mut events,
                json!({"event": "output_validated", "node": node, "attempt": attempt, "output": {"ok": true}}),
            );
            let passed = attempt == attempts;
            push(
                &mut events,
                json!({"event": "gate_evaluated", "node": node, "gate": "verification", "check": "{{ output.ok }}", "passed": passed}),
            );
        }
        if i % 50 == 0 {
            push(
                &mut events,
                json!({"event": "review_requested", "node": node, "actions": ["accept"]}),
            );
            push(
                &mut events,
                json!({"event": "review_answered", "node": node, "action": "accept"}),
            );
        }
        push(
            &mut events,
            json!({"event": "node_finished", "node": node, "status": "succeeded", "output": {"ok": true}, "duration_ms": 900}),
        );
    }
    push(
        &mut events,
        json!({"event": "run_finished", "status": "completed", "output": {"ok": true}}),
    );
    events
}

fn formulas() -> Vec<Rule> {
    [
        "started-in-a-run = G(node_started -> P run_started)",
        "calls-answered = G(model_requested -> F model_responded)",
        "retries-revalidated = G(retried -> F output_validated)",
        "no-failure = G !node_finished(status=failed)",
        "reviews-in-time = G(review_requested -> X review_answered)",
    ]
    .iter()
    .map(|text| Rule::parse(text).expect("the benchmark's formulas parse"))
    .collect()
}

fn bench(c: &mut Criterion) {
    let events = generated();
    let builtins = Rule::builtins();
    let mut all = Rule::builtins();
    all.extend(formulas());
    assert!(
        check(&events, &all).is_empty(),
        "the generated trace keeps every rule"
    );
    let bytes: Vec<u8> = events
        .iter()
        .flat_map(|e| format!("{e}\n").into_bytes())
        .collect();

    let mut group = c.benchmark_group("trace_check");
    group.sample_size(20);
    group.throughput(Throughput::Elements(events.len() as u64));
    group.bench_function("builtins", |b| b.iter(|| check(&events, &builtins)));
    group.bench_function("builtins_and_5_formulas", |b| {
        b.iter(|| check(&events, &all))
    });
    group.bench_function("read_jsonl_and_check", |b| {
        b.iter(|| {
            let trace = read_jsonl(&bytes, TraceLimits::DEFAULT).expect("the trace reads");
            check(&trace.events, &all)
        })
    });
    group.bench_function("otlp_export", |b| {
        b.iter(|| export(&events, &ExportOptions::default()))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
