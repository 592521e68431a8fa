use proptest::prelude::*;
use serde_json::{json, Value};

use super::*;
use crate::analysis::Options;
use crate::loader::MemoryLoader;
use crate::run::{prepare, RunOptions, Source};

/// Four members that read the same input at once, then a report on all four.
const FAN: &str = "---\nspec_version: \"1.0\"\nname: fan\nsteps:\n  gather:\n    description: Gather\n    retry:\n      max_attempts: 3\n      initial_interval: 1s\n  m1:\n    description: One\n    needs: [gather]\n  m2:\n    description: Two\n    needs: [gather]\n  m3:\n    description: Three\n    needs: [gather]\n  m4:\n    description: Four\n    needs: [gather]\n  report:\n    description: Report\n    needs: [m1, m2, m3, m4]\n---\n";

const REVIEWED: &str = "---\nspec_version: \"1.0\"\nname: t\nsteps:\n  report:\n    description: r\n    verification:\n      check: \"{{ output.confidence >= 0.7 }}\"\n      on_fail: escalate\nfallback:\n  strategy: escalate\n  escalation:\n    - level: 1\n      trigger: \"{{ confidence < 0.7 }}\"\n      action: request_human_review\n      message: weak\n---\n";

fn source(text: &str) -> Source {
    prepare(text, &Options::lint("a.logic.md"), &MemoryLoader::new()).expect("runs")
}

fn start(text: &str) -> Start {
    Start::new(
        source(text),
        json!({}),
        RunOptions::default(),
        ClockMode::Fixed,
        0,
    )
}

fn answerers(models: Models) -> Answerers {
    Answerers {
        waits: Waits::for_run(&models, ClockMode::Fixed),
        models,
        facts: None,
    }
}

/// What a caller with its own model answers: the synthetic provider's answer, with a latency
/// that depends on the node (so answers finish out of order).
fn model_answer(synthetic: &mut Synthetic, action: &Action) -> Observation {
    let Answer::Observed(Observation::ModelResponse { text, usage, .. }) =
        synthetic.answer(action, &mut |_| {})
    else {
        panic!("the synthetic provider answers model calls: {action:?}");
    };
    let node = action.kind.node().unwrap_or_default();
    let latency = 100 * (5 - node.bytes().last().map_or(0, |b| u64::from(b % 5)));
    Observation::ModelResponse {
        text,
        usage,
        latency_ms: Some(latency),
        served: None,
    }
}

/// Drives `session` to its end as a caller that carries the actions out and answers them in the
/// order `pick` chooses among those in flight; every record is kept in `journal`.
fn drive(
    session: &mut Session,
    synthetic: &mut Synthetic,
    journal: &mut Vec<Record>,
    mut pick: impl FnMut(usize) -> usize,
) -> (Vec<Value>, Action) {
    let mut trace = session.take_events();
    let mut in_flight: Vec<Action> = Vec::new();
    loop {
        let next = session.next(0);
        journal.extend(session.take_records());
        trace.extend(session.take_events());
        match next {
            Next::Act(action) => in_flight.push(action),
            Next::Fed | Next::Breakpoint(_) => {}
            Next::Waiting => {
                let action = in_flight.remove(pick(in_flight.len()));
                let observation = match &action.kind {
                    ActionKind::CallModel { .. } => model_answer(synthetic, &action),
                    ActionKind::Wait { .. } => Observation::Waited,
                    other => panic!("unexpected {other:?}"),
                };
                session
                    .answer(&action.id, Answer::Observed(observation), 0)
                    .unwrap();
                journal.extend(session.take_records());
            }
            Next::Paused(actions) => panic!("paused on {actions:?}"),
            Next::Ended(ending) => return (trace, ending),
        }
    }
}

fn caller_session(text: &str) -> (Session, Synthetic) {
    let start = start(text);
    let synthetic = Synthetic::new(&start.source, 0);
    let mut session = Session::start(start, answerers(Models::Caller)).unwrap();
    session.keep_journal();
    (session, synthetic)
}

#[test]
fn answers_in_any_order_give_the_same_trace_as_answers_in_order() {
    let (mut first, mut synthetic) = caller_session(FAN);
    let (in_order, ending) = drive(&mut first, &mut synthetic, &mut Vec::new(), |_| 0);
    assert!(matches!(ending.kind, ActionKind::Complete { .. }));
    let (mut second, mut synthetic) = caller_session(FAN);
    let (reversed, _) = drive(&mut second, &mut synthetic, &mut Vec::new(), |n| n - 1);
    assert_eq!(reversed, in_order);
}

