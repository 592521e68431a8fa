//! Every way a call can end, through a real HTTP exchange, and what is sent.

use std::net::TcpListener;
use std::time::Duration;

use serde_json::{json, Value};

use crate::loopback::{self, completion, error, streamed, Loopback, Reply};
use crate::{ask, model_call, provider, stable};
use logicmd::run::Observation;

fn schema() -> Value {
    json!({"type": "object", "required": ["n"], "properties": {"n": {"type": "integer"}}})
}

/// One call against a server that answers with `reply`: the observation (stable for
/// snapshots) and the tokens streamed.
fn outcome(reply: Reply, stream: bool, timeout_ms: u64) -> Value {
    let server = Loopback::start(vec![reply]);
    let mut provider = provider(&server.base_url(), stream, timeout_ms);
    let (observation, tokens) = ask(&mut provider, &model_call("probe", Some(schema()), None));
    let mut value = serde_json::to_value(&observation).expect("observations serialise");
    if !tokens.is_empty() {
        value["tokens"] = json!(tokens);
    }
    stable(&value, &server.base_url())
}

fn cut_stream() -> Reply {
    let mut pieces = loopback::stream_events(&["{\"n\"", ": 4", "2}"]);
    pieces.truncate(3);
    Reply::Stream {
        pieces,
        pause: Duration::ZERO,
        cut: true,
    }
}

#[test]
fn every_way_a_call_ends_is_an_answer_or_the_right_failure() {
    let mut without_done = loopback::stream_events(&["{\"n\": 1}"]);
    without_done.pop();
    let slow_stream = Reply::Stream {
        pieces: loopback::stream_events(&["{", "\"n\"", ":", "1", "}"]),
        // The first event arrives at once, the next long after the limit.
        pause: Duration::from_millis(1_000),
        cut: false,
    };
    let cases: Vec<(&str, Value)> = vec![
        ("json answer", outcome(completion("{\"n\": 1}"), false, 5_000)),
        ("streamed answer", outcome(streamed(&["{\"n\"", ": 4", "2}"]), true, 5_000)),
        ("server ignores stream and answers JSON", outcome(completion("{\"n\": 3}"), true, 5_000)),
        ("schema-invalid content is still an answer", outcome(completion("{\"n\": \"three\"}"), false, 5_000)),
        ("content that is not JSON is still an answer", outcome(completion("Sure! n is 3."), false, 5_000)),
        ("429 with Retry-After seconds", outcome(error(429, "Rate limit reached for requests", &[("Retry-After", "2")]), false, 5_000)),
        ("429 exhausted quota", outcome(Reply::Body { status: 429, headers: vec![], body: json!({"error": {"message": "You exceeded your current quota", "code": "insufficient_quota"}}).to_string() }, false, 5_000)),
        ("500", outcome(error(500, "The server had an error while processing your request", &[]), false, 5_000)),
        ("503 with retry-after-ms", outcome(error(503, "overloaded", &[("retry-after-ms", "1500")]), false, 5_000)),
        ("401 echoing the key", outcome(Reply::EchoKey, false, 5_000)),
        ("403", outcome(error(403, "Project does not have access to model", &[]), false, 5_000)),
        ("404", outcome(error(404, "model 'loopback-model' not found", &[]), false, 5_000)),
        ("422", outcome(error(422, "temperature must be at most 2", &[]), false, 5_000)),
        ("400", outcome(error(400, "max_tokens is too large", &[]), false, 5_000)),
        ("malformed body", outcome(Reply::Body { status: 200, headers: vec![], body: "<html><body>502 Bad Gateway</body></html>".into() }, false, 5_000)),
        ("200 without choices", outcome(Reply::Body { status: 200, headers: vec![], body: "{\"object\": \"chat.completion\"}".into() }, false, 5_000)),
        ("slow response past the timeout", outcome(Reply::Slow(Duration::from_millis(1_500), Box::new(completion("{\"n\": 1}"))), false, 300)),
        ("slow stream past the timeout", outcome(slow_stream, true, 300)),
        ("stream cut midway", outcome(cut_stream(), true, 5_000)),
        ("stream ends without [DONE]", outcome(Reply::Stream { pieces: without_done, pause: Duration::ZERO, cut: false }, true, 5_000)),
        ("error event inside the stream", outcome(Reply::Stream { pieces: vec!["data: {\"error\": {\"message\": \"model overloaded\", \"type\": \"server_error\"}}\n\n".into()], pause: Duration::ZERO, cut: false }, true, 5_000)),
        ("stream event that is not JSON", outcome(Reply::Stream { pieces: vec!["data: {\"choices\": [{\"delta\": \n\n".into()], pause: Duration::ZERO, cut: false }, true, 5_000)),
        ("connection closed without an answer", outcome(Reply::Close, false, 5_000)),
    ];
    let table: serde_json::Map<String, Value> = cases
        .into_iter()
        .map(|(name, v)| (name.to_owned(), v))
        .collect();
    insta::assert_json_snapshot!(Value::Object(table));
}

