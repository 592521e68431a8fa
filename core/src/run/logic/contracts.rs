//! Contracts at run time (spec §5): the input a document's run gets is checked against
//! `contracts.inputs`, and `contracts.validation` says what a violation does. The output
//! contract holds every output of a final step (an answer, whatever the step's own schema says,
//! a pinned or degraded output) and the output the run gives back: what breaks it is invalid
//! output, unless validation is lenient about outputs. A field's `constraints` are checked with
//! it (`max_length` and the others JSON Schema has a keyword for).

use serde_json::{json, Map, Value};

use crate::model::{ContractField, Contracts};
use crate::run::output;

/// What a violation of the input contract does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Enforcement {
    /// The run fails before any step starts (`on_input_violation: reject`, or `mode: strict`
    /// without an `on_input_violation`).
    Reject,
    /// The violation is recorded and the run goes on (the default; `warn`, `coerce`).
    Record,
    /// Nothing is checked (`mode: permissive`).
    Off,
}

pub(crate) fn input_enforcement(contracts: &Contracts) -> Enforcement {
    match (
        contracts.mode.as_deref(),
        contracts.on_input_violation.as_deref(),
    ) {
        (Some("permissive"), None) => Enforcement::Off,
        (_, Some("reject")) | (Some("strict"), None) => Enforcement::Reject,
        _ => Enforcement::Record,
    }
}

/// Whether an answer that breaks only the output contract is accepted with a warning
/// (`on_output_violation: warn`, or `mode: warn | permissive` without one).
pub(crate) fn lenient_about_outputs(contracts: &Contracts) -> bool {
    match (
        contracts.mode.as_deref(),
        contracts.on_output_violation.as_deref(),
    ) {
        (_, Some(action)) => action == "warn",
        (Some(mode), None) => mode == "warn" || mode == "permissive",
        (None, None) => false,
    }
}

/// What is wrong with `input` under `contracts.inputs`; empty when it conforms or there is no
/// input contract.
pub(crate) fn input_problems(contracts: &Contracts, input: &Value) -> Vec<String> {
    if contracts.inputs.is_empty() {
        return Vec::new();
    }
    output::problems(&object_schema(&contracts.inputs), input)
}

/// `contracts.outputs` as the schema an output must meet, constraints included; `None` when
/// the document promises no outputs.
pub(crate) fn output_schema(contracts: &Contracts) -> Option<Value> {
    (!contracts.outputs.is_empty()).then(|| object_schema(&contracts.outputs))
}

/// A contract's fields as one object schema: a property per field (its `constraints` as
/// schema keywords), `required: true` fields required.
fn object_schema(fields: &[ContractField]) -> Value {
    let mut properties = Map::new();
    let mut required = Vec::new();
    for field in fields {
        let mut schema = field.raw.clone();
        for key in ["name", "description"] {
            schema.remove(key);
        }
        if let Some(Value::Object(constraints)) = schema.remove("constraints") {
            schema.extend(constraint_keywords(&constraints));
        }
        match schema.remove("required") {
            Some(Value::Bool(true)) => required.push(json!(field.name)),
            Some(list @ Value::Array(_)) => {
                schema.insert("required".to_owned(), list);
            }
            _ => {}
        }
        properties.insert(field.name.clone(), Value::Object(schema));
    }
    json!({"type": "object", "required": required, "properties": properties})
}

/// A field's `constraints` (spec §5.1: `max_length: 2000`) as the JSON Schema keywords that
/// check them. A length bounds a string's characters or a list's items, whichever the value
/// is. Names with no keyword here are not checked (lint's business).
fn constraint_keywords(constraints: &Map<String, Value>) -> Map<String, Value> {
    let mut keywords = Map::new();
    for (name, value) in constraints {
        let names: &[&str] = match name.as_str() {
            "max_length" | "maxLength" => &["maxLength", "maxItems"],
            "min_length" | "minLength" => &["minLength", "minItems"],
            "max_items" | "maxItems" => &["maxItems"],
            "min_items" | "minItems" => &["minItems"],
            "minimum" | "min" => &["minimum"],
            "maximum" | "max" => &["maximum"],
            "exclusive_minimum" | "exclusiveMinimum" => &["exclusiveMinimum"],
            "exclusive_maximum" | "exclusiveMaximum" => &["exclusiveMaximum"],
            "unique_items" | "uniqueItems" => &["uniqueItems"],
            "enum" | "one_of" | "allowed" => &["enum"],
            "const" => &["const"],
            _ => &[],
        };
        for keyword in names {
            keywords.insert((*keyword).to_owned(), value.clone());
        }
    }
    keywords
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Spec;

    fn contracts(validation: Value) -> Contracts {
        Spec::read(&json!({"contracts": {
            "inputs": [
                {"name": "query", "type": "string", "required": true, "constraints": {"max_length": 10}},
                {"name": "product", "type": "object", "required": true, "properties": {"name": {"type": "string"}}},
                {"name": "notes", "type": "array"}
            ],
            "validation": validation
        }}))
        .contracts
    }

    #[test]
    fn the_input_is_checked_field_by_field() {
        let c = contracts(json!({}));
        assert_eq!(
            input_problems(&c, &json!({"query": "q", "product": {"name": "x"}})),
            Vec::<String>::new()
        );
        assert_eq!(
            input_problems(&c, &json!({"query": 3, "notes": "n"})),
            [
                "missing required property `product`",
                "at `/query`: expected a string, found an integer `3`",
                "at `/notes`: expected an array, found a string `n`",
            ]
        );
    }

    #[test]
    fn validation_says_what_a_violation_does() {
        let cases = [
            (json!({}), Enforcement::Record, false),
            (json!({"mode": "strict"}), Enforcement::Reject, false),
            (
                json!({"mode": "strict", "on_input_violation": "warn"}),
                Enforcement::Record,
                false,
            ),
            (json!({"mode": "permissive"}), Enforcement::Off, true),
            (
                json!({"on_input_violation": "reject", "on_output_violation": "warn"}),
                Enforcement::Reject,
                true,
            ),
            (
                json!({"mode": "warn", "on_output_violation": "retry"}),
                Enforcement::Record,
                false,
            ),
        ];
        for (validation, input, lenient) in cases {
            let c = contracts(validation.clone());
            assert_eq!(input_enforcement(&c), input, "{validation}");
            assert_eq!(lenient_about_outputs(&c), lenient, "{validation}");
        }
    }
}
