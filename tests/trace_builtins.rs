//! The built-in trace obligations on real engine traces: every scenario run (retries and
//! backoff, revise, escalation to a review, a strategy change, abort, skip, a branch loop at
//! its bound, a decision tree, a parallel join, workflow contracts under each
//! `on_contract_violation`, a review paused, snapshotted and resumed) satisfies every
//! built-in, and hand-broken copies of those traces (a node started before its need, a review
//! answer removed, a retry beyond the bound, events after the end, the end cut off, a passing
//! check turned into a failure) fail, naming the rule and the event.
//!
//! A scenario is a row of `SCENARIOS` in `trace/common.rs`: a document under
//! `tests/trace/scenarios/` and a script (or the synthetic provider). DRTL topologies are added
//! the same way once the engine runs them.

#[path = "trace/common.rs"]
mod common;

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

use common::{drive, run_scenario, scenarios_dir, start, Answers, Scenario, SCENARIOS};
use logicmd::run::{Action, ActionKind, Observation, Run, Scripted};
use logicmd::trace::{check, Builtin, Record, Rule, Violation};
use serde_json::{json, Value};

fn shown(violations: &[Violation]) -> Vec<String> {
    violations
        .iter()
        .map(|v| format!("{}@{}: {}", v.rule, v.index, v.message))
        .collect()
}

fn builtins(trace: &[Value]) -> Vec<String> {
    shown(&check(trace, &Rule::builtins()))
}

#[test]
fn every_builtin_holds_on_every_scenario_trace() {
    for scenario in SCENARIOS {
        let trace = run_scenario(scenario);
        assert_eq!(builtins(&trace), Vec::<String>::new(), "{}", scenario.name);
    }
}

// ---- Hand-broken copies ----

fn plan_entry<'t>(trace: &'t [Value], id: &str) -> Option<&'t Value> {
    trace[0]["plan"]["nodes"]
        .as_array()?
        .iter()
        .find(|n| n["id"] == id)
}

fn is(event: &Value, name: &str, node: &str) -> bool {
    event["event"] == name && event["node"] == node
}

/// The first node that starts after a need: its start moves to just before that need's
/// finish.
fn start_before_need(trace: &[Value]) -> Option<Vec<Value>> {
    for (at, event) in trace.iter().enumerate() {
        let Some(node) = event["node"]
            .as_str()
            .filter(|_| event["event"] == "node_started")
        else {
            continue;
        };
        let Some(need) = plan_entry(trace, node)?["after"]
            .as_array()?
            .first()
            .and_then(Value::as_str)
        else {
            continue;
        };
        let finish = trace[..at]
            .iter()
            .rposition(|e| is(e, "node_finished", need))?;
        let mut broken = trace.to_vec();
        let moved = broken.remove(at);
        broken.insert(finish, moved);
        return Some(broken);
    }
    None
}

fn review_answer_removed(trace: &[Value]) -> Option<Vec<Value>> {
    let at = trace.iter().position(|e| e["event"] == "review_answered")?;
    let mut broken = trace.to_vec();
    broken.remove(at);
    Some(broken)
}

/// Retries of the first node retried (else of the first step started) repeated until one more
/// than its bound allows.
fn retry_beyond_bound(trace: &[Value]) -> Option<Vec<Value>> {
    let (at, node) = trace
        .iter()
        .enumerate()
        .find(|(_, e)| e["event"] == "retried")
        .or_else(|| {
            trace
                .iter()
                .enumerate()
                .find(|(_, e)| e["event"] == "node_started")
        })
        .map(|(at, e)| (at, e["node"].as_str().unwrap_or("").to_owned()))?;
    let max = plan_entry(trace, &node)?["max_attempts"].as_u64()?;
    let retried = json!({"seq": trace[at]["seq"], "event": "retried", "t": trace[at]["t"], "node": node, "attempt": 2, "wait_ms": 0, "reason": "broken"});
    let already = trace.iter().filter(|e| is(e, "retried", &node)).count() as u64;
    let mut broken = trace.to_vec();
    for _ in already..max {
        broken.insert(at + 1, retried.clone());
    }
    Some(broken)
}

fn events_after_end(trace: &[Value]) -> Option<Vec<Value>> {
    let end = trace.iter().position(|e| e["event"] == "run_finished")?;
    let mut broken = trace.to_vec();
    let moved = broken.remove(end);
    broken.insert(end - 1, moved);
    Some(broken)
}

