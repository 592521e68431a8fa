//! Structural compatibility of contracts (spec §5, §9.1, §16.3): does what one side produces
//! satisfy what the other requires? Types are JSON Schema types plus `any`; `integer` fits
//! `number`; a missing type is `any`.

use serde_json::Value;

use crate::json::field;

/// One named, typed field: a `contracts.inputs[]`/`outputs[]` entry or a schema property.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Field {
    pub(crate) name: String,
    pub(crate) kind: Option<String>,
    pub(crate) required: bool,
}

/// A reason two sides do not fit, in words naming both.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Mismatch(pub(crate) String);

/// The fields of a contract list (`contracts.inputs` or `contracts.outputs`).
pub(crate) fn fields_of_list(list: Option<&Value>) -> Vec<Field> {
    list.and_then(Value::as_array)
        .map(|items| {
            items
                .iter()
                .filter_map(|item| {
                    Some(Field {
                        name: field(item, "name")?.as_str()?.to_owned(),
                        kind: type_of(item),
                        required: field(item, "required").and_then(Value::as_bool) == Some(true),
                    })
                })
                .collect()
        })
        .unwrap_or_default()
}

/// The properties of an object JSON Schema, with `required` applied.
pub(crate) fn fields_of_schema(schema: &Value) -> Vec<Field> {
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let mut fields: Vec<Field> = schema
        .get("properties")
        .and_then(Value::as_object)
        .map(|props| {
            props
                .iter()
                .map(|(name, property)| Field {
                    name: name.clone(),
                    kind: type_of(property),
                    required: required.contains(&name.as_str()),
                })
                .collect()
        })
        .unwrap_or_default();
    for name in required {
        if !fields.iter().any(|f| f.name == name) {
            fields.push(Field {
                name: name.to_owned(),
                kind: None,
                required: true,
            });
        }
    }
    fields
}

fn type_of(value: &Value) -> Option<String> {
    schema_type(value).map(str::to_owned)
}

/// A schema's `type`, `None` when it has none or it is `any`.
fn schema_type(value: &Value) -> Option<&str> {
    match field(value, "type") {
        Some(Value::String(kind)) if kind != "any" => Some(kind),
        _ => None,
    }
}

/// Whether a `needs` wire from step `producer` to step `consumer` fits: exactly when
/// [`wire_mismatches`] of their [`WireEnd::step`] ends finds nothing (a step end has no named
/// fields, so only the schema types count), without naming the ends — the graph asks this for
/// every wire and only needs the verdict.
pub(crate) fn steps_fit(producer: &Value, consumer: &Value) -> bool {
    type_fits(
        field(producer, "output_schema").and_then(schema_type),
        field(consumer, "input_schema").and_then(schema_type),
    )
}

/// Whether a value of type `produced` is acceptable where `expected` is required.
pub(crate) fn type_fits(produced: Option<&str>, expected: Option<&str>) -> bool {
    match (produced, expected) {
        (None, _) | (_, None) => true,
        (Some(p), Some(e)) => p == e || (p == "integer" && e == "number"),
    }
}

/// Does `produced` (by `producer`) give every required field of `required` (by `consumer`),
/// with fitting types?
pub(crate) fn satisfies(
    produced: &[Field],
    producer: &str,
    required: &[Field],
    consumer: &str,
) -> Vec<Mismatch> {
    let mut problems = Vec::new();
    for want in required.iter().filter(|f| f.required) {
        match produced.iter().find(|f| f.name == want.name) {
            None => {
                let offered: Vec<&str> = produced.iter().map(|f| f.name.as_str()).collect();
                problems.push(Mismatch(format!(
                    "{consumer} requires `{}`, which {producer} does not provide (it provides: {})",
                    want.name,
                    if offered.is_empty() {
                        "nothing".to_owned()
                    } else {
                        offered.join(", ")
                    }
                )));
            }
            Some(have) if !type_fits(have.kind.as_deref(), want.kind.as_deref()) => {
                problems.push(Mismatch(format!(
                    "{consumer} requires `{}` as {}, but {producer} provides {}",
                    want.name,
                    want.kind.as_deref().unwrap_or("any"),
                    have.kind.as_deref().unwrap_or("any")
                )));
            }
            Some(_) => {}
        }
    }
    problems
}

/// One end of a wire, as far as it is known: what messages call it, its schema type, and its
/// named fields (`None` when unknown: an agent whose file was not loaded, a step without schema).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct WireEnd {
    pub(crate) name: String,
    pub(crate) kind: Option<String>,
    pub(crate) fields: Option<Vec<Field>>,
}

impl WireEnd {
    /// A step's end of a `needs` wire: the type of its `output_schema` (`producing`) or its
    /// `input_schema`. Properties are not compared: a step with several needs assembles its input
    /// from all of them and the workflow's input.
    pub(crate) fn step(name: &str, step: &Value, producing: bool) -> WireEnd {
        let schema = if producing {
            "output_schema"
        } else {
            "input_schema"
        };
        WireEnd {
            name: format!("step `{name}`"),
            kind: step.get(schema).and_then(type_of),
            fields: None,
        }
    }

