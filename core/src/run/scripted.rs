//! The scripted provider: answers from a script, for tests and for users' regression runs. A
//! script is YAML (a list) or JSON Lines (one object a line) of entries keyed by node:
//!
//! ```yaml
//! - {node: gather, attempt: 1, text: '{"sources": []}'}      # a model answer (or `json: {...}`)
//! - {node: gather, attempt: 2, error: {kind: RateLimitError, message: slow down, retryable: true, retry_after_ms: 2000}}
//! - {node: verify_claims, tool: std.check_existence, verdict: {passed: false, evidence: no such product}}
//! - {node: escalation, review: override}
//! ```
//!
//! An entry with `attempt` answers that call only; one without answers the node's next call of
//! its kind. A trace (`logicmd run --trace`) is a script too: its `model_responded`,
//! `obligation_updated` (with a tool's verdict) and `review_answered` events replay the run's
//! answers exactly.

use serde::Deserialize;
use serde_json::{json, Value};

use super::action::{Action, ActionKind, ModelFailure, Observation, Served, Usage, Verdict};
use super::provider::{Answer, Provider};
use crate::trace::{
    EventKind, ModelResponded, ObligationUpdated, Record, Response, ReviewAnswered,
};

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    node: String,
    #[serde(default)]
    attempt: Option<u32>,
    #[serde(default)]
    text: Option<String>,
    #[serde(default)]
    json: Option<Value>,
    #[serde(default)]
    error: Option<ModelFailure>,
    #[serde(default)]
    usage: Option<Usage>,
    #[serde(default)]
    latency_ms: Option<u64>,
    #[serde(default)]
    served: Option<Served>,
    #[serde(default)]
    tool: Option<String>,
    #[serde(default)]
    verdict: Option<Verdict>,
    #[serde(default)]
    review: Option<String>,
}

impl Entry {
    fn is_model(&self) -> bool {
        self.text.is_some() || self.json.is_some() || self.error.is_some()
    }
}

/// The scripted [`Provider`](super::Provider): answers each action from a script (see the module
/// docs); built by [`Scripted::parse`].
pub struct Scripted {
    entries: Vec<(Entry, bool)>,
}

impl Scripted {
    /// Reads a script (YAML list, JSON Lines, or a trace); the error names the entry and what
    /// is wrong with it.
    pub fn parse(text: &str) -> Result<Scripted, String> {
        let trimmed = text.trim_start();
        let values: Vec<(String, Value)> = if trimmed.starts_with('{') {
            text.lines()
                .enumerate()
                .filter(|(_, line)| !line.trim().is_empty())
                .map(|(i, line)| {
                    serde_json::from_str(line)
                        .map(|v| (format!("line {}", i + 1), v))
                        .map_err(|e| format!("line {}: not JSON: {e}", i + 1))
                })
                .collect::<Result<_, _>>()?
        } else {
            let file = crate::yaml::parse_file(text, crate::Limits::DEFAULT);
            if let Some(problem) = file.diagnostics.iter().find(|d| d.is_error()) {
                return Err(format!(
                    "{}:{}: {}",
                    problem.line, problem.column, problem.message
                ));
            }
            match file.root.map(|root| crate::json::to_json(&root)) {
                Some(Value::Array(items)) => items
                    .into_iter()
                    .enumerate()
                    .map(|(i, v)| (format!("entry {}", i + 1), v))
                    .collect(),
                Some(Value::Null) | None => Vec::new(),
                Some(_) => return Err("a script is a list of entries".to_owned()),
            }
        };
        let mut entries = Vec::new();
        for (place, value) in values {
            if let Some(entry) = from_trace(&value) {
                entries.push((entry, false));
                continue;
            }
            if value.get("event").is_some() {
                continue;
            }
            let entry: Entry =
                serde_json::from_value(value).map_err(|e| format!("{place}: {e}"))?;
            let kinds = [
                entry.is_model(),
                entry.verdict.is_some(),
                entry.review.is_some(),
            ];
            if kinds.iter().filter(|k| **k).count() != 1 {
                return Err(format!(
                    "{place} (node `{}`): give exactly one of `text`/`json`/`error`, `verdict` or `review`",
                    entry.node
                ));
            }
            entries.push((entry, false));
        }
        Ok(Scripted { entries })
    }

