//! LOGIC.md runtime scenarios (spec §4–§9), each a fixture document under `tests/run/logic/`
//! answered by a script, with the whole trace as an insta snapshot and the assertions that make
//! the scenario's point.

#[path = "run/logic/driver.rs"]
mod driver;
#[path = "run/logic/trust.rs"]
mod trust;

use std::fs;
use std::path::PathBuf;

use driver::{drive, run, source_with, Driven, End};
use logicmd::run::{ActionKind, Observation, Run, RunOptions, Scripted, Source};
use logicmd_tests::workspace_root;
use serde_json::{json, Value};

/// Far more than any scenario needs: reaching it means the run does not end.
const MAX_ROUNDS: usize = 500;

fn fixtures() -> PathBuf {
    workspace_root().join("tests/run/logic")
}

fn read(name: &str) -> String {
    let path = fixtures().join(name);
    fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Every fixture document, so workflows find their nodes.
fn fixture_files() -> Vec<(String, String)> {
    let mut files = Vec::new();
    for dir in ["", "nodes/"] {
        for entry in fs::read_dir(fixtures().join(dir))
            .into_iter()
            .flatten()
            .flatten()
        {
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.ends_with(".logic.md") {
                files.push((format!("{dir}{name}"), read(&format!("{dir}{name}"))));
            }
        }
    }
    files
}

fn prepared(document: &str) -> Source {
    source_with(&read(document), document, &fixture_files())
        .unwrap_or_else(|problems| panic!("{document} does not prepare:\n{problems}"))
}

fn script(name: &str) -> Scripted {
    Scripted::parse(&read(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Runs `document` on `input`, answered by `script`.
fn scenario(document: &str, script_name: &str, input: Value) -> Driven {
    run(
        prepared(document),
        input,
        &mut script(script_name),
        MAX_ROUNDS,
    )
}

/// The whole trace and the ending, as a snapshot under `tests/run/logic/snapshots`.
fn snapshot(name: &str, driven: &Driven) {
    let value = json!({"end": driven.end.to_json(), "trace": driven.trace});
    insta::with_settings!({
        snapshot_path => "run/logic/snapshots",
        prepend_module_to_snapshot => false,
        omit_expression => true,
    }, {
        insta::assert_json_snapshot!(name, value);
    });
}

fn completed(driven: &Driven) -> &Value {
    match &driven.end {
        End::Completed(output) => output,
        other => panic!(
            "expected a completed run, got {other:?}\n{:#?}",
            driven.story()
        ),
    }
}

fn failed(driven: &Driven) -> &str {
    match &driven.end {
        End::Failed(error) => error,
        other => panic!(
            "expected a failed run, got {other:?}\n{:#?}",
            driven.story()
        ),
    }
}

fn count(driven: &Driven, line: &str) -> usize {
    driven.story().iter().filter(|l| *l == line).count()
}

/// The content of every message of the `n`-th (0-based) model request of `node`.
fn messages(driven: &Driven, node: &str, n: usize) -> Vec<(String, String)> {
    let requests = driven.requests(node);
    let request = requests
        .get(n)
        .unwrap_or_else(|| panic!("no request {n} for {node}"));
    request["request"]["messages"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|m| {
            (
                m["role"].as_str().unwrap_or_default().to_owned(),
                m["content"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect()
}

fn waits(driven: &Driven) -> (Vec<u64>, Vec<u64>) {
    let retried = driven
        .events("retried")
        .iter()
        .filter_map(|e| e["wait_ms"].as_u64())
        .collect();
    let actions = driven
        .batches
        .iter()
        .flatten()
        .filter_map(|a| match a.kind {
            ActionKind::Wait { ms, .. } => Some(ms),
            _ => None,
        })
        .collect();
    (retried, actions)
}

#[test]
fn transient_errors_are_retried_after_the_exact_backoff_sequence() {
    let driven = scenario(
        "retry-backoff.logic.md",
        "retry-backoff.script.yaml",
        json!({}),
    );
    assert_eq!(completed(&driven), &json!("Figures: 42"));
    assert_eq!(
        waits(&driven),
        (vec![1_000, 2_000, 4_000], vec![1_000, 2_000, 4_000])
    );
    let asked_at: Vec<u64> = driven
        .requests("fetch")
        .iter()
        .map(|e| e["t"].as_u64().unwrap_or_default())
        .collect();
    assert_eq!(asked_at, [0, 1_000, 3_000, 7_000]);
    snapshot("retry_backoff", &driven);
}

#[test]
fn a_non_retryable_error_is_not_retried() {
    let driven = scenario(
        "retry-backoff.logic.md",
        "retry-non-retryable.script.yaml",
        json!({}),
    );
    assert_eq!(
        failed(&driven),
        "step `fetch`: AuthenticationError: bad key"
    );
    assert!(driven.events("retried").is_empty());
    snapshot("retry_non_retryable", &driven);
}

#[test]
fn a_server_retry_after_is_a_floor_on_the_wait() {
    let script = "- {node: fetch, attempt: 1, error: {kind: RateLimitError, message: slow down, retryable: true, retry_after_ms: 2500}}\n- {node: fetch, attempt: 2, error: {kind: RateLimitError, message: slow down, retryable: true, retry_after_ms: 500}}\n- {node: fetch, attempt: 3, text: done}\n";
    let driven = run(
        prepared("retry-backoff.logic.md"),
        json!({}),
        &mut Scripted::parse(script).unwrap(),
        MAX_ROUNDS,
    );
    assert_eq!(completed(&driven), &json!("done"));
    assert_eq!(waits(&driven), (vec![2_500, 2_000], vec![2_500, 2_000]));
}

#[test]
fn revise_asks_again_with_the_failure_and_on_fail_message_as_feedback() {
    let driven = scenario(
        "revise.logic.md",
        "revise.script.yaml",
        json!({"text": "Q3"}),
    );
    assert_eq!(
        completed(&driven),
        &json!({"bullets": ["costs fell", "sales rose", "margins held"]})
    );
    let second = messages(&driven, "summarize", 1);
    let roles: Vec<&str> = second.iter().map(|(role, _)| role.as_str()).collect();
    assert_eq!(roles, ["user", "assistant", "user"]);
    assert_eq!(second[1].1, r#"{"bullets":["everything at once"]}"#);
    assert_eq!(
        second[2].1,
        "Your output did not pass its check: Give at least three bullet points, one idea each\nRevise your output."
    );
    let retried = driven.events("retried");
    assert_eq!(retried.len(), 1);
    assert_eq!(retried[0]["reason"], "revise");
    assert_eq!(retried[0]["wait_ms"], 0);
    snapshot("revise", &driven);
}

#[test]
fn escalate_walks_the_fallback_chain_up_to_a_human_review() {
    let source = prepared("escalate.logic.md");
    let mut run_ = Run::start(
        source,
        json!({"change": "drop the cache"}),
        RunOptions::default(),
    )
    .unwrap();
    let driven = drive(&mut run_, &mut script("escalate.script.yaml"), MAX_ROUNDS);
    let End::Paused(review) = &driven.end else {
        panic!(
            "expected a pause for review: {:?}\n{:#}",
            driven.end,
            json!(driven.trace)
        );
    };
    let ActionKind::AskReview {
        node,
        actions,
        message,
        input,
    } = &review.kind
    else {
        panic!("{review:?}");
    };
    assert_eq!(node, "assess");
    assert_eq!(actions, &["accept", "retry", "abort"]);
    assert_eq!(
        message.as_deref(),
        Some("Still unsure after a change of strategy")
    );
    assert_eq!(
        input["output"],
        json!({"risk": "moderate", "confidence": 0.5})
    );
    let systems: Vec<&str> = driven
        .requests("assess")
        .iter()
        .map(|r| r["request"]["system"].as_str().unwrap_or_default())
        .collect();
    assert_eq!(systems.len(), 2);
    assert!(!systems[0].contains("tree of thoughts"), "{}", systems[0]);
    assert!(systems[1].contains("tree of thoughts"), "{}", systems[1]);
    let levels: Vec<&Value> = driven
        .events("gate_evaluated")
        .into_iter()
        .filter(|e| e["gate"] == "escalation")
        .map(|e| &e["detail"]["level"])
        .collect();
    assert_eq!(levels, [&json!(1), &json!(2)]);
    snapshot("escalate", &driven);
}

/// Each answer to the review the escalation asked for, after a snapshot and a resume.
#[test]
fn a_paused_review_resumes_from_a_snapshot_with_each_action() {
    let source = prepared("escalate.logic.md");
    let mut paused = Run::start(
        source,
        json!({"change": "drop the cache"}),
        RunOptions::default(),
    )
    .unwrap();
    let before = drive(&mut paused, &mut script("escalate.script.yaml"), MAX_ROUNDS);
    let End::Paused(review) = before.end.clone() else {
        panic!("{:?}", before.end);
    };
    let snapshot_value = paused.snapshot();
    let written = before.trace.len();
    let mut endings = serde_json::Map::new();
    for action in ["accept", "retry", "abort"] {
        let mut resumed = Run::resume(&snapshot_value).unwrap();
        assert_eq!(resumed.events_emitted() as usize, written);
        assert_eq!(
            resumed
                .outstanding()
                .iter()
                .map(|a| &a.id)
                .collect::<Vec<_>>(),
            [&review.id]
        );
        let replayed = resumed.take_events();
        assert_eq!(replayed, before.trace, "the replay rebuilds the same trace");
        resumed
            .feed(
                &review.id,
                Observation::ReviewAnswer {
                    action: action.to_owned(),
                    note: Some(format!("chose {action}")),
                },
            )
            .unwrap();
        let mut after_review =
            Scripted::parse("- {node: assess, attempt: 3, json: {risk: low, confidence: 0.9}}\n")
                .unwrap();
        let rest = drive(&mut resumed, &mut after_review, MAX_ROUNDS);
        endings.insert(
            action.to_owned(),
            json!({"end": rest.end.to_json(), "trace": rest.trace}),
        );
        match action {
            "accept" => assert_eq!(
                completed(&rest),
                &json!({"risk": "moderate", "confidence": 0.5})
            ),
            "retry" => assert_eq!(completed(&rest), &json!({"risk": "low", "confidence": 0.9})),
            _ => assert_eq!(failed(&rest), "step `assess`: the review chose `abort`"),
        }
    }
    insta::with_settings!({
        snapshot_path => "run/logic/snapshots",
        prepend_module_to_snapshot => false,
        omit_expression => true,
    }, {
        insta::assert_json_snapshot!("review_resumed", Value::Object(endings));
    });
}

#[test]
fn abort_fails_the_run_before_anything_after_it_starts() {
    let driven = scenario("abort.logic.md", "abort.script.yaml", json!({}));
    assert_eq!(
        failed(&driven),
        "step `check_policy` aborted the run: The request breaks the policy"
    );
    assert_eq!(count(&driven, "node_started act"), 0);
    snapshot("abort", &driven);
}

#[test]
fn skip_goes_on_without_the_step_output() {
    let driven = scenario("skip.logic.md", "skip.script.yaml", json!({"ticket": 7}));
    assert_eq!(completed(&driven), &json!("Your refund is on its way."));
    let skipped = driven.events("node_skipped");
    assert_eq!(skipped.len(), 1);
    assert_eq!(skipped[0]["node"], "enrich");
    assert_eq!(skipped[0]["reason"], "Nothing found to add");
    let task = &messages(&driven, "answer", 0)[0].1;
    assert!(
        task.ends_with("## Output of step `enrich`\n\n(no output: the step was skipped)\n"),
        "{task}"
    );
    snapshot("skip", &driven);
}

#[test]
fn a_branch_loop_stops_at_max_iterations() {
    let driven = scenario("loop.logic.md", "loop.script.yaml", json!({}));
    assert_eq!(completed(&driven), &json!({"score": 0.7}));
    assert_eq!(count(&driven, "node_started draft"), 3);
    assert_eq!(count(&driven, "node_started review"), 3);
    let routes: Vec<&Value> = driven
        .events("node_finished")
        .into_iter()
        .filter_map(|e| e.get("route"))
        .collect();
    assert_eq!(
        routes,
        [
            &json!({"to": "draft", "loop": true, "iteration": 1}),
            &json!({"to": "draft", "loop": true, "iteration": 2})
        ]
    );
    let stopped: Vec<&Value> = driven
        .events("gate_evaluated")
        .into_iter()
        .filter(|e| e["gate"] == "max_iterations")
        .collect();
    assert_eq!(stopped.len(), 1);
    assert_eq!(stopped[0]["passed"], false);
    // The second review reads the second draft.
    assert!(messages(&driven, "review", 1)[0].1.contains("Draft two"));
    snapshot("loop", &driven);
}

#[test]
fn a_loop_reruns_what_follows_its_target_and_keeps_earlier_choices() {
    let driven = scenario(
        "loop-keeps-choices.logic.md",
        "loop-keeps-choices.script.yaml",
        json!({}),
    );
    let output = completed(&driven);
    assert_eq!(output, &json!({"write": {"score": 0.9}}));
    assert_eq!(count(&driven, "node_started outline"), 2);
    assert_eq!(count(&driven, "node_started triage"), 1);
    assert_eq!(count(&driven, "node_skipped quick"), 1);
    assert!(messages(&driven, "outline", 1)[0].1.contains("Notes two"));
    snapshot("loop_keeps_choices", &driven);
}

#[test]
fn a_decision_tree_routes_to_one_step_and_the_others_are_skipped() {
    let driven = scenario(
        "decision-tree.logic.md",
        "decision-tree.script.yaml",
        json!({"ticket": "it crashes"}),
    );
    assert_eq!(
        completed(&driven),
        &json!({"reproduce_bug": "Reproduced on version 2.1 with the attached steps."})
    );
    let tree = driven
        .events("gate_evaluated")
        .into_iter()
        .find(|e| e["gate"] == "decision_tree")
        .cloned()
        .unwrap();
    assert_eq!(tree["path"], json!(["urgent", "by_kind"]));
    assert_eq!(tree["reached"], "reproduce_bug");
    assert_eq!(count(&driven, "node_skipped answer_billing"), 1);
    assert_eq!(count(&driven, "node_skipped answer_question"), 1);
    snapshot("decision_tree", &driven);
}

#[test]
fn one_parallel_level_issues_all_its_calls_at_once() {
    let driven = scenario(
        "parallel.logic.md",
        "parallel.script.yaml",
        json!({"q": "x"}),
    );
    assert_eq!(completed(&driven), &json!("Four findings, A to D."));
    let first: Vec<(String, Option<String>)> = driven.batches[0]
        .iter()
        .map(|a| {
            (
                match a.kind {
                    ActionKind::CallModel { .. } => "call_model".to_owned(),
                    _ => "other".to_owned(),
                },
                a.kind.node().map(str::to_owned),
            )
        })
        .collect();
    assert_eq!(
        first,
        [
            ("call_model".to_owned(), Some("search_web".to_owned())),
            ("call_model".to_owned(), Some("search_papers".to_owned())),
            ("call_model".to_owned(), Some("search_news".to_owned())),
        ]
    );
    // The joining step sees what each member found.
    let task = &messages(&driven, "research", 0)[0].1;
    for found in [
        "Web found A and B.",
        "Papers found B and C.",
        "News found D.",
    ] {
        assert!(task.contains(found), "{task}");
    }
    snapshot("parallel", &driven);
}

#[test]
fn invalid_output_is_retried_with_the_error_as_feedback_then_on_fail_decides() {
    let driven = scenario(
        "invalid-output.logic.md",
        "invalid-output.script.yaml",
        json!({"text": "Ada Lovelace, born 1815"}),
    );
    assert_eq!(completed(&driven), &json!("Nothing reliable is known."));
    let invalid: Vec<Value> = driven
        .events("output_invalid")
        .iter()
        .map(|e| e["errors"].clone())
        .collect();
    assert_eq!(invalid.len(), 3);
    assert!(invalid[0][0]
        .as_str()
        .unwrap()
        .starts_with("the answer is not JSON"));
    assert_eq!(invalid[1], json!(["missing required property `year`"]));
    assert_eq!(invalid[2], json!(["the answer is empty"]));
    let third = messages(&driven, "extract", 2);
    assert_eq!(
        third.len(),
        5,
        "the task, two rejected answers, two feedbacks"
    );
    assert!(
        third[4].1.contains("missing required property `year`"),
        "{}",
        third[4].1
    );
    let skipped = driven.events("node_skipped");
    assert_eq!(skipped.len(), 1);
    assert_eq!(skipped[0]["node"], "extract");
    snapshot("invalid_output", &driven);
}

#[test]
fn gates_by_severity_revise_with_their_own_message_and_a_rubric_scores() {
    let driven = scenario("gates.logic.md", "gates.script.yaml", json!({}));
    assert_eq!(
        completed(&driven),
        &json!({"summary": "Prices rose 3% on energy costs.", "citations": ["stats office"], "perspectives": 1})
    );
    let feedback = &messages(&driven, "write", 1)[2].1;
    assert_eq!(
        feedback,
        "Your output did not pass its check: Cite at least one source\nRevise your output."
    );
    let warnings: Vec<&Value> = driven
        .events("gate_evaluated")
        .into_iter()
        .filter(|e| e["gate"] == "balanced")
        .collect();
    assert!(warnings
        .iter()
        .all(|w| w["passed"] == false && w["severity"] == "warning"));
    let rubric: Vec<(Value, Value)> = driven
        .events("gate_evaluated")
        .into_iter()
        .filter(|e| e["gate"] == "self_verification")
        .map(|e| (e["passed"].clone(), e["detail"]["score"].clone()))
        .collect();
    assert_eq!(
        rubric,
        [(json!(false), json!(0.6)), (json!(true), json!(0.85))]
    );
    snapshot("gates", &driven);
}

#[test]
fn tools_unavailable_degrades_to_reasoning_only() {
    let driven = scenario("degrade.logic.md", "degrade.script.yaml", json!({}));
    assert_eq!(
        completed(&driven),
        &json!("About 1.08 dollars to the euro, from memory.")
    );
    let tools: Vec<Value> = driven
        .requests("lookup")
        .iter()
        .map(|r| {
            r["request"]
                .get("allowed_tools")
                .cloned()
                .unwrap_or(json!([]))
        })
        .collect();
    assert_eq!(tools, [json!(["web_search"]), json!([])]);
    snapshot("degrade", &driven);
}

#[test]
fn a_contract_violation_retries_the_source_node() {
    let driven = scenario(
        "workflow-retry-source.logic.md",
        "workflow-retry-source.script.yaml",
        json!({"topic": "energy"}),
    );
    assert_eq!(completed(&driven), &json!("Solar and wind both grew."));
    assert_eq!(count(&driven, "node_started collector"), 2);
    let contract: Vec<bool> = driven
        .events("gate_evaluated")
        .iter()
        .filter(|e| e["gate"] == "contract")
        .map(|e| e["passed"].as_bool().unwrap_or_default())
        .collect();
    assert_eq!(contract, [false, true]);
    // The writer gets what the collector handed over the second time.
    assert!(messages(&driven, "writer/write", 0)[0].1.contains("wind"));
    snapshot("workflow_retry_source", &driven);
}

#[test]
fn a_contract_violation_skips_the_target_node() {
    let driven = scenario(
        "workflow-skip.logic.md",
        "workflow-skip.script.yaml",
        json!({"topic": "energy"}),
    );
    // The writer gives the workflow's output: without it the workflow has none to give.
    assert_eq!(
        failed(&driven),
        "the workflow produced no output: `writer` was skipped (`collector` broke the edge contract)"
    );
    assert_eq!(count(&driven, "node_skipped writer"), 1);
    assert_eq!(count(&driven, "node_started writer"), 0);
    snapshot("workflow_skip", &driven);
}

#[test]
fn a_contract_violation_aborts_the_workflow() {
    let driven = scenario(
        "workflow-abort.logic.md",
        "workflow-abort.script.yaml",
        json!({"topic": "energy"}),
    );
    assert_eq!(
        failed(&driven),
        "`collector` broke the contract of its edge to `writer`: at `/items`: needs at least 1 item(s)"
    );
    assert_eq!(count(&driven, "node_started writer"), 0);
    snapshot("workflow_abort", &driven);
}

#[test]
fn below_the_minimum_confidence_retries_and_below_escalate_below_escalates() {
    let driven = scenario("confidence.logic.md", "confidence.script.yaml", json!({}));
    assert_eq!(completed(&driven), &json!({"size": 12, "confidence": 0.2}));
    assert_eq!(waits(&driven), (vec![500], vec![500]));
    let gates: Vec<(Value, Value)> = driven
        .events("gate_evaluated")
        .iter()
        .map(|e| (e["gate"].clone(), e["check"].clone()))
        .collect();
    assert_eq!(
        gates,
        [
            (json!("confidence"), json!("minimum")),
            (json!("confidence"), json!("escalate_below")),
            (json!("escalation"), json!("{{ confidence < 0.3 }}")),
        ]
    );
    assert_eq!(driven.events("review_answered")[0]["action"], "accept");
    snapshot("confidence", &driven);
}

#[test]
fn a_broken_invariant_with_force_output_ends_the_run_with_what_it_has() {
    let driven = scenario("invariant.logic.md", "invariant.script.yaml", json!({}));
    assert_eq!(completed(&driven), &json!({"enough": true}));
    assert_eq!(count(&driven, "node_skipped expand"), 1);
    assert_eq!(count(&driven, "node_skipped report"), 1);
    assert_eq!(count(&driven, "node_started expand"), 0);
    let breach = driven
        .events("gate_evaluated")
        .into_iter()
        .find(|e| e["gate"] == "stop_when_enough")
        .cloned()
        .unwrap();
    assert_eq!(breach["on_breach"], "force_output");
    snapshot("invariant", &driven);
}

#[test]
fn a_parallel_join_any_goes_on_after_the_first_member() {
    let driven = scenario("join-any.logic.md", "join-any.script.yaml", json!({}));
    assert_eq!(completed(&driven), &json!({"fast": "Fast answer."}));
    let story = driven.story();
    let joined = story.iter().position(|l| l == "node_finished first");
    let slow = story.iter().position(|l| l == "node_finished slow");
    assert!(joined < slow, "{story:#?}");
    snapshot("join_any", &driven);
}

#[test]
fn a_timeout_does_not_degrade_to_an_output_that_failed_its_check() {
    let driven = scenario("timeout.logic.md", "timeout.script.yaml", json!({}));
    // The only answer failed its verification: `partial_output` has nothing it may publish.
    assert_eq!(
        failed(&driven),
        "the run produced no output: `research` was skipped (Timeout: no answer within 20s (degraded by `timeout_exceeded`: no output passed the step's checks))"
    );
    let timeouts: Vec<&ActionKind> = driven
        .batches
        .iter()
        .flatten()
        .map(|a| &a.kind)
        .filter(|k| matches!(k, ActionKind::CallModel { .. }))
        .collect();
    assert!(timeouts.iter().all(|k| matches!(
        k,
        ActionKind::CallModel {
            timeout_ms: Some(20_000),
            ..
        }
    )));
    snapshot("timeout", &driven);
}

#[test]
fn retry_different_tries_once_more_with_another_strategy() {
    let driven = scenario(
        "retry-different.logic.md",
        "retry-different.script.yaml",
        json!({}),
    );
    assert_eq!(completed(&driven), &json!({"answer": 42, "checked": true}));
    let switched = driven
        .events("gate_evaluated")
        .into_iter()
        .find(|e| e["gate"] == "fallback")
        .cloned()
        .unwrap();
    assert_eq!(switched["detail"]["new_strategy"], "tot");
    let system = driven.requests("solve")[1]["request"]["system"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    assert!(system.contains("tree of thoughts"), "{system}");
    snapshot("retry_different", &driven);
}

#[test]
fn without_fail_fast_a_failed_node_stops_only_what_depends_on_it() {
    let driven = scenario(
        "workflow-continue.logic.md",
        "workflow-continue.script.yaml",
        json!({}),
    );
    assert_eq!(
        failed(&driven),
        "nodes failed: `checker`: step `policy` aborted the run: The request breaks the policy"
    );
    assert_eq!(count(&driven, "node_finished summarizer"), 1);
    assert_eq!(count(&driven, "node_skipped publisher"), 1);
    snapshot("workflow_continue", &driven);

    // The failed node's other call is cancelled, not left for the driver to carry out.
    let source = prepared("workflow-continue.logic.md");
    let mut run_ = Run::start(source, json!({}), RunOptions::default()).unwrap();
    let first = run_.next();
    let nodes: Vec<Option<&str>> = first.iter().map(|a| a.kind.node()).collect();
    assert_eq!(
        nodes,
        [
            Some("checker/policy"),
            Some("checker/style"),
            Some("summarizer/gather")
        ]
    );
    run_.feed(&first[0].id, Observation::text(r#"{"allowed": false}"#))
        .unwrap();
    let outstanding: Vec<String> = run_.outstanding().into_iter().map(|a| a.id).collect();
    assert_eq!(outstanding, [first[2].id.clone()]);
}

#[test]
fn a_strict_input_contract_rejects_the_run_and_a_lenient_output_contract_warns() {
    let rejected = scenario(
        "contracts.logic.md",
        "contracts.script.yaml",
        json!({"q": 1}),
    );
    assert_eq!(
        failed(&rejected),
        "the input breaks the input contract: missing required property `question`"
    );
    assert_eq!(
        rejected.story(),
        ["run_started", "gate_evaluated", "run_finished"]
    );
    snapshot("contracts_rejected", &rejected);

    let accepted = scenario(
        "contracts.logic.md",
        "contracts.script.yaml",
        json!({"question": "Why is the sky blue?"}),
    );
    assert_eq!(
        completed(&accepted),
        &json!("Because the sky scatters blue light.")
    );
    let validated = accepted.events("output_validated");
    assert_eq!(
        validated[0]["contract_warnings"][0]
            .as_str()
            .map(|w| w.starts_with("the answer is not JSON")),
        Some(true)
    );
    snapshot("contracts_accepted", &accepted);
}

/// Same source, input, script and clock: the same trace, byte for byte.
#[test]
fn the_same_run_gives_the_same_bytes() {
    for (document, script_name) in [
        ("retry-backoff.logic.md", "retry-backoff.script.yaml"),
        ("gates.logic.md", "gates.script.yaml"),
        (
            "workflow-retry-source.logic.md",
            "workflow-retry-source.script.yaml",
        ),
    ] {
        let bytes = || {
            let driven = scenario(document, script_name, json!({"n": 1}));
            serde_json::to_string(&driven.trace).unwrap()
        };
        assert_eq!(bytes(), bytes(), "{document}");
    }
}

/// A trace is a script: replaying it answers every call (self-verification included) as the
/// run was answered, and gives the same trace again.
#[test]
fn a_trace_replays_as_a_script() {
    for (document, script_name) in [
        ("gates.logic.md", "gates.script.yaml"),
        ("retry-backoff.logic.md", "retry-backoff.script.yaml"),
        ("loop.logic.md", "loop.script.yaml"),
        (
            "workflow-retry-source.logic.md",
            "workflow-retry-source.script.yaml",
        ),
    ] {
        let first = scenario(document, script_name, json!({}));
        let lines: Vec<String> = first.trace.iter().map(Value::to_string).collect();
        let mut replay = Scripted::parse(&lines.join("\n")).unwrap();
        let second = run(prepared(document), json!({}), &mut replay, MAX_ROUNDS);
        assert_eq!(second.end, first.end, "{document}");
        assert_eq!(second.trace, first.trace, "{document}");
    }
}
