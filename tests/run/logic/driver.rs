//! Driving a run to its end for the runtime tests: every action is answered by a provider, the
//! clock advances by each wait (and by nothing else, so traces are reproducible), tool calls the
//! provider does not answer get an unverifiable verdict, and a review nobody answers pauses.

#![allow(dead_code)] // each test file uses its own part of the driver

use logicmd::analysis::Options;
use logicmd::loader::MemoryLoader;
use logicmd::run::{
    prepare, Action, ActionKind, Answer, Observation, Provider, Run, RunOptions, Source, Status,
    Verdict,
};
use serde_json::Value;

/// How a driven run ended.
#[derive(Debug, Clone, PartialEq)]
pub enum End {
    Completed(Value),
    Refused(Value),
    Failed(String),
    /// A review nobody answered: the run waits for a decision.
    Paused(Action),
    /// The provider could not answer a call (a script ran out): the test is wrong.
    Unanswered(Action, String),
    /// No action and no ending: the engine stalled (a defect).
    Stalled,
    /// More rounds than allowed: the run does not end (a defect).
    Endless,
}

impl End {
    /// The outcome's name, as the corpus table records it.
    pub fn label(&self) -> &'static str {
        match self {
            End::Completed(_) => "completed",
            End::Refused(_) => "refused",
            End::Failed(_) => "failed",
            End::Paused(_) => "paused",
            End::Unanswered(..) => "unanswered",
            End::Stalled => "stalled",
            End::Endless => "endless",
        }
    }
}

impl End {
    /// The ending as JSON, for snapshots: its label and what it carries.
    pub fn to_json(&self) -> Value {
        let detail = match self {
            End::Completed(output) => serde_json::json!({ "output": output }),
            End::Refused(unmet) => serde_json::json!({ "unmet": unmet }),
            End::Failed(error) => serde_json::json!({ "error": error }),
            End::Paused(review) | End::Unanswered(review, _) => {
                serde_json::json!({ "action": review })
            }
            End::Stalled | End::Endless => serde_json::json!({}),
        };
        let mut value = serde_json::json!({ "end": self.label() });
        if let (Some(value), Value::Object(detail)) = (value.as_object_mut(), detail) {
            value.extend(detail);
        }
        value
    }
}

/// What a driven run did.
#[derive(Debug, Clone)]
pub struct Driven {
    pub trace: Vec<Value>,
    pub end: End,
    /// Every batch `next()` returned, in order.
    pub batches: Vec<Vec<Action>>,
    /// How often `next()` was called.
    pub rounds: usize,
}

impl Driven {
    /// The trace events named `event`.
    pub fn events(&self, event: &str) -> Vec<&Value> {
        self.trace.iter().filter(|e| e["event"] == event).collect()
    }

    /// `event node` per trace line: the run's story at a glance.
    pub fn story(&self) -> Vec<String> {
        self.trace
            .iter()
            .map(|e| {
                let node = e.get("node").and_then(Value::as_str).unwrap_or("");
                format!("{} {node}", e["event"].as_str().unwrap_or("?"))
                    .trim_end()
                    .to_owned()
            })
            .collect()
    }

    /// The model requests the run issued for `node`, in order.
    pub fn requests(&self, node: &str) -> Vec<&Value> {
        self.trace
            .iter()
            .filter(|e| e["event"] == "model_requested" && e["node"] == node)
            .collect()
    }
}

/// Prepares `text` as `id` in a loader holding `files` (path, text).
pub fn source_with(text: &str, id: &str, files: &[(String, String)]) -> Result<Source, String> {
    let mut loader = MemoryLoader::new();
    for (path, content) in files {
        loader
            .insert(path, content.clone())
            .map_err(|e| e.message.clone())?;
    }
    prepare(text, &Options::lint(id), &loader).map_err(|diagnostics| {
        diagnostics
            .iter()
            .map(|d| {
                format!(
                    "{}:{}: {} {}: {}",
                    d.line, d.column, d.code, d.path, d.message
                )
            })
            .collect::<Vec<_>>()
            .join("\n")
    })
}

