//! Property test of the LOGIC.md runtime: random documents (steps with needs, branches forward
//! and back, verification with every `on_fail`, retry policies, confidence thresholds, gates,
//! invariants, self-verification, fallback chains and degradation, decision trees, parallel
//! steps) run against a provider that mixes valid answers, the synthetic provider's, invalid
//! output, empty answers and errors of every kind, with random review decisions. Every run
//! ends (in a bounded number of rounds) without a panic, its trace keeps the ordering rules and
//! is made of typed events, and any output that leaves a step satisfies its checks (or a person
//! decided on it), or the run does not complete.

#[path = "run/logic/driver.rs"]
mod driver;

use std::collections::{BTreeMap, BTreeSet};

use driver::{run, source_with, Driven, End};
use logicmd::flow::{EdgeKind, Flow, UnitKind};
use logicmd::model::Spec;
use logicmd::run::{
    Action, ActionKind, Answer, ModelFailure, Observation, Provider, Source, Synthetic,
};
use logicmd::trace::Record;
use proptest::prelude::*;
use serde_json::{json, Map, Value};

/// Far beyond what any generated document needs; reaching it means the run does not end.
const MAX_ROUNDS: usize = 5_000;
/// A person retries at most this often; after that every review aborts.
const MAX_REVIEW_RETRIES: usize = 3;

const CONDITIONS: [&str; 4] = [
    "{{ output.ok }}",
    "{{ output.n > 5 }}",
    "{{ output.kind == 'a' }}",
    "{{ output.confidence >= 0.5 && output.ok }}",
];
const ON_FAIL: [&str; 5] = ["retry", "escalate", "skip", "abort", "revise"];

/// One generated step, before it becomes JSON.
#[derive(Debug, Clone)]
struct StepPlan {
    needs: Vec<usize>,
    schema: bool,
    branches: Vec<(Option<usize>, usize)>,
    verification: Option<(usize, usize)>,
    max_attempts: Option<u64>,
    confidence: Option<(f64, f64)>,
    parallel: Option<(Vec<usize>, usize, bool)>,
}

fn step_plan(n: usize) -> impl Strategy<Value = StepPlan> {
    (
        proptest::collection::vec(0..n, 0..3),
        any::<bool>(),
        proptest::collection::vec((proptest::option::of(0..CONDITIONS.len()), 0..n), 0..3),
        proptest::option::of((0..CONDITIONS.len(), 0..ON_FAIL.len())),
        proptest::option::of(1u64..4),
        proptest::option::of((0.3f64..0.6, 0.0f64..0.3)),
        proptest::option::weighted(
            0.2,
            (
                proptest::collection::vec(0..n, 1..4),
                0..3usize,
                any::<bool>(),
            ),
        ),
    )
        .prop_map(
            |(needs, schema, branches, verification, max_attempts, confidence, parallel)| {
                StepPlan {
                    needs,
                    schema,
                    branches,
                    verification,
                    max_attempts,
                    confidence,
                    parallel,
                }
            },
        )
}

/// The rest of a document: trees, gates, invariants, self-verification, fallback.
#[derive(Debug, Clone)]
struct DocPlan {
    steps: Vec<StepPlan>,
    max_iterations: u64,
    tree: Option<(usize, usize, usize, usize)>,
    gates: Vec<(usize, usize, Option<usize>)>,
    invariant: Option<usize>,
    self_verification: Option<usize>,
    strategy: usize,
    escalation: Vec<(usize, usize)>,
    degradation: Option<(usize, usize)>,
    /// A strict output contract: `n`, a number of at most [`CONTRACT_MAX`].
    contract: bool,
}

/// The output contract's bound on `n`.
const CONTRACT_MAX: f64 = 6.0;

fn doc_plan() -> impl Strategy<Value = DocPlan> {
    (1usize..8).prop_flat_map(|n| {
        (
            proptest::collection::vec(step_plan(n), n),
            1u64..4,
            proptest::option::weighted(0.3, (0..n, 0..n, 0..n, 0..3usize)),
            proptest::collection::vec(
                (
                    0..CONDITIONS.len(),
                    0..3usize,
                    proptest::option::of(0..ON_FAIL.len()),
                ),
                0..3,
            ),
            proptest::option::weighted(0.2, 0..3usize),
            proptest::option::weighted(0.3, 0..3usize),
            0..5usize,
            proptest::collection::vec((0..3usize, 0..3usize), 0..3),
            (
                proptest::option::weighted(0.5, (0..4usize, 0..7usize)),
                proptest::bool::weighted(0.3),
            ),
        )
            .prop_map(
                |(
                    steps,
                    max_iterations,
                    tree,
                    gates,
                    invariant,
                    self_verification,
                    strategy,
                    escalation,
                    (degradation, contract),
                )| DocPlan {
                    steps,
                    max_iterations,
                    tree,
                    gates,
                    invariant,
                    self_verification,
                    strategy,
                    escalation,
                    degradation,
                    contract,
                },
            )
    })
}