#[test]
fn a_refused_connection_is_a_retryable_connection_error() {
    let port = {
        let listener = TcpListener::bind("127.0.0.1:0").expect("a free port");
        listener.local_addr().expect("an address").port()
    };
    let base = format!("http://127.0.0.1:{port}/v1");
    let mut provider = provider(&base, false, 2_000);
    let (observation, _) = ask(&mut provider, &model_call("probe", None, None));
    insta::assert_json_snapshot!(stable(&serde_json::to_value(observation).unwrap(), &base), @r#"
    {
      "observation": "model_error",
      "kind": "ConnectionError",
      "message": "could not connect to [BASE_URL]: connection refused (is the server running?)",
      "retryable": true
    }
    "#);
}

#[test]
fn retry_after_as_an_http_date_is_a_wait_from_now() {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    let date = http_date(now + 30);
    let server = Loopback::start(vec![error(429, "slow down", &[("Retry-After", &date)])]);
    let mut provider = provider(&server.base_url(), false, 5_000);
    let (observation, _) = ask(&mut provider, &model_call("probe", None, None));
    let Observation::ModelError(failure) = observation else {
        panic!("a 429 is a failure: {observation:?}");
    };
    let wait = failure.retry_after_ms.expect("the date is read");
    assert!((27_000..=30_000).contains(&wait), "{wait} ms for {date}");
}

/// IMF-fixdate for a Unix time (what servers send).
fn http_date(unix: u64) -> String {
    let days = unix / 86_400;
    let seconds = unix % 86_400;
    // Civil from days (Howard Hinnant), for the test's own clock.
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    let months = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    let weekdays = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"];
    format!(
        "{}, {day:02} {} {year} {:02}:{:02}:{:02} GMT",
        weekdays[(days % 7) as usize],
        months[(month - 1) as usize],
        seconds / 3_600,
        seconds % 3_600 / 60,
        seconds % 60
    )
}

#[test]
fn what_is_sent_is_the_protocol_request() {
    let server = Loopback::start(vec![streamed(&["{\"n\": 1}"]), completion("{\"n\": 2}")]);
    let mut streaming = provider(&server.base_url(), true, 5_000);
    ask(&mut streaming, &model_call("gather", Some(schema()), None));
    let mut whole = provider(&server.base_url(), false, 5_000);
    ask(&mut whole, &model_call("write", None, None));
    let requests = server.requests();
    assert_eq!(requests.len(), 2);
    for request in &requests {
        assert_eq!(request.method, "POST");
        assert_eq!(request.path, "/v1/chat/completions");
        assert_eq!(
            request.header("authorization"),
            Some(format!("Bearer {}", crate::KEY).as_str())
        );
        assert_eq!(request.header("content-type"), Some("application/json"));
    }
    assert_eq!(requests[0].header("accept"), Some("text/event-stream"));
    assert_eq!(requests[1].header("accept"), Some("application/json"));
    insta::assert_json_snapshot!(json!([requests[0].body, requests[1].body]));
}

#[test]
fn a_server_that_refuses_response_format_is_asked_again_without_it_once() {
    let refusal = error(
        400,
        "'response_format.type' must be 'json_schema' or 'text'",
        &[],
    );
    let server = Loopback::start(vec![
        refusal.clone(),
        completion("{\"n\": 1}"),
        completion("{\"n\": 2}"),
        refusal,
    ]);
    let mut provider = provider(&server.base_url(), false, 5_000);
    let (first, _) = ask(&mut provider, &model_call("gather", Some(schema()), None));
    assert!(
        matches!(first, Observation::ModelResponse { ref text, .. } if text == "{\"n\": 1}"),
        "{first:?}"
    );
    let (second, _) = ask(&mut provider, &model_call("gather", Some(schema()), None));
    assert!(
        matches!(second, Observation::ModelResponse { ref text, .. } if text == "{\"n\": 2}"),
        "{second:?}"
    );
    // Without `response_format`, a server's 400 about it is an ordinary failure.
    let (third, _) = ask(&mut provider, &model_call("gather", Some(schema()), None));
    let Observation::ModelError(failure) = third else {
        panic!("{third:?}");
    };
    assert_eq!(
        (failure.kind.as_str(), failure.retryable),
        ("BadRequestError", false)
    );
    let formats: Vec<Value> = server
        .requests()
        .iter()
        .map(|r| {
            r.body
                .get("response_format")
                .cloned()
                .unwrap_or(Value::Null)
        })
        .collect();
    assert_eq!(formats[0]["json_schema"]["strict"], json!(true));
    assert_eq!(&formats[1..], [Value::Null, Value::Null, Value::Null]);
    let system = server.requests()[1].body["messages"][0]["content"].clone();
    insta::assert_json_snapshot!(system, @r###""## Step: gather\n\nRespond with a single JSON value that conforms to this JSON Schema, with no text before or after it:\n\n```json\n{\n  \"type\": \"object\",\n  \"required\": [\n    \"n\"\n  ],\n  \"properties\": {\n    \"n\": {\n      \"type\": \"integer\"\n    }\n  }\n}\n```""###);
}

#[test]
fn calls_share_one_kept_alive_connection_streamed_or_not() {
    let server = Loopback::start(vec![
        streamed(&["{\"n\": 1}"]),
        completion("{\"n\": 2}"),
        streamed(&["{\"n\": 3}"]),
    ]);
    let mut streaming = provider(&server.base_url(), true, 5_000);
    for _ in 0..3 {
        let (observation, _) = ask(&mut streaming, &model_call("probe", Some(schema()), None));
        assert!(
            matches!(observation, Observation::ModelResponse { .. }),
            "{observation:?}"
        );
    }
    assert_eq!((server.requests().len(), server.connections()), (3, 1));
}

#[test]
fn the_step_timeout_wins_over_the_default() {
    let server = Loopback::start(vec![Reply::Slow(
        Duration::from_millis(2_000),
        Box::new(completion("{\"n\": 1}")),
    )]);
    let mut provider = provider(&server.base_url(), false, 60_000);
    let started = std::time::Instant::now();
    let (observation, _) = ask(&mut provider, &model_call("probe", None, Some(250)));
    let took = started.elapsed();
    let Observation::ModelError(failure) = observation else {
        panic!("{observation:?}");
    };
    assert_eq!(failure.message, "no complete answer within 250ms");
    assert!(took < Duration::from_millis(1_500), "{took:?}");
}

#[test]
fn other_actions_are_left_to_the_driver() {
    let mut provider = provider("http://127.0.0.1:9/v1", false, 1_000);
    let review = logicmd::run::Action {
        id: "a9".into(),
        kind: logicmd::run::ActionKind::AskReview {
            node: "gate".into(),
            input: Value::Null,
            message: None,
            actions: vec!["accept".into()],
        },
    };
    let wait = logicmd::run::Action {
        id: "a10".into(),
        kind: logicmd::run::ActionKind::Wait {
            node: "step".into(),
            ms: 3_000,
        },
    };
    let answers: Vec<logicmd::run::Answer> = [review, wait]
        .iter()
        .map(|action| logicmd::run::Provider::answer(&mut provider, action, &mut |_| {}))
        .collect();
    assert_eq!(
        answers,
        [
            logicmd::run::Answer::Unanswered(
                "the OpenAI-compatible provider answers model calls only, not `review at gate`".into()
            ),
            logicmd::run::Answer::Unanswered(
                "the OpenAI-compatible provider answers model calls only, not `a wait of 3000 ms at step`".into()
            ),
        ]
    );
}
