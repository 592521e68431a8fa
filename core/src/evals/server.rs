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
    if !matches!(ending, Ending::Failed(_)) {
        return None;
    }
    let last = events
        .iter()
        .rev()
        .find(|e| e.get("event").and_then(Value::as_str) == Some("model_responded"))?;
    let kind = last.pointer("/error/kind").and_then(Value::as_str)?;
    SERVER_KINDS.contains(&kind).then(|| kind.to_owned())
}

/// What cut `row` short on the server's side, if anything: its run's error kind, or
/// `judge` when the judge's call failed. Such a row holds no answer: a resume runs it again.
pub fn row_server_failure(row: &Row) -> Option<String> {
    let judge_failed = row.scores.values().any(|score| {
        score
            .get("reason")
            .and_then(Value::as_str)
            .is_some_and(|reason| reason.starts_with(JUDGE_CALL_FAILED))
    });
    if judge_failed {
        return Some("judge".to_owned());
    }
    if row.status != "failed" {
        return None;
    }
    server_failure(&Ending::Failed(String::new()), &row.trace)
}

/// Whether `row` was cut short by the server (see [`row_server_failure`]).
pub fn failed_on_the_server(row: &Row) -> bool {
    row_server_failure(row).is_some()
}