fn name(i: usize) -> String {
    format!("s{i}")
}

fn step_json(i: usize, plan: &StepPlan) -> Value {
    let mut step = Map::new();
    step.insert("description".into(), json!(format!("Step {i}")));
    // Needs and parallel members only point back, so `needs` stay acyclic.
    let needs: BTreeSet<usize> = plan.needs.iter().copied().filter(|&j| j < i).collect();
    if !needs.is_empty() {
        step.insert(
            "needs".into(),
            json!(needs.iter().map(|&j| name(j)).collect::<Vec<_>>()),
        );
    }
    if plan.schema {
        step.insert(
            "output_schema".into(),
            json!({"type": "object", "required": ["n"], "properties": {
                "n": {"type": "number"}, "ok": {"type": "boolean"}, "kind": {"type": "string"},
                "confidence": {"type": "number", "minimum": 0, "maximum": 1}
            }}),
        );
    }
    let branches: Vec<Value> = plan
        .branches
        .iter()
        .map(|(condition, target)| match condition {
            Some(c) => json!({"if": CONDITIONS[*c], "then": name(*target)}),
            None => json!({"default": true, "then": name(*target)}),
        })
        .collect();
    if !branches.is_empty() {
        step.insert("branches".into(), Value::Array(branches));
    }
    if let Some((check, on_fail)) = plan.verification {
        step.insert(
            "verification".into(),
            json!({"check": CONDITIONS[check], "on_fail": ON_FAIL[on_fail], "on_fail_message": format!("step {i} check failed")}),
        );
    }
    if let Some(max_attempts) = plan.max_attempts {
        step.insert(
            "retry".into(),
            json!({"max_attempts": max_attempts, "initial_interval": "10ms", "maximum_interval": "1s"}),
        );
    }
    if let Some((minimum, escalate_below)) = plan.confidence {
        step.insert(
            "confidence".into(),
            json!({"minimum": (minimum * 100.0).round() / 100.0, "escalate_below": (escalate_below * 100.0).round() / 100.0}),
        );
    }
    if let Some((members, join, instructions)) = &plan.parallel {
        let members: BTreeSet<usize> = members.iter().copied().filter(|&j| j < i).collect();
        if !members.is_empty() {
            step.insert("execution".into(), json!("parallel"));
            step.insert(
                "parallel_steps".into(),
                json!(members.iter().map(|&j| name(j)).collect::<Vec<_>>()),
            );
            step.insert("join".into(), json!((["all", "any", "majority"][*join])));
            if *instructions {
                step.insert(
                    "instructions".into(),
                    json!("Merge what the members found."),
                );
            }
        }
    }
    Value::Object(step)
}

