//! Never a success on output that failed (issue #29 §1, DRTL): what a review's decision
//! discharges, `std.check_compute` verdicts a script gives, no retry the topology does not
//! declare, and consensus as the protocol states it.

use std::collections::VecDeque;

use logicmd::run::{ActionKind, Scripted};
use serde_json::{json, Value};

use super::driver::{drive, source, source_of, start, Outcome};

fn run_with(source: &logicmd::run::Source, script: &str, reviews: &[&str]) -> Outcome {
    let mut provider = Scripted::parse(script).unwrap_or_else(|e| panic!("{e}"));
    let mut run = start(source, json!({}));
    drive(
        &mut run,
        &mut provider,
        &mut reviews.iter().copied().collect::<VecDeque<_>>(),
    )
}

fn unmet(outcome: &Outcome) -> Value {
    match outcome.last.as_ref().map(|a| &a.kind) {
        Some(ActionKind::Refuse { unmet }) => serde_json::to_value(unmet).unwrap(),
        other => panic!(
            "expected a refusal, got {other:?}\n{:#?}",
            outcome.outline()
        ),
    }
}

/// The §9.2 topology whose review has the plain labels of §3.8.
fn labelled(actions: &str) -> logicmd::run::Source {
    let text = std::fs::read_to_string(
        logicmd_tests::workspace_root().join("tests/drtl/verified-publish.drtl.yaml"),
    )
    .unwrap()
    .replace("actions: [acknowledge]", &format!("actions: {actions}"));
    source_of(&text)
}

const FAILING: &str = "- {node: generate_summary, text: Acme launched Gizmo 9.}\n- {node: extract_claims, json: {product_names: [Gizmo 9], urls: []}}\n- {node: verify_claims, tool: std.check_existence, verdict: {passed: false, evidence: unknown product}}\n- {node: verify_claims, tool: std.check_links, verdict: {passed: true}}\n";

/// §3.8, §9.3: only an approval (`override`, `approve`, `accept`) or an action the topology
/// routes onward discharges; a rejection or a label nothing routes ends the run refused,
/// naming the obligations and what the decision did.
#[test]
fn a_review_decision_discharges_only_when_it_approves_or_the_topology_routes_it() {
    let source = labelled("[approve, reject, edit, retry_with_search]");
    let approved = run_with(&source, FAILING, &["approve"]);
    let Some(ActionKind::Complete { output }) = approved.last.as_ref().map(|a| &a.kind) else {
        panic!("{}", approved.verdict());
    };
    assert_eq!(output["obligations"][0]["status"], "discharged");
    assert_eq!(output["decision"]["action"], "approve");

    let rejected = run_with(&source, FAILING, &["reject"]);
    assert_eq!(
        unmet(&rejected),
        json!([
            {"node": "verify_claims", "rule": "std.check_existence", "target": "product_names", "reason": "failed (unknown product); review `rejection` chose `reject`"},
            {"node": "rejection", "rule": "review", "reason": "review `rejection` chose `reject`"}
        ])
    );
    assert!(!rejected
        .trace
        .iter()
        .any(|e| e["event"] == "obligation_updated" && e["status"] == "discharged"));

    for label in ["edit", "retry_with_search"] {
        let refused = run_with(&source, FAILING, &[label]);
        let reason = format!(
            "review `rejection` chose `{label}`, which the topology routes nowhere: nothing was done"
        );
        assert_eq!(
            unmet(&refused),
            json!([
                {"node": "verify_claims", "rule": "std.check_existence", "target": "product_names", "reason": format!("failed (unknown product); {reason}")},
                {"node": "rejection", "rule": "review", "reason": reason}
            ]),
            "{label}"
        );
    }
}

/// A rejection the topology routes onward does not discharge: what it routes to may not run
/// on the unverified output, unless it leads back to a new attempt.
#[test]
fn a_routed_rejection_keeps_the_obligation_open() {
    let text = std::fs::read_to_string(
        logicmd_tests::workspace_root().join("tests/drtl/verified-publish.drtl.yaml"),
    )
    .unwrap()
    .replace(
        "actions: [acknowledge]",
        "actions:\n      - reject: {next: publish}\n      - redo: {next: generate_summary}",
    );
    let source = source_of(&text);
    let refused = run_with(&source, FAILING, &["reject"]);
    let rules: Vec<Value> = unmet(&refused)
        .as_array()
        .unwrap()
        .iter()
        .map(|u| u["rule"].clone())
        .collect();
    assert_eq!(rules, [json!("std.check_existence"), json!("review")]);
    assert!(!refused
        .outline()
        .contains(&"node_started publish".to_owned()));

    // A route back for a new attempt runs; the new verification decides.
    let redo = format!("{FAILING}- {{node: generate_summary, text: Acme launched the Gizmo.}}\n- {{node: extract_claims, json: {{product_names: [Gizmo], urls: []}}}}\n- {{node: verify_claims, tool: std.check_existence, verdict: {{passed: true}}}}\n- {{node: verify_claims, tool: std.check_links, verdict: {{passed: true}}}}\n");
    let retried = run_with(&source, &redo, &["redo"]);
    assert_eq!(retried.verdict(), "completed", "{:#?}", retried.outline());
}

