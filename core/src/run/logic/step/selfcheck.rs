//! Self-verification (spec §6.2) as model calls, for the steps that produce the document's
//! output: reflection (the model reviews and revises its output), rubric (it scores the output
//! per criterion; the weighted score must reach `minimum_score`), checklist (it ticks each item),
//! critic (a critical review, like reflection). A judgement that fails asks for a revision, at
//! most `max_revisions` times (1 when unset); a failure after the last revision is a failed
//! check, which the fallback handles. A reflection's or critic's revision counts as one of
//! those revisions and goes through the step's checks again, as any answer does. Post-output
//! gates run on the output that passed.

use serde_json::{json, Map, Value};

use super::answer::Reader;
use super::{Progress, Shared, StepRun};
use crate::model::SelfVerification;
use crate::run::action::{Message, ModelFailure};
use crate::run::kernel::{Kernel, Purpose};
use crate::run::logic::context::pretty;
use crate::run::output;
use crate::trace::{Event, Gate, Speaker};

/// Revisions self-verification may ask for.
pub(super) fn max_revisions(shared: &Shared) -> u64 {
    shared
        .spec
        .quality_gates
        .self_verification
        .as_ref()
        .and_then(|s| s.max_revisions)
        .unwrap_or(1)
}

impl StepRun {
    /// The self-verification call, when the document asks for one on this step; else the
    /// post-output gates.
    pub(super) fn self_verify(&mut self, shared: &mut Shared, kernel: &mut Kernel) -> Progress {
        let verification = shared
            .spec
            .quality_gates
            .self_verification
            .clone()
            .filter(|v| v.enabled && self.is_final);
        let Some(verification) = verification else {
            return self.after_self_verification(shared, kernel);
        };
        let strategy = strategy_of(&verification);
        if revises(strategy) && self.revisions >= self.max_revisions {
            // The last revision allowed was made and checked: no call would be heeded.
            return self.after_self_verification(shared, kernel);
        }
        let output = self.output.clone().unwrap_or_default();
        let (prompt, schema) = request(strategy, &verification, self.schema.as_ref());
        let mut messages = self.messages.clone();
        messages.push(Message::assistant(pretty(&output)));
        messages.push(Message::user(prompt));
        let request = self.request(shared, messages, schema);
        let label = format!("self_verification:{strategy}");
        self.issue_call(kernel, request, Purpose::SelfCheck, Some(label));
        None
    }

    pub(super) fn on_self_check(
        &mut self,
        shared: &mut Shared,
        kernel: &mut Kernel,
        answer: Result<&str, &ModelFailure>,
    ) -> Progress {
        let Some(verification) = shared.spec.quality_gates.self_verification.clone() else {
            return self.after_self_verification(shared, kernel);
        };
        let strategy = strategy_of(&verification).to_owned();
        let text = match answer {
            Ok(text) => text,
            Err(failure) => {
                // A self-check that could not be made leaves the output as it was checked.
                let gate = Gate {
                    gate: Some("self_verification".to_owned()),
                    kind: Some(strategy),
                    error: Some(failure.message.clone()),
                    ..Gate::default()
                };
                kernel.event(Some(&self.node), Event::GateEvaluated(gate));
                return self.after_self_verification(shared, kernel);
            }
        };
        let judged = judge(&strategy, &verification, text, &self.reader);
        let gate = Gate {
            kind: Some(strategy.clone()),
            detail: Some(judged.detail.clone()),
            ..Gate::named("self_verification", judged.passed)
        };
        kernel.event(Some(&self.node), Event::GateEvaluated(gate));
        let revised = judged
            .revised
            .filter(|(revised, _)| Some(revised) != self.output.as_ref());
        if let Some((revised, warnings)) = revised {
            // A revision is an output like any other: it passes the step's checks or the
            // step's `on_fail` applies to it (§6.2 gives no exemption).
            self.revisions += 1;
            let validated = Event::OutputValidated {
                attempt: self.calls,
                output: revised.clone(),
                contract_warnings: (!warnings.is_empty()).then_some(warnings),
                speaker: Speaker::default(),
            };
            kernel.event(Some(&self.node), validated);
            self.output = Some(revised);
            return self.check_output(shared, kernel, text);
        }
        if judged.passed {
            return self.after_self_verification(shared, kernel);
        }
        let reason = format!(
            "the output did not pass self-verification ({strategy}): {}",
            judged.feedback
        );
        if self.revisions >= self.max_revisions {
            return self.recover(shared, kernel, None, &reason);
        }
        // Revise the main answer with the judgement as feedback; it is checked again.
        self.revisions += 1;
        let output = self.output.clone().unwrap_or_default();
        self.messages.push(Message::assistant(pretty(&output)));
        self.messages.push(Message::user(format!(
            "Your output did not pass self-verification ({strategy}): {}\nRevise your output.",
            judged.feedback
        )));
        // A revision is owed whatever the retry policy has used.
        self.attempt = self.attempt.min(self.policy.max_attempts.saturating_sub(1));
        self.call(shared, kernel);
        None
    }

    fn after_self_verification(&mut self, shared: &mut Shared, kernel: &mut Kernel) -> Progress {
        if let Some(failed) = self.gates_fail(shared, kernel, "post_output") {
            let text = pretty(&self.output.clone().unwrap_or_default());
            return self.act_on(shared, kernel, failed, &text);
        }
        self.finish()
    }
}

fn strategy_of(verification: &SelfVerification) -> &str {
    verification.strategy.as_deref().unwrap_or("reflection")
}

/// Whether the strategy answers with a revised output (reflection, critic) rather than a
/// judgement (rubric, checklist).
fn revises(strategy: &str) -> bool {
    !matches!(strategy, "rubric" | "checklist")
}

/// What a self-verification answer says.
struct Judged {
    pub passed: bool,
    pub detail: Value,
    /// A reflection's revised output, read as an answer (with a lenient contract's warnings).
    pub revised: Option<(Value, Vec<String>)>,
    /// Why it did not pass, as feedback for a revision.
    pub feedback: String,
}

/// The prompt and the answer's schema of a self-verification call.
fn request(
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
            let count = verification.checklist.len();
            let schema = json!({
                "type": "object",
                "required": ["items"],
                "properties": {"items": {"type": "array", "minItems": count, "maxItems": count, "items": {
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
fn judge(strategy: &str, verification: &SelfVerification, text: &str, reader: &Reader) -> Judged {
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
            // Rounded, so that weights like 0.5 × 0.9 + 0.5 × 0.8 reach a minimum of 0.85.
            let score = if total > 0.0 {
                (weighted / total * 1e9).round() / 1e9
            } else {
                1.0
            };
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
            let revised = reader.read(text).ok();
            Judged {
                passed: true,
                detail: json!({"revised": revised.is_some()}),
                feedback: String::new(),
                revised,
            }
        }
    }
}
