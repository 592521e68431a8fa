//! One model call, for every node that asks a model (a generate node, each fan-out
//! participant, each debate turn, an aggregation with a model). The answer is read as the node
//! promises (the runtime's `output::read`). There is one attempt: a call that fails or answers
//! in the wrong form fails its node (§9.1: "automatic retry is valid if defined in topology,
//! hidden retry is not", and a topology has no field to declare retries with; a loop through a
//! gate is how it asks again).

use serde_json::{json, Value};

use crate::run::action::{ActionKind, ModelRequest, Observation};
use crate::run::kernel::{Kernel, Purpose, Waiter};
use crate::run::output;
use crate::trace::{Event, ModelResponded, Participant, Response, Speaker};
/// What an answer must be.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Expect {
    /// Text as written (`output_format: text` or `markdown`).
    Text,
    /// Text, or JSON when the whole answer is a JSON object or list (no `output_format`).
    Free,
    /// A JSON object or list (`output_format: json`).
    Json,
    /// A debate message: it starts with one of `types` (checked when `validate`).
    Message { types: Vec<String>, validate: bool },
    /// An order of `n` items: a JSON list of distinct item numbers (0-based), best first.
    Ranking(usize),
}

impl Expect {
    /// The JSON Schema the answer must satisfy, when there is one to tell the model.
    pub fn schema(&self) -> Option<Value> {
        match self {
            Expect::Ranking(n) => Some(json!({
                "type": "array",
                "minItems": 1,
                "maxItems": n,
                "uniqueItems": true,
                "items": {"type": "integer", "minimum": 0, "maximum": n.saturating_sub(1)}
            })),
            _ => None,
        }
    }
}

pub(super) struct ModelCall {
    pub unit: usize,
    node: String,
    request: ModelRequest,
    expect: Expect,
    /// The node's call number of the call (what its answer is traced under).
    issued: u32,
    /// The participant and round the trace tags the call's events with.
    speaker: Speaker,
}

impl ModelCall {
    pub fn new(unit: usize, node: &str, request: ModelRequest, expect: Expect) -> ModelCall {
        ModelCall {
            unit,
            node: node.to_owned(),
            request,
            expect,
            issued: 0,
            speaker: Speaker::default(),
        }
    }

    /// Tags the call's events with the participant (and the debate round) it is for.
    pub fn spoken_by(mut self, participant: Participant, round: Option<u64>) -> ModelCall {
        self.speaker = Speaker {
            participant: Some(participant),
            round,
        };
        self
    }

    /// Issues the call; `calls` numbers the node's calls (the `attempt` a script and a trace
    /// name).
    pub fn issue(&mut self, kernel: &mut Kernel, calls: &mut u32) {
        *calls += 1;
        self.issued = *calls;
        let kind = ActionKind::CallModel {
            node: self.node.clone(),
            attempt: *calls,
            request: self.request.clone(),
            timeout_ms: None,
        };
        let waiter = Waiter {
            unit: self.unit,
            purpose: Purpose::Model(0),
        };
        let action = kernel.issue(kind, waiter);
        let requested = Event::ModelRequested {
            action,
            attempt: *calls,
            purpose: None,
            request: self.request.clone(),
            speaker: self.speaker.clone(),
        };
        kernel.event(Some(&self.node), requested);
    }

    /// The call's output, or why the node fails.
    pub fn observe(
        &mut self,
        kernel: &mut Kernel,
        observation: Observation,
    ) -> Result<Value, String> {
        match observation {
            Observation::ModelResponse {
                text,
                usage,
                latency_ms,
                served,
            } => {
                let responded = Event::ModelResponded(ModelResponded {
                    attempt: self.issued,
                    response: Response::Answer {
                        text: text.clone(),
                        usage,
                        latency_ms,
                        served,
                    },
                    speaker: self.speaker.clone(),
                });
                kernel.event(Some(&self.node), responded);
                self.on_answer(kernel, &text)
            }
            Observation::ModelError(failure) => {
                let reason = format!(
                    "the model call failed: {}: {}",
                    failure.kind, failure.message
                );
                let responded = Event::ModelResponded(ModelResponded {
                    attempt: self.issued,
                    response: Response::Error { error: failure },
                    speaker: self.speaker.clone(),
                });
                kernel.event(Some(&self.node), responded);
                Err(reason)
            }
            other => Err(format!("unexpected observation {other:?}")),
        }
    }

