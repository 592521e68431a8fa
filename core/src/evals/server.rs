//! Failures on the server's side — it is down, refuses the key, has no such model, is out of
//! capacity — say nothing about the document: a resume runs such rows again, the answer cache
//! does not keep them, and ten in a row stop an eval. A model's bad answer, a per-case refusal
//! (`BadRequestError`) or a check the output failed are answers, and count as such.

use serde_json::Value;

use super::row::{Ending, Row};
use crate::run::openai::failure::kind;

/// Error kinds of a model call that come from the server, not from the case.
const SERVER_KINDS: [&str; 8] = [
    kind::TIMEOUT,
    kind::CONNECTION,
    kind::RATE_LIMIT,
    kind::SERVER,
    kind::AUTHENTICATION,
    kind::PERMISSION_DENIED,
    kind::NOT_FOUND,
    kind::STREAM_INTERRUPTED,
];

/// How a judge score's reason starts when the judge's own call failed on the server's side.
pub const JUDGE_CALL_FAILED: &str = "the judge's call failed: ";

/// The error kind when a run that ended as `ending` failed because of the server: its last
/// model call failed with a server-side error.
pub fn server_failure(ending: &Ending, events: &[Value]) -> Option<String> {
    matches!(ending, Ending::Failed(_))
        .then(|| last_call_failed_on_the_server(events))
        .flatten()
}

/// The kind of a server-side error the last model call in `events` failed with, if any.
fn last_call_failed_on_the_server(events: &[Value]) -> Option<String> {
    let last = events
        .iter()
        .rev()
        .find(|e| e.get("event").and_then(Value::as_str) == Some("model_responded"))?;
    let kind = last.pointer("/error/kind").and_then(Value::as_str)?;
    SERVER_KINDS.contains(&kind).then(|| kind.to_owned())
}

/// The reason of `row`'s judge score when the judge's own call failed on the server's side.
pub fn judge_call_failure(row: &Row) -> Option<&str> {
    row.scores.values().find_map(|score| {
        let reason = score.get("reason")?.as_str()?;
        reason.starts_with(JUDGE_CALL_FAILED).then_some(reason)
    })
}

/// What cut `row` short on the server's side, if anything: its run's error kind, or
/// `judge` when the judge's call failed. Such a row holds no answer: a resume runs it again.
pub fn row_server_failure(row: &Row) -> Option<String> {
    if judge_call_failure(row).is_some() {
        return Some("judge".to_owned());
    }
    (row.status == "failed")
        .then(|| last_call_failed_on_the_server(&row.trace))
        .flatten()
}

/// Whether `row` was cut short by the server (see [`row_server_failure`]).
pub fn failed_on_the_server(row: &Row) -> bool {
    row_server_failure(row).is_some()
}