fn document(plan: &DocPlan) -> Value {
    let n = plan.steps.len();
    let steps: Map<String, Value> = plan
        .steps
        .iter()
        .enumerate()
        .map(|(i, s)| (name(i), step_json(i, s)))
        .collect();
    let mut doc = json!({
        "spec_version": "1.0",
        "name": "generated",
        "reasoning": {"strategy": "cot", "max_iterations": plan.max_iterations},
        "steps": steps,
    });
    if let Some((read, a, b, terminal)) = plan.tree.filter(|(read, ..)| read + 1 < n) {
        // The tree reads one step and routes to steps declared after it.
        let after = |j: usize| name(read + 1 + j % (n - read - 1));
        let terminal = ["abort", "escalate", "request_clarification"][terminal];
        doc["decision_trees"] = json!({"route": {
            "root": "kind",
            "nodes": {"kind": {
                "condition": format!("{{{{ steps.{}.output.kind }}}}", name(read)),
                "branches": [
                    {"value": "a", "next": after(a)},
                    {"value": "b", "next": after(b)},
                    {"default": true, "next": "other"}
                ]
            }},
            "terminals": {"other": {"action": terminal}}
        }});
    }
    let mut gates = Map::new();
    let pre: Vec<Value> = plan
        .gates
        .iter()
        .enumerate()
        .map(|(g, (check, severity, on_fail))| {
            let mut gate = json!({"name": format!("g{g}"), "check": CONDITIONS[*check], "severity": (["error", "warning", "info"][*severity])});
            if let Some(on_fail) = on_fail {
                gate["on_fail"] = json!(ON_FAIL[*on_fail]);
            }
            gate
        })
        .collect();
    if !pre.is_empty() {
        gates.insert("pre_output".into(), Value::Array(pre));
    }
    if let Some(breach) = plan.invariant {
        gates.insert(
            "invariants".into(),
            json!([{"name": "rounds", "check": "{{ reasoning.current_iteration < 1 }}", "on_breach": (["force_output", "abort", "warn"][breach])}]),
        );
    }
    if let Some(strategy) = plan.self_verification {
        gates.insert(
            "self_verification".into(),
            match strategy {
                0 => json!({"enabled": true, "strategy": "reflection"}),
                1 => json!({"enabled": true, "strategy": "checklist", "checklist": ["one", "two"]}),
                _ => json!({"enabled": true, "strategy": "rubric", "rubric": {"criteria": [{"name": "accuracy", "weight": 1.0}], "minimum_score": 0.6}}),
            },
        );
    }
    if !gates.is_empty() {
        doc["quality_gates"] = Value::Object(gates);
    }
    let mut fallback = Map::new();
    if let Some(strategy) =
        ["graceful_degrade", "escalate", "abort", "retry_different"].get(plan.strategy)
    {
        fallback.insert("strategy".into(), json!(strategy));
    }
    let levels: Vec<Value> = plan
        .escalation
        .iter()
        .enumerate()
        .map(|(l, (trigger, action))| {
            json!({
                "level": l + 1,
                "trigger": (["{{ confidence < 0.5 }}", "{{ attempts >= 2 }}", "{{ true }}"][*trigger]),
                "action": (["retry_with_different_strategy", "request_human_review", "abort"][*action]),
                "new_strategy": "tot",
            })
        })
        .collect();
    if !levels.is_empty() {
        fallback.insert("escalation".into(), Value::Array(levels));
    }
    if let Some((when, to)) = plan.degradation {
        fallback.insert(
            "degradation".into(),
            json!([{
                "when": (["tools_unavailable", "timeout_exceeded", "output_rejected", "any"][when]),
                // `partial_output` the most often: what it may publish is the trust invariant's.
                "fallback_to": (["reasoning_only", "partial_output", "skip", "abort", "human_review", "partial_output", "partial_output"][to]),
            }]),
        );
    }
    if plan.contract {
        doc["contracts"] = json!({
            "outputs": [{"name": "n", "type": "number", "required": true, "constraints": {"maximum": CONTRACT_MAX}}],
            "validation": {"mode": "strict"},
        });
    }
    if !fallback.is_empty() {
        doc["fallback"] = Value::Object(fallback);
    }
    doc
}

/// Answers from a list of choices, used in turn: valid answers, the synthetic provider's,
/// invalid and empty ones, errors of every class; reviews get random decisions.
struct Chaos {
    choices: Vec<u8>,
    next: usize,
    synthetic: Synthetic,
    review_retries: usize,
}

impl Chaos {
    fn pick(&mut self) -> u8 {
        let choice = self.choices[self.next % self.choices.len()];
        self.next += 1;
        choice
    }
}

