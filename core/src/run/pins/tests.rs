use serde_json::{json, Value};

use crate::analysis::Options;
use crate::loader::MemoryLoader;
use crate::run::{
    downstream, prepare, rerun_pins, Action, ActionKind, Answer, Provider, Run, RunOptions, Source,
    Synthetic,
};

/// Runs to the end with the synthetic provider; the whole trace.
fn drive(mut run: Run, source: &Source) -> Vec<Value> {
    let mut provider = Synthetic::new(source, 0);
    let mut trace = run.take_events();
    'run: loop {
        let actions = run.next();
        if actions.is_empty() {
            break;
        }
        for action in actions {
            if action.kind.is_terminal() {
                break 'run;
            }
            if !run.is_outstanding(&action.id) {
                continue;
            }
            match provider.answer(&action, &mut |_| {}) {
                Answer::Observed(observation) => run.feed(&action.id, observation).unwrap(),
                Answer::Unanswered(reason) => panic!("{reason}"),
            }
        }
    }
    trace.extend(run.take_events());
    trace
}

fn run_with(source: &Source, pins: std::collections::BTreeMap<String, Value>) -> Vec<Value> {
    let options = RunOptions {
        pins,
        ..RunOptions::default()
    };
    let run = Run::start(source.clone(), json!({"topic": "x"}), options).expect("starts");
    drive(run, source)
}

/// `node: what happened` per event that is about a node's work: model calls and finishes
/// (pinned ones say so).
fn work(trace: &[Value]) -> Vec<String> {
    trace
        .iter()
        .filter_map(|e| {
            let node = e.get("node")?.as_str()?;
            match e["event"].as_str()? {
                "model_requested" => Some(format!("{node}: model call")),
                "node_finished" if e.get("pinned") == Some(&json!(true)) => {
                    Some(format!("{node}: pinned"))
                }
                "node_finished" => Some(format!("{node}: finished")),
                _ => None,
            }
        })
        .collect()
}

fn outputs(trace: &[Value]) -> Vec<(String, Value)> {
    trace
        .iter()
        .filter(|e| e["event"] == "node_finished")
        .map(|e| {
            (
                e["node"].as_str().unwrap_or("").to_owned(),
                e["output"].clone(),
            )
        })
        .collect()
}

fn logic(text: &str) -> Source {
    prepare(text, &Options::lint("a.logic.md"), &MemoryLoader::new()).expect("runs")
}

/// a → b → c, and d after a only.
const CHAIN: &str = "---\nspec_version: \"1.0\"\nname: t\nsteps:\n  a:\n    description: a\n  b:\n    description: b\n    needs: [a]\n  c:\n    description: c\n    needs: [b]\n  d:\n    description: d\n    needs: [a]\n---\n";

