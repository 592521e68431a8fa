//! The result row of one case run by one variant, built from the run's ending and events.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

use super::case::Case;
use super::scorer::{Score, Scorer};
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
    /// Contract breaches the document's `contracts.validation` let through (warn mode): the
    /// run went on, and the row says so.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
    /// What the row was made from (see [`fingerprint`]): a resumed eval runs a case again when
    /// its fingerprint is not the one it would have now.
    #[serde(default)]
    pub fingerprint: String,
    /// The run's trace events.
    pub trace: Vec<Value>,
}

/// What a driver knows of one case's run when it stops.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Ran {
    /// How the run ended.
    pub ending: Ending,
    /// The run's trace events.
    pub events: Vec<Value>,
    /// How long the run took: the wall time with a real provider, the run's own clock (the
    /// answers' declared latencies and the waits) with simulated answers.
    pub latency_ms: u64,
}

/// What the judge said of a run's output.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Judged<'a> {
    /// Nobody judged (no judge scorer, a run without output, synthetic answers).
    Nobody,
    /// The judge's answer text.
    Answered(&'a str),
    /// The judge's call failed on the server's side: this error.
    CallFailed(&'a str),
}

/// The row of `case` run by `variant` (made from what `fingerprint` names), scored by
/// `scorers`; `judged` is what the judge said, if it was asked.
pub fn row(
    case: &Case,
    (variant, fingerprint): (&str, String),
    ran: Ran,
    scorers: &[Scorer],
    judged: Judged<'_>,
) -> Row {
    let Ran {
        ending,
        events,
        latency_ms,
    } = ran;
    let (status, output, error) = match &ending {
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
    let completed = status == "completed";
    let mut scores = Map::new();
    let mut checked = Vec::new();
    for scorer in scorers {
        let score = match scorer {
            Scorer::Trace { .. } => {
                let (score, verdicts) = scorer.score_trace(case, &events);
                checked.extend(verdicts);
                score
            }
            // An output scorer has nothing to score when the run gave no output.
            _ if !completed => Score::failed(no_output(status)),
            Scorer::Judge => match judged {
                Judged::CallFailed(error) => {
                    Score::failed(format!("{}{error}", super::server::JUDGE_CALL_FAILED))
                }
                Judged::Answered(answer) => scorer.score(case, &output, &events, Some(answer)),
                Judged::Nobody => scorer.score(case, &output, &events, None),
            },
            _ => scorer.score(case, &output, &events, None),
        };
        scores.insert(
            scorer.name(),
            serde_json::to_value(score).unwrap_or_default(),
        );
    }
    let pass = completed
        && scores
            .values()
            .all(|s| s.get("pass") == Some(&Value::Bool(true)));
    let (tokens, cost) = usage(&events);
    let mut obligations = obligations(&events);
    checked.sort();
    checked.dedup_by(|a, b| a.0 == b.0);
    for (_, met) in checked {
        if met {
            obligations.met += 1;
        } else {
            obligations.unmet += 1;
        }
    }
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
        obligations,
        error,
        warnings: warnings(&events),
        fingerprint,
        trace: events,
    }
}

fn no_output(status: &str) -> String {
    let how = match status {
        "refused" => "was refused",
        "paused" => "paused",
        "invalid_input" => "was given an input its contract rejects",
        _ => "failed",
    };
    format!("no output to score: the run {how}")
}

/// The contract breaches a run went on past: an input that broke `contracts.inputs`, and the
/// output problems a lenient output contract let through.
fn warnings(events: &[Value]) -> Vec<String> {
    let text = |event: &Value, key: &str| {
        event
            .get(key)
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned()
    };
    let listed = crate::model::strings;
    let mut warnings = Vec::new();
    for event in events {
        match text(event, "event").as_str() {
            "gate_evaluated"
                if text(event, "gate") == "input_contract"
                    && event.get("passed") == Some(&Value::Bool(false)) =>
            {
                warnings.push(format!(
                    "the input breaks contracts.inputs: {}",
                    listed(event.get("errors")).join("; ")
                ));
            }
            "output_validated" => {
                let problems = listed(event.get("contract_warnings"));
                if !problems.is_empty() {
                    warnings.push(format!(
                        "the output of `{}` breaks contracts.outputs: {}",
                        text(event, "node"),
                        problems.join("; ")
                    ));
                }
            }
            _ => {}
        }
    }
    warnings
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

/// What every row of one variant is made from, digested once: the document (its text and
/// what it imports), who answers (`answers`: the model, the script's digest or the seed) and each scorer (a schema's
/// content included). A big document is hashed once per eval, not once per case.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MadeFrom(String);

impl MadeFrom {
    /// The digest of `document` (its text, and what runs: `source`, imports, workflow nodes and
    /// prompt files included), `answers` and `scorers`.
    pub fn new(
        (document, source): (&str, &crate::run::Source),
        answers: &str,
        scorers: &[Scorer],
    ) -> MadeFrom {
        let source = serde_json::to_string(source).unwrap_or_default();
        let mut parts = vec![document.to_owned(), source, answers.to_owned()];
        parts.extend(scorers.iter().map(Scorer::identity));
        MadeFrom(digest(parts.iter().map(String::as_bytes)))
    }
}

/// What a row of `case` is made from, as the first 128 bits of a SHA-256 (hex): `made` (the
/// variant's document, answers and scorers) and the case's input, expected value and metadata
/// (not its id). A row kept from an earlier eval whose fingerprint is not this one was made
/// from something that has changed since.
pub fn fingerprint(made: &MadeFrom, case: &Case) -> String {
    let json = |value: &Option<Value>| value.as_ref().map(Value::to_string).unwrap_or_default();
    let parts = [
        made.0.clone(),
        case.input.to_string(),
        json(&case.expected),
        json(&case.metadata),
    ];
    // 128 bits tell changed inputs apart; a million rows need not carry 256.
    let mut hex = digest(parts.iter().map(String::as_bytes));
    hex.truncate(32);
    hex
}

fn digest<'a>(parts: impl IntoIterator<Item = &'a [u8]>) -> String {
    let mut hash = Sha256::new();
    for part in parts {
        hash.update((part.len() as u64).to_le_bytes());
        hash.update(part);
    }
    hash.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// The key an answer is cached by: the document's text, the case's input, the model and the
/// seed (SHA-256, hex).
pub fn cache_key(document: &str, input: &Value, model: &str, seed: u64) -> String {
    digest([
        document.as_bytes(),
        input.to_string().as_bytes(),
        model.as_bytes(),
        &seed.to_le_bytes(),
    ])
}