#[test]
fn the_parallel_members_are_handed_out_together_and_each_starts_when_handed_out() {
    let (mut session, mut synthetic) = caller_session(FAN);
    let (trace, _) = drive(&mut session, &mut synthetic, &mut Vec::new(), |n| n - 1);
    let requested: Vec<(String, u64)> = trace
        .iter()
        .filter(|e| e["event"] == "model_requested")
        .map(|e| {
            (
                e["node"].as_str().unwrap().to_owned(),
                e["t"].as_u64().unwrap(),
            )
        })
        .collect();
    let gather_done = 100 * (5 - u64::from(b'r' % 5));
    assert_eq!(requested[0], ("gather".to_owned(), 0));
    for member in &requested[1..5] {
        assert_eq!(member.1, gather_done, "{member:?}");
    }
    // The members take 100, 500, 400 and 300 ms: the report starts when the slowest is fed.
    assert_eq!(requested[5], ("report".to_owned(), gather_done + 500));
}

#[test]
fn a_model_call_a_script_does_not_answer_is_a_provider_error_the_retry_policy_sees() {
    let script = Scripted::parse("- {node: gather, text: fine}\n").unwrap();
    let mut session = Session::start(start(FAN), answerers(Models::Scripted(script))).unwrap();
    let mut trace = session.take_events();
    let ending = loop {
        match session.next(0) {
            Next::Ended(ending) => break ending,
            Next::Fed => {}
            other => panic!("a scripted run needs nothing of its caller: {other:?}"),
        }
        trace.extend(session.take_events());
    };
    trace.extend(session.take_events());
    let failure = trace
        .iter()
        .find(|e| e["event"] == "model_responded" && e["node"] == "m1")
        .expect("m1 was answered");
    assert_eq!(
        failure["error"],
        json!({"kind": "ProviderError", "message": "the script has no answer for `m1` attempt 1", "retryable": false})
    );
    let ActionKind::Fail { error } = ending.kind else {
        panic!("{ending:?}");
    };
    assert!(error.contains("ProviderError"), "{error}");
}

#[test]
fn a_review_nobody_answers_pauses_and_its_answer_goes_on() {
    let script = Scripted::parse("- {node: report, json: {confidence: 0.2}}\n").unwrap();
    let mut session = Session::start(start(REVIEWED), answerers(Models::Scripted(script))).unwrap();
    let review = loop {
        match session.next(0) {
            Next::Act(action) => break action,
            Next::Fed => {}
            other => panic!("{other:?}"),
        }
    };
    assert!(matches!(review.kind, ActionKind::AskReview { .. }));
    session
        .answer(&review.id, Answer::Unanswered("nobody".into()), 0)
        .unwrap();
    assert_eq!(session.next(0), Next::Paused(vec![review.clone()]));
    let ActionKind::AskReview { actions, .. } = &review.kind else {
        unreachable!()
    };
    let accept = Observation::ReviewAnswer {
        action: actions[0].clone(),
        note: None,
    };
    session
        .answer(&review.id, Answer::Observed(accept), 0)
        .unwrap();
    assert_eq!(session.next(0), Next::Fed);
    assert!(matches!(session.next(0), Next::Ended(_)));
}

#[test]
fn wrong_late_and_repeated_answers() {
    let (mut session, _) = caller_session(FAN);
    let Next::Act(call) = session.next(0) else {
        panic!()
    };
    assert_eq!(
        session
            .answer("a99", Answer::Observed(Observation::Waited), 0)
            .unwrap_err()
            .message,
        "no action `a99` is waiting for an observation"
    );
    assert_eq!(
        session
            .answer(&call.id, Answer::Observed(Observation::Waited), 0)
            .unwrap_err()
            .message,
        format!(
            "the observation does not answer action `{}` (call_model)",
            call.id
        )
    );
    session
        .answer(&call.id, Answer::Observed(Observation::text("x")), 0)
        .unwrap();
    assert_eq!(
        session
            .answer(&call.id, Answer::Observed(Observation::text("y")), 0)
            .unwrap_err()
            .message,
        format!("action `{}` was answered already", call.id)
    );
}

#[test]
fn a_breakpoint_stops_before_the_nodes_first_model_call_once() {
    let mut session = Session::start(start(FAN), answerers(Models::Synthetic)).unwrap();
    session.set_breakpoints(["m2".to_owned()].into());
    let mut stops = Vec::new();
    loop {
        match session.next(0) {
            Next::Breakpoint(action) => stops.push(action.kind.node().unwrap().to_owned()),
            Next::Ended(ending) => {
                assert!(matches!(ending.kind, ActionKind::Complete { .. }));
                break;
            }
            Next::Fed => {}
            other => panic!("{other:?}"),
        }
    }
    assert_eq!(stops, ["m2"]);
}

