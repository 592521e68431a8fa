//! One model call and its retries, for every node that asks a model (a generate node, each
//! fan-out participant, each debate turn, an aggregation with a model). The answer is read as the
//! node promises (the runtime's `output::read`); an invalid answer is asked again with the
//! problems as feedback, a transient error is retried after a backoff (`RetryPolicy`), both
//! bounded by the policy's attempts; past them the call has failed. Every attempt is in the
//! trace, so no retry is hidden (§9.1).

use serde_json::{json, Value};

use crate::run::action::{ActionKind, Message, ModelRequest, Observation};
use crate::run::kernel::{Kernel, Purpose, Waiter};
use crate::run::output;
use crate::run::retry::RetryPolicy;
use crate::trace::{Event, Participant, Response, Speaker};

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

/// How a call stands after an observation.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Answered {
    Pending,
    Output(Value),
    Failed(String),
}

pub(super) struct ModelCall {
    pub unit: usize,
    node: String,
    request: ModelRequest,
    expect: Expect,
    policy: RetryPolicy,
    /// Attempts at this answer, the first included.
    attempt: u32,
    /// The node's call number of the call in flight (what its answer is traced under).
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
            policy: RetryPolicy::default(),
            attempt: 0,
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

    /// Issues the next attempt; `calls` numbers the node's calls (the `attempt` a script and a
    /// trace name).
    pub fn issue(&mut self, kernel: &mut Kernel, calls: &mut u32) {
        self.attempt += 1;
        *calls += 1;
        self.issued = *calls;
        let kind = ActionKind::CallModel {
            node: self.node.clone(),
            attempt: *calls,
            request: self.request.clone(),
            timeout_ms: None,
        };
        let action = kernel.issue(kind, self.waiter(Purpose::Model(0)));
        let requested = Event::ModelRequested {
            action,
            attempt: *calls,
            purpose: None,
            request: self.request.clone(),
            speaker: self.speaker.clone(),
        };
        kernel.event(Some(&self.node), requested);
    }

    fn waiter(&self, purpose: Purpose) -> Waiter {
        Waiter {
            unit: self.unit,
            purpose,
        }
    }

    pub fn observe(
        &mut self,
        kernel: &mut Kernel,
        purpose: Purpose,
        observation: Observation,
        calls: &mut u32,
    ) -> Answered {
        match (purpose, observation) {
            (Purpose::Backoff, Observation::Waited) => {
                self.issue(kernel, calls);
                Answered::Pending
            }
            (
                Purpose::Model(_),
                Observation::ModelResponse {
                    text,
                    usage,
                    latency_ms,
                },
            ) => {
                let responded = Event::ModelResponded {
                    attempt: self.issued,
                    response: Response::Answer {
                        text: text.clone(),
                        usage,
                        latency_ms,
                    },
                    speaker: self.speaker.clone(),
                };
                kernel.event(Some(&self.node), responded);
                self.on_answer(kernel, &text, calls)
            }
            (Purpose::Model(_), Observation::ModelError(failure)) => {
                let responded = Event::ModelResponded {
                    attempt: self.issued,
                    response: Response::Error {
                        error: failure.clone(),
                    },
                    speaker: self.speaker.clone(),
                };
                kernel.event(Some(&self.node), responded);
                let reason = format!("{}: {}", failure.kind, failure.message);
                let retryable = self.policy.is_retryable(&failure.kind, failure.retryable);
                if retryable && self.attempt < self.policy.max_attempts {
                    let wait = self
                        .policy
                        .backoff_ms(self.attempt + 1)
                        .max(failure.retry_after_ms.unwrap_or(0));
                    let retried = Event::Retried {
                        attempt: self.attempt + 1,
                        wait_ms: wait,
                        reason,
                        feedback: None,
                        speaker: self.speaker.clone(),
                    };
                    kernel.event(Some(&self.node), retried);
                    kernel.issue(
                        ActionKind::Wait {
                            node: self.node.clone(),
                            ms: wait,
                        },
                        self.waiter(Purpose::Backoff),
                    );
                    return Answered::Pending;
                }
                Answered::Failed(format!(
                    "the model call failed after {} attempt(s): {reason}",
                    self.attempt
                ))
            }
            (_, other) => Answered::Failed(format!("unexpected observation {other:?}")),
        }
    }

    fn on_answer(&mut self, kernel: &mut Kernel, text: &str, calls: &mut u32) -> Answered {
        match read(&self.expect, text) {
            Ok(output) => {
                let validated = Event::OutputValidated {
                    attempt: self.issued,
                    output: output.clone(),
                    contract_warnings: None,
                    speaker: self.speaker.clone(),
                };
                kernel.event(Some(&self.node), validated);
                Answered::Output(output)
            }
            Err(problems) => {
                let invalid = Event::OutputInvalid {
                    attempt: self.issued,
                    errors: problems.clone(),
                    speaker: self.speaker.clone(),
                };
                kernel.event(Some(&self.node), invalid);
                if self.attempt >= self.policy.max_attempts {
                    return Answered::Failed(format!(
                        "invalid output after {} attempt(s): {}",
                        self.attempt,
                        problems.join("; ")
                    ));
                }
                let feedback = output::feedback(&problems);
                let retried = Event::Retried {
                    attempt: self.attempt + 1,
                    wait_ms: 0,
                    reason: "invalid output".to_owned(),
                    feedback: Some(feedback.clone()),
                    speaker: self.speaker.clone(),
                };
                kernel.event(Some(&self.node), retried);
                self.request.messages.push(Message::assistant(text));
                self.request.messages.push(Message::user(feedback));
                self.issue(kernel, calls);
                Answered::Pending
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
