//! Never a success on output that failed (issue #29 §1): every output that leaves a step — the
//! first answer, a retry, a self-verification revision, a degraded output — passes the step's
//! checks, or the step fails by its `on_fail`; a run completes only with what the document
//! promises (its final steps' output, its output contract); joins and budgets hold.

use logicmd::run::{ActionKind, Observation, Run, RunOptions, Scripted, Status};
use serde_json::{json, Value};

use super::driver::{drive, run, source, Driven, End};

const ROUNDS: usize = 500;

/// A run of the document `text` (frontmatter only) on `{}`, started.
fn start_inline(text: &str) -> Run {
    Run::start(
        source(&format!("---\n{text}---\n")),
        json!({}),
        RunOptions::default(),
    )
    .unwrap()
}

/// Runs the document `text` (frontmatter only) on `input`, answered by the YAML `script`.
fn run_inline(text: &str, script: &str, input: Value) -> Driven {
    let mut provider = Scripted::parse(script).unwrap_or_else(|e| panic!("{e}"));
    run(
        source(&format!("---\n{text}---\n")),
        input,
        &mut provider,
        ROUNDS,
    )
}

fn failed_with(driven: &Driven) -> &str {
    match &driven.end {
        End::Failed(error) => error,
        other => panic!("expected a failure, got {other:?}\n{:#?}", driven.story()),
    }
}

fn output_of(driven: &Driven) -> &Value {
    match &driven.end {
        End::Completed(output) => output,
        other => panic!("expected completion, got {other:?}\n{:#?}", driven.story()),
    }
}

/// The outputs the trace says left each step (`node_finished` with `succeeded`).
fn finished_outputs(driven: &Driven, node: &str) -> Vec<Value> {
    driven
        .events("node_finished")
        .into_iter()
        .filter(|e| e["node"] == node && e["status"] == "succeeded")
        .map(|e| e["output"].clone())
        .collect()
}

const REVISED: &str = r#"spec_version: "1.0"
name: revised
steps:
  write:
    description: Write the briefing
    output_schema:
      type: object
      required: [summary, citations]
      properties:
        summary: {type: string}
        citations: {type: array, items: {type: string}}
    verification:
      check: "{{ output.summary.length > 0 }}"
      on_fail: ON_FAIL
quality_gates:
  pre_output:
    - name: cited
      check: "{{ output.citations.length > 0 }}"
      severity: error
      on_fail: ON_FAIL
  self_verification:
    enabled: true
    strategy: STRATEGY
"#;

const GOOD: &str = r#"{"summary": "Prices rose 3%.", "citations": ["stats office"]}"#;
const BAD: &str = r#"{"summary": "", "citations": []}"#;

/// §6.2: the revision a reflection or critic answers with is an output like any other: it
/// passes the verification and the error gates, or the step's `on_fail` applies to it.
#[test]
fn a_self_verification_revision_that_fails_its_checks_never_leaves_the_step() {
    for strategy in ["reflection", "critic"] {
        let text = REVISED
            .replace("ON_FAIL", "abort")
            .replace("STRATEGY", strategy);
        let script = format!("- {{node: write, attempt: 1, text: '{GOOD}'}}\n- {{node: write, attempt: 2, text: '{BAD}'}}\n");
        let driven = run_inline(&text, &script, json!({}));
        assert_eq!(
            failed_with(&driven),
            "step `write` aborted the run: the check `{{ output.summary.length > 0 }}` failed",
            "{strategy}"
        );
        assert!(finished_outputs(&driven, "write").is_empty(), "{strategy}");

        // With `retry`, the step answers again; that answer is checked, and it leaves.
        let text = REVISED
            .replace("ON_FAIL", "retry")
            .replace("STRATEGY", strategy);
        let better = r#"{"summary": "Prices rose 3% on energy.", "citations": ["stats office"]}"#;
        let script = format!("- {{node: write, attempt: 1, text: '{GOOD}'}}\n- {{node: write, attempt: 2, text: '{BAD}'}}\n- {{node: write, attempt: 3, text: '{better}'}}\n");
        let driven = run_inline(&text, &script, json!({}));
        let better: Value = serde_json::from_str(better).unwrap();
        assert_eq!(output_of(&driven), &better, "{strategy}");
        assert_eq!(finished_outputs(&driven, "write"), [better], "{strategy}");
    }
}

