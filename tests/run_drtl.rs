//! DRTL topologies run end to end (issue #14, DRTL semantics): scenario tests with the scripted
//! provider, each with its whole trace as an insta snapshot (`tests/run/drtl/snapshots`), and
//! every bundled topology under `--dry-run` semantics.

#[path = "run/drtl/driver.rs"]
mod driver;
#[path = "run/drtl/trust.rs"]
mod trust;

use std::collections::VecDeque;
use std::fs;

use driver::{drive, source, source_of, start, Outcome};
use logicmd::run::{Action, ActionKind, Observation, Run, RunOptions, Scripted, Status, Synthetic};
use logicmd_tests::workspace_root;
use serde_json::{json, Value};

/// Snapshots of whole runs live beside the fixtures.
macro_rules! assert_run {
    ($name:expr, $value:expr) => {
        insta::with_settings!({snapshot_path => "run/drtl/snapshots", prepend_module_to_snapshot => false}, {
            insta::assert_json_snapshot!($name, $value);
        })
    };
}

fn script(name: &str) -> Scripted {
    let path = workspace_root().join("tests/run/drtl/scripts").join(name);
    Scripted::parse(&fs::read_to_string(path).unwrap()).expect("the script reads")
}

/// Runs `topology` with `script`, answering reviews from `reviews`.
fn scenario(topology: &str, script_name: &str, input: Value, reviews: &[&str]) -> Outcome {
    let source = source(topology);
    let mut provider = script(script_name);
    let mut run = start(&source, input);
    drive(
        &mut run,
        &mut provider,
        &mut reviews.iter().copied().collect(),
    )
}

fn record(outcome: &Outcome) -> Value {
    json!({"verdict": outcome.verdict(), "ending": outcome.last, "trace": outcome.trace})
}

fn ending(outcome: &Outcome) -> &ActionKind {
    &outcome
        .last
        .as_ref()
        .expect("the run stopped somewhere")
        .kind
}

/// Runs `topology` answered by the YAML `script`: why it failed (it must fail).
fn failure(topology: &str, script: &str) -> String {
    let source = source(topology);
    let mut provider = Scripted::parse(script).unwrap();
    let mut run = start(&source, json!({}));
    let outcome = drive(&mut run, &mut provider, &mut VecDeque::new());
    match ending(&outcome) {
        ActionKind::Fail { error } => error.clone(),
        _ => panic!("{}", outcome.verdict()),
    }
}

fn events<'t>(outcome: &'t Outcome, name: &'t str) -> impl Iterator<Item = &'t Value> + 't {
    outcome.trace.iter().filter(move |e| e["event"] == name)
}

#[test]
fn a_failed_block_rule_not_routed_to_a_review_refuses_naming_the_obligation() {
    let outcome = scenario(
        "tests/run/drtl/block-without-review.drtl.yaml",
        "block-fails.yaml",
        json!({"launch": "Acme spring launch"}),
        &[],
    );
    let ActionKind::Refuse { unmet } = ending(&outcome) else {
        panic!("{}", outcome.verdict());
    };
    assert_eq!(
        serde_json::to_value(unmet).unwrap(),
        json!([{
            "node": "verify_claims",
            "rule": "std.check_existence",
            "target": "product_names",
            "reason": "failed (no product named Gizmo 9); `publish` would run on what it failed to verify (block: a gate must route the failure to a review, or back to a new attempt)"
        }])
    );
    assert!(
        !outcome
            .outline()
            .contains(&"node_started publish".to_owned()),
        "publish never runs"
    );
    assert_run!("block_refuses", record(&outcome));
}

#[test]
fn a_passed_block_rule_lets_the_run_complete_and_a_failed_warn_rule_is_recorded() {
    let outcome = scenario(
        "tests/run/drtl/block-without-review.drtl.yaml",
        "block-passes.yaml",
        json!({"launch": "Acme spring launch"}),
        &[],
    );
    let ActionKind::Complete { output } = ending(&outcome) else {
        panic!("{}", outcome.verdict());
    };
    assert_eq!(
        output["obligations"],
        json!([
            {"node": "verify_claims", "rule": "std.check_existence", "target": "product_names", "mode": "block", "status": "satisfied", "evidence": "in the product index"},
            {"node": "verify_claims", "rule": "std.check_links", "target": "urls", "mode": "warn", "status": "failed", "evidence": "404 Not Found"},
        ])
    );
    assert_run!("block_passes", record(&outcome));
}