fn end_cut_off(trace: &[Value]) -> Option<Vec<Value>> {
    let end = trace.iter().position(|e| e["event"] == "run_finished")?;
    Some(trace[..end].to_vec())
}

/// The last passing blocking check (a verification, a contract) fails instead.
fn check_failed(trace: &[Value]) -> Option<Vec<Value>> {
    let at = trace.iter().rposition(|e| {
        e["event"] == "gate_evaluated"
            && e["passed"] == true
            && matches!(e["gate"].as_str(), Some("verification" | "contract"))
    })?;
    let mut broken = trace.to_vec();
    broken[at]["passed"] = false.into();
    Some(broken)
}

type Mutation = fn(&[Value]) -> Option<Vec<Value>>;

/// Each way of breaking a trace, and the rule that must then fail.
const MUTATIONS: [(&str, Mutation, Builtin); 6] = [
    (
        "start-before-need",
        start_before_need,
        Builtin::NeedsBeforeStart,
    ),
    (
        "review-answer-removed",
        review_answer_removed,
        Builtin::ReviewsAnswered,
    ),
    (
        "retry-beyond-bound",
        retry_beyond_bound,
        Builtin::RetriesBounded,
    ),
    ("events-after-end", events_after_end, Builtin::Terminates),
    ("end-cut-off", end_cut_off, Builtin::Terminates),
    ("check-failed", check_failed, Builtin::VerifiedOutput),
];

#[test]
fn hand_broken_copies_fail_naming_the_rule_and_the_event() {
    let mut all = BTreeMap::new();
    for scenario in SCENARIOS {
        let trace = run_scenario(scenario);
        let mut found = BTreeMap::new();
        for (name, mutation, rule) in MUTATIONS {
            let Some(broken) = mutation(&trace) else {
                continue;
            };
            let violations = check(&broken, &Rule::builtins());
            // A failed check holds back what follows it, or the output when it is the last.
            let expected = match rule {
                Builtin::VerifiedOutput if scenario.ending != "completed" => None,
                _ => Some(rule.name()),
            };
            if let Some(expected) = expected {
                assert!(
                    violations.iter().any(|v| v.rule == expected
                        || (name == "check-failed" && v.rule == "needs-before-start")),
                    "{}/{name}: expected `{expected}` to fail, got {:#?}",
                    scenario.name,
                    shown(&violations)
                );
            }
            found.insert(name, shown(&violations));
        }
        all.insert(scenario.name, found);
    }
    insta::assert_json_snapshot!("hand_broken", all);
}

/// Both answers fail the verification, so `partial_output` has nothing it may publish: the step
/// is skipped (issue #29), what needs it runs without it, and the audit finds nothing unverified
/// (it used to flag the degraded output that carried the failed check).
#[test]
fn a_degradation_never_passes_on_a_failed_check_and_the_audit_agrees() {
    let scenario = Scenario {
        name: "degrade",
        document: "degrade.logic.md",
        answers: Answers::Script("degrade.script.yaml"),
        ending: "completed",
    };
    let trace = run_scenario(&scenario);
    assert_eq!(builtins(&trace), Vec::<String>::new());
    let draft_finished = trace
        .iter()
        .any(|e| e["event"] == "node_finished" && e["node"] == "draft");
    assert!(!draft_finished, "the failed draft never leaves its step");
}

#[test]
fn a_paused_run_resumed_from_its_snapshot_satisfies_every_rule() {
    let paused = SCENARIOS
        .iter()
        .find(|s| s.name == "escalate-paused")
        .unwrap();
    let (mut run, mut provider) = start(paused);
    let (first, ending) = drive(&mut run, provider.as_mut());
    assert_eq!(ending, "paused");
    assert_eq!(builtins(&first), Vec::<String>::new());

    let mut resumed = Run::resume(&run.snapshot()).unwrap();
    let review = resumed
        .outstanding()
        .into_iter()
        .find(|a: &Action| matches!(a.kind, ActionKind::AskReview { .. }))
        .unwrap();
    let written = first.len();
    resumed
        .feed(
            &review.id,
            Observation::ReviewAnswer {
                action: "accept".into(),
                note: None,
            },
        )
        .unwrap();
    let mut script =
        Scripted::parse(&fs::read_to_string(scenarios_dir().join("escalate.script.yaml")).unwrap())
            .unwrap();
    let (replayed, ending) = drive(&mut resumed, &mut script);
    assert_eq!(ending, "completed");
    // The resumed run gives the events written before again: the driver skips them.
    assert_eq!(replayed[..written], first[..]);
    assert_eq!(builtins(&replayed), Vec::<String>::new());
}