    /// A workflow node's end of an edge: its `contracts.outputs` (`producing`) or
    /// `contracts.inputs`, when its document (`loaded`, overrides applied) is known.
    pub(crate) fn agent(name: &str, loaded: Option<&Value>, producing: bool) -> WireEnd {
        let side = if producing { "outputs" } else { "inputs" };
        WireEnd {
            name: format!("node `{name}`"),
            kind: None,
            fields: loaded.map(|v| fields_of_list(field(v, "contracts").and_then(|c| c.get(side)))),
        }
    }
}

/// Why a wire from `producer` to `consumer` does not fit, through the edge `contract` when it has
/// one (spec §9.1, §16.3): the types must fit; the producer's outputs must give every property the
/// contract requires, and the contract's required properties every input the consumer requires
/// (without a contract, the outputs every required input). Lint reports each reason as
/// `contract-mismatch`; the graph draws the wire compatible exactly when there is none.
pub(crate) fn wire_mismatches(
    producer: &WireEnd,
    consumer: &WireEnd,
    contract: Option<&Value>,
) -> Vec<Mismatch> {
    let mut problems = Vec::new();
    if !type_fits(producer.kind.as_deref(), consumer.kind.as_deref()) {
        problems.push(Mismatch(format!(
            "{} expects {} input, but {} outputs {}",
            consumer.name,
            consumer.kind.as_deref().unwrap_or("any"),
            producer.name,
            producer.kind.as_deref().unwrap_or("any")
        )));
    }
    let outputs = producer.fields.as_ref().filter(|o| !o.is_empty());
    match contract {
        Some(contract) => {
            let fields = fields_of_schema(contract);
            if let Some(outputs) = outputs {
                problems.extend(satisfies(
                    outputs,
                    &producer.name,
                    &fields,
                    "the edge contract",
                ));
            }
            if let Some(inputs) = &consumer.fields {
                let guaranteed: Vec<Field> = fields.into_iter().filter(|f| f.required).collect();
                problems.extend(satisfies(
                    &guaranteed,
                    "the edge contract",
                    inputs,
                    &consumer.name,
                ));
            }
        }
        None => {
            if let (Some(outputs), Some(inputs)) = (outputs, &consumer.fields) {
                problems.extend(satisfies(outputs, &producer.name, inputs, &consumer.name));
            }
        }
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn steps_fit_is_the_verdict_of_the_step_ends() {
        let types = [
            None,
            Some("any"),
            Some("string"),
            Some("integer"),
            Some("number"),
            Some("object"),
        ];
        let step = |schema: &str, kind: Option<&str>| match kind {
            Some(kind) => json!({ schema: { "type": kind } }),
            None => json!({}),
        };
        for produced in types {
            for expected in types {
                let producer = step("output_schema", produced);
                let consumer = step("input_schema", expected);
                let named = wire_mismatches(
                    &WireEnd::step("a", &producer, true),
                    &WireEnd::step("b", &consumer, false),
                    None,
                );
                assert_eq!(
                    steps_fit(&producer, &consumer),
                    named.is_empty(),
                    "{produced:?} → {expected:?}"
                );
            }
        }
    }

    #[test]
    fn reads_lists_and_schemas() {
        let list = json!([{"name": "q", "type": "string", "required": true}, {"name": "c"}]);
        let fields = fields_of_list(Some(&list));
        assert_eq!(
            fields[0],
            Field {
                name: "q".into(),
                kind: Some("string".into()),
                required: true
            }
        );
        assert!(!fields[1].required);
        let schema = json!({"type": "object", "required": ["findings", "extra"], "properties": {"findings": {"type": "array"}}});
        let fields = fields_of_schema(&schema);
        assert_eq!(fields.len(), 2);
        assert!(fields.iter().all(|f| f.required));
    }

    #[test]
    fn reports_missing_and_mistyped_fields_naming_both_sides() {
        let produced = vec![
            Field {
                name: "findings".into(),
                kind: Some("string".into()),
                required: false,
            },
            Field {
                name: "count".into(),
                kind: Some("integer".into()),
                required: false,
            },
        ];
        let required = vec![
            Field {
                name: "findings".into(),
                kind: Some("array".into()),
                required: true,
            },
            Field {
                name: "count".into(),
                kind: Some("number".into()),
                required: true,
            },
            Field {
                name: "summary".into(),
                kind: None,
                required: true,
            },
            Field {
                name: "optional".into(),
                kind: None,
                required: false,
            },
        ];
        let problems = satisfies(&produced, "node `a`", &required, "the edge contract");
        assert_eq!(problems.len(), 2, "{problems:?}");
        assert!(problems[0]
            .0
            .contains("`findings` as array, but node `a` provides string"));
        assert!(problems[1]
            .0
            .contains("requires `summary`, which node `a` does not provide"));
    }
}