#[test]
fn warn_continues_records_and_injects_the_warning_into_the_next_model_call() {
    let outcome = scenario(
        "tests/run/drtl/warn-continues.drtl.yaml",
        "warn-continues.yaml",
        json!({}),
        &[],
    );
    let ActionKind::Complete { output } = ending(&outcome) else {
        panic!("{}", outcome.verdict());
    };
    let statuses: Vec<(String, String, String)> = output["obligations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| {
            (
                o["rule"].as_str().unwrap().to_owned(),
                o["mode"].as_str().unwrap().to_owned(),
                o["status"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert_eq!(
        statuses,
        [
            ("std.check_links".into(), "warn".into(), "failed".into()),
            (
                "std.check_citation".into(),
                "observe".into(),
                "failed".into()
            ),
            ("std.check_compute".into(), "warn".into(), "failed".into()),
            (
                "std.check_protocol".into(),
                "block".into(),
                "satisfied".into()
            ),
        ]
    );
    let report = &outcome
        .trace
        .iter()
        .find(|e| e["event"] == "node_finished" && e["node"] == "check")
        .unwrap()["output"];
    assert_eq!(
        (
            &report["passed"],
            &report["blocking_failures"],
            &report["warnings"],
            &report["observations"]
        ),
        (&json!(true), &json!(0), &json!(2), &json!(1))
    );
    let write = events(&outcome, "model_requested")
        .find(|e| e["node"] == "write")
        .unwrap();
    let message = write["request"]["messages"][0]["content"].as_str().unwrap();
    let warnings = &message[message.find("## Warnings").expect("the warnings are given")..];
    assert_eq!(
        warnings,
        "## Warnings from verification\n\n- `check` found `std.check_compute` on `figures` failing: {\"checked\":2,\"wrong\":[{\"claim\":\"7 * 6 = 41\",\"computed\":42}],\"unreadable\":[]}\n- `check` found `std.check_links` on `urls` failing: {\"broken\":[\"https://example.com/b\"]}"
    );
    assert_run!("warn_continues", record(&outcome));
}

/// §9.1: a retry the topology does not declare is a hidden retry (a topology has no field to
/// declare one; a loop through a gate is how it asks again): a model call that fails fails its
/// node, once, retryable or not.
#[test]
fn a_model_error_fails_its_node_with_no_hidden_retry() {
    let outcome = scenario(
        "tests/run/drtl/block-without-review.drtl.yaml",
        "model-errors.yaml",
        json!({}),
        &[],
    );
    let ActionKind::Fail { error } = ending(&outcome) else {
        panic!("{}", outcome.verdict());
    };
    assert_eq!(
        error,
        "node `extract` failed: the model call failed: ServerError: 502 Bad Gateway"
    );
    assert_eq!(events(&outcome, "retried").count(), 0);
    assert_eq!(events(&outcome, "model_requested").count(), 1);
    assert_run!("model_errors", record(&outcome));
}

/// An answer not in the form the node promised fails the node at once, naming the problem.
#[test]
fn invalid_output_fails_the_node_naming_the_problem() {
    let outcome = scenario(
        "tests/run/drtl/block-without-review.drtl.yaml",
        "invalid-output.yaml",
        json!({}),
        &[],
    );
    let ActionKind::Fail { error } = ending(&outcome) else {
        panic!("{}", outcome.verdict());
    };
    assert_eq!(
        error,
        "node `extract` failed: invalid output: the answer is not JSON (expected value at line 1 column 1); answer with a single JSON value and nothing else"
    );
    assert_eq!(events(&outcome, "model_requested").count(), 1);
    assert_run!("invalid_output", record(&outcome));

    let error = failure(
        "tests/run/drtl/block-without-review.drtl.yaml",
        "- {node: extract, text: '42'}\n",
    );
    assert_eq!(
        error,
        "node `extract` failed: invalid output: expected an object or an array, found an integer `42`"
    );
}

/// The spec's §9.2–9.3 pattern: a pass publishes; a failure pauses at the review, and the
/// snapshot taken there resumes into each decision.
#[test]
fn the_spec_pattern_publishes_a_pass_and_pauses_a_failure_for_review() {
    let topology = "tests/drtl/spec-verified-pattern.drtl.yaml";
    let passed = scenario(topology, "spec-pattern-passes.yaml", json!({}), &[]);
    assert_eq!(passed.verdict(), "completed");
    assert_run!("spec_pattern_passes", record(&passed));

    let source = source(topology);
    let mut provider = script("spec-pattern-fails.yaml");
    let mut run = start(&source, json!({}));
    let paused = drive(&mut run, &mut provider, &mut VecDeque::new());
    assert_eq!(paused.verdict(), "paused at escalation");
    assert_eq!(run.status(), Status::Paused);
    let snapshot = run.snapshot();
    let written = paused.trace.len();

    let mut endings = Vec::new();
    for action in ["override", "reject"] {
        let mut resumed = Run::resume(&snapshot).expect("resumes");
        assert_eq!(resumed.status(), Status::Paused);
        assert_eq!(resumed.events_emitted() as usize, written);
        let outstanding = resumed.outstanding();
        let [Action {
            kind: ActionKind::AskReview { node, actions, .. },
            ..
        }] = outstanding.as_slice()
        else {
            panic!("{outstanding:?}");
        };
        assert_eq!(
            (node.as_str(), actions.as_slice()),
            (
                "escalation",
                ["reject".to_owned(), "override".to_owned()].as_slice()
            )
        );
        let outcome = drive(
            &mut resumed,
            &mut Scripted::parse("").unwrap(),
            &mut VecDeque::from([action]),
        );
        assert_eq!(
            &outcome.trace[..written],
            &paused.trace[..],
            "replayed events come first"
        );
        endings.push(json!({"action": action, "run": record(&outcome)}));
    }
    assert_eq!(endings[0]["run"]["verdict"], "completed");
    assert_eq!(endings[1]["run"]["verdict"], "refused");
    assert_eq!(
        endings[0]["run"]["ending"]["output"]["obligations"][0]["status"],
        "discharged"
    );
    assert_run!("spec_pattern_review", endings);
}

#[test]
fn a_review_that_routes_back_runs_the_loop_again() {
    let outcome = scenario(
        "tests/drtl/gate-review.drtl.yaml",
        "gate-review-retry.yaml",
        json!({"question": "Which libraries parse YAML?"}),
        &[],
    );
    assert_eq!(outcome.verdict(), "completed");
    assert_eq!(
        outcome
            .outline()
            .iter()
            .filter(|e| *e == "node_started answer")
            .count(),
        2
    );
    assert_run!("gate_review_retry", record(&outcome));
}

#[test]
fn a_review_can_send_the_run_to_a_new_generate_that_is_verified_again() {
    let outcome = scenario(
        "tests/drtl/review-new-generate.drtl.yaml",
        "review-new-generate.yaml",
        json!({"question": "Which widgets fit?"}),
        &[],
    );
    let ActionKind::Complete { output } = ending(&outcome) else {
        panic!("{}", outcome.verdict());
    };
    assert_eq!(
        output["obligations"],
        json!([
            {"node": "verify_claims", "rule": "std.check_existence", "target": "product_names", "mode": "block", "status": "satisfied", "evidence": null},
            {"node": "verify_claims", "rule": "std.check_links", "target": "urls", "mode": "block", "status": "satisfied", "evidence": "200 OK"},
        ]),
        "the second verification replaced the discharged failure"
    );
    assert_run!("review_new_generate", record(&outcome));
}

/// Scenarios whose traces, replayed as scripts, must give the same bytes: a loop through a
/// review, parallel participants, a debate, warnings.
const REPLAYED: &[(&str, &str)] = &[
    ("tests/drtl/gate-review.drtl.yaml", "gate-review-retry.yaml"),
    ("tests/run/drtl/fan-out-vote.drtl.yaml", "fan-out-vote.yaml"),
    (
        "tests/run/drtl/debate-rounds.drtl.yaml",
        "debate-consensus.yaml",
    ),
    (
        "tests/run/drtl/warn-continues.drtl.yaml",
        "warn-continues.yaml",
    ),
    (
        "tests/drtl/review-new-generate.drtl.yaml",
        "review-new-generate.yaml",
    ),
];

#[test]
fn a_trace_replayed_as_a_script_gives_the_same_trace_bytes() {
    for (topology, script_name) in REPLAYED {
        let input = json!({"question": "q"});
        let first = scenario(topology, script_name, input.clone(), &[]);
        assert!(
            matches!(ending(&first), ActionKind::Complete { .. }),
            "{topology}: {}",
            first.verdict()
        );
        let mut replay = Scripted::parse(&first.bytes()).expect("a trace is a script");
        let source = source(topology);
        let mut run = start(&source, input.clone());
        let second = drive(&mut run, &mut replay, &mut VecDeque::new());
        assert_eq!(second.bytes(), first.bytes(), "{topology} replayed");

        let again = scenario(topology, script_name, input, &[]);
        assert_eq!(
            again.bytes(),
            first.bytes(),
            "{topology}: same input, script and clock give the same bytes"
        );
    }
}

#[test]
fn reaching_the_end_with_a_failed_block_rule_refuses() {
    let source = source_of(
        "name: verify last\nnodes:\n  - {id: extract, type: generate, prompt: List the products as JSON., output_format: json, output_key: claims}\n  - {id: check, type: verify, input: extract.claims, rules: [{id: std.check_existence, target: products, mode: block}], output_key: report}\nedges:\n  - {from: extract, to: check}\n",
    );
    let mut provider = Scripted::parse(
        "- {node: extract, json: {products: [Gizmo 9]}}\n- {node: check, verdict: {passed: false, evidence: unknown product}}\n",
    )
    .unwrap();
    let mut run = start(&source, json!({}));
    let outcome = drive(&mut run, &mut provider, &mut VecDeque::new());
    let ActionKind::Refuse { unmet } = ending(&outcome) else {
        panic!("{}", outcome.verdict());
    };
    assert_eq!(
        serde_json::to_value(unmet).unwrap(),
        json!([{"node": "check", "rule": "std.check_existence", "target": "products", "reason": "failed (unknown product); the run reached its end without a review deciding on it"}])
    );
    assert_eq!(run.status(), Status::Refused);
}

#[test]
fn a_loop_stops_at_its_guard() {
    let topology = "tests/drtl/gate-fail-terminates.drtl.yaml";
    let given_up = scenario(topology, "loop-terminates.yaml", json!({}), &[]);
    let ActionKind::Refuse { unmet } = ending(&given_up) else {
        panic!("{}", given_up.verdict());
    };
    assert_eq!(
        serde_json::to_value(unmet).unwrap(),
        json!([{"node": "links", "rule": "std.check_links", "target": "urls", "reason": "failed (404); the run ended at `guard` (a route to `terminate`)"}])
    );
    assert_eq!(
        given_up
            .outline()
            .iter()
            .filter(|e| *e == "node_started answer")
            .count(),
        3
    );
    assert_run!("loop_terminates", record(&given_up));

    let recovered = scenario(topology, "loop-recovers.yaml", json!({}), &[]);
    let ActionKind::Complete { output } = ending(&recovered) else {
        panic!("{}", recovered.verdict());
    };
    assert_eq!(
        output["variables"],
        json!({"attempts": 1, "delivered": true})
    );
    assert_run!("loop_recovers", record(&recovered));
}

#[test]
fn a_loop_without_a_guard_stops_at_the_run_bound() {
    let source = source("tests/drtl/loop-no-guard.drtl.yaml");
    let options = RunOptions {
        default_max_iterations: 2,
        ..RunOptions::default()
    };
    let mut run = Run::start(source, json!({}), options).unwrap();
    let outcome = drive(
        &mut run,
        &mut script("loop-unguarded.yaml"),
        &mut VecDeque::new(),
    );
    let ActionKind::Fail { error } = ending(&outcome) else {
        panic!("{}", outcome.verdict());
    };
    assert_eq!(
        error,
        "the loop `good_enough` → `draft` went round 2 times, the run's bound (`RunOptions::default_max_iterations`), without its guard ending it"
    );
    assert_run!("loop_bound", record(&outcome));
}

#[test]
fn a_fan_out_issues_every_participant_at_once_and_aggregates_combine() {
    let source = source("tests/run/drtl/fan-out-vote.drtl.yaml");
    let mut run = start(&source, json!({"task": "pick a language"}));
    let first = run.next();
    let models: Vec<(&str, u32, Option<&str>)> = first
        .iter()
        .filter_map(|a| match &a.kind {
            ActionKind::CallModel {
                node,
                attempt,
                request,
                ..
            } => Some((node.as_str(), *attempt, request.model.as_deref())),
            _ => None,
        })
        .collect();
    assert_eq!(
        models,
        [
            ("drafts", 1, Some("anthropic/claude-opus")),
            ("drafts", 2, Some("openai/gpt-4")),
            ("drafts", 3, Some("google/gemini-pro")),
        ],
        "one batch"
    );
    let mut run = start(&source, json!({"task": "pick a language"}));
    let outcome = drive(
        &mut run,
        &mut script("fan-out-vote.yaml"),
        &mut VecDeque::new(),
    );
    let ActionKind::Complete { output } = ending(&outcome) else {
        panic!("{}", outcome.verdict());
    };
    assert_eq!(
        output["variables"],
        json!({"winner": "Build it in Go.", "best": "Build it in Go.", "count": 3})
    );
    assert_eq!(
        output["artifacts"]["ranking"],
        json!(["Build it in Go.", "Build it in Rust.", "Build it in Go."])
    );
    assert_eq!(
        output["artifacts"]["all"],
        json!("Build it in Rust.\n\nBuild it in Go.\n\nBuild it in Go.")
    );
    let started = outcome.outline();
    let position = |line: &str| started.iter().position(|l| l == line).unwrap();
    for branch in ["vote", "ranked", "merged"] {
        assert!(
            position(&format!("node_finished {branch}")) < position("node_started final"),
            "the join waits for {branch}"
        );
    }
    assert_run!("fan_out_vote", record(&outcome));
}

#[test]
fn a_debate_ends_early_on_consensus() {
    let outcome = scenario(
        "tests/run/drtl/debate-rounds.drtl.yaml",
        "debate-consensus.yaml",
        json!({"question": "How do we split the system?"}),
        &[],
    );
    let ActionKind::Complete { output } = ending(&outcome) else {
        panic!("{}", outcome.verdict());
    };
    let debate = &output["artifacts"]["outcome"];
    assert_eq!(
        (
            &debate["consensus"],
            &debate["rounds"],
            &debate["supporters"]
        ),
        (&json!(true), &json!(1), &json!(["architect", "security"]))
    );
    assert_run!("debate_consensus", record(&outcome));
}

/// The protocol enforces its message types and blocks on a violation (§5): a message without
/// one fails the debate, with no hidden retry.
#[test]
fn a_protocol_violation_fails_the_debate() {
    let error = failure(
        "tests/run/drtl/debate-rounds.drtl.yaml",
        "- {node: council, attempt: 1, text: 'PROPOSE: one service per bounded context.'}\n- {node: council, attempt: 2, text: I agree with that.}\n",
    );
    assert_eq!(
        error,
        "node `council` failed: participant `security`: invalid output: the message does not start with a message type of the protocol (DISCUSS, PROPOSE, AGREE, COUNTER, QUESTION)"
    );
}

#[test]
fn a_debate_without_consensus_ends_at_max_rounds() {
    let outcome = scenario(
        "tests/run/drtl/debate-rounds.drtl.yaml",
        "debate-no-consensus.yaml",
        json!({"question": "How do we split the system?"}),
        &[],
    );
    let ActionKind::Complete { output } = ending(&outcome) else {
        panic!("{}", outcome.verdict());
    };
    let debate = &output["artifacts"]["outcome"];
    assert_eq!(
        (&debate["consensus"], &debate["rounds"], &debate["proposal"]),
        (
            &json!(false),
            &json!(2),
            &json!("PROPOSE: a monolith first.")
        )
    );
    // The counter withdrew nothing but its author's support: the proposal stays on the table.
    assert_eq!(debate["supporters"], json!(["architect"]));
    assert_eq!(output["variables"], json!({"agreed": false}));
    let judged: Vec<(u64, bool)> = events(&outcome, "gate_evaluated")
        .map(|e| (e["round"].as_u64().unwrap(), e["passed"].as_bool().unwrap()))
        .collect();
    assert_eq!(judged, [(1, false), (2, false)]);
    assert_run!("debate_max_rounds", record(&outcome));
}

#[test]
fn transforms_compute_with_the_std_library() {
    let source = source("tests/run/drtl/transform-std.drtl.yaml");
    let mut run = start(&source, json!({}));
    let outcome = drive(
        &mut run,
        &mut Scripted::parse("").unwrap(),
        &mut VecDeque::new(),
    );
    let ActionKind::Complete { output } = ending(&outcome) else {
        panic!("{}", outcome.verdict());
    };
    assert_eq!(
        output["variables"],
        json!({
            "scores": [3, 1, 2, 3],
            "tags": ["beta", "alpha", "beta"],
            "log": ["computed"],
            "count": 4,
            "sum": 9,
            "min": 1,
            "max": 3,
            "unique": [3, 1, 2],
            "sorted": ["alpha", "beta"],
            "flat": [1, 2, 3],
            "all": ["beta", "alpha", "beta", "gamma"],
            "joined": "beta + alpha + beta",
            "mean": 2.25,
        })
    );
    assert_eq!(
        output["artifacts"]["summary"],
        json!({"count": 4, "tags": 3})
    );
    assert_run!("transform_std", record(&outcome));

    let source = source_of(
        &fs::read_to_string(workspace_root().join("tests/run/drtl/transform-clock.drtl.yaml"))
            .unwrap(),
    );
    let mut run = start(&source, json!({}));
    let outcome = drive(
        &mut run,
        &mut Scripted::parse("").unwrap(),
        &mut VecDeque::new(),
    );
    let ActionKind::Fail { error } = ending(&outcome) else {
        panic!("{}", outcome.verdict());
    };
    assert_eq!(
        error,
        "node `stamp` failed: operation 1 (`set: state.variables.at`): `std.now` is not available: a run is deterministic (no clock, no randomness); pass such values in the run's input"
    );
}

#[test]
fn a_branch_not_taken_is_skipped_and_the_join_runs_after_the_live_one() {
    let source = source("tests/run/drtl/join-dead-path.drtl.yaml");
    let mut outlines = Vec::new();
    for urgent in [true, false] {
        let mut run = start(&source, json!({"urgent": urgent}));
        let outcome = drive(
            &mut run,
            &mut Scripted::parse("").unwrap(),
            &mut VecDeque::new(),
        );
        let ActionKind::Complete { output } = ending(&outcome) else {
            panic!("{}", outcome.verdict());
        };
        let path = if urgent { "fast" } else { "slow" };
        assert_eq!(output["variables"]["joined"], path);
        outlines.push(json!({"urgent": urgent, "outline": outcome.outline()}));
    }
    assert_run!("join_dead_path", outlines);
}

/// Every bundled topology runs to an end of its own under `--dry-run` semantics (the synthetic
/// provider; tools it cannot run are unverifiable), never an engine error.
#[test]
fn every_bundled_topology_runs_to_an_end_with_the_synthetic_provider() {
    let mut paths = Vec::new();
    for dir in ["examples/studio", "tests/drtl", "tests/run/drtl"] {
        for entry in fs::read_dir(workspace_root().join(dir)).unwrap().flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.ends_with(".drtl.yaml") {
                paths.push(format!("{dir}/{name}"));
            }
        }
    }
    paths.sort();
    let mut verdicts = serde_json::Map::new();
    for path in &paths {
        let source = source(path);
        let mut provider = Synthetic::new(&source, 7);
        let mut run = start(&source, json!({"topic": "the spring launch"}));
        let outcome = drive(&mut run, &mut provider, &mut VecDeque::new());
        let verdict = match ending(&outcome) {
            ActionKind::Refuse { unmet } => {
                json!({"refused": unmet.iter().map(|u| format!("{} {}", u.node, u.rule)).collect::<Vec<_>>()})
            }
            ActionKind::Fail { error } => json!({"failed": error}),
            _ => json!(outcome.verdict()),
        };
        verdicts.insert(path.clone(), verdict);
    }
    assert_run!("bundled_dry_run", verdicts);
}

#[test]
fn a_review_answer_that_is_not_an_action_is_asked_again() {
    let source = source("tests/drtl/spec-verified-pattern.drtl.yaml");
    let mut run = start(&source, json!({}));
    let paused = drive(
        &mut run,
        &mut script("spec-pattern-fails.yaml"),
        &mut VecDeque::new(),
    );
    let review = paused.last.unwrap();
    run.feed(
        &review.id,
        Observation::ReviewAnswer {
            action: "approve".into(),
            note: None,
        },
    )
    .unwrap();
    let again = run.next();
    assert!(
        matches!(again.as_slice(), [Action { kind: ActionKind::AskReview { node, .. }, .. }] if node == "escalation"),
        "{again:?}"
    );
    let answered: Vec<Value> = run
        .take_events()
        .into_iter()
        .filter(|e| e["event"] == "review_answered")
        .collect();
    assert_eq!(answered[0]["accepted"], false);
    assert_eq!(
        answered[0]["error"],
        "`approve` is not one of the actions (reject, override); asked again"
    );
    assert_eq!(run.status(), Status::Paused);
}

/// §3.8's plain labels ("routing is handled elsewhere"): an approval completes with the
/// decision for whoever routes it; any other label nothing routes did nothing, so the run is
/// refused with the obligation it was asked about (it used to complete, discharging it).
#[test]
fn a_review_label_nothing_routes_refuses_and_says_so() {
    let source = source("tests/drtl/verified-publish.drtl.yaml");
    let mut provider = Scripted::parse(
        "- {node: generate_summary, text: Acme launched Gizmo 9.}\n- {node: extract_claims, json: {product_names: [Gizmo 9], urls: []}}\n- {node: verify_claims, tool: std.check_existence, verdict: {passed: false, evidence: unknown product}}\n- {node: verify_claims, tool: std.check_links, verdict: {passed: true}}\n- {node: rejection, review: acknowledge}\n",
    )
    .unwrap();
    let mut run = start(&source, json!({}));
    let outcome = drive(&mut run, &mut provider, &mut VecDeque::new());
    let ActionKind::Refuse { unmet } = ending(&outcome) else {
        panic!("{}", outcome.verdict());
    };
    let why = "review `rejection` chose `acknowledge`, which the topology routes nowhere: nothing was done";
    assert_eq!(
        serde_json::to_value(unmet).unwrap(),
        json!([
            {"node": "verify_claims", "rule": "std.check_existence", "target": "product_names", "reason": format!("failed (unknown product); {why}")},
            {"node": "rejection", "rule": "review", "reason": why},
        ])
    );
    assert!(
        !outcome
            .outline()
            .contains(&"node_started publish".to_owned()),
        "nothing routes on"
    );
    assert_run!("review_label_action", record(&outcome));
}

#[test]
fn a_participant_that_fails_fails_the_fan_out() {
    let error = failure(
        "tests/run/drtl/fan-out-vote.drtl.yaml",
        "- {node: drafts, attempt: 1, text: Rust.}\n- {node: drafts, attempt: 2, error: {kind: AuthenticationError, message: bad key, retryable: false}}\n- {node: drafts, attempt: 3, text: Go.}\n",
    );
    assert_eq!(
        error,
        "node `drafts` failed: participant 2: the model call failed: AuthenticationError: bad key"
    );
}

/// A debate of three under `consensus`, answered `messages` in turn: (consensus, rounds).
fn debate_of_three(consensus: &str, messages: &[&str]) -> (Value, Value) {
    let source = source_of(&format!(
        "name: council of three\nnodes:\n  - id: council\n    type: debate\n    max_rounds: 2\n    consensus: {consensus}\n    participants:\n      - {{id: a, model: m}}\n      - {{id: b, model: m}}\n      - {{id: c, model: m}}\n    output_key: outcome\n"
    ));
    let script: String = messages
        .iter()
        .map(|m| {
            format!(
                "- {{node: council, text: {}}}\n",
                serde_json::to_string(m).unwrap()
            )
        })
        .collect();
    let mut run = start(&source, json!({}));
    let outcome = drive(
        &mut run,
        &mut Scripted::parse(&script).unwrap(),
        &mut VecDeque::new(),
    );
    let ActionKind::Complete { output } = ending(&outcome) else {
        panic!("{}", outcome.verdict());
    };
    let debate = &output["artifacts"]["outcome"];
    (
        debate["consensus"].clone(),
        debate["transcript"].as_array().unwrap().len().into(),
    )
}

#[test]
fn majority_and_threshold_consensus_count_the_supporters_of_the_proposal_on_the_table() {
    let agreeing = ["PROPOSE: x", "AGREE: yes", "AGREE: yes too"];
    assert_eq!(
        debate_of_three("{type: majority}", &agreeing),
        (json!(true), json!(2))
    );
    assert_eq!(
        debate_of_three("{type: unanimous}", &agreeing),
        (json!(true), json!(3))
    );
    assert_eq!(
        debate_of_three("{type: threshold, threshold: 0.6}", &agreeing),
        (json!(true), json!(2))
    );
    assert_eq!(
        debate_of_three("{type: threshold, threshold: 0.9}", &agreeing),
        (json!(true), json!(3))
    );
    let countered = [
        "PROPOSE: x",
        "COUNTER: y",
        "AGREE: x",
        "DISCUSS: hm",
        "DISCUSS: hm",
        "DISCUSS: hm",
    ];
    assert_eq!(
        debate_of_three("{type: majority}", &countered),
        (json!(true), json!(3)),
        "an AGREE supports the PROPOSE on the table; the COUNTER only objects"
    );
    let unagreed = [
        "AGREE: nothing proposed",
        "AGREE: still nothing",
        "DISCUSS: a",
        "DISCUSS: b",
        "DISCUSS: c",
        "DISCUSS: d",
    ];
    assert_eq!(
        debate_of_three("{type: majority}", &unagreed),
        (json!(false), json!(6))
    );
}

#[test]
fn a_transform_cannot_forge_obligations_and_a_broken_condition_takes_the_fail_branch() {
    let source = source_of(
        "name: forged\nnodes:\n  - id: forge\n    type: transform\n    operations:\n      - {set: state.obligations, value: []}\n",
    );
    let mut run = start(&source, json!({}));
    let outcome = drive(
        &mut run,
        &mut Scripted::parse("").unwrap(),
        &mut VecDeque::new(),
    );
    let ActionKind::Fail { error } = ending(&outcome) else {
        panic!("{}", outcome.verdict());
    };
    assert_eq!(
        error,
        "node `forge` failed: operation 1 (`set: state.obligations`): a transform cannot set `state.obligations`: it changes only by verification, reviews and the run itself"
    );

    let source = source_of(
        "name: broken condition\nnodes:\n  - id: check\n    type: gate\n    condition: input.count.includes(1)\n    on_pass: pass\n    on_fail: fail\n  - {id: pass, type: transform, operations: [{set: state.variables.branch, value: pass}]}\n  - {id: fail, type: transform, operations: [{set: state.variables.branch, value: fail}]}\n",
    );
    let mut run = start(&source, json!({"count": 5}));
    let outcome = drive(
        &mut run,
        &mut Scripted::parse("").unwrap(),
        &mut VecDeque::new(),
    );
    let ActionKind::Complete { output } = ending(&outcome) else {
        panic!("{}", outcome.verdict());
    };
    assert_eq!(output["variables"]["branch"], "fail");
    let gate = events(&outcome, "gate_evaluated").next().unwrap();
    assert_eq!(gate["passed"], false);
    assert!(
        gate["error"].as_str().unwrap().contains("includes"),
        "{gate}"
    );
}
