//! Contracts at run time (spec §5.2): the input a document's run gets is checked against
//! `contracts.inputs`, and `contracts.validation` says what a violation does. The output
//! contract is the final steps' output schema (the compiler's execution mandate): an answer
//! that breaks it is invalid output, unless validation is lenient about outputs.

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

/// A contract's fields as one object schema: a property per field, `required: true` fields
/// required.
fn object_schema(fields: &[ContractField]) -> Value {
    let mut properties = Map::new();
    let mut required = Vec::new();
    for field in fields {
        let mut schema = field.raw.clone();
        for key in ["name", "description", "constraints"] {
            schema.remove(key);
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
