//! The run's input: `--input JSON` or `--input @FILE`, parsed as JSON with the place of any
//! error, and checked against the document's `contracts.inputs` (every required field present,
//! every declared field of its type). A dry run without `--input` gets a placeholder for each
//! declared field.

use std::path::Path;

use serde_json::{Map, Value};

/// Reads `--input`: JSON text, or `@FILE` (`@-`: standard input).
pub fn read(argument: &str) -> Result<Value, String> {
    if let Some(path) = argument.strip_prefix('@') {
        return crate::commands::read_json(Path::new(path))
            .map_err(|problem| format!("--input: {problem}"));
    }
    serde_json::from_str(argument).map_err(|e| {
        format!(
            "--input is not JSON (line {}, column {}): {e}",
            e.line(),
            e.column()
        )
    })
}

/// The fields a document declares in `contracts.inputs`: name, type, required.
fn declared(spec: &Value) -> Vec<(String, String, bool)> {
    spec.pointer("/contracts/inputs")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|field| {
            Some((
                field.get("name")?.as_str()?.to_owned(),
                field
                    .get("type")
                    .and_then(Value::as_str)
                    .unwrap_or("any")
                    .to_owned(),
                field.get("required").and_then(Value::as_bool) == Some(true),
            ))
        })
        .collect()
}

/// What is wrong with `input` for a document declaring `contracts.inputs` in `spec`.
pub fn check(spec: &Value, input: &Value) -> Vec<String> {
    let fields = declared(spec);
    if fields.is_empty() {
        return Vec::new();
    }
    let Some(object) = input.as_object() else {
        return vec![format!(
            "--input must be a JSON object: the document declares the inputs {}",
            fields
                .iter()
                .map(|(name, _, _)| format!("`{name}`"))
                .collect::<Vec<_>>()
                .join(", ")
        )];
    };
    let mut problems = Vec::new();
    for (name, kind, required) in &fields {
        match object.get(name) {
            None | Some(Value::Null) if *required => problems.push(format!(
                "--input lacks `{name}` ({kind}), which contracts.inputs requires"
            )),
            Some(value) if !value.is_null() && !fits(value, kind) => problems.push(format!(
                "--input `{name}` is {}, but contracts.inputs declares {kind}",
                type_name(value)
            )),
            _ => {}
        }
    }
    problems
}

/// A dry run's input: a placeholder of the declared type for every declared field.
pub fn placeholder(spec: &Value) -> Value {
    let fields: Map<String, Value> = declared(spec)
        .into_iter()
        .map(|(name, kind, _)| {
            let value = match kind.as_str() {
                "number" | "integer" => Value::from(1),
                "boolean" => Value::Bool(true),
                "array" => Value::Array(Vec::new()),
                "object" => Value::Object(Map::new()),
                _ => Value::String(format!("example {name}")),
            };
            (name, value)
        })
        .collect();
    Value::Object(fields)
}

fn fits(value: &Value, kind: &str) -> bool {
    match kind {
        "string" => value.is_string(),
        "number" => value.is_number(),
        "integer" => value.as_f64().is_some_and(|n| n.fract() == 0.0),
        "boolean" => value.is_boolean(),
        "array" => value.is_array(),
        "object" => value.is_object(),
        "null" => value.is_null(),
        _ => true,
    }
}

fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn spec() -> Value {
        json!({"contracts": {"inputs": [
            {"name": "topic", "type": "string", "required": true},
            {"name": "depth", "type": "integer"},
            {"name": "extra"}
        ]}})
    }

    #[test]
    fn inputs_are_checked_against_the_contract() {
        assert_eq!(
            check(&spec(), &json!({"topic": "x", "depth": 2, "extra": [1]})),
            Vec::<String>::new()
        );
        assert_eq!(
            check(&spec(), &json!({"depth": 2.5})),
            [
                "--input lacks `topic` (string), which contracts.inputs requires",
                "--input `depth` is a number, but contracts.inputs declares integer"
            ]
        );
        assert_eq!(
            check(&spec(), &json!([1])),
            ["--input must be a JSON object: the document declares the inputs `topic`, `depth`, `extra`"]
        );
        assert!(check(&json!({}), &json!(5)).is_empty());
    }

    #[test]
    fn bad_json_is_placed() {
        assert_eq!(
            read("{\"a\": \n 1,}").unwrap_err(),
            "--input is not JSON (line 2, column 4): trailing comma at line 2 column 4"
        );
    }

    #[test]
    fn a_placeholder_fits_the_contract() {
        let input = placeholder(&spec());
        assert_eq!(
            input,
            json!({"topic": "example topic", "depth": 1, "extra": "example extra"})
        );
        assert!(check(&spec(), &input).is_empty());
    }
}