#[test]
fn nothing_claimed_and_known_facts_are_answered_inside_the_session() {
    let topology = "name: t\nnodes:\n  - id: extract\n    type: generate\n    prompt: List them\n    output_format: json\n    output_key: claims\n  - id: verify\n    type: verify\n    input: extract.claims\n    rules:\n      - {id: std.check_existence, target: names, mode: block}\n      - {id: std.check_links, target: urls, mode: block}\n    output_key: report\nedges:\n  - {from: extract, to: verify}\n";
    let source = prepare(
        topology,
        &Options::lint("t.drtl.yaml"),
        &MemoryLoader::new(),
    )
    .expect("the topology runs");
    let script = Scripted::parse("- {node: extract, json: {names: [Notion], urls: []}}\n").unwrap();
    let mut session = Session::start(
        Start::new(
            source,
            json!({}),
            RunOptions::default(),
            ClockMode::Fixed,
            0,
        ),
        Answerers {
            models: Models::Scripted(script),
            waits: Waits::Instant,
            facts: Some(Facts::parse("names: [notion]").unwrap()),
        },
    )
    .unwrap();
    let mut trace = Vec::new();
    loop {
        match session.next(0) {
            Next::Ended(_) => break,
            Next::Fed => {}
            other => panic!("the session answers every tool here: {other:?}"),
        }
        trace.extend(session.take_events());
    }
    let verdicts: Vec<(&Value, &Value)> = trace
        .iter()
        .filter(|e| e["event"] == "obligation_updated")
        .map(|e| (&e["status"], &e["evidence"]))
        .collect();
    assert_eq!(
        verdicts,
        [
            (
                &json!("satisfied"),
                &json!({"known": ["Notion"], "unknown": []})
            ),
            (
                &json!("satisfied"),
                &json!("nothing to check: no value is claimed")
            )
        ]
    );
}

/// The records a whole run writes, and its trace.
fn whole_run(order: &[usize]) -> (Vec<Record>, Vec<Value>, Start) {
    let start = start(FAN);
    let (mut session, mut synthetic) = caller_session(FAN);
    let mut journal = Vec::new();
    let mut picks = order.iter().copied().cycle();
    let (trace, _) = drive(&mut session, &mut synthetic, &mut journal, |n| {
        picks.next().unwrap_or(0) % n
    });
    (journal, trace, start)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Answers arriving in any order, the session stopped after any record: restoring from the
    /// records written so far hands out again only what was never answered, and the run ends
    /// with the very trace of the run that never stopped.
    #[test]
    fn a_stop_at_any_record_repeats_no_answered_call_and_changes_no_byte(
        order in prop::collection::vec(0usize..8, 1..12),
        cut in 0usize..64,
    ) {
        let (journal, whole_trace, start) = whole_run(&order);
        let cut = cut % (journal.len() + 1);
        let kept = &journal[..cut];
        let answered: BTreeSet<String> = kept
            .iter()
            .filter_map(|r| match r {
                Record::Answered { id, .. } => Some(id.clone()),
                Record::Fed { id, observation: None, .. } => Some(id.clone()),
                _ => None,
            })
            .collect();
        let mut restored = Session::restore(start.clone(), kept.to_vec(), answerers(Models::Caller)).unwrap();
        restored.keep_journal();
        let mut synthetic = Synthetic::new(&start.source, 0);
        let mut asked = Vec::new();
        let mut picks = order.iter().copied().cycle();
        let mut trace = restored.take_events();
        let mut in_flight: Vec<Action> = Vec::new();
        let mut rest = Vec::new();
        loop {
            let next = restored.next(0);
            rest.extend(restored.take_records());
            trace.extend(restored.take_events());
            match next {
                Next::Act(action) => {
                    asked.push(action.id.clone());
                    in_flight.push(action);
                }
                Next::Fed | Next::Breakpoint(_) => {}
                Next::Waiting => {
                    let action = in_flight.remove(picks.next().unwrap_or(0) % in_flight.len());
                    let observation = match &action.kind {
                        ActionKind::CallModel { .. } => model_answer(&mut synthetic, &action),
                        _ => Observation::Waited,
                    };
                    restored.answer(&action.id, Answer::Observed(observation), 0).unwrap();
                }
                Next::Paused(_) => prop_assert!(false, "paused"),
                Next::Ended(_) => break,
            }
        }
        for id in &asked {
            prop_assert!(!answered.contains(id), "{id} was answered before the stop and asked again");
        }
        prop_assert_eq!(trace, whole_trace);
    }
}

#[test]
fn a_snapshot_keeps_the_answers_given_and_not_yet_fed() {
    let (mut session, mut synthetic) = caller_session(FAN);
    let Next::Act(gather) = session.next(0) else {
        panic!()
    };
    let answer = model_answer(&mut synthetic, &gather);
    session
        .answer(&gather.id, Answer::Observed(answer), 0)
        .unwrap();
    let snapshot = session.snapshot();
    assert_eq!(snapshot["session"]["answered"][0]["id"], json!(gather.id));
    let mut resumed = Session::resume(&snapshot, answerers(Models::Caller)).unwrap();
    assert_eq!(
        resumed.next(0),
        Next::Fed,
        "the answer is fed, not asked for"
    );
}

/// A session moves between threads (the Python package's runs are used from any thread).
#[test]
fn a_session_is_send() {
    fn send<T: Send>() {}
    send::<Session>();
    send::<super::super::Run>();
}