/// §8: `partial_output` may drop fields; it never publishes what failed verification.
#[test]
fn partial_output_never_publishes_an_output_that_failed_its_check() {
    let text = r#"spec_version: "1.0"
name: partial
steps:
  research:
    description: Research the topic
    output_schema:
      type: object
      required: [summary, confidence, details]
      properties:
        summary: {type: string}
        confidence: {type: number}
        details: {type: string}
    verification:
      check: "{{ output.confidence >= 0.8 }}"
      on_fail: retry
    retry: {max_attempts: 2, initial_interval: 1s}
quality_gates:
  pre_output:
    - name: brief
      check: "{{ !output.details || output.details.length < 20 }}"
      on_fail: retry
fallback:
  strategy: graceful_degrade
  degradation:
    - when: timeout_exceeded
      fallback_to: partial_output
      include_fields: [summary, confidence]
"#;
    let timeout = "{node: research, attempt: 2, error: {kind: Timeout, message: no answer within 20s, retryable: true}}";
    // Attempt 1 fails the verification: nothing of it may be published.
    let script = format!("- {{node: research, attempt: 1, json: {{summary: Prices rose., confidence: 0.5, details: short}}}}\n- {timeout}\n");
    let driven = run_inline(text, &script, json!({}));
    assert!(
        failed_with(&driven).starts_with("the run produced no output: `research` was skipped"),
        "{:?}",
        driven.end
    );
    assert!(finished_outputs(&driven, "research").is_empty());

    // Attempt 1 passes the verification and fails only the gate on a field the degradation
    // drops: its projection is checked again and published.
    let script = format!("- {{node: research, attempt: 1, json: {{summary: Prices rose., confidence: 0.9, details: a very long account of everything}}}}\n- {timeout}\n");
    let driven = run_inline(text, &script, json!({}));
    assert_eq!(
        output_of(&driven),
        &json!({"summary": "Prices rose.", "confidence": 0.9})
    );
}

const TREE: &str = r#"spec_version: "1.0"
name: tree-terminals
steps:
  classify:
    description: Classify the ticket
    output_schema:
      type: object
      required: [kind]
      properties: {kind: {type: string}}
  answer_billing:
    needs: [classify]
    description: Answer a billing question
  reproduce_bug:
    needs: [classify]
    description: Reproduce the bug
decision_trees:
  route:
    root: by_kind
    nodes:
      by_kind:
        condition: "{{ steps.classify.output.kind }}"
        branches:
          - {value: billing, next: answer_billing}
          - {value: bug, next: reproduce_bug}
          - {value: urgent, next: on_call}
          - {default: true, next: unclear}
    terminals:
      on_call: {action: escalate, message: Urgent tickets go to the on-call human}
      unclear: {action: request_clarification, message: "What is the ticket about: billing or a bug?"}
"#;