    fn on_answer(&mut self, kernel: &mut Kernel, text: &str) -> Result<Value, String> {
        match read(&self.expect, text) {
            Ok(output) => {
                let validated = Event::OutputValidated {
                    attempt: self.issued,
                    output: output.clone(),
                    contract_warnings: None,
                    speaker: self.speaker.clone(),
                };
                kernel.event(Some(&self.node), validated);
                Ok(output)
            }
            Err(problems) => {
                let invalid = Event::OutputInvalid {
                    attempt: self.issued,
                    errors: problems.clone(),
                    speaker: self.speaker.clone(),
                };
                kernel.event(Some(&self.node), invalid);
                Err(format!("invalid output: {}", problems.join("; ")))
            }
        }
    }
}

/// The answer as the node promised it, or what is wrong with it.
fn read(expect: &Expect, text: &str) -> Result<Value, Vec<String>> {
    match expect {
        Expect::Free => output::read(text, None),
        Expect::Text => output::read(text, None).map(|_| Value::String(text.trim().to_owned())),
        Expect::Json => output::read(text, Some(&json!({"type": ["object", "array"]}))),
        Expect::Message { types, validate } => {
            let message = output::read(text, None).map(|_| text.trim().to_owned())?;
            if *validate && message_type(&message, types).is_none() {
                return Err(vec![format!(
                    "the message does not start with a message type of the protocol ({})",
                    types.join(", ")
                )]);
            }
            Ok(Value::String(message))
        }
        Expect::Ranking(_) => output::read(text, expect.schema().as_ref()),
    }
}

/// The protocol message type a debate message starts with (`AGREE: ...`, `PROPOSE - ...`).
pub(super) fn message_type<'t>(message: &str, types: &'t [String]) -> Option<&'t str> {
    let message = message.trim_start().trim_start_matches(['*', '#', '[']);
    types
        .iter()
        .find(|t| {
            message.starts_with(t.as_str())
                && message[t.len()..]
                    .chars()
                    .next()
                    .is_none_or(|c| !c.is_alphanumeric() && c != '_')
        })
        .map(String::as_str)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_read_as_promised() {
        assert_eq!(read(&Expect::Text, " {\"a\": 1} "), Ok(json!("{\"a\": 1}")));
        assert_eq!(read(&Expect::Free, "{\"a\": 1}"), Ok(json!({"a": 1})));
        assert_eq!(read(&Expect::Json, "[1, 2]"), Ok(json!([1, 2])));
        assert!(read(&Expect::Json, "42").is_err());
        assert!(read(&Expect::Text, "  ").is_err());
        let types = vec!["AGREE".to_owned(), "PROPOSE".to_owned()];
        let debate = Expect::Message {
            types: types.clone(),
            validate: true,
        };
        assert_eq!(read(&debate, "AGREE: yes"), Ok(json!("AGREE: yes")));
        assert!(read(&debate, "AGREED yes").is_err());
        assert_eq!(message_type("**PROPOSE** x", &types), Some("PROPOSE"));
        assert_eq!(message_type("I AGREE", &types), None);
        assert_eq!(read(&Expect::Ranking(3), "[2, 0]"), Ok(json!([2, 0])));
        assert!(read(&Expect::Ranking(3), "[2, 2]").is_err());
        assert!(read(&Expect::Ranking(3), "[3]").is_err());
    }
}