impl Provider for Chaos {
    fn answer(&mut self, action: &Action, on_token: &mut dyn FnMut(&str)) -> Answer {
        let choice = self.pick();
        let error = |kind: &str, retryable: bool| {
            Answer::Observed(Observation::ModelError(ModelFailure {
                kind: kind.to_owned(),
                message: format!("{kind} (generated)"),
                retryable,
                retry_after_ms: None,
            }))
        };
        match &action.kind {
            ActionKind::CallModel { .. } => match choice % 16 {
                0..=6 => {
                    let n = choice / 16;
                    let answer = json!({
                        "n": n,
                        "ok": n % 2 == 0,
                        "kind": (["a", "b", "c"][usize::from(n % 3)]),
                        "confidence": f64::from(n % 10) / 10.0,
                        "scores": {"accuracy": f64::from(n % 10) / 10.0},
                        "items": [{"item": "one", "passed": n % 2 == 0}, {"item": "two", "passed": true}],
                    });
                    Answer::Observed(Observation::text(answer.to_string()))
                }
                7..=9 => self.synthetic.answer(action, on_token),
                10 => Answer::Observed(Observation::text("not json at all")),
                11 => Answer::Observed(Observation::text("")),
                12 => error("ServerError", true),
                13 => error("AuthenticationError", false),
                14 => error("ToolUnavailable", false),
                _ => error("Timeout", true),
            },
            ActionKind::AskReview { actions, .. } => {
                let retries_left = self.review_retries < MAX_REVIEW_RETRIES;
                let decision = match choice % 4 {
                    1 if retries_left => "retry",
                    0 => "accept",
                    2 => "skip",
                    _ => "abort",
                };
                // A decision tree's question offers its steps and `abort`; a review without the
                // chosen decision gets one it offers, and `retry` only while retries are left (a
                // reviewer who always retries keeps a run going for ever, as it should).
                let mut offered: Vec<&String> = actions
                    .iter()
                    .filter(|a| retries_left || a.as_str() != "retry")
                    .collect();
                if offered.is_empty() {
                    offered = actions.iter().collect();
                }
                let decision = if offered.iter().any(|a| a.as_str() == decision) {
                    decision.to_owned()
                } else {
                    offered[usize::from(choice) % offered.len()].clone()
                };
                if decision == "retry" {
                    self.review_retries += 1;
                }
                Answer::Observed(Observation::ReviewAnswer {
                    action: decision,
                    note: None,
                })
            }
            ActionKind::Wait { .. } => Answer::Observed(Observation::Waited),
            _ => Answer::Unanswered("nothing to do".to_owned()),
        }
    }
}

/// Where a trace says a node is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Seen {
    Pending,
    Running,
    Settled,
}