#[test]
fn running_from_a_step_calls_the_model_only_for_it_and_what_depends_on_it() {
    let source = logic(CHAIN);
    let first = run_with(&source, Default::default());
    let pins = rerun_pins(&source, &first, "b").unwrap();
    assert_eq!(pins.keys().collect::<Vec<_>>(), ["a", "d"]);
    let again = run_with(&source, pins);
    insta::assert_debug_snapshot!(work(&again), @r#"
    [
        "a: pinned",
        "b: model call",
        "d: pinned",
        "b: finished",
        "c: model call",
        "c: finished",
    ]
    "#);
    // The pinned steps give back exactly what they gave before.
    let before: Vec<_> = outputs(&first)
        .into_iter()
        .filter(|(n, _)| n == "a" || n == "d")
        .collect();
    let after: Vec<_> = outputs(&again)
        .into_iter()
        .filter(|(n, _)| n == "a" || n == "d")
        .collect();
    assert_eq!(before, after);
}

#[test]
fn a_pinned_step_hands_its_pin_to_what_needs_it() {
    let source = logic(CHAIN);
    let pins = [("a".to_owned(), json!({"edited": "by hand"}))].into();
    let trace = run_with(&source, pins);
    let b_started = trace
        .iter()
        .find(|e| e["event"] == "node_started" && e["node"] == "b")
        .unwrap();
    assert_eq!(
        b_started["inputs"]["steps"]["a"],
        json!({"edited": "by hand"})
    );
    let b_request = trace
        .iter()
        .find(|e| e["event"] == "model_requested" && e["node"] == "b")
        .unwrap();
    assert!(b_request["request"].to_string().contains("by hand"));
}

#[test]
fn downstream_follows_needs_and_branches_not_what_came_before() {
    let source = logic(CHAIN);
    let set = |from| {
        downstream(&source, from)
            .unwrap()
            .into_iter()
            .collect::<Vec<_>>()
    };
    assert_eq!(set("a"), ["a", "b", "c", "d"]);
    assert_eq!(set("b"), ["b", "c"]);
    assert_eq!(set("d"), ["d"]);
    let branches = logic("---\nspec_version: \"1.0\"\nname: t\nsteps:\n  triage:\n    description: t\n    branches:\n      - if: \"{{ output.urgent == true }}\"\n        then: fast\n      - default: true\n        then: slow\n  fast:\n    description: f\n  slow:\n    description: s\n  after:\n    description: x\n    needs: [slow]\n---\n");
    let from = downstream(&branches, "triage").unwrap();
    assert_eq!(
        from.into_iter().collect::<Vec<_>>(),
        ["after", "fast", "slow", "triage"]
    );
    assert_eq!(
        downstream(&branches, "nowhere").unwrap_err().message,
        "cannot run from `nowhere`: the document has no such node"
    );
}

fn workflow() -> Source {
    let node = "---\nspec_version: \"1.0\"\nname: n\nsteps:\n  gather:\n    description: g\n  write:\n    description: w\n    needs: [gather]\n---\n";
    let main = "---\nspec_version: \"1.0\"\nname: w\nnodes:\n  research:\n    logic_ref: ./node.logic.md\n  publish:\n    logic_ref: ./node.logic.md\n    depends_on: [research]\n  audit:\n    logic_ref: ./node.logic.md\n---\n";
    let loader = MemoryLoader::new().with("node.logic.md", node);
    prepare(main, &Options::lint("main.logic.md"), &loader).expect("runs")
}

#[test]
fn running_one_step_of_a_workflow_node_again_keeps_the_node_s_other_steps_pinned() {
    let source = workflow();
    let first = run_with(&source, Default::default());
    let pins = rerun_pins(&source, &first, "research/write").unwrap();
    // `audit` is pinned whole (its steps need no pins); research's `gather` stays pinned.
    assert_eq!(
        pins.keys().collect::<Vec<_>>(),
        ["audit", "research/gather"]
    );
    let again = run_with(&source, pins);
    insta::assert_debug_snapshot!(work(&again), @r#"
    [
        "research/gather: pinned",
        "research/write: model call",
        "audit: pinned",
        "research/write: finished",
        "research: finished",
        "publish/gather: model call",
        "publish/gather: finished",
        "publish/write: model call",
        "publish/write: finished",
        "publish: finished",
    ]
    "#);
}

#[test]
fn downstream_of_a_workflow_node_is_all_its_steps_and_the_nodes_after_it() {
    let source = workflow();
    let set: Vec<String> = downstream(&source, "research")
        .unwrap()
        .into_iter()
        .collect();
    assert_eq!(
        set,
        [
            "publish",
            "publish/gather",
            "publish/write",
            "research",
            "research/gather",
            "research/write"
        ]
    );
}

fn drtl(text: &str) -> Source {
    prepare(text, &Options::lint("t.drtl.yaml"), &MemoryLoader::new()).expect("runs")
}

const GATED: &str = "name: gated\nnodes:\n  - id: assess\n    type: generate\n    prompt: Score it as JSON.\n    output_format: json\n    output_key: assessment\n  - id: good_enough\n    type: gate\n    input: assess.assessment\n    condition: input.score >= 0.8\n    on_pass: finish\n    on_fail: {next: editor}\n  - id: editor\n    type: review\n    input: assess.assessment\n    actions: [accept_anyway, reject]\n  - id: finish\n    type: transform\n    operations:\n      - {set: state.variables.done, value: true}\nedges:\n  - {from: assess, to: good_enough}\n";

#[test]
fn a_pinned_generate_node_routes_through_the_gate_which_still_runs() {
    let source = drtl(GATED);
    let pins = [("assess".to_owned(), json!({"score": 0.9}))].into();
    let trace = run_with(&source, pins);
    insta::assert_debug_snapshot!(work(&trace), @r#"
    [
        "assess: pinned",
        "good_enough: finished",
        "finish: finished",
    ]
    "#);
}

#[test]
fn nodes_that_check_or_route_cannot_be_pinned() {
    let refused = |source: &Source, id: &str| {
        let options = RunOptions {
            pins: [(id.to_owned(), json!(true))].into(),
            ..RunOptions::default()
        };
        match Run::start(source.clone(), json!({}), options) {
            Err(error) => error.message,
            Ok(_) => "started".to_owned(),
        }
    };
    let gated = drtl(GATED);
    assert_eq!(
        refused(&gated, "good_enough"),
        "cannot pin `good_enough`: a gate node checks or routes, and a pinned result would fake it; it always runs"
    );
    assert_eq!(
        refused(&gated, "editor"),
        "cannot pin `editor`: a review node checks or routes, and a pinned result would fake it; it always runs"
    );
    assert_eq!(
        refused(&logic(CHAIN), "zz"),
        "cannot pin `zz`: the document has no such node"
    );
}

#[test]
fn a_snapshot_keeps_the_pins_and_resumes_with_them() {
    let source = logic(CHAIN);
    let pins: std::collections::BTreeMap<String, Value> =
        [("a".to_owned(), json!("pinned a"))].into();
    let options = RunOptions {
        pins: pins.clone(),
        ..RunOptions::default()
    };
    let mut run = Run::start(source.clone(), json!({}), options).unwrap();
    let first: Vec<Action> = run.next();
    let mut provider = Synthetic::new(&source, 0);
    let call = first
        .iter()
        .find(|a| matches!(a.kind, ActionKind::CallModel { .. }))
        .unwrap();
    if let Answer::Observed(observation) = provider.answer(call, &mut |_| {}) {
        run.feed(&call.id, observation).unwrap();
    }
    let snapshot = run.snapshot();
    assert_eq!(snapshot["options"]["pins"], json!({"a": "pinned a"}));
    let resumed = Run::resume(&snapshot).unwrap();
    let trace = drive(resumed, &source);
    assert_eq!(work(&trace).first().map(String::as_str), Some("a: pinned"));
    assert!(!work(&trace).contains(&"a: model call".to_owned()));
}

/// A document of `needs` lists: step `s{i}` needs the earlier steps listed for it.
fn dag(needs: &[Vec<usize>]) -> String {
    let mut text = String::from("---\nspec_version: \"1.0\"\nname: t\nsteps:\n");
    for (i, before) in needs.iter().enumerate() {
        text.push_str(&format!("  s{i}:\n    description: step {i}\n"));
        if !before.is_empty() {
            let names: Vec<String> = before.iter().map(|b| format!("s{b}")).collect();
            text.push_str(&format!("    needs: [{}]\n", names.join(", ")));
        }
    }
    text + "---\n"
}

fn needs_strategy() -> impl proptest::strategy::Strategy<Value = Vec<Vec<usize>>> {
    use proptest::prelude::*;
    (2usize..7).prop_flat_map(|n| {
        (0..n)
            .map(|i| proptest::sample::subsequence((0..i).collect::<Vec<_>>(), 0..=i))
            .collect::<Vec<_>>()
    })
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(24))]

    /// Running again from any step: exactly the steps downstream of it call the model, every
    /// other step finishes pinned to the output it had.
    #[test]
    fn running_from_any_step_calls_exactly_its_downstream(needs in needs_strategy(), pick in 0usize..7) {
        let source = logic(&dag(&needs));
        let first = run_with(&source, Default::default());
        let from = format!("s{}", pick % needs.len());
        let again = run_with(&source, rerun_pins(&source, &first, &from).unwrap());
        let called: std::collections::BTreeSet<String> = again
            .iter()
            .filter(|e| e["event"] == "model_requested")
            .filter_map(|e| e["node"].as_str().map(str::to_owned))
            .collect();
        proptest::prop_assert_eq!(&called, &downstream(&source, &from).unwrap());
        for (node, output) in outputs(&again) {
            if !called.contains(&node) {
                let before = outputs(&first).into_iter().find(|(n, _)| *n == node).map(|(_, o)| o);
                proptest::prop_assert_eq!(Some(output), before);
            }
        }
    }
}
