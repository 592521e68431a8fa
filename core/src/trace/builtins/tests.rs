//! The built-ins on small traces written to exercise one rule each, including the DRTL shapes
//! (verify obligations, gates, review nodes) the DRTL program will emit. Real engine traces
//! are checked in `tests/trace_builtins.rs`.

use serde_json::{json, Value};

use super::*;
use crate::trace::check::{check, Rule};

/// A plan entry: id, kind, after, chosen_by, and extra fields.
type Entry<'a> = (&'a str, &'a str, &'a [&'a str], &'a [&'a str], Value);

/// `run_started` with a plan.
fn started(nodes: &[Entry]) -> Value {
    let nodes: Vec<Value> = nodes
        .iter()
        .map(|(id, kind, after, chosen_by, extra)| {
            let mut entry = json!({"id": id, "kind": kind, "after": after, "chosen_by": chosen_by});
            if let (Value::Object(entry), Value::Object(extra)) = (&mut entry, extra) {
                entry.extend(extra.clone());
            }
            entry
        })
        .collect();
    json!({"event": "run_started", "plan": {"nodes": nodes}})
}

/// An event: `"node_started a"`, or `"run_finished"`, with fields.
fn ev(what: &str, fields: Value) -> Value {
    let mut parts = what.split(' ');
    let mut event = json!({"event": parts.next().unwrap()});
    if let Some(node) = parts.next() {
        event["node"] = node.into();
    }
    if let Value::Object(fields) = fields {
        event.as_object_mut().unwrap().extend(fields);
    }
    event
}

fn e(what: &str) -> Value {
    ev(what, json!({}))
}

fn finished(node: &str) -> Value {
    ev(
        &format!("node_finished {node}"),
        json!({"status": "succeeded"}),
    )
}

fn done() -> Value {
    ev("run_finished", json!({"status": "completed"}))
}

/// Every built-in's violations as `rule@index: message`.
fn violations(events: &[Value]) -> Vec<String> {
    check(events, &Rule::builtins())
        .into_iter()
        .map(|v| format!("{}@{}: {}", v.rule, v.index, v.message))
        .collect()
}

fn chain() -> Value {
    started(&[
        ("a", "step", &[], &[], json!({"max_attempts": 3})),
        ("b", "step", &["a"], &[], json!({"max_attempts": 3})),
    ])
}

#[test]
fn a_run_in_order_satisfies_every_rule() {
    let events = [
        chain(),
        e("node_started a"),
        finished("a"),
        e("node_started b"),
        finished("b"),
        done(),
    ];
    assert_eq!(violations(&events), Vec::<String>::new());
}

#[test]
fn a_node_started_before_its_need_finished() {
    let events = [
        chain(),
        e("node_started a"),
        e("node_started b"),
        finished("a"),
        finished("b"),
        done(),
    ];
    assert_eq!(
        violations(&events),
        ["needs-before-start@2: `b` started at event 2 before `a` finished (it is still running)"]
    );
    let failed = [
        chain(),
        e("node_started a"),
        ev("node_finished a", json!({"status": "failed"})),
        e("node_started b"),
        finished("b"),
        ev("run_finished", json!({"status": "failed"})),
    ];
    assert_eq!(
        violations(&failed),
        ["needs-before-start@3: `b` started at event 3 before `a` finished (it failed)"]
    );
}

#[test]
fn a_skipped_need_counts_as_settled() {
    let events = [
        chain(),
        e("node_started a"),
        ev(
            "gate_evaluated a",
            json!({"gate": "verification", "passed": false}),
        ),
        ev("node_skipped a", json!({"reason": "skip"})),
        e("node_started b"),
        finished("b"),
        done(),
    ];
    assert_eq!(violations(&events), Vec::<String>::new());
}

#[test]
fn a_loop_makes_what_follows_its_target_wait_again() {
    let plan = started(&[
        ("a", "step", &[], &[], json!({})),
        ("b", "step", &["a"], &[], json!({})),
        ("c", "step", &["b"], &[], json!({})),
    ]);
    let looped = ev(
        "node_finished c",
        json!({"status": "succeeded", "route": {"to": "b", "loop": true}}),
    );
    let good = [
        plan.clone(),
        e("node_started a"),
        finished("a"),
        e("node_started b"),
        finished("b"),
        e("node_started c"),
        looped.clone(),
        e("node_started b"),
        finished("b"),
        e("node_started c"),
        finished("c"),
        done(),
    ];
    assert_eq!(violations(&good), Vec::<String>::new());
    // `c` runs again before the second `b` finished: its first finish is stale.
    let broken = [
        plan,
        e("node_started a"),
        finished("a"),
        e("node_started b"),
        finished("b"),
        e("node_started c"),
        looped,
        e("node_started b"),
        e("node_started c"),
        finished("b"),
        finished("c"),
        done(),
    ];
    assert_eq!(
        violations(&broken),
        ["needs-before-start@8: `c` started at event 8 before `b` finished (it is still running)"]
    );
}

#[test]
fn a_node_that_waits_for_a_choice_starts_only_when_chosen() {
    let plan = started(&[
        ("a", "step", &[], &[], json!({})),
        ("tree:route", "tree", &["a"], &[], json!({})),
        ("x", "step", &[], &["tree:route"], json!({})),
        ("y", "step", &[], &["tree:route"], json!({})),
    ]);
    let tree = ev(
        "gate_evaluated tree:route",
        json!({"gate": "decision_tree", "action": "x", "passed": true}),
    );
    let good = [
        plan.clone(),
        e("node_started a"),
        finished("a"),
        tree.clone(),
        e("node_started x"),
        finished("x"),
        ev(
            "node_skipped y",
            json!({"reason": "no branch or decision tree chose it"}),
        ),
        done(),
    ];
    assert_eq!(violations(&good), Vec::<String>::new());
    let broken = [
        plan.clone(),
        e("node_started a"),
        finished("a"),
        tree,
        e("node_started y"),
        finished("y"),
        ev("node_skipped x", json!({"reason": "?"})),
        done(),
    ];
    assert_eq!(
        violations(&broken),
        ["needs-before-start@4: `y` started at event 4 without being chosen: it runs only when `tree:route` chooses it"]
    );
    let tree_too_early = [
        plan,
        ev(
            "gate_evaluated tree:route",
            json!({"gate": "decision_tree", "action": "x", "passed": true}),
        ),
        e("node_started a"),
        finished("a"),
        e("node_started x"),
        finished("x"),
        ev("node_skipped y", json!({"reason": "?"})),
        done(),
    ];
    assert_eq!(
        violations(&tree_too_early),
        ["needs-before-start@1: `tree:route` started at event 1 before `a` finished (it has not run)"]
    );
}

#[test]
fn a_parallel_join_of_any_starts_after_one_member() {
    let plan = started(&[
        ("m1", "step", &[], &[], json!({})),
        ("m2", "step", &[], &[], json!({})),
        (
            "join",
            "step",
            &["m1", "m2"],
            &[],
            json!({"join": "any", "join_of": ["m1", "m2"]}),
        ),
    ]);
    let good = [
        plan.clone(),
        e("node_started m1"),
        e("node_started m2"),
        finished("m2"),
        e("node_started join"),
        finished("join"),
        finished("m1"),
        done(),
    ];
    assert_eq!(violations(&good), Vec::<String>::new());
    let broken = [
        plan,
        e("node_started m1"),
        e("node_started m2"),
        e("node_started join"),
        finished("m2"),
        finished("join"),
        finished("m1"),
        done(),
    ];
    assert_eq!(
        violations(&broken),
        ["needs-before-start@3: `join` joins any of `m1`, `m2` but started at event 3 when 0 of them had finished"]
    );
}

#[test]
fn a_part_starts_only_while_its_node_runs() {
    let plan = started(&[
        ("w", "node", &[], &[], json!({"max_attempts": 3})),
        ("w/s", "step", &[], &[], json!({})),
    ]);
    let broken = [
        plan,
        e("node_started w/s"),
        e("node_started w"),
        finished("w/s"),
        finished("w"),
        done(),
    ];
    assert_eq!(
        violations(&broken),
        ["needs-before-start@1: `w/s` started at event 1 while `w` was not running (it has not run)"]
    );
}

#[test]
fn a_failed_blocking_check_holds_back_what_follows_unless_it_passes_again() {
    let check = |passed: bool| {
        ev(
            "gate_evaluated a",
            json!({"gate": "verification", "check": "{{ output.ok }}", "passed": passed}),
        )
    };
    let retried = [
        chain(),
        e("node_started a"),
        e("output_validated a"),
        check(false),
        ev("retried a", json!({"attempt": 2, "wait_ms": 1000})),
        e("output_validated a"),
        check(true),
        finished("a"),
        e("node_started b"),
        finished("b"),
        done(),
    ];
    assert_eq!(violations(&retried), Vec::<String>::new());
    // A degraded output: the check failed and the node finished all the same.
    let degraded = [
        chain(),
        e("node_started a"),
        e("output_validated a"),
        check(false),
        ev(
            "gate_evaluated a",
            json!({"gate": "degradation", "passed": true}),
        ),
        finished("a"),
        e("node_started b"),
        finished("b"),
        done(),
    ];
    assert_eq!(
        violations(&degraded),
        [
            "needs-before-start@6: `b` started at event 6 although `a` did not pass its blocking check `verification` (failed at event 3)",
            "verified-output@8: the output left the run at event 8, but `a` did not pass its blocking check `verification` (failed at event 3) and no review decided after it"
        ]
    );
    // Warnings and invariants do not block.
    let warned = [
        chain(),
        e("node_started a"),
        ev(
            "gate_evaluated a",
            json!({"gate": "style", "kind": "pre_output", "severity": "warning", "passed": false}),
        ),
        ev(
            "gate_evaluated a",
            json!({"gate": "verification", "kind": "invariant", "passed": false}),
        ),
        finished("a"),
        e("node_started b"),
        finished("b"),
        done(),
    ];
    assert_eq!(violations(&warned), Vec::<String>::new());
}

#[test]
fn a_review_decides_for_a_failed_check() {
    let events = [
        chain(),
        e("node_started a"),
        e("output_validated a"),
        ev(
            "gate_evaluated a",
            json!({"gate": "confidence", "check": "minimum", "passed": false}),
        ),
        ev(
            "review_requested a",
            json!({"actions": ["accept", "retry", "abort"]}),
        ),
        ev("review_answered a", json!({"action": "accept"})),
        finished("a"),
        e("node_started b"),
        finished("b"),
        done(),
    ];
    assert_eq!(violations(&events), Vec::<String>::new());
}

/// generate → verify → gate → review → publish, as DRTL §9.2 writes it.
fn drtl_plan() -> Value {
    started(&[
        ("draft", "generate", &[], &[], json!({})),
        ("verify_claims", "verify", &["draft"], &[], json!({})),
        ("safety_gate", "gate", &["verify_claims"], &[], json!({})),
        ("escalation", "review", &[], &["safety_gate"], json!({})),
        (
            "publish",
            "generate",
            &[],
            &["safety_gate", "escalation"],
            json!({}),
        ),
    ])
}

fn obligation(status: &str, mode: &str) -> Value {
    ev(
        "obligation_updated verify_claims",
        json!({"rule": "std.check_existence", "target": "product_names", "mode": mode, "status": status, "verdict": {"passed": status != "failed"}}),
    )
}

#[test]
fn drtl_a_gate_may_read_a_failed_block_and_a_review_decides() {
    let routed = |node: &str, to: &str| {
        ev(
            &format!("node_finished {node}"),
            json!({"status": "succeeded", "route": {"to": to}}),
        )
    };
    let reviewed = [
        drtl_plan(),
        e("node_started draft"),
        finished("draft"),
        e("node_started verify_claims"),
        obligation("failed", "block"),
        finished("verify_claims"),
        e("node_started safety_gate"),
        ev(
            "gate_evaluated safety_gate",
            json!({"gate": "safety_gate", "passed": false}),
        ),
        routed("safety_gate", "escalation"),
        e("node_started escalation"),
        ev(
            "review_requested escalation",
            json!({"actions": ["override", "reject"]}),
        ),
        ev("review_answered escalation", json!({"action": "override"})),
        routed("escalation", "publish"),
        e("node_started publish"),
        finished("publish"),
        done(),
    ];
    assert_eq!(violations(&reviewed), Vec::<String>::new());
    // The gate let the failed block through to publish: nobody decided.
    let unreviewed = [
        drtl_plan(),
        e("node_started draft"),
        finished("draft"),
        e("node_started verify_claims"),
        obligation("failed", "block"),
        finished("verify_claims"),
        e("node_started safety_gate"),
        routed("safety_gate", "publish"),
        e("node_started publish"),
        finished("publish"),
        done(),
    ];
    assert_eq!(
        violations(&unreviewed),
        ["verified-output@10: the output left the run at event 10, but `verify_claims` did not pass its blocking check `std.check_existence on `product_names`` (failed at event 4) and no review decided after it"]
    );
    // Warn obligations record and go on.
    let warned = [
        drtl_plan(),
        e("node_started draft"),
        finished("draft"),
        e("node_started verify_claims"),
        obligation("failed", "warn"),
        finished("verify_claims"),
        e("node_started safety_gate"),
        routed("safety_gate", "publish"),
        e("node_started publish"),
        finished("publish"),
        done(),
    ];
    assert_eq!(violations(&warned), Vec::<String>::new());
}

#[test]
fn drtl_a_refusal_terminates() {
    let events = [
        drtl_plan(),
        e("node_started draft"),
        finished("draft"),
        e("node_started verify_claims"),
        obligation("failed", "block"),
        ev("refused", json!({"unmet": []})),
        ev("run_finished", json!({"status": "refused"})),
    ];
    assert_eq!(violations(&events), Vec::<String>::new());
}

#[test]
fn a_contract_guards_only_its_edge() {
    let plan = started(&[
        ("w1", "node", &[], &[], json!({"max_attempts": 3})),
        ("w2", "node", &["w1"], &[], json!({"max_attempts": 3})),
        ("w3", "node", &["w1"], &[], json!({"max_attempts": 3})),
    ]);
    let contract = |to: &str, passed: bool| {
        ev(
            "gate_evaluated w1",
            json!({"gate": "contract", "edge": format!("w1 -> {to}"), "passed": passed}),
        )
    };
    let skipped = [
        plan.clone(),
        e("node_started w1"),
        finished("w1"),
        contract("w2", false),
        ev(
            "node_skipped w2",
            json!({"reason": "`w1` broke the edge contract"}),
        ),
        contract("w3", true),
        e("node_started w3"),
        finished("w3"),
        done(),
    ];
    assert_eq!(violations(&skipped), Vec::<String>::new());
    let broken = [
        plan,
        e("node_started w1"),
        finished("w1"),
        contract("w2", false),
        e("node_started w2"),
        finished("w2"),
        e("node_started w3"),
        finished("w3"),
        done(),
    ];
    assert_eq!(
        violations(&broken),
        [
            "needs-before-start@4: `w2` started at event 4 although `w1` did not pass its blocking check `contract w1 -> w2` (failed at event 3)",
            "verified-output@8: the output left the run at event 8, but `w1` did not pass its blocking check `contract w1 -> w2` (failed at event 3) and no review decided after it"
        ]
    );
}

#[test]
fn a_review_is_answered_before_its_node_or_what_follows_goes_on() {
    let asked = ev("review_requested a", json!({"actions": ["accept"]}));
    let answered = ev("review_answered a", json!({"action": "accept"}));
    let downstream = [
        chain(),
        e("node_started a"),
        asked.clone(),
        e("node_started b"),
        answered.clone(),
        finished("a"),
        finished("b"),
        done(),
    ];
    assert_eq!(
        violations(&downstream),
        [
            "needs-before-start@3: `b` started at event 3 before `a` finished (it is still running)",
            "reviews-answered@3: `node_started` on `b` at event 3 went on while the review `a` requested at event 2 was unanswered"
        ]
    );
    let broken = [
        chain(),
        e("node_started a"),
        asked.clone(),
        finished("a"),
        e("node_started b"),
        answered.clone(),
        finished("b"),
        done(),
    ];
    assert_eq!(
        violations(&broken),
        ["reviews-answered@3: `node_finished` on `a` at event 3 went on while the review `a` requested at event 2 was unanswered"]
    );
    let unrequested = [
        chain(),
        e("node_started a"),
        answered.clone(),
        finished("a"),
        e("node_started b"),
        finished("b"),
        done(),
    ];
    assert_eq!(
        violations(&unrequested),
        ["reviews-answered@2: `a` answered a review at event 2 that was not requested (or was answered already)"]
    );
    let twice = [chain(), e("node_started a"), asked.clone(), asked.clone()];
    assert_eq!(
        violations(&twice),
        ["reviews-answered@3: `a` asked for a review again at event 3 before the one requested at event 2 was answered"]
    );
    let completed_waiting = [chain(), e("node_started a"), asked, done()];
    assert_eq!(
        violations(&completed_waiting),
        ["reviews-answered@3: the run completed at event 3 with the review `a` requested at event 2 unanswered"]
    );
}

#[test]
fn a_paused_trace_is_not_unfinished_but_a_cut_one_is() {
    let paused = [
        chain(),
        e("node_started a"),
        ev("review_requested a", json!({"actions": ["accept"]})),
    ];
    assert_eq!(violations(&paused), Vec::<String>::new());
    let cut = [chain(), e("node_started a")];
    assert_eq!(
        violations(&cut),
        ["terminates@1: `(run_finished(status=\"completed\") | run_finished(status=\"refused\") | run_finished(status=\"failed\"))` holds at no event from event 0 to the end of the trace"]
    );
    let after_end = [chain(), done(), e("node_started a")];
    assert_eq!(
        violations(&after_end),
        ["terminates@1: `run_finished` holds at event 1, but `X true` holds at event 1"]
    );
}

#[test]
fn retries_stay_within_the_bound_for_each_output() {
    let retried = || ev("retried a", json!({"attempt": 2, "wait_ms": 0}));
    let within = [
        chain(),
        e("node_started a"),
        retried(),
        retried(),
        ev("review_requested a", json!({"actions": ["retry"]})),
        ev("review_answered a", json!({"action": "retry"})),
        retried(),
        retried(),
        finished("a"),
        e("node_started b"),
        finished("b"),
        done(),
    ];
    assert_eq!(violations(&within), Vec::<String>::new());
    let beyond = [
        chain(),
        e("node_started a"),
        retried(),
        retried(),
        retried(),
        finished("a"),
        e("node_started b"),
        finished("b"),
        done(),
    ];
    assert_eq!(
        violations(&beyond),
        ["retries-bounded@4: `a` was retried 3 times for one output by event 4, but its bound of 3 attempts allows 2"]
    );
    // A workflow node's re-runs are its retries: a new start does not renew them.
    let plan = started(&[("w", "node", &[], &[], json!({"max_attempts": 2}))]);
    let rerun = || ev("retried w", json!({"attempt": 2, "wait_ms": 0}));
    let reruns = [
        plan,
        e("node_started w"),
        finished("w"),
        rerun(),
        e("node_started w"),
        finished("w"),
        rerun(),
        e("node_started w"),
        finished("w"),
        done(),
    ];
    assert_eq!(
        violations(&reruns),
        ["retries-bounded@6: `w` was retried 2 times for one output by event 6, but its bound of 2 attempts allows 1"]
    );
}

#[test]
fn without_a_plan_the_plan_rules_say_so() {
    let events = [e("node_started a"), done()];
    assert_eq!(
        violations(&events),
        [
            "needs-before-start@0: cannot check: the trace has no `run_started` event, so no plan to check against",
            "verified-output@0: cannot check: the trace has no `run_started` event, so no plan to check against",
            "reviews-answered@0: cannot check: the trace has no `run_started` event, so no plan to check against",
            "retries-bounded@0: cannot check: the trace has no `run_started` event, so no plan to check against"
        ]
    );
}

#[test]
fn every_builtin_has_a_name_a_description_and_the_formula_parses() {
    for builtin in Builtin::ALL {
        assert_eq!(Builtin::from_name(builtin.name()), Some(builtin));
        assert!(!builtin.description().is_empty());
        if let Some(formula) = builtin.formula() {
            Formula::parse(formula).unwrap();
        }
    }
}

// ---- Any trace, however malformed, is checked and exported without a panic. ----

mod arbitrary {
    use proptest::prelude::*;
    use serde_json::{json, Map, Value};

    use crate::trace::check::{check, Rule};
    use crate::trace::otlp::{export, ExportOptions};

    const NAMES: [&str; 17] = [
        "run_started",
        "node_started",
        "model_requested",
        "model_responded",
        "output_validated",
        "output_invalid",
        "retried",
        "gate_evaluated",
        "obligation_updated",
        "review_requested",
        "review_answered",
        "node_skipped",
        "node_finished",
        "refused",
        "run_finished",
        "custom",
        "",
    ];
    const IDS: [&str; 5] = ["a", "b", "a/x", "tree:t", "c"];

    fn text() -> impl Strategy<Value = Value> {
        prop_oneof![
            Just(json!("failed")),
            Just(json!("succeeded")),
            Just(json!("completed")),
            Just(json!("decision_tree")),
            Just(json!("verification")),
            Just(json!("contract")),
            Just(json!("escalation")),
            Just(json!("block")),
            Just(json!("error")),
            Just(json!("a -> b")),
            Just(json!("a")),
            Just(json!("x")),
            Just(json!(true)),
            Just(json!(false)),
            Just(json!(3)),
            Just(json!(null)),
            Just(json!({"to": "b", "loop": true})),
            Just(json!([1]))
        ]
    }

    fn event() -> impl Strategy<Value = Value> {
        let keys = prop_oneof![
            Just("status"),
            Just("gate"),
            Just("passed"),
            Just("kind"),
            Just("severity"),
            Just("edge"),
            Just("route"),
            Just("action"),
            Just("mode"),
            Just("rule"),
            Just("target"),
            Just("attempt"),
            Just("t"),
            Just("seq"),
            Just("usage"),
            Just("request")
        ];
        (
            proptest::sample::select(&NAMES[..]),
            proptest::option::of(proptest::sample::select(&IDS[..])),
            proptest::collection::vec((keys, text()), 0..5),
        )
            .prop_map(|(name, node, fields)| {
                let mut event = Map::new();
                event.insert("event".into(), name.into());
                if let Some(node) = node {
                    event.insert("node".into(), node.into());
                }
                for (key, value) in fields {
                    event.insert(key.into(), value);
                }
                Value::Object(event)
            })
    }

    fn plan() -> impl Strategy<Value = Value> {
        let entry = (
            proptest::sample::select(&IDS[..]),
            proptest::sample::select(&["step", "tree", "node", "gate", "review"][..]),
            proptest::collection::vec(proptest::sample::select(&IDS[..]), 0..3),
            proptest::collection::vec(proptest::sample::select(&IDS[..]), 0..2),
            proptest::option::of(0u64..4),
            proptest::option::of(proptest::sample::select(&["any", "majority"][..])),
        )
            .prop_map(|(id, kind, after, chosen_by, max, join)| {
                json!({"id": id, "kind": kind, "after": after, "chosen_by": chosen_by, "max_attempts": max, "join": join, "join_of": after})
            });
        proptest::collection::vec(entry, 0..6)
            .prop_map(|nodes| json!({"event": "run_started", "plan": {"nodes": nodes}}))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(500))]

        #[test]
        fn any_trace_is_checked_and_exported_without_a_panic(
            start in proptest::option::of(plan()),
            events in proptest::collection::vec(event(), 0..40),
        ) {
            let events: Vec<Value> = start.into_iter().chain(events).collect();
            let mut rules = Rule::builtins();
            rules.push(Rule::parse("G(node_started -> P run_started) & F(run_finished) | H !review_answered(node=a) S gate_evaluated(passed=false)").unwrap());
            let names: Vec<String> = rules.iter().map(|r| r.name().to_owned()).collect();
            for violation in check(&events, &rules) {
                prop_assert!(violation.index < events.len().max(1), "{violation:?}");
                prop_assert!(names.contains(&violation.rule));
                prop_assert!(!violation.message.is_empty());
            }
            let exported = export(&events, &ExportOptions::default());
            for span in exported["resourceSpans"][0]["scopeSpans"][0]["spans"].as_array().unwrap() {
                let time = |key: &str| span[key].as_str().unwrap().parse::<u64>().unwrap();
                prop_assert!(time("endTimeUnixNano") >= time("startTimeUnixNano"));
            }
        }
    }
}
