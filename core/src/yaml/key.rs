//! Mapping keys: the words LOGIC.md and DRTL files are written in are shared, not copied.
//!
//! A key that is a property name of the embedded schemas (or a JSON Schema keyword, for the
//! `input_schema` / `output_schema` a document carries) borrows one static copy; any other key is
//! its own string. Only allocation changes: a key compares, hashes and prints as its text.

use std::borrow::Cow;
use std::sync::OnceLock;

/// The property names of `logic-md-schema-v1.0.json` and `drtl-0.1.1.schema.json`, and the JSON
/// Schema keywords; `tests::every_property_name_of_the_embedded_schemas_is_shared` holds the list
/// to the schemas.
const VOCABULARY: &[&str] = &[
    "$ref",
    "$schema",
    "action",
    "actions",
    "actor",
    "additionalProperties",
    "allOf",
    "allowed_tools",
    "anyOf",
    "artifacts",
    "as",
    "avg_response_time",
    "backoff_coefficient",
    "branches",
    "capabilities",
    "category",
    "check",
    "checklist",
    "color",
    "condition",
    "confidence",
    "consensus",
    "const",
    "constraints",
    "contract",
    "contracts",
    "criteria",
    "decision_trees",
    "default",
    "degradation",
    "denied_tools",
    "depends_on",
    "description",
    "edges",
    "enabled",
    "enum",
    "escalate_below",
    "escalation",
    "examples",
    "exclude_fields",
    "execution",
    "fail_fast",
    "fallback",
    "fallback_to",
    "format",
    "from",
    "global",
    "icon",
    "id",
    "if",
    "imports",
    "include_fields",
    "include_reasoning_trace",
    "initial_interval",
    "inject",
    "input",
    "input_schema",
    "inputs",
    "inspector",
    "instructions",
    "invariants",
    "items",
    "join",
    "join_timeout",
    "key",
    "label",
    "languages",
    "level",
    "logic_ref",
    "max",
    "maxItems",
    "maxLength",
    "max_attempts",
    "max_input_tokens",
    "max_iterations",
    "max_parallelism",
    "max_revisions",
    "max_rounds",
    "max_total_cost",
    "max_total_time",
    "maximum",
    "maximum_interval",
    "message",
    "metadata",
    "min",
    "minItems",
    "minLength",
    "minimum",
    "minimum_score",
    "mode",
    "model",
    "name",
    "needs",
    "new_strategy",
    "next",
    "nodes",
    "non_retryable_errors",
    "not",
    "on_breach",
    "on_contract_violation",
    "on_fail",
    "on_fail_message",
    "on_input_violation",
    "on_output_violation",
    "on_pass",
    "oneOf",
    "operations",
    "options",
    "output_format",
    "output_key",
    "output_schema",
    "outputs",
    "overrides",
    "parallel_steps",
    "participants",
    "pattern",
    "persona",
    "ports",
    "post_output",
    "pre_output",
    "prompt",
    "prompt_ref",
    "prompts",
    "properties",
    "protocol_ref",
    "protocols",
    "quality_gates",
    "reasoning",
    "ref",
    "reflection",
    "required",
    "requires",
    "retry",
    "role",
    "root",
    "rubric",
    "rules",
    "self_verification",
    "set",
    "severity",
    "spec_version",
    "state_defaults",
    "step",
    "steps",
    "strategy",
    "strategy_config",
    "supported_domains",
    "target",
    "temperature",
    "terminals",
    "then",
    "thinking_budget",
    "threshold",
    "timeout",
    "title",
    "to",
    "trigger",
    "type",
    "validation",
    "value",
    "verification",
    "version",
    "visual",
    "weight",
    "when",
];

/// The key `text`, shared when it is a known word.
pub(crate) fn key(text: &str) -> Cow<'static, str> {
    match known(text) {
        Some(word) => Cow::Borrowed(word),
        None => Cow::Owned(text.to_owned()),
    }
}

/// The key `text`, shared when it is a known word (its own string is kept otherwise).
pub(crate) fn key_owned(text: String) -> Cow<'static, str> {
    match known(&text) {
        Some(word) => Cow::Borrowed(word),
        None => Cow::Owned(text),
    }
}

/// Slots of the open-addressing table of [`VOCABULARY`] (a power of two, mostly empty, so a key
/// that is not a word usually meets an empty slot at once).
const SLOTS: usize = 1024;

fn known(text: &str) -> Option<&'static str> {
    static TABLE: OnceLock<Vec<&'static str>> = OnceLock::new();
    let table = TABLE.get_or_init(|| {
        let mut table = vec![""; SLOTS];
        for word in VOCABULARY {
            let mut at = slot(word.as_bytes());
            while !table[at].is_empty() {
                at = (at + 1) % SLOTS;
            }
            table[at] = word;
        }
        table
    });
    let mut at = slot(text.as_bytes());
    loop {
        let word = table[at];
        if word.is_empty() {
            return None;
        }
        if word == text {
            return Some(word);
        }
        at = (at + 1) % SLOTS;
    }
}

/// A cheap hash: the length and three bytes tell the words apart well enough.
fn slot(bytes: &[u8]) -> usize {
    let (Some(&first), Some(&last)) = (bytes.first(), bytes.last()) else {
        return 0;
    };
    let middle = bytes[bytes.len() / 2] as usize;
    (bytes.len() * 31 + first as usize * 7 + last as usize * 131 + middle * 17) % SLOTS
}

#[cfg(test)]
mod tests {
    use serde_json::Value;

    use super::*;

    fn property_names(value: &Value, names: &mut Vec<String>) {
        match value {
            Value::Object(map) => {
                if let Some(Value::Object(properties)) = map.get("properties") {
                    names.extend(properties.keys().cloned());
                }
                map.values().for_each(|v| property_names(v, names));
            }
            Value::Array(items) => items.iter().for_each(|v| property_names(v, names)),
            _ => {}
        }
    }

    #[test]
    fn every_property_name_of_the_embedded_schemas_is_shared() {
        let mut names = Vec::new();
        for schema in [crate::schema::SCHEMA_JSON, crate::drtl::SCHEMA_JSON] {
            let value: Value = serde_json::from_str(schema).expect("the embedded schema is JSON");
            property_names(&value, &mut names);
        }
        let missing: Vec<&String> = names.iter().filter(|n| known(n).is_none()).collect();
        assert!(missing.is_empty(), "not in VOCABULARY: {missing:?}");
    }

    #[test]
    fn a_key_is_its_text_shared_or_not() {
        assert!(matches!(key("description"), Cow::Borrowed("description")));
        assert!(matches!(key("step_7"), Cow::Owned(ref s) if s == "step_7"));
        assert!(matches!(key_owned("needs".into()), Cow::Borrowed("needs")));
        assert_eq!(key("x y"), key_owned("x y".into()));
    }
}
