//! Graceful degradation (spec §8 `degradation`): when a step cannot produce an accepted output,
//! the first rule whose `when` names the situation decides what happens instead.

use serde_json::{Map, Value};

use crate::model::{Degradation, Fallback};

/// What a degradation rule makes of a failed step (the rule's `when` in each).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Recovery {
    /// Finish with this output (`partial_output`), once it passes the step's checks.
    Output(Value, String),
    /// The step gives nothing, for this reason when there is more to say than the rule.
    Skip(String, Option<&'static str>),
    Abort(String),
    Review(String),
    /// Try again without tools (`reasoning_only`).
    WithoutTools(String),
}

/// The situation names a failure matches: the error kind's, then `step_failed` and `any`.
fn situations(error_kind: Option<&str>) -> Vec<&'static str> {
    let mut names = match error_kind {
        Some("Timeout") => vec!["timeout_exceeded", "timeout"],
        Some("ToolUnavailable" | "ToolError") => vec!["tools_unavailable"],
        Some("RateLimitError") => vec!["rate_limited", "model_unavailable"],
        Some("ServerError" | "ConnectionError") => vec!["model_unavailable"],
        Some(_) => vec!["model_error"],
        None => vec!["output_rejected"],
    };
    names.extend(["step_failed", "any"]);
    names
}

/// The recovery the first rule naming the situation gives; `verified` is the latest output that
/// passed the step's checks on itself (`partial_output` takes its fields, never those of an
/// output that failed).
pub(crate) fn degrade(
    fallback: &Fallback,
    error_kind: Option<&str>,
    verified: Option<&Value>,
) -> Option<Recovery> {
    let names = situations(error_kind);
    let rule = fallback
        .degradation
        .iter()
        .find(|rule| names.contains(&rule.when.as_str()))?;
    let when = rule.when.clone();
    Some(match rule.fallback_to.as_str() {
        "partial_output" => match verified {
            Some(output) => Recovery::Output(partial(output, rule), when),
            None => Recovery::Skip(when, Some("no output passed the step's checks")),
        },
        // The spec gives neither a cache nor a default value: there is nothing to publish.
        "cached_output" | "default_output" => Recovery::Skip(
            when,
            Some("the engine keeps no cached output and the document gives no default"),
        ),
        "reasoning_only" => Recovery::WithoutTools(when),
        "human_review" => Recovery::Review(when),
        "abort" => Recovery::Abort(when),
        // `skip`, or a step to fall back to: this step gives nothing and the run goes on.
        _ => Recovery::Skip(when, None),
    })
}

/// The fields of `output` a `partial_output` rule keeps.
fn partial(output: &Value, rule: &Degradation) -> Value {
    let Value::Object(fields) = output else {
        return output.clone();
    };
    let kept: Map<String, Value> = fields
        .iter()
        .filter(|(key, _)| {
            (rule.include_fields.is_empty() || rule.include_fields.contains(key))
                && !rule.exclude_fields.contains(key)
        })
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    Value::Object(kept)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::model::Spec;

    fn fallback() -> Fallback {
        Spec::read(&json!({"fallback": {"degradation": [
            {"when": "tools_unavailable", "fallback_to": "reasoning_only"},
            {"when": "timeout_exceeded", "fallback_to": "partial_output", "include_fields": ["summary", "score"], "exclude_fields": ["score"]}
        ]}}))
        .fallback
    }

    #[test]
    fn the_first_rule_naming_the_situation_decides() {
        let output = json!({"summary": "s", "score": 1, "detail": "d"});
        assert_eq!(
            degrade(&fallback(), Some("Timeout"), Some(&output)),
            Some(Recovery::Output(
                json!({"summary": "s"}),
                "timeout_exceeded".into()
            ))
        );
        assert_eq!(
            degrade(&fallback(), Some("ToolUnavailable"), None),
            Some(Recovery::WithoutTools("tools_unavailable".into()))
        );
        assert_eq!(
            degrade(&fallback(), Some("AuthenticationError"), None),
            None
        );
    }
}