/// The ordering rules a trace keeps, checked against the document's flow.
fn check_trace(source: &Source, driven: &Driven) -> Result<(), String> {
    let Source::Logic { spec, .. } = source else {
        return Err("not a LOGIC.md source".into());
    };
    let typed = Spec::read(spec);
    let flow = Flow::of_steps(&typed).map_err(|_| "a needs cycle".to_owned())?;
    let trace = &driven.trace;
    for (i, event) in trace.iter().enumerate() {
        if event["seq"].as_u64() != Some(i as u64) {
            return Err(format!("seq {} at position {i}", event["seq"]));
        }
    }
    // Trace node ids of units: steps by name, trees as `tree:NAME`.
    let node_of = |unit: usize| match flow.units[unit].kind {
        UnitKind::Tree => format!("tree:{}", flow.units[unit].name),
        _ => flow.units[unit].name.clone(),
    };
    let unit_of: BTreeMap<String, usize> = (0..flow.units.len()).map(|u| (node_of(u), u)).collect();
    let mut seen = vec![Seen::Pending; flow.units.len()];
    let max_attempts = |unit: usize| -> usize {
        typed
            .step(&flow.units[unit].name)
            .and_then(|s| s.retry.as_ref())
            .and_then(|r| r.max_attempts)
            .unwrap_or(3) as usize
    };
    let mut retried_in_series = vec![0usize; flow.units.len()];
    for event in trace {
        let Some(unit) = event["node"].as_str().and_then(|n| unit_of.get(n)).copied() else {
            continue;
        };
        match event["event"].as_str().unwrap_or_default() {
            "node_started" => {
                if seen[unit] == Seen::Running {
                    return Err(format!("{} started twice: {event}", node_of(unit)));
                }
                let join_all = typed
                    .step(&flow.units[unit].name)
                    .is_none_or(|s| s.join.as_deref().unwrap_or("all") == "all");
                let mut chooser_settled = None;
                for edge in flow.edges.iter().filter(|e| e.to == unit) {
                    let settled = seen[edge.from] == Seen::Settled;
                    match edge.kind {
                        EdgeKind::Branch | EdgeKind::Tree => {
                            chooser_settled = Some(chooser_settled.unwrap_or(false) || settled)
                        }
                        EdgeKind::Parallel if !join_all => {}
                        _ if !settled => {
                            return Err(format!(
                                "{} started before {} settled",
                                node_of(unit),
                                node_of(edge.from)
                            ))
                        }
                        _ => {}
                    }
                }
                let looped = flow.loops.iter().any(|e| e.to == unit);
                if chooser_settled == Some(false) && !looped {
                    return Err(format!(
                        "{} started before anything chose it",
                        node_of(unit)
                    ));
                }
                seen[unit] = Seen::Running;
                retried_in_series[unit] = 0;
            }
            "node_finished" | "node_skipped" => {
                seen[unit] = Seen::Settled;
                if let Some(route) = event.get("route").filter(|r| r["loop"] == true) {
                    let target = route["to"].as_str().and_then(|t| unit_of.get(t)).copied();
                    let Some(target) = target else {
                        return Err(format!("a loop to an unknown step: {event}"));
                    };
                    // The loop's target and everything after it run again.
                    let mut stack = vec![target];
                    let mut reset = BTreeSet::new();
                    while let Some(u) = stack.pop() {
                        if reset.insert(u) {
                            stack.extend(flow.edges.iter().filter(|e| e.from == u).map(|e| e.to));
                        }
                    }
                    for u in reset {
                        seen[u] = Seen::Pending;
                    }
                }
            }
            "gate_evaluated" if event["gate"] == "decision_tree" => seen[unit] = Seen::Settled,
            "gate_evaluated"
                if (event["gate"] == "escalation"
                    && event["detail"]["action"] == "retry_with_different_strategy")
                    || (event["gate"] == "degradation"
                        && event["detail"]["fallback_to"] == "reasoning_only")
                    || event["gate"] == "fallback" =>
            {
                retried_in_series[unit] = 0
            }
            "review_answered" if event["action"] == "retry" => retried_in_series[unit] = 0,
            "retried" => {
                retried_in_series[unit] += 1;
                if retried_in_series[unit] >= max_attempts(unit) {
                    return Err(format!(
                        "{} retried {} times in one series with max_attempts {}",
                        node_of(unit),
                        retried_in_series[unit],
                        max_attempts(unit)
                    ));
                }
            }
            _ => {}
        }
    }
    let last = trace.last().cloned().unwrap_or_default();
    match &driven.end {
        End::Completed(_) => {
            if last["event"] != "run_finished" || last["status"] != "completed" {
                return Err(format!("completed, but the trace ends with {last}"));
            }
            if let Some(u) = seen.iter().position(|s| *s == Seen::Running) {
                return Err(format!("completed with {} still running", node_of(u)));
            }
        }
        End::Failed(_) => {
            if last["event"] != "run_finished" || last["status"] != "failed" {
                return Err(format!("failed, but the trace ends with {last}"));
            }
        }
        other => return Err(format!("the run ended as {other:?}")),
    }
    Ok(())
}

/// JavaScript truthiness, as the expression language reads a check's value.
fn truthy(value: &Value) -> bool {
    match value {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64().is_some_and(|n| n != 0.0 && !n.is_nan()),
        Value::String(text) => !text.is_empty(),
        _ => true,
    }
}

/// Whether `check` holds on `output` (a check that cannot be evaluated fails, as in the engine).
fn holds(check: &str, output: &Value) -> bool {
    logicmd::expr::Template::parse(check)
        .and_then(|t| {
            t.evaluate(&json!({"output": output, "confidence": output.get("confidence")}))
        })
        .is_ok_and(|v| truthy(&v))
}

