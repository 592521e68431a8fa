//! The run's input against the document's `contracts.inputs`, for every front end: what is
//! wrong with it and what the document's `contracts.validation` makes of that (the engine applies
//! the same rule when the run starts), and an example input — a value of the declared type for
//! every declared field — for a dry run or a form to start from.

use serde::Serialize;
use serde_json::{Map, Value};

use crate::model::Contracts;
use crate::run::logic::contracts::{input_enforcement, input_problems, Enforcement};
use crate::run::Source;

/// What a violation of the input contract does (the document's `contracts.validation`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum InputEnforcement {
    /// The run fails before any step starts (`on_input_violation: reject`, or `mode: strict`).
    Reject,
    /// The violation is recorded in the trace and the run goes on (the default, `warn`).
    Record,
    /// Nothing is checked (`mode: permissive`).
    Off,
}

/// The input checked against the contract.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct InputCheck {
    /// What is wrong, one sentence each; empty when the input conforms, there is no input
    /// contract, or the contract is not checked.
    pub problems: Vec<String>,
    /// What the document makes of problems.
    pub enforcement: InputEnforcement,
}

impl InputCheck {
    /// The run cannot start on this input.
    pub fn rejects(&self) -> bool {
        self.enforcement == InputEnforcement::Reject && !self.problems.is_empty()
    }
}

/// The contracts of the document `source` runs (none for a DRTL topology).
pub fn contracts_of(source: &Source) -> Contracts {
    match source {
        Source::Logic { spec, .. } => Contracts::of(spec),
        Source::Drtl { .. } => Contracts::default(),
    }
}

/// `input` checked against `contracts.inputs`, with what the document's validation does.
pub fn check_input(contracts: &Contracts, input: &Value) -> InputCheck {
    let enforcement = match input_enforcement(contracts) {
        Enforcement::Reject => InputEnforcement::Reject,
        Enforcement::Record => InputEnforcement::Record,
        Enforcement::Off => InputEnforcement::Off,
    };
    let problems = match enforcement {
        InputEnforcement::Off => Vec::new(),
        _ => input_problems(contracts, input),
    };
    InputCheck {
        problems,
        enforcement,
    }
}

/// An input that fits `contracts.inputs`' declared types: `1` for numbers, `true`, `[]`, `{}`,
/// and `"example NAME"` for strings and fields of no declared type.
pub fn example_input(contracts: &Contracts) -> Value {
    let fields: Map<String, Value> = contracts
        .inputs
        .iter()
        .map(|field| {
            let value = match field.kind.as_deref() {
                Some("number" | "integer") => Value::from(1),
                Some("boolean") => Value::Bool(true),
                Some("array") => Value::Array(Vec::new()),
                Some("object") => Value::Object(Map::new()),
                Some("null") => Value::Null,
                _ => Value::String(format!("example {}", field.name)),
            };
            (field.name.clone(), value)
        })
        .collect();
    Value::Object(fields)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::model::Spec;

    fn contracts(validation: Value) -> Contracts {
        Spec::read(&json!({"contracts": {"inputs": [
            {"name": "topic", "type": "string", "required": true},
            {"name": "depth", "type": "integer"},
            {"name": "extra"}
        ], "validation": validation}}))
        .contracts
    }

    #[test]
    fn the_example_fits_the_contract_in_every_mode() {
        for mode in ["strict", "warn", "permissive"] {
            let contracts = contracts(json!({"mode": mode}));
            let example = example_input(&contracts);
            assert_eq!(
                example,
                json!({"topic": "example topic", "depth": 1, "extra": "example extra"})
            );
            assert_eq!(
                check_input(&contracts, &example).problems,
                Vec::<String>::new()
            );
        }
    }

    #[test]
    fn problems_come_with_what_the_document_makes_of_them() {
        let bad = json!({"depth": 1.5});
        let strict = check_input(&contracts(json!({"mode": "strict"})), &bad);
        assert_eq!(
            strict.problems,
            [
                "missing required property `topic`",
                "at `/depth`: expected an integer, found a number `1.5`"
            ]
        );
        assert!(strict.rejects());
        let warn = check_input(&contracts(json!({"mode": "warn"})), &bad);
        assert_eq!(warn.problems.len(), 2);
        assert!(!warn.rejects());
        let off = check_input(&contracts(json!({"mode": "permissive"})), &bad);
        assert_eq!(off.problems, Vec::<String>::new());
        assert_eq!(off.enforcement, InputEnforcement::Off);
        assert!(check_input(&Contracts::default(), &json!(5))
            .problems
            .is_empty());
    }
}