/// Prepares a lone document.
pub fn source(text: &str) -> Source {
    match source_with(text, "doc.logic.md", &[]) {
        Ok(source) => source,
        Err(problems) => panic!("the document does not prepare:\n{problems}"),
    }
}

/// Starts and drives `source` on `input` to its end, at most `max_rounds` calls of `next()`.
pub fn run(source: Source, input: Value, provider: &mut dyn Provider, max_rounds: usize) -> Driven {
    let mut run = match Run::start(source, input, RunOptions::default()) {
        Ok(run) => run,
        Err(error) => panic!("the run does not start: {error}"),
    };
    drive(&mut run, provider, max_rounds)
}

/// Drives a started run to its end (or a pause).
pub fn drive(run: &mut Run, provider: &mut dyn Provider, max_rounds: usize) -> Driven {
    let mut driven = Driven {
        trace: run.take_events(),
        end: End::Stalled,
        batches: Vec::new(),
        rounds: 0,
    };
    let mut clock = 0;
    let mut paused: Option<Action> = None;
    while driven.rounds < max_rounds {
        driven.rounds += 1;
        let actions = run.next();
        driven.trace.extend(run.take_events());
        if actions.is_empty() {
            driven.end = match paused.take() {
                Some(review) if run.status() == Status::Paused => End::Paused(review),
                _ => End::Stalled,
            };
            return driven;
        }
        driven.batches.push(actions.clone());
        for action in actions {
            let over = matches!(
                run.status(),
                Status::Completed | Status::Failed | Status::Refused
            );
            if over && !action.kind.is_terminal() {
                // An earlier action of the batch ended the run: the rest are moot.
                break;
            }
            let cancelled =
                !action.kind.is_terminal() && !run.outstanding().iter().any(|a| a.id == action.id);
            if cancelled {
                // An earlier action of the batch made this one moot (a loop went back).
                continue;
            }
            let observation = match &action.kind {
                ActionKind::Complete { output } => {
                    return ended(driven, End::Completed(output.clone()))
                }
                ActionKind::Refuse { unmet } => {
                    let unmet = serde_json::to_value(unmet).unwrap_or_default();
                    return ended(driven, End::Refused(unmet));
                }
                ActionKind::Fail { error } => return ended(driven, End::Failed(error.clone())),
                ActionKind::Wait { ms, .. } => {
                    clock += ms;
                    run.set_clock(clock);
                    provider_answer(provider, &action)
                }
                _ => provider_answer(provider, &action),
            };
            match observation {
                Ok(observation) => {
                    if let Err(error) = run.feed(&action.id, observation) {
                        panic!("feeding action {} failed: {error}", action.id);
                    }
                }
                Err(reason) if matches!(action.kind, ActionKind::AskReview { .. }) => {
                    let _ = reason;
                    paused = Some(action);
                }
                Err(reason) => {
                    driven.trace.extend(run.take_events());
                    driven.end = End::Unanswered(action, reason);
                    return driven;
                }
            }
        }
        driven.trace.extend(run.take_events());
    }
    driven.end = End::Endless;
    driven
}

fn ended(mut driven: Driven, end: End) -> Driven {
    driven.end = end;
    driven
}

/// The provider's observation; a tool it does not run gets an unverifiable verdict.
fn provider_answer(provider: &mut dyn Provider, action: &Action) -> Result<Observation, String> {
    match provider.answer(action, &mut |_| {}) {
        Answer::Observed(observation) => Ok(observation),
        Answer::Unanswered(_) if matches!(action.kind, ActionKind::CallTool { .. }) => {
            Ok(Observation::ToolResult(Verdict {
                passed: false,
                evidence: None,
                unverifiable: true,
            }))
        }
        Answer::Unanswered(reason) => Err(reason),
    }
}