/// The trust invariant (issue #29): any output that leaves a step satisfies its checks — its
/// confidence floor, its verification, and for a final step the error gates — unless a person
/// decided on it (a review answered for that step run); a completed run gives back only what
/// its final steps produced. The checks the generator writes read only `output`, so they are
/// judged here on their own, apart from the engine.
fn check_outputs(doc: &Value, driven: &Driven) -> Result<(), String> {
    let typed = Spec::read(doc);
    let finals = {
        let flow = Flow::of_steps(&typed).map_err(|_| "a needs cycle".to_owned())?;
        flow.finals(UnitKind::Step)
            .into_iter()
            .map(|u| flow.units[u].name.clone())
            .collect::<BTreeSet<_>>()
    };
    let gates: Vec<String> = doc
        .pointer("/quality_gates/pre_output")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter(|g| g["severity"] == "error")
        .filter_map(|g| g["check"].as_str().map(str::to_owned))
        .collect();
    let mut reviewed: BTreeSet<String> = BTreeSet::new();
    let mut left: BTreeMap<String, Value> = BTreeMap::new();
    for event in &driven.trace {
        let node = event["node"].as_str().unwrap_or_default().to_owned();
        match event["event"].as_str().unwrap_or_default() {
            "node_started" => {
                reviewed.remove(&node);
            }
            "review_answered" => {
                reviewed.insert(node);
            }
            "node_finished" if event["status"] == "succeeded" => {
                let Some(step) = typed.step(&node) else {
                    continue;
                };
                let output = &event["output"];
                left.insert(node.clone(), output.clone());
                if reviewed.contains(&node) || (step.is_parallel() && step.instructions.is_none()) {
                    continue;
                }
                let mut owed: Vec<String> =
                    step.verification.iter().map(|v| v.check.clone()).collect();
                if let Some(minimum) = step.confidence.minimum {
                    owed.push(format!("{{{{ !(output.confidence < {minimum}) }}}}"));
                }
                if let Some(floor) = step.confidence.escalate_below {
                    owed.push(format!("{{{{ !(output.confidence < {floor}) }}}}"));
                }
                if finals.contains(&node) {
                    owed.extend(gates.iter().cloned());
                }
                if let Some(failed) = owed.iter().find(|c| !holds(c, output)) {
                    return Err(format!(
                        "`{node}` left with {output}, which fails `{failed}`"
                    ));
                }
            }
            _ => {}
        }
    }
    if let End::Completed(output) = &driven.end {
        let produced = finals.iter().any(|f| left.contains_key(f));
        // An invariant's `force_output` gives what the run has: an output that left a step.
        let forced = driven.trace.iter().any(|e| {
            e["event"] == "gate_evaluated"
                && e["kind"] == "invariant"
                && e["on_breach"] == "force_output"
        }) && left.values().any(|v| v == output);
        if !produced && !forced {
            return Err(format!(
                "completed with {output} though no final step produced output"
            ));
        }
        // A strict output contract holds what the run gives back, whoever decided on it.
        if doc.get("contracts").is_some() {
            let given: Vec<&Value> = match output {
                Value::Object(by_step) if finals.len() > 1 => by_step.values().collect(),
                one => vec![one],
            };
            let meets = |v: &Value| v["n"].as_f64().is_some_and(|n| n <= CONTRACT_MAX);
            if let Some(broken) = given.into_iter().find(|v| !meets(v)) {
                return Err(format!(
                    "completed with {broken}, which breaks the output contract"
                ));
            }
        }
    }
    Ok(())
}

fn text_of(doc: &Value) -> String {
    format!(
        "---\n{}\n---\n",
        serde_json::to_string_pretty(doc).unwrap_or_default()
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn random_documents_run_to_an_end_and_keep_the_ordering_rules(
        plan in doc_plan(),
        choices in proptest::collection::vec(any::<u8>(), 1..64),
        seed in any::<u64>(),
    ) {
        let doc = document(&plan);
        let source = match source_with(&text_of(&doc), "generated.logic.md", &[]) {
            Ok(source) => source,
            Err(problems) => return Err(TestCaseError::fail(format!("{problems}\n{doc:#}"))),
        };
        let chaos = || Chaos {
            choices: choices.clone(),
            next: 0,
            synthetic: Synthetic::new(&source, seed),
            review_retries: 0,
        };
        let driven = run(source.clone(), json!({"q": "x"}), &mut chaos(), MAX_ROUNDS);
        prop_assert!(
            matches!(driven.end, End::Completed(_) | End::Failed(_)),
            "{:?} after {} rounds\n{doc:#}", driven.end, driven.rounds
        );
        if let Err(problem) = check_trace(&source, &driven) {
            return Err(TestCaseError::fail(format!("{problem}\n{doc:#}\n{:#?}", driven.story())));
        }
        if let Err(problem) = check_outputs(&doc, &driven) {
            return Err(TestCaseError::fail(format!("{problem}\n{doc:#}\n{:#?}", driven.story())));
        }
        for event in &driven.trace {
            let record = Record::from_value(event);
            prop_assert!(record.is_ok(), "not a typed event: {event}");
            let written = record.map(Record::into_value).unwrap_or_default().to_string();
            prop_assert_eq!(written, event.to_string(), "read and written back");
        }
        let again = run(source.clone(), json!({"q": "x"}), &mut chaos(), MAX_ROUNDS);
        prop_assert_eq!(&again.trace, &driven.trace, "the same run gave another trace");
    }
}