#[test]
fn user_formulas_on_a_real_trace() {
    let trace = run_scenario(&SCENARIOS[1]);
    let rules: Vec<Rule> = [
        "fetch-first = G(node_started(node=summarize) -> P node_finished(node=fetch, status=succeeded))",
        "waits-grow = G(retried(node=fetch, wait_ms>0) -> X G !retried(node=fetch, wait_ms<1000))",
        "no-retry = G !retried",
        "ends = F run_finished(status=completed)",
        "answered = G(model_requested -> F model_responded)",
    ]
    .iter()
    .map(|text| Rule::parse(text).unwrap())
    .collect();
    insta::assert_json_snapshot!("user_formulas", shown(&check(&trace, &rules)));
}

/// Every trace the runtime's scenario tests keep as insta snapshots (`tests/run/*/snapshots`),
/// with the snapshot's name; `whole` keeps only traces from the run's start (a snapshot may also
/// hold the part after a resume).
fn scenario_traces(whole: bool) -> Vec<(String, Vec<Value>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut traces = Vec::new();
    for dir in ["run/logic/snapshots", "run/drtl/snapshots"] {
        let mut paths: Vec<_> = fs::read_dir(root.join(dir))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "snap"))
            .collect();
        paths.sort();
        for path in paths {
            let name = format!("{dir}/{}", path.file_name().unwrap().to_string_lossy());
            let text = fs::read_to_string(&path).unwrap();
            // An insta snapshot: a `---` header, then the value.
            let body = text.splitn(3, "---\n").nth(2).unwrap_or("");
            let Ok(value) = serde_json::from_str::<Value>(body) else {
                continue;
            };
            for trace in traces_in(&value)
                .into_iter()
                .filter(|t| !whole || t[0]["event"] == "run_started")
            {
                traces.push((name.clone(), trace));
            }
        }
    }
    traces
}

/// Every trace found in the scenario snapshots satisfies every built-in.
#[test]
fn the_runtime_scenario_traces_satisfy_every_builtin() {
    // Scenarios whose runs the built-ins rightly fault: none (a degraded output that carried a
    // failed check used to leave `timeout.snap`'s run unverified; issue #29).
    const EXPECTED: &[(&str, &str)] = &[];
    let mut checked = 0;
    let mut found: Vec<(String, String)> = Vec::new();
    for (name, trace) in scenario_traces(true) {
        checked += 1;
        for violation in builtins(&trace) {
            let rule = violation.split('@').next().unwrap_or_default().to_owned();
            found.push((name.clone(), format!("{rule}: {violation}")));
        }
    }
    let rules: Vec<(String, String)> = found
        .iter()
        .map(|(name, v)| {
            (
                name.clone(),
                v.split(':').next().unwrap_or_default().to_owned(),
            )
        })
        .collect();
    let expected: Vec<(String, String)> = EXPECTED
        .iter()
        .map(|(n, r)| (n.to_string(), r.to_string()))
        .collect();
    assert_eq!(rules, expected, "{found:#?}");
    assert!(checked >= 40, "only {checked} scenario traces found");
}

/// Every event the runtime wrote in its scenario traces reads as a typed [`Record`] and writes
/// back as the same text (key order included): the typed events cover every shape emitted.
#[test]
fn every_scenario_event_reads_as_a_typed_record_and_writes_back_unchanged() {
    let mut events = 0;
    for (name, trace) in scenario_traces(false) {
        for event in trace {
            let record =
                Record::from_value(&event).unwrap_or_else(|e| panic!("{name}: {e}: {event}"));
            assert_eq!(record.into_value().to_string(), event.to_string(), "{name}");
            events += 1;
        }
    }
    assert!(events >= 800, "only {events} events found");
}

/// Arrays of trace events (objects with `event` and `seq`) anywhere in `value`.
fn traces_in(value: &Value) -> Vec<Vec<Value>> {
    let mut found = Vec::new();
    let mut stack = vec![value];
    while let Some(value) = stack.pop() {
        match value {
            Value::Array(items)
                if !items.is_empty()
                    && items
                        .iter()
                        .all(|e| e.get("event").is_some() && e.get("seq").is_some()) =>
            {
                found.push(items.clone());
            }
            Value::Array(items) => stack.extend(items),
            Value::Object(map) => stack.extend(map.values()),
            _ => {}
        }
    }
    found
}
