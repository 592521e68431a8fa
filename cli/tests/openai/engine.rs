//! The engine's retry policy reacting to what the provider observes over real HTTP, streaming
//! into a run, and a whole example document run through the loopback server giving the same
//! trace shape as a scripted run with the same answers.

use std::time::Duration;

use serde_json::{json, Value};

use crate::loopback::{completion, error, streamed, streamed_text, Loopback, Reply};
use crate::{drive, provider, shape, source, stable, Driven};
use logicmd::run::{Action, ActionKind, Answer, Observation, Provider, Scripted, Synthetic};

/// A one-step document; `retry` and `extra` are YAML lines added under the step.
fn probe(retry: &str, extra: &str) -> String {
    format!(
        "---\nspec_version: \"1.0\"\nname: probe\nreasoning:\n  strategy: cot\n  temperature: 0.3\nsteps:\n  answer:\n    description: Answer with a number\n    output_schema:\n      type: object\n      required: [n]\n      properties:\n        n: {{type: integer}}\n    retry:\n      max_attempts: 3\n      initial_interval: 100ms\n      backoff_coefficient: 2\n      maximum_interval: 1s\n{retry}{extra}---\n"
    )
}

fn run_probe(document: &str, server: &Loopback, stream: bool) -> Driven {
    let mut provider = provider(&server.base_url(), stream, 5_000);
    drive(
        source("probe.logic.md", document, &[]),
        json!({"topic": "tides"}),
        &mut provider,
    )
}

fn events<'a>(trace: &'a [Value], name: &str) -> Vec<&'a Value> {
    trace.iter().filter(|e| e["event"] == name).collect()
}

#[test]
fn a_429_with_retry_after_is_retried_after_at_least_that_long() {
    let server = Loopback::start(vec![
        error(429, "Rate limit reached", &[("Retry-After", "3")]),
        completion("{\"n\": 7}"),
    ]);
    let driven = run_probe(&probe("", ""), &server, false);
    assert!(
        matches!(driven.ending, Some(ActionKind::Complete { ref output }) if output == &json!({"n": 7}))
    );
    let retried = events(&driven.trace, "retried");
    assert_eq!(retried.len(), 1);
    assert!(
        retried[0]["wait_ms"].as_u64().unwrap() >= 3_000,
        "{}",
        retried[0]
    );
    insta::assert_json_snapshot!(stable(&json!(driven.trace), &server.base_url()));
}

#[test]
fn a_401_is_not_retried_and_fails_the_run() {
    let server = Loopback::start(vec![Reply::EchoKey, completion("{\"n\": 1}")]);
    let driven = run_probe(&probe("", ""), &server, false);
    assert_eq!(server.requests().len(), 1, "no second attempt");
    assert!(events(&driven.trace, "retried").is_empty());
    let Some(ActionKind::Fail { error }) = driven.ending else {
        panic!("the run fails: {:?}", driven.ending);
    };
    assert_eq!(
        error,
        "step `answer`: AuthenticationError: HTTP 401 Unauthorized: Incorrect API key provided: [redacted]. You can find your API key at your account page."
    );
}

#[test]
fn non_retryable_errors_are_honoured_by_name() {
    let declared = probe("      non_retryable_errors: [ServerError]\n", "");
    let server = Loopback::start(vec![error(500, "boom", &[]), completion("{\"n\": 1}")]);
    let driven = run_probe(&declared, &server, false);
    assert_eq!(
        server.requests().len(),
        1,
        "a declared non-retryable 500 is not retried"
    );
    assert!(
        matches!(driven.ending, Some(ActionKind::Fail { .. })),
        "{:?}",
        driven.ending
    );

    let server = Loopback::start(vec![error(500, "boom", &[]), completion("{\"n\": 1}")]);
    let driven = run_probe(&probe("", ""), &server, false);
    assert_eq!(server.requests().len(), 2, "otherwise a 500 is retried");
    let retried = events(&driven.trace, "retried");
    assert_eq!(retried[0]["wait_ms"], json!(100));
    assert_eq!(
        retried[0]["reason"],
        json!("ServerError: HTTP 500 Internal Server Error: boom")
    );
    assert!(matches!(driven.ending, Some(ActionKind::Complete { .. })));
}

#[test]
fn invalid_content_is_asked_again_with_the_validation_error_as_feedback() {
    let server = Loopback::start(vec![
        streamed(&["not ", "json"]),
        streamed(&["{\"n\": ", "\"seven\"}"]),
        streamed(&["{\"n\": ", "7}"]),
    ]);
    let driven = run_probe(&probe("", ""), &server, true);
    assert!(
        matches!(driven.ending, Some(ActionKind::Complete { .. })),
        "{:?}",
        driven.ending
    );
    let third = &server.requests()[2].body;
    let messages: Vec<(&str, &str)> = third["messages"]
        .as_array()
        .unwrap()
        .iter()
        .skip(1)
        .map(|m| (m["role"].as_str().unwrap(), m["content"].as_str().unwrap()))
        .collect();
    insta::assert_json_snapshot!(json!(messages));
}

