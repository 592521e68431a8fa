//! The result row of one case run by one variant, built from the run's ending and events.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

use super::case::Case;
use super::scorer::Scorer;
use crate::run::Unmet;

/// How a case's run ended (what every driver knows when it stops).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "status", content = "value")]
pub enum Ending {
    /// The run completed with this output.
    Completed(Value),
    /// The run refused: these obligations are unmet.
    Refused(Vec<Unmet>),
    /// The run failed with this error.
    Failed(String),
    /// Waiting for a person's review: an eval has nobody to answer it.
    Paused,
    /// The case's input breaks the document's `contracts.inputs` and the document rejects it.
    InvalidInput(Vec<String>),
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
/// Tokens the model calls of a run used, as their providers reported.
pub struct RowTokens {
    /// Input tokens.
    pub input: u64,
    /// Output tokens.
    pub output: u64,
}

/// Obligations of the run by their last word.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RowObligations {
    pub met: u64,
    pub unmet: u64,
    /// Unmet, then a review decided to go on.
    pub discharged: u64,
}

/// One case run by one variant.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Row {
    /// The case's id, unique in its dataset.
    pub id: String,
    /// The variant's name.
    pub variant: String,
    /// completed, refused, failed, paused or invalid_input.
    pub status: String,
    /// The run's output (null unless completed).
    pub output: Value,
    /// The run completed and every scorer passed.
    pub pass: bool,
    /// Each scorer's verdict, by its name, in the order given.
    pub scores: Map<String, Value>,
    /// Wall time of the run as the driver measured it.
    pub latency_ms: u64,
    /// Tokens the model calls used.
    pub tokens: RowTokens,
    /// What the model calls cost as their providers reported it; null when none did.
    pub cost: Option<f64>,
    /// The run's obligations by their last word.
    pub obligations: RowObligations,
    /// Why the run did not complete.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// The run's trace events.
    pub trace: Vec<Value>,
}

/// The row of `case` run by `variant`: its ending, its events, the judge's answer (if any), and
/// the wall time the driver measured.
pub fn row(
    case: &Case,
    variant: &str,
    ending: &Ending,
    events: Vec<Value>,
    scorers: &[Scorer],
    judged: Option<&str>,
    latency_ms: u64,
) -> Row {
    let (status, output, error) = match ending {
        Ending::Completed(output) => ("completed", output.clone(), None),
        Ending::Refused(unmet) => ("refused", Value::Null, Some(refusal(unmet))),
        Ending::Failed(error) => ("failed", Value::Null, Some(error.clone())),
        Ending::Paused => (
            "paused",
            Value::Null,
            Some("the run paused for a review nobody answers in an eval".to_owned()),
        ),
        Ending::InvalidInput(problems) => (
            "invalid_input",
            Value::Null,
            Some(format!(
                "the input breaks contracts.inputs: {}",
                problems.join("; ")
            )),
        ),
    };
    let mut scores = Map::new();
    for scorer in scorers {
        let score = scorer.score(case, &output, &events, judged);
        scores.insert(
            scorer.name(),
            serde_json::to_value(score).unwrap_or_default(),
        );
    }
    let pass = status == "completed"
        && scores
            .values()
            .all(|s| s.get("pass") == Some(&Value::Bool(true)));
    let (tokens, cost) = usage(&events);
    Row {
        id: case.id.clone(),
        variant: variant.to_owned(),
        status: status.to_owned(),
        output,
        pass,
        scores,
        latency_ms,
        tokens,
        cost,
        obligations: obligations(&events),
        error,
        trace: events,
    }
}

fn refusal(unmet: &[Unmet]) -> String {
    let listed: Vec<String> = unmet
        .iter()
        .map(|u| match &u.target {
            Some(target) => format!("{} {} on {target}: {}", u.node, u.rule, u.reason),
            None => format!("{} {}: {}", u.node, u.rule, u.reason),
        })
        .collect();
    format!("refused: {}", listed.join("; "))
}

fn usage(events: &[Value]) -> (RowTokens, Option<f64>) {
    let mut tokens = RowTokens::default();
    let mut cost: Option<f64> = None;
    for event in events
        .iter()
        .filter(|e| e.get("event").and_then(Value::as_str) == Some("model_responded"))
    {
        let count = |key: &str| {
            event
                .pointer(&format!("/usage/{key}"))
                .and_then(Value::as_u64)
                .unwrap_or(0)
        };
        tokens.input += count("input_tokens");
        tokens.output += count("output_tokens");
        if let Some(spent) = event.pointer("/usage/cost").and_then(Value::as_f64) {
            cost = Some(cost.unwrap_or(0.0) + spent);
        }
    }
    (tokens, cost)
}

/// The last word on each obligation (node, rule, target), read as `logicmd run`'s summary
/// reads it: met by `status` satisfied/met/passed or `met`/`passed`/`verdict.passed` true,
/// discharged by `status: discharged`, else unmet.
fn obligations(events: &[Value]) -> RowObligations {
    let mut last = std::collections::BTreeMap::new();
    for event in events
        .iter()
        .filter(|e| e.get("event").and_then(Value::as_str) == Some("obligation_updated"))
    {
        let text = |key: &str| {
            event
                .get(key)
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_owned()
        };
        last.insert(
            (text("node"), text("rule"), text("target")),
            obligation_word(event),
        );
    }
    let count = |wanted: ObligationWord| last.values().filter(|w| **w == wanted).count() as u64;
    RowObligations {
        met: count(ObligationWord::Met),
        unmet: count(ObligationWord::Unmet),
        discharged: count(ObligationWord::Discharged),
    }
}

/// What an `obligation_updated` event says of its obligation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ObligationWord {
    /// Satisfied (a check passed).
    Met,
    /// Failed, or not settled.
    Unmet,
    /// A review decided it.
    Discharged,
}

/// What an `obligation_updated` event says: met by `status: satisfied` (DRTL's word) or `met`
/// or `passed`, `met: true`, `passed: true` or a passing `verdict`; discharged by `status:
/// discharged`; anything else is unmet. One reading for `logicmd run`'s summary and the evals'
/// rows.
pub fn obligation_word(event: &Value) -> ObligationWord {
    if let Some(status) = event.get("status").and_then(Value::as_str) {
        return match status {
            "satisfied" | "met" | "passed" => ObligationWord::Met,
            "discharged" => ObligationWord::Discharged,
            _ => ObligationWord::Unmet,
        };
    }
    let met = ["met", "passed"]
        .iter()
        .find_map(|key| event.get(*key).and_then(Value::as_bool))
        .or_else(|| event.pointer("/verdict/passed").and_then(Value::as_bool))
        .unwrap_or(false);
    if met {
        ObligationWord::Met
    } else {
        ObligationWord::Unmet
    }
}

/// The key an answer is cached by: the document's text, the case's input, the model and the
/// seed (SHA-256, hex).
pub fn cache_key(document: &str, input: &Value, model: &str, seed: u64) -> String {
    let mut hash = Sha256::new();
    for part in [
        document.as_bytes(),
        input.to_string().as_bytes(),
        model.as_bytes(),
        &seed.to_le_bytes(),
    ] {
        hash.update((part.len() as u64).to_le_bytes());
        hash.update(part);
    }
    hash.finalize().iter().map(|b| format!("{b:02x}")).collect()
}