/// §7: `escalate` and `request_clarification` pause the run with the terminal's message as the
/// question; the answer routes to a step the tree can reach (the note goes with it) or aborts.
#[test]
fn decision_tree_terminals_pause_with_their_message_and_resume_with_an_answer() {
    for (kind, message) in [
        ("urgent", "Urgent tickets go to the on-call human"),
        ("other", "What is the ticket about: billing or a bug?"),
    ] {
        let script = format!("- {{node: classify, json: {{kind: {kind}}}}}\n");
        let driven = run_inline(TREE, &script, json!({}));
        let End::Paused(review) = &driven.end else {
            panic!(
                "expected a pause, got {:?}\n{:#?}",
                driven.end,
                driven.story()
            );
        };
        let ActionKind::AskReview {
            node,
            message: asked,
            actions,
            ..
        } = &review.kind
        else {
            panic!("{review:?}");
        };
        assert_eq!(node, "tree:route");
        assert_eq!(asked.as_deref(), Some(message));
        assert_eq!(actions, &["answer_billing", "reproduce_bug", "abort"]);
    }

    // Resumed from a snapshot: the answer chooses the step, which sees the note.
    let mut paused = Run::start(
        source(&format!("---\n{TREE}---\n")),
        json!({}),
        RunOptions::default(),
    )
    .unwrap();
    let mut script = Scripted::parse("- {node: classify, json: {kind: other}}\n").unwrap();
    let before = drive(&mut paused, &mut script, ROUNDS);
    let End::Paused(review) = before.end else {
        panic!("{:?}", before.end)
    };
    assert_eq!(paused.status(), Status::Paused);
    let snapshot = paused.snapshot();
    for (answer, expected) in [
        ("reproduce_bug", Ok(json!({"reproduce_bug": "Reproduced."}))),
        ("abort", Err("decision tree `route` reached `unclear` (request_clarification: What is the ticket about: billing or a bug?); the review chose `abort`")),
    ] {
        let mut resumed = Run::resume(&snapshot).unwrap();
        resumed.take_events();
        resumed
            .feed(
                &review.id,
                Observation::ReviewAnswer {
                    action: answer.to_owned(),
                    note: Some("It is a crash on start".to_owned()),
                },
            )
            .unwrap();
        let mut rest = Scripted::parse("- {node: reproduce_bug, text: Reproduced.}\n").unwrap();
        let after = drive(&mut resumed, &mut rest, ROUNDS);
        match expected {
            Ok(output) => {
                assert_eq!(output_of(&after), &output);
                let task = after.requests("reproduce_bug")[0]["request"]["messages"][0]["content"]
                    .as_str()
                    .unwrap_or_default()
                    .to_owned();
                assert!(task.contains("It is a crash on start"), "{task}");
                assert!(after.story().contains(&"node_skipped answer_billing".to_owned()));
            }
            Err(error) => assert_eq!(failed_with(&after), error),
        }
    }
}

/// §4.1: when no branch matches and there is no default, the targets are skipped — and a run
/// whose final steps all were skipped produced nothing: it does not complete (with `null`).
#[test]
fn a_run_whose_final_steps_produced_nothing_does_not_complete() {
    let text = r#"spec_version: "1.0"
name: no-branch
steps:
  triage:
    description: Triage
    output_schema: {type: object, required: [kind], properties: {kind: {type: string}}}
    branches:
      - {if: "{{ output.kind == 'a' }}", then: handle_a}
      - {if: "{{ output.kind == 'b' }}", then: handle_b}
  handle_a: {description: Handle a}
  handle_b: {description: Handle b}
"#;
    let driven = run_inline(text, "- {node: triage, json: {kind: c}}\n", json!({}));
    assert_eq!(
        failed_with(&driven),
        "the run produced no output: `handle_a` was skipped (no branch or decision tree chose it); `handle_b` was skipped (no branch or decision tree chose it)"
    );
    assert_eq!(driven.events("run_finished")[0]["status"], "failed");
}

const CONTRACT: &str = r#"spec_version: "1.0"
name: contract
steps:
  report:
    description: Write the report
    output_schema:
      type: object
      required: [summary]
      properties: {summary: {type: string}}
contracts:
  inputs:
    - {name: query, type: string, required: true, constraints: {max_length: 10}}
  outputs:
    - {name: summary, type: string, required: true, constraints: {max_length: 12}}
    - {name: score, type: number, required: true}
  validation: {mode: MODE}
"#;

/// §5: the output contract holds in strict mode even when the final step has a schema of its
/// own, with its `constraints`; the input contract's `constraints` are checked too.
#[test]
fn a_strict_contract_holds_outputs_and_constraints() {
    let text = CONTRACT.replace("MODE", "strict");
    let script = "- {node: report, attempt: 1, json: {summary: ok}}\n- {node: report, attempt: 2, json: {summary: far too long for the contract, score: 1}}\n- {node: report, attempt: 3, json: {summary: short, score: 0.9}}\n";
    let driven = run_inline(&text, script, json!({"query": "why"}));
    assert_eq!(
        output_of(&driven),
        &json!({"summary": "short", "score": 0.9})
    );
    let errors: Vec<Value> = driven
        .events("output_invalid")
        .iter()
        .map(|e| e["errors"].clone())
        .collect();
    assert_eq!(
        errors,
        [
            json!(["missing required property `score`"]),
            json!(["at `/summary`: `far too long for the contract` is longer than 12 characters"])
        ]
    );

    let rejected = run_inline(&text, script, json!({"query": "a question far too long"}));
    assert_eq!(
        failed_with(&rejected),
        "the input breaks the input contract: at `/query`: `a question far too long` is longer than 10 characters"
    );
}