#[test]
fn streamed_tokens_arrive_in_order_and_the_trace_has_usage_and_latency() {
    let server = Loopback::start(vec![streamed(&["{\"n\"", ": ", "4", "2}"])]);
    let driven = run_probe(&probe("", ""), &server, true);
    assert_eq!(driven.tokens, ["{\"n\"", ": ", "4", "2}"]);
    let responded = events(&driven.trace, "model_responded");
    assert_eq!(
        responded[0]["usage"],
        json!({"input_tokens": 11, "output_tokens": 4})
    );
    assert!(responded[0]["latency_ms"].is_u64());
    let sent = &server.requests()[0].body;
    assert_eq!(
        (sent["stream"].clone(), sent["temperature"].clone()),
        (json!(true), json!(0.3))
    );
}

#[test]
fn a_step_timeout_bounds_the_call_and_the_timeout_is_retried() {
    let server = Loopback::start(vec![
        Reply::Slow(
            Duration::from_millis(2_000),
            Box::new(completion("{\"n\": 1}")),
        ),
        completion("{\"n\": 2}"),
    ]);
    let driven = run_probe(&probe("", "    timeout: 300ms\n"), &server, false);
    let retried = events(&driven.trace, "retried");
    assert_eq!(retried.len(), 1);
    assert_eq!(
        retried[0]["reason"],
        json!("Timeout: no complete answer within 300ms")
    );
    assert!(
        matches!(driven.ending, Some(ActionKind::Complete { ref output }) if output == &json!({"n": 2}))
    );
}

#[test]
fn a_cut_stream_is_retried() {
    let mut pieces = crate::loopback::stream_events(&["{\"n\"", ": 1}"]);
    pieces.truncate(2);
    let server = Loopback::start(vec![
        Reply::Stream {
            pieces,
            pause: Duration::ZERO,
            cut: true,
        },
        streamed(&["{\"n\": 1}"]),
    ]);
    let driven = run_probe(&probe("", ""), &server, true);
    let retried = events(&driven.trace, "retried");
    assert_eq!(retried.len(), 1);
    assert!(
        retried[0]["reason"]
            .as_str()
            .unwrap()
            .starts_with("StreamInterrupted: "),
        "{}",
        retried[0]
    );
    assert!(matches!(driven.ending, Some(ActionKind::Complete { .. })));
}

const ANALYST: &str = include_str!("../../../examples/competitive-analyst.logic.md");
const RETRY_DEFAULTS: &str = include_str!("../../../examples/shared/retry-defaults.logic.md");

/// The spec's §11 example (`examples/studio/spec-complete-example.logic.md`) has lint errors
/// (branches to steps it never defines), so it cannot run; the competitive analyst, its
/// corrected sibling, runs instead.
#[test]
fn the_example_through_the_server_with_streaming_has_the_scripted_runs_shape() {
    let analyst = || {
        source(
            "competitive-analyst.logic.md",
            ANALYST,
            &[("shared/retry-defaults.logic.md", RETRY_DEFAULTS)],
        )
    };
    let input = json!({"market_segment": "note-taking apps"});
    // The answers: a synthetic run's (they meet the document's checks), every model call's,
    // self-verification included, as a script keyed by node and attempt.
    let mut recorder = Recorder {
        inner: Synthetic::new(&analyst(), 11),
        answers: Vec::new(),
    };
    let reference = drive(analyst(), input.clone(), &mut recorder);
    assert!(
        matches!(reference.ending, Some(ActionKind::Complete { .. })),
        "{:?}",
        reference.ending
    );
    let script: String = recorder
        .answers
        .iter()
        .map(|(node, attempt, text)| {
            format!(
                "{}\n",
                json!({"node": node, "attempt": attempt, "text": text})
            )
        })
        .collect();
    let answers: Vec<String> = recorder.answers.iter().map(|(_, _, t)| t.clone()).collect();
    let mut scripted = Scripted::parse(&script).expect("a script");
    let scripted_run = drive(analyst(), input.clone(), &mut scripted);
    assert_eq!(shape(&scripted_run.trace), shape(&reference.trace));

    let server = Loopback::start(answers.iter().map(|a| streamed_text(a, 7)).collect());
    let mut provider = provider(&server.base_url(), true, 10_000);
    let served = drive(analyst(), input, &mut provider);

    assert_eq!(server.unused(), 0, "every answer was asked for");
    assert_eq!(server.requests().len(), answers.len(), "and nothing more");
    assert_eq!(
        served.tokens.concat(),
        answers.concat(),
        "streamed in order"
    );
    assert_eq!(shape(&served.trace), shape(&scripted_run.trace));
    assert_eq!(served.ending, scripted_run.ending);
    let responded = events(&served.trace, "model_responded");
    assert!(!responded.is_empty());
    assert!(responded
        .iter()
        .all(|e| e["usage"]["input_tokens"] == json!(11) && e["latency_ms"].is_u64()));
    insta::assert_json_snapshot!(shape(&served.trace));
}

/// A provider that keeps every model answer another gives, keyed by node and attempt.
struct Recorder {
    inner: Synthetic,
    answers: Vec<(String, u32, String)>,
}

impl Provider for Recorder {
    fn answer(&mut self, action: &Action, on_token: &mut dyn FnMut(&str)) -> Answer {
        let answer = self.inner.answer(action, on_token);
        if let (
            ActionKind::CallModel { node, attempt, .. },
            Answer::Observed(Observation::ModelResponse { text, .. }),
        ) = (&action.kind, &answer)
        {
            self.answers.push((node.clone(), *attempt, text.clone()));
        }
        answer
    }
}
