//! Self-verification (spec §6.2) as model calls: reflection (the model reviews and revises its
//! output), rubric (it scores the output per criterion; the weighted score must reach
//! `minimum_score`), checklist (it ticks each item), critic (a critical review, like reflection).

use serde_json::{json, Map, Value};

use crate::model::SelfVerification;
use crate::run::output;

/// What a self-verification answer says.
pub(crate) struct Judged {
    pub passed: bool,
    pub detail: Value,
    /// A reflection's revised output.
    pub revised: Option<Value>,
    /// Why it did not pass, as feedback for a revision.
    pub feedback: String,
}

/// The prompt and the answer's schema of a self-verification call.
pub(crate) fn request(
    strategy: &str,
    verification: &SelfVerification,
    output_schema: Option<&Value>,
) -> (String, Option<Value>) {
    match strategy {
        "rubric" => {
            let mut prompt = String::from("Score your output above against each criterion, from 0 (not met) to 1 (fully met):\n");
            let mut properties = Map::new();
            for criterion in &verification.rubric {
                prompt.push_str(&format!(
                    "- {} (weight {}){}\n",
                    criterion.name,
                    criterion.weight,
                    criterion
                        .description
                        .as_deref()
                        .map(|d| format!(": {d}"))
                        .unwrap_or_default()
                ));
                properties.insert(
                    criterion.name.clone(),
                    json!({"type": "number", "minimum": 0, "maximum": 1}),
                );
            }
            prompt.push_str("Answer with JSON only: {\"scores\": {\"<criterion>\": <score>}}.");
            let names: Vec<&str> = verification
                .rubric
                .iter()
                .map(|c| c.name.as_str())
                .collect();
            let schema = json!({
                "type": "object",
                "required": ["scores"],
                "properties": {"scores": {"type": "object", "required": names, "properties": properties}}
            });
            (prompt, Some(schema))
        }
        "checklist" => {
            let mut prompt = String::from("Check your output above against each item:\n");
            for item in &verification.checklist {
                prompt.push_str(&format!("- {item}\n"));
            }
            prompt.push_str("Answer with JSON only: {\"items\": [{\"item\": \"<item>\", \"passed\": true|false}]}, one entry per item, in order.");
            let schema = json!({
                "type": "object",
                "required": ["items"],
                "properties": {"items": {"type": "array", "items": {
                    "type": "object", "required": ["item", "passed"],
                    "properties": {"item": {"type": "string"}, "passed": {"type": "boolean"}}
                }}}
            });
            (prompt, Some(schema))
        }
        _ => {
            let review = verification.reflection_prompt.clone().unwrap_or_else(|| {
                if strategy == "critic" {
                    "Act as a critic of your output above: find what is wrong, unsupported or missing.".to_owned()
                } else {
                    "Review your output above critically: is every claim supported, is anything missing?".to_owned()
                }
            });
            (
                format!("{review}\nThen answer with your final output, revised where needed, in the same format as before and nothing else."),
                output_schema.cloned(),
            )
        }
    }
}

/// Reads a self-verification answer.
pub(crate) fn judge(
    strategy: &str,
    verification: &SelfVerification,
    text: &str,
    output_schema: Option<&Value>,
) -> Judged {
    match strategy {
        "rubric" => {
            let scores = output::read(text, None)
                .ok()
                .and_then(|v| v.get("scores").cloned())
                .unwrap_or_default();
            let (mut weighted, mut total) = (0.0, 0.0);
            let mut low = Vec::new();
            for criterion in &verification.rubric {
                let score = scores
                    .get(&criterion.name)
                    .and_then(Value::as_f64)
                    .unwrap_or(0.0)
                    .clamp(0.0, 1.0);
                weighted += criterion.weight * score;
                total += criterion.weight;
                if score < 0.5 {
                    low.push(format!("{} scored {score}", criterion.name));
                }
            }
            let score = if total > 0.0 { weighted / total } else { 1.0 };
            let minimum = verification.minimum_score.unwrap_or(0.0);
            Judged {
                passed: score >= minimum,
                detail: json!({"score": score, "minimum_score": minimum, "scores": scores}),
                revised: None,
                feedback: format!(
                    "the weighted score {score:.2} is below {minimum}{}",
                    if low.is_empty() {
                        String::new()
                    } else {
                        format!(" ({})", low.join(", "))
                    }
                ),
            }
        }
        "checklist" => {
            let items = output::read(text, None)
                .ok()
                .and_then(|v| v.get("items").cloned())
                .and_then(|v| v.as_array().cloned())
                .unwrap_or_default();
            let failed: Vec<String> = verification
                .checklist
                .iter()
                .enumerate()
                .filter(|(i, item)| {
                    let entry = items
                        .iter()
                        .find(|e| e.get("item").and_then(Value::as_str) == Some(item.as_str()))
                        .or_else(|| items.get(*i));
                    entry.and_then(|e| e.get("passed")).and_then(Value::as_bool) != Some(true)
                })
                .map(|(_, item)| item.clone())
                .collect();
            Judged {
                passed: failed.is_empty(),
                detail: json!({"failed": failed}),
                revised: None,
                feedback: format!("these items are not met: {}", failed.join("; ")),
            }
        }
        _ => {
            let revised = output::read(text, output_schema).ok();
            Judged {
                passed: true,
                detail: json!({"revised": revised.is_some()}),
                feedback: String::new(),
                revised,
            }
        }
    }
}