    fn take(
        &mut self,
        matches: impl Fn(&Entry) -> bool,
        exact: impl Fn(&Entry) -> bool,
    ) -> Option<Entry> {
        let found = self
            .entries
            .iter()
            .position(|(e, used)| !used && matches(e) && exact(e))
            .or_else(|| {
                self.entries
                    .iter()
                    .position(|(e, used)| !used && matches(e) && e.attempt.is_none())
            })?;
        self.entries[found].1 = true;
        Some(self.entries[found].0.clone())
    }
}

/// An answer a trace recorded: a model's answer or error (a self-verification call is
/// answered as the call it was, by its attempt number), a tool's verdict, a review's decision.
fn from_trace(line: &Value) -> Option<Entry> {
    let blank = |node| Entry {
        node,
        attempt: None,
        text: None,
        json: None,
        error: None,
        usage: None,
        latency_ms: None,
        served: None,
        tool: None,
        verdict: None,
        review: None,
    };
    match EventKind::of_value(line) {
        EventKind::ModelResponded => {
            let (
                Some(node),
                ModelResponded {
                    attempt, response, ..
                },
            ) = Record::fields(line)?
            else {
                return None;
            };
            Some(match response {
                Response::Error { error } => Entry {
                    attempt: Some(attempt),
                    error: Some(error),
                    ..blank(node)
                },
                Response::Answer {
                    text,
                    usage,
                    latency_ms,
                    served,
                } => Entry {
                    attempt: Some(attempt),
                    text: Some(text),
                    usage,
                    latency_ms,
                    served,
                    ..blank(node)
                },
            })
        }
        EventKind::ObligationUpdated => {
            let (
                Some(node),
                ObligationUpdated {
                    rule,
                    verdict: Some(verdict),
                    ..
                },
            ) = Record::fields(line)?
            else {
                return None;
            };
            Some(Entry {
                tool: Some(rule),
                verdict: Some(verdict),
                ..blank(node)
            })
        }
        EventKind::ReviewAnswered => {
            let (Some(node), ReviewAnswered { action, .. }) = Record::fields(line)? else {
                return None;
            };
            Some(Entry {
                review: Some(action),
                ..blank(node)
            })
        }
        _ => None,
    }
}

impl Provider for Scripted {
    fn answer(&mut self, action: &Action, _on_token: &mut dyn FnMut(&str)) -> Answer {
        match &action.kind {
            ActionKind::CallModel { node, attempt, .. } => {
                let entry = self.take(
                    |e| &e.node == node && e.is_model(),
                    |e| e.attempt == Some(*attempt),
                );
                match entry {
                    Some(Entry {
                        error: Some(error), ..
                    }) => Answer::Observed(Observation::ModelError(error)),
                    Some(entry) => Answer::Observed(Observation::ModelResponse {
                        text: entry
                            .text
                            .or_else(|| entry.json.map(|j| j.to_string()))
                            .unwrap_or_default(),
                        usage: entry.usage,
                        latency_ms: entry.latency_ms,
                        served: entry.served,
                    }),
                    None => Answer::Unanswered(format!(
                        "the script has no answer for `{node}` attempt {attempt}"
                    )),
                }
            }
            ActionKind::CallTool { node, name, .. } => {
                let entry = self.take(
                    |e| &e.node == node && e.verdict.is_some(),
                    |e| e.tool.as_deref() == Some(name.as_str()),
                );
                match entry.and_then(|e| e.verdict) {
                    Some(verdict) => Answer::Observed(Observation::ToolResult(verdict)),
                    None => Answer::Unanswered(format!(
                        "the script has no verdict for `{node}` rule `{name}`"
                    )),
                }
            }
            ActionKind::AskReview { node, .. } => {
                match self
                    .take(|e| &e.node == node && e.review.is_some(), |_| true)
                    .and_then(|e| e.review)
                {
                    Some(action) => {
                        Answer::Observed(Observation::ReviewAnswer { action, note: None })
                    }
                    None => {
                        Answer::Unanswered(format!("the script has no review answer for `{node}`"))
                    }
                }
            }
            ActionKind::Wait { .. } => Answer::Observed(Observation::Waited),
            _ => Answer::Unanswered(json!(action.kind).to_string()),
        }
    }
}