/// §5.2: `warn` records a broken contract and goes on; `permissive` checks nothing.
#[test]
fn warn_and_permissive_contracts_are_honoured_by_the_engine() {
    let script = "- {node: report, attempt: 1, json: {summary: ok}}\n";
    let warned = run_inline(
        &CONTRACT.replace("MODE", "warn"),
        script,
        json!({"query": "a question far too long"}),
    );
    assert_eq!(output_of(&warned), &json!({"summary": "ok"}));
    let input_gate = warned.events("gate_evaluated")[0].clone();
    assert_eq!(
        (&input_gate["gate"], &input_gate["passed"]),
        (&json!("input_contract"), &json!(false))
    );
    assert_eq!(
        warned.events("output_validated")[0]["contract_warnings"],
        json!(["missing required property `score`"])
    );
    let permissive = run_inline(
        &CONTRACT.replace("MODE", "permissive"),
        script,
        json!({"query": "a question far too long"}),
    );
    assert_eq!(output_of(&permissive), &json!({"summary": "ok"}));
    assert!(permissive
        .events("gate_evaluated")
        .iter()
        .all(|e| e["gate"] != "input_contract"));
}

/// An output the run gives back without a step answering it (an invariant forcing the output)
/// is held to the output contract too.
#[test]
fn a_forced_output_that_breaks_a_strict_contract_does_not_complete() {
    let text = r#"spec_version: "1.0"
name: forced
steps:
  draft: {description: Draft}
  report: {description: Report, needs: [draft]}
quality_gates:
  invariants:
    - {name: stop, check: "{{ false }}", on_breach: force_output}
contracts:
  outputs:
    - {name: summary, type: string, required: true}
  validation: {mode: strict}
"#;
    let driven = run_inline(text, "- {node: draft, text: just a draft}\n", json!({}));
    assert_eq!(
        failed_with(&driven),
        "the output breaks the output contract: expected an object, found a string `just a draft`"
    );
}

const JOIN: &str = r#"spec_version: "1.0"
name: join
steps:
  a: {description: Source a}
  b: {description: Source b}
  c: {description: Source c}
  joined:
    description: Join the sources
    execution: parallel
    parallel_steps: [a, b, c]
    join: JOIN
"#;

const DOWN: &str = "error: {kind: AuthenticationError, message: bad key, retryable: false}";

/// §4.3: `any` and `majority` tolerate failed members while the join can still be met.
#[test]
fn joins_any_and_majority_tolerate_failed_members() {
    let script = format!("- {{node: a, {DOWN}}}\n- {{node: b, text: B.}}\n- {{node: c, {DOWN}}}\n");
    let any = run_inline(&JOIN.replace("JOIN", "any"), &script, json!({}));
    assert_eq!(output_of(&any), &json!({"b": "B."}));
    let majority = run_inline(&JOIN.replace("JOIN", "majority"), &script, json!({}));
    assert_eq!(
        failed_with(&majority),
        "step `joined`: its join (majority of 3) can no longer be met: `a` failed (step `a`: AuthenticationError: bad key); `c` failed (step `c`: AuthenticationError: bad key)"
    );
    let script =
        format!("- {{node: a, text: A.}}\n- {{node: b, text: B.}}\n- {{node: c, {DOWN}}}\n");
    let majority = run_inline(&JOIN.replace("JOIN", "majority"), &script, json!({}));
    assert_eq!(output_of(&majority), &json!({"a": "A.", "b": "B."}));
    let all = run_inline(&JOIN.replace("JOIN", "all"), &script, json!({}));
    assert_eq!(failed_with(&all), "step `c`: AuthenticationError: bad key");
}

