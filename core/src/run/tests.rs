use serde_json::{json, Value};

use super::*;
use crate::analysis::Options;
use crate::loader::MemoryLoader;

/// Runs to the end (or a pause), answering from `provider`; the clock advances by each wait.
/// Returns the trace and the last action (the ending, or the review that paused the run).
fn drive(run: &mut Run, provider: &mut dyn Provider) -> (Vec<Value>, Option<Action>) {
    let mut trace = run.take_events();
    let mut clock = 0;
    loop {
        let actions = run.next();
        if actions.is_empty() {
            trace.extend(run.take_events());
            return (trace, None);
        }
        for action in actions {
            if action.kind.is_terminal() {
                trace.extend(run.take_events());
                return (trace, Some(action));
            }
            if let ActionKind::Wait { ms, .. } = action.kind {
                clock += ms;
                run.set_clock(clock);
            }
            match provider.answer(&action, &mut |_| {}) {
                Answer::Observed(observation) => run.feed(&action.id, observation).unwrap(),
                Answer::Unanswered(_) => {
                    trace.extend(run.take_events());
                    return (trace, Some(action));
                }
            }
        }
    }
}

fn source(text: &str) -> Source {
    prepare(text, &Options::lint("a.logic.md"), &MemoryLoader::new()).expect("runs")
}

fn events(trace: &[Value]) -> Vec<String> {
    trace
        .iter()
        .map(|e| {
            let node = e.get("node").and_then(Value::as_str).unwrap_or("");
            format!("{} {node}", e["event"].as_str().unwrap())
                .trim_end()
                .to_owned()
        })
        .collect()
}

const DOC: &str = "---\nspec_version: \"1.0\"\nname: t\nsteps:\n  gather:\n    description: g\n    output_schema:\n      type: object\n      required: [sources]\n      properties:\n        sources: {type: array, minItems: 2, items: {type: string}}\n  report:\n    description: r\n    needs: [gather]\n    verification:\n      check: \"{{ output.confidence >= 0.7 }}\"\n      on_fail: retry\n---\n";

#[test]
fn a_document_runs_end_to_end_with_the_synthetic_provider() {
    let source = source(DOC);
    let mut provider = Synthetic::new(&source, 7);
    let mut run = Run::start(source, json!({"topic": "x"}), RunOptions::default()).unwrap();
    let (trace, ending) = drive(&mut run, &mut provider);
    let Some(Action {
        kind: ActionKind::Complete { output },
        ..
    }) = ending
    else {
        panic!("{ending:?}\n{trace:#?}");
    };
    assert!(output["confidence"].as_f64().unwrap() >= 0.7, "{output}");
    assert_eq!(run.status(), Status::Completed);
    assert_eq!(
        events(&trace),
        [
            "run_started",
            "node_started gather",
            "model_requested gather",
            "model_responded gather",
            "output_validated gather",
            "node_finished gather",
            "node_started report",
            "model_requested report",
            "model_responded report",
            "output_validated report",
            "gate_evaluated report",
            "node_finished report",
            "run_finished"
        ]
    );
    let seqs: Vec<u64> = trace.iter().map(|e| e["seq"].as_u64().unwrap()).collect();
    assert_eq!(seqs, (0..trace.len() as u64).collect::<Vec<_>>());
}

#[test]
fn invalid_output_is_retried_with_feedback_then_fails_the_step() {
    let source = source(DOC);
    let script = "- {node: gather, attempt: 1, text: 'not json'}\n- {node: gather, attempt: 2, json: {sources: [a]}}\n- {node: gather, attempt: 3, json: {sources: [a, b]}}\n- {node: report, text: '{\"confidence\": 0.9}'}\n";
    let mut provider = Scripted::parse(script).unwrap();
    let mut run = Run::start(source.clone(), json!({}), RunOptions::default()).unwrap();
    let (trace, ending) = drive(&mut run, &mut provider);
    assert!(matches!(
        ending.map(|a| a.kind),
        Some(ActionKind::Complete { .. })
    ));
    let invalid: Vec<&Value> = trace
        .iter()
        .filter(|e| e["event"] == "output_invalid")
        .collect();
    assert_eq!(invalid.len(), 2);
    let third = trace
        .iter()
        .filter(|e| e["event"] == "model_requested" && e["node"] == "gather")
        .nth(2)
        .unwrap();
    let messages = third["request"]["messages"].as_array().unwrap();
    assert_eq!(
        messages.len(),
        5,
        "task, two rejected answers, two feedbacks"
    );
    assert!(messages[4]["content"]
        .as_str()
        .unwrap()
        .contains("at `/sources`"));

    let failing = "- {node: gather, text: 'nope'}\n- {node: gather, text: 'nope'}\n- {node: gather, text: 'nope'}\n";
    let mut provider = Scripted::parse(failing).unwrap();
    let mut run = Run::start(source, json!({}), RunOptions::default()).unwrap();
    let (_, ending) = drive(&mut run, &mut provider);
    let Some(ActionKind::Fail { error }) = ending.map(|a| a.kind) else {
        panic!("expected a failure");
    };
    assert!(error.contains("invalid output"), "{error}");
}

#[test]
fn a_snapshot_resumes_exactly_where_the_run_stopped() {
    let source = source(DOC);
    let mut provider = Synthetic::new(&source, 1);
    let mut whole = Run::start(source.clone(), json!({}), RunOptions::default()).unwrap();
    let (whole_trace, _) = drive(&mut whole, &mut provider);

    let mut run = Run::start(source, json!({}), RunOptions::default()).unwrap();
    let first = run.next();
    let Answer::Observed(answer) = provider.answer(&first[0], &mut |_| {}) else {
        panic!()
    };
    run.feed(&first[0].id, answer).unwrap();
    let snapshot = run.snapshot();
    let written = run.take_events().len();
    let mut resumed = Run::resume(&snapshot).unwrap();
    assert_eq!(resumed.events_emitted() as usize, written);
    let (trace, _) = drive(&mut resumed, &mut provider);
    assert_eq!(trace, whole_trace);
}