/// `std.check_compute`: core recomputes the arithmetic it can read; claims it cannot (dates,
/// hashes, free text) go to the tool, whose verdict — a script's too — decides them.
#[test]
fn check_compute_asks_the_tool_for_claims_core_cannot_recompute() {
    let text = "name: compute\nnodes:\n  - id: extract\n    type: generate\n    prompt: Give the figures.\n    output_format: json\n    output_key: claims\n  - id: check\n    type: verify\n    input: extract.claims\n    rules:\n      - {id: std.check_compute, target: figures, mode: block}\n    output_key: report\nedges:\n  - {from: extract, to: check}\n";
    let source = source_of(text);
    let answers =
        "- {node: extract, json: {figures: [\"2 + 2 = 4\", \"2024-03-01 is a Friday\"]}}\n";
    let passed = run_with(
        &source,
        &format!("{answers}- {{node: check, tool: std.check_compute, verdict: {{passed: true, evidence: a Friday indeed}}}}\n"),
        &[],
    );
    assert_eq!(passed.verdict(), "completed", "{:#?}", passed.outline());
    let asked: Vec<&Value> = passed
        .trace
        .iter()
        .filter(|e| e["event"] == "obligation_updated")
        .collect();
    assert_eq!(asked.len(), 1);
    assert_eq!(asked[0]["status"], "satisfied");
    assert_eq!(
        asked[0]["evidence"],
        json!({"checked": 2, "wrong": [], "unreadable": [], "by_tool": ["2024-03-01 is a Friday"], "tool": "a Friday indeed"})
    );

    // A wrong sum fails whatever a tool would say: no tool is asked.
    let wrong = run_with(
        &source,
        "- {node: extract, json: {figures: [\"2 + 2 = 5\", \"2024-03-01 is a Friday\"]}}\n- {node: check, tool: std.check_compute, verdict: {passed: true}}\n",
        &[],
    );
    assert_eq!(wrong.verdict(), "refused");
    assert!(wrong
        .trace
        .iter()
        .all(|e| e["event"] != "obligation_updated" || e.get("verdict").is_none()));
}

/// Protocol §5: consensus is "explicit AGREE from all participants to a PROPOSE": a COUNTER
/// is an objection, not a proposal to agree with.
#[test]
fn a_counter_with_an_agree_is_not_consensus() {
    let source = source("tests/run/drtl/debate-rounds.drtl.yaml");
    let outcome = run_with(
        &source,
        "- {node: council, attempt: 1, text: 'PROPOSE: ship it'}\n- {node: council, attempt: 2, text: 'COUNTER: not without an audit'}\n- {node: council, attempt: 3, text: 'AGREE: fine, an audit'}\n- {node: council, attempt: 4, text: 'DISCUSS: who audits?'}\n",
        &[],
    );
    let debate = outcome
        .trace
        .iter()
        .find(|e| e["event"] == "node_finished" && e["node"] == "council")
        .unwrap();
    assert_eq!(
        debate["output"]["consensus"],
        false,
        "{:#?}",
        outcome.outline()
    );
    assert_eq!(debate["output"]["proposal"], "PROPOSE: ship it");
    assert_eq!(debate["output"]["supporters"], json!(["architect"]));

    // Every participant's explicit support of the PROPOSE is consensus.
    let agreed = run_with(
        &source,
        "- {node: council, attempt: 1, text: 'PROPOSE: ship it'}\n- {node: council, attempt: 2, text: 'AGREE: ship it'}\n",
        &[],
    );
    let debate = agreed
        .trace
        .iter()
        .find(|e| e["event"] == "node_finished" && e["node"] == "council")
        .unwrap();
    assert_eq!(debate["output"]["consensus"], true);
}

/// An approval decides only on the obligations upstream of its review: one it was not asked
/// about (a verification on another branch) still refuses the run (found by the property test).
#[test]
fn an_approval_does_not_cover_an_obligation_it_was_not_asked_about() {
    let text = "name: branches\nnodes:\n  - id: check\n    type: verify\n    input: \"{{ input }}\"\n    rules:\n      - {id: std.check_links, target: urls, mode: block}\n  - id: sign_off\n    type: review\n    input: {seen: \"{{ input }}\"}\n    actions: [approve]\n";
    let outcome = run_with(&source_of(text), "", &["approve"]);
    assert_eq!(
        unmet(&outcome),
        json!([{
            "node": "check",
            "rule": "std.check_links",
            "target": "urls",
            "reason": "failed (`urls` is not in the input); the run ended at review `sign_off`'s decision `approve`, which did not decide on it"
        }])
    );
}