/// Feeds the first batch's answers in the order given (by node), at the given clock.
fn feed_in_order(run_: &mut Run, answers: &[(&str, u64, &str)]) {
    let batch = run_.next();
    for (node, at, text) in answers {
        let action = batch
            .iter()
            .find(|a| a.kind.node() == Some(node))
            .unwrap_or_else(|| panic!("no call for {node}: {batch:?}"));
        run_.set_clock(*at);
        if run_.is_outstanding(&action.id) {
            run_.feed(&action.id, Observation::text(*text)).unwrap();
        }
    }
}

fn ending(run_: &mut Run) -> ActionKind {
    run_.next()
        .into_iter()
        .find(|a| a.kind.is_terminal())
        .map(|a| a.kind)
        .unwrap_or_else(|| panic!("not over: {:?}", run_.outstanding()))
}

/// §4.3: `any` takes the member that finished first (in the order answers are fed), not the
/// first declared; `join_timeout` bounds the wait for the join.
#[test]
fn join_any_takes_the_first_to_finish_and_join_timeout_is_enforced() {
    let text = JOIN.replace("JOIN", "any");
    let mut run_ = start_inline(&text);
    feed_in_order(
        &mut run_,
        &[("c", 10, "C."), ("a", 20, "A."), ("b", 30, "B.")],
    );
    assert_eq!(
        ending(&mut run_),
        ActionKind::Complete {
            output: json!({"c": "C."})
        }
    );

    let text = format!("{}    join_timeout: 2s\n", JOIN.replace("JOIN", "all"));
    let mut run_ = start_inline(&text);
    let first = run_.next();
    let timeouts: Vec<Option<u64>> = first
        .iter()
        .map(|a| match a.kind {
            ActionKind::CallModel { timeout_ms, .. } => timeout_ms,
            _ => None,
        })
        .collect();
    assert_eq!(
        timeouts,
        [Some(2_000); 3],
        "a member's call ends with the join's time"
    );
    for (action, at) in first.iter().zip([100, 200, 3_000]) {
        run_.set_clock(at);
        if run_.is_outstanding(&action.id) {
            run_.feed(&action.id, Observation::text("Found.")).unwrap();
        }
    }
    assert_eq!(
        ending(&mut run_),
        ActionKind::Fail {
            error: "step `joined`: its join (all of 3) was not met within its join_timeout of 2s: `c` had not finished".to_owned()
        }
    );
}

/// §9.1: `global.max_total_time` and `max_total_cost` bound the whole run.
#[test]
fn workflow_budgets_of_time_and_cost_are_enforced() {
    let text = r#"spec_version: "1.0"
name: budget
global: {max_total_time: 5s, max_total_cost: 0.10}
steps:
  first: {description: First}
  second: {description: Second, needs: [first]}
"#;
    let mut run_ = start_inline(text);
    let first = run_.next();
    let ActionKind::CallModel { timeout_ms, .. } = &first[0].kind else {
        panic!("{first:?}")
    };
    assert_eq!(*timeout_ms, Some(5_000), "a call ends with the run's time");
    run_.set_clock(6_000);
    run_.feed(&first[0].id, Observation::text("late")).unwrap();
    assert_eq!(
        ending(&mut run_),
        ActionKind::Fail {
            error: "the run took 6s, past its max_total_time of 5s".to_owned()
        }
    );

    let costly = |cost: f64| Observation::ModelResponse {
        text: "done".to_owned(),
        usage: Some(logicmd::run::Usage {
            input_tokens: 10,
            output_tokens: 5,
            cost: Some(cost),
        }),
        latency_ms: None,
        served: None,
    };
    let mut run_ = start_inline(text);
    let first = run_.next();
    run_.feed(&first[0].id, costly(0.06)).unwrap();
    let second = run_.next();
    run_.feed(&second[0].id, costly(0.06)).unwrap();
    assert_eq!(
        ending(&mut run_),
        ActionKind::Fail {
            error: "the run's model calls cost 0.12, past its max_total_cost of 0.1".to_owned()
        }
    );
}
