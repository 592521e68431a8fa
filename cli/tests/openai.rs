//! The OpenAI-compatible provider (`cli/src/providers`) against a real HTTP server on
//! 127.0.0.1 that speaks the protocol (`loopback`): every error path, what is sent, streaming,
//! the engine's retry policy reacting to the provider's failures, a whole document run, the
//! settings, and the key never leaving. The provider module is compiled into this test (the
//! CLI is a binary; `logicmd run` wires the provider in), so no part of the client is mocked.

#[path = "../src/providers/mod.rs"]
#[allow(dead_code, unused_imports)]
mod providers;

mod loopback;

#[path = "openai/binary.rs"]
mod binary;
#[path = "openai/engine.rs"]
mod engine;
#[path = "openai/errors.rs"]
mod errors;
#[path = "openai/overhead.rs"]
mod overhead;
#[path = "openai/secrets.rs"]
mod secrets;
#[path = "openai/settings.rs"]
mod settings;

use logicmd::analysis::Options;
use logicmd::loader::MemoryLoader;
use logicmd::run::openai::Secret;
use logicmd::run::{
    prepare, Action, ActionKind, Answer, Message, ModelRequest, Observation, Provider, Run,
    RunOptions, Source,
};
use serde_json::Value;

use providers::{OpenAiProvider, Resolved};

/// A key no output may contain.
pub const KEY: &str = "sk-loopback-SECRET-7f3a9c2e1b";

/// A provider for `base_url`: streaming or not, with a default time limit.
pub fn provider(base_url: &str, stream: bool, timeout_ms: u64) -> OpenAiProvider {
    OpenAiProvider::new(Resolved {
        base_url: base_url.to_owned(),
        model: Some("loopback-model".to_owned()),
        model_overrides_document: false,
        api_key: Secret::new(KEY),
        timeout_ms,
        stream,
    })
}

/// A model call for `node` asking for `schema` (or free text).
pub fn model_call(node: &str, schema: Option<Value>, timeout_ms: Option<u64>) -> Action {
    Action {
        id: "a1".to_owned(),
        kind: ActionKind::CallModel {
            node: node.to_owned(),
            attempt: 1,
            request: ModelRequest {
                system: format!("## Step: {node}"),
                messages: vec![Message::user("Input: {\"topic\": \"tides\"}")],
                json: schema.is_some(),
                response_schema: schema,
                temperature: Some(0.2),
                max_tokens: Some(256),
                allowed_tools: Vec::new(),
                model: None,
            },
            timeout_ms,
        },
    }
}

/// Asks once; the observation and the tokens streamed on the way.
pub fn ask(provider: &mut OpenAiProvider, action: &Action) -> (Observation, Vec<String>) {
    let mut tokens = Vec::new();
    let answer = provider.answer(action, &mut |token| tokens.push(token.to_owned()));
    match answer {
        Answer::Observed(observation) => (observation, tokens),
        Answer::Unanswered(reason) => panic!("a model call is always answered: {reason}"),
    }
}

/// A document ready to run; `files` are the other files it imports.
pub fn source(name: &str, text: &str, files: &[(&str, &str)]) -> Source {
    let mut loader = MemoryLoader::new();
    for (path, contents) in files {
        loader.insert(path, *contents).expect("a loader path");
    }
    prepare(text, &Options::lint(name), &loader).unwrap_or_else(|d| panic!("{name} runs: {d:#?}"))
}

/// How a driven run ended.
pub struct Driven {
    pub trace: Vec<Value>,
    pub ending: Option<ActionKind>,
    pub tokens: Vec<String>,
}

/// Runs to the end with `provider`, as `logicmd run` does: every action handed out is carried
/// out, waits advance the driver's clock (no real sleeping), streamed tokens are collected.
pub fn drive(source: Source, input: Value, provider: &mut dyn Provider) -> Driven {
    let mut run = Run::start(source, input, RunOptions::default()).expect("the run starts");
    let mut trace = run.take_events();
    let mut tokens = Vec::new();
    let mut clock = 0;
    loop {
        let actions = run.next();
        if actions.is_empty() {
            trace.extend(run.take_events());
            return Driven {
                trace,
                ending: None,
                tokens,
            };
        }
        for action in actions {
            if action.kind.is_terminal() {
                trace.extend(run.take_events());
                return Driven {
                    trace,
                    ending: Some(action.kind),
                    tokens,
                };
            }
            // The driver waits (here on a clock of its own); the provider only calls models.
            if let ActionKind::Wait { ms, .. } = action.kind {
                clock += ms;
                run.set_clock(clock);
                run.feed(&action.id, Observation::Waited)
                    .expect("a wait is answered by waiting");
                continue;
            }
            match provider.answer(&action, &mut |t| tokens.push(t.to_owned())) {
                Answer::Observed(observation) => run
                    .feed(&action.id, observation)
                    .expect("the observation answers the action"),
                Answer::Unanswered(_) => {
                    trace.extend(run.take_events());
                    return Driven {
                        trace,
                        ending: Some(action.kind),
                        tokens,
                    };
                }
            }
        }
    }
}

/// `(event, node)` of each trace event: a trace's shape.
pub fn shape(trace: &[Value]) -> Vec<String> {
    trace
        .iter()
        .map(|e| {
            let node = e.get("node").and_then(Value::as_str).unwrap_or("");
            format!("{} {node}", e["event"].as_str().unwrap_or("?"))
                .trim_end()
                .to_owned()
        })
        .collect()
}

/// `value` with what changes from run to run (measured latencies, the server's port) made
/// stable, for snapshots.
pub fn stable(value: &Value, base_url: &str) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| {
                    let v = if k == "latency_ms" && v.is_u64() {
                        Value::String("[latency]".into())
                    } else {
                        stable(v, base_url)
                    };
                    (k.clone(), v)
                })
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(|v| stable(v, base_url)).collect()),
        Value::String(s) => Value::String(s.replace(base_url, "[BASE_URL]")),
        other => other.clone(),
    }
}
