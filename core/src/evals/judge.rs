//! The LLM judge, as values: the request to send (whoever sends it) and the verdict read back
//! from the answer text. The rubric is the document's `quality_gates.self_verification` when it
//! has one.

use serde_json::{json, Value};

use super::case::Case;
use super::scorer::Score;
use crate::run::{Action, ActionKind, Answer, Message, ModelRequest, Observation, Source};

const DEFAULT_RUBRIC: &str = "The output answers the input correctly and completely; when an expected value is given, the output agrees with it.";

/// The rubric a judge applies: the document's `quality_gates.self_verification` (its rubric
/// criteria or checklist) when present, else a default.
pub fn judge_rubric(spec: &Value) -> String {
    let verification = spec.pointer("/quality_gates/self_verification");
    let rubric = verification
        .and_then(|v| v.get("rubric"))
        .filter(|r| !r.is_null());
    let checklist = verification
        .and_then(|v| v.get("checklist"))
        .and_then(Value::as_array);
    match (rubric, checklist) {
        (Some(rubric), _) => format!(
            "Apply this rubric (from the document's quality_gates.self_verification):\n{}",
            pretty(rubric)
        ),
        (None, Some(items)) if !items.is_empty() => {
            let lines: Vec<String> = items
                .iter()
                .map(|item| {
                    format!(
                        "- {}",
                        item.as_str()
                            .map_or_else(|| item.to_string(), str::to_owned)
                    )
                })
                .collect();
            format!("Every item of this checklist (from the document's quality_gates.self_verification) must hold:\n{}", lines.join("\n"))
        }
        _ => DEFAULT_RUBRIC.to_owned(),
    }
}

/// The model request of a judge for `output` of `case`: `{system, messages, response_schema}`
/// (the shape a provider's model request has).
pub fn judge_request(rubric: &str, case: &Case, output: &Value) -> Value {
    let mut user = format!(
        "Input:\n{}\n\nOutput to judge:\n{}",
        pretty(&case.input),
        pretty(output)
    );
    if let Some(expected) = &case.expected {
        user.push_str(&format!("\n\nExpected:\n{}", pretty(expected)));
    }
    json!({
        "system": format!("You are a strict evaluator. {rubric}\nAnswer with a JSON object: pass (boolean), score (0 to 1), reason (one sentence)."),
        "messages": [{"role": "user", "content": user}],
        "response_schema": {
            "type": "object",
            "required": ["pass", "score", "reason"],
            "additionalProperties": false,
            "properties": {
                "pass": {"type": "boolean"},
                "score": {"type": "number", "minimum": 0, "maximum": 1},
                "reason": {"type": "string"}
            }
        }
    })
}

/// The judge's verdict read from its answer text; an answer that is not the verdict asked for
/// fails, saying what it was.
pub fn judge_score(answer: &str) -> Score {
    let verdict: Value = match serde_json::from_str(answer.trim()) {
        Ok(value) => value,
        Err(error) => return Score::failed(format!("the judge's answer is not JSON: {error}")),
    };
    let Some(pass) = verdict.get("pass").and_then(Value::as_bool) else {
        return Score::failed("the judge's answer has no boolean `pass`");
    };
    Score {
        pass,
        value: verdict.get("score").and_then(Value::as_f64),
        reason: verdict
            .get("reason")
            .and_then(Value::as_str)
            .map(str::to_owned),
    }
}

fn pretty(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        other => serde_json::to_string_pretty(other).unwrap_or_default(),
    }
}

/// The node name a judge's model call is made for (a script answers it with `node: judge`).
pub const JUDGE_NODE: &str = "judge";

/// The judge's model call for `output` of `case` under the rubric of `source` (see
/// [`judge_rubric`]), as an action any front end carries out with its provider.
pub fn judge_action(source: &Source, case: &Case, output: &Value) -> Action {
    let spec = match source {
        Source::Logic { spec, .. } => spec.clone(),
        _ => Value::Null,
    };
    let request = judge_request(&judge_rubric(&spec), case, output);
    let text = |key: &str| {
        request
            .pointer(key)
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned()
    };
    Action {
        id: JUDGE_NODE.to_owned(),
        kind: ActionKind::CallModel {
            node: JUDGE_NODE.to_owned(),
            attempt: 1,
            request: ModelRequest {
                system: text("/system"),
                messages: vec![Message::user(text("/messages/0/content"))],
                response_schema: request.get("response_schema").cloned(),
                temperature: Some(0.0),
                max_tokens: None,
                allowed_tools: Vec::new(),
                model: None,
                json: true,
            },
            timeout_ms: None,
        },
    }
}

/// The text of a judge's answer (`None`: the provider gave none).
pub fn judge_answer(answer: Answer) -> Option<String> {
    match answer {
        Answer::Observed(Observation::ModelResponse { text, .. }) => Some(text),
        _ => None,
    }
}
