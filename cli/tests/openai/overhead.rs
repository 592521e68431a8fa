//! Provider overhead per request over loopback: a timed loop, not an assertion (run with
//! `cargo test --release -p logicmd-cli --test openai overhead -- --ignored --nocapture`).
//! The server answers at once, so the time is the provider's: building the body, HTTP over a
//! kept-alive loopback connection, reading and parsing the answer.

use std::time::Instant;

use crate::loopback::{completion, streamed_text, Loopback, Reply};
use crate::{ask, model_call, provider};

const ROUNDS: usize = 500;

fn median_micros(replies: Vec<Reply>, stream: bool) -> (u128, u128) {
    let server = Loopback::start(replies);
    let mut provider = provider(&server.base_url(), stream, 10_000);
    let schema = serde_json::json!({"type": "object", "required": ["n"], "properties": {"n": {"type": "integer"}}});
    let action = model_call("probe", Some(schema), None);
    let mut times: Vec<u128> = (0..ROUNDS)
        .map(|_| {
            let started = Instant::now();
            ask(&mut provider, &action);
            started.elapsed().as_micros()
        })
        .collect();
    times.sort_unstable();
    (times[ROUNDS / 2], times[ROUNDS * 9 / 10])
}

#[test]
#[ignore = "a measurement: run on demand with --ignored --nocapture"]
fn provider_overhead_per_request() {
    let answer = "{\"n\": 42, \"note\": \"a short structured answer of about a hundred characters for the loop\"}";
    let (json_median, json_p90) =
        median_micros((0..ROUNDS).map(|_| completion(answer)).collect(), false);
    let (sse_median, sse_p90) = median_micros(
        (0..ROUNDS).map(|_| streamed_text(answer, 4)).collect(),
        true,
    );
    let whole_stream = || Reply::Stream {
        pieces: vec![crate::loopback::stream_events(
            &answer
                .chars()
                .collect::<Vec<_>>()
                .chunks(4)
                .map(|c| c.iter().collect::<String>())
                .collect::<Vec<_>>()
                .iter()
                .map(String::as_str)
                .collect::<Vec<_>>(),
        )
        .concat()],
        pause: std::time::Duration::ZERO,
        cut: false,
    };
    let (one_write_median, one_write_p90) =
        median_micros((0..ROUNDS).map(|_| whole_stream()).collect(), true);
    println!("provider overhead per request over loopback ({ROUNDS} requests each):");
    println!("  JSON answer:              median {json_median} µs, p90 {json_p90} µs");
    println!(
        "  SSE answer (24 deltas), one event per write: median {sse_median} µs, p90 {sse_p90} µs"
    );
    println!("  SSE answer (24 deltas), one write:           median {one_write_median} µs, p90 {one_write_p90} µs");
}
