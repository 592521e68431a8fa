//! A step's JSON Schema in the form OpenAI's strict structured outputs accept: every object
//! lists all its properties in `required` and has `additionalProperties: false`, the root is an
//! object, only keywords strict mode knows are used.
//!
//! We tighten rather than rewrite: properties the step leaves optional become required and
//! open objects become closed, so every answer the tightened schema admits is one the step's
//! own schema admits (our validation against the original stays). Where tightening would
//! change what the step means (an object without `properties` would admit only `{}`, a map
//! with `additionalProperties` a schema, an array without `items`, keywords strict mode does
//! not know), there is no strict form and the caller falls back to JSON mode with the schema
//! in the prompt.

use serde_json::{Map, Value};

/// Keywords kept as they are.
const KEPT: &[&str] = &[
    "type",
    "enum",
    "const",
    "description",
    "title",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minItems",
    "maxItems",
    "pattern",
];

/// Keywords that only annotate: dropped, since they admit nothing and forbid nothing.
const ANNOTATIONS: &[&str] = &["$schema", "$id", "$comment", "default", "examples"];

/// The string formats strict mode supports.
const FORMATS: &[&str] = &[
    "date-time",
    "time",
    "date",
    "duration",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "uuid",
];

/// Strict mode's nesting limit (OpenAI: 10 levels of objects; we count every schema).
const MAX_DEPTH: usize = 20;

/// The strict form of `schema`, or `None` when it has none.
pub fn strict_schema(schema: &Value) -> Option<Value> {
    let tightened = tighten(schema, 0)?;
    (tightened.get("type") == Some(&Value::String("object".into()))).then_some(tightened)
}

fn tighten(schema: &Value, depth: usize) -> Option<Value> {
    let schema = schema.as_object()?;
    if depth > MAX_DEPTH {
        return None;
    }
    let mut out = Map::new();
    let mut properties: Option<Map<String, Value>> = None;
    for (key, value) in schema {
        match key.as_str() {
            k if KEPT.contains(&k) => {
                out.insert(key.clone(), value.clone());
            }
            k if ANNOTATIONS.contains(&k) => {}
            "format" if value.as_str().is_some_and(|f| FORMATS.contains(&f)) => {
                out.insert(key.clone(), value.clone());
            }
            "properties" => {
                let mut tightened = Map::new();
                for (name, property) in value.as_object()? {
                    tightened.insert(name.clone(), tighten(property, depth + 1)?);
                }
                properties = Some(tightened);
            }
            // Recomputed below: every property is required. A required name without a
            // property schema (any value) has no strict form.
            "required" => {
                let declared = schema.get("properties").and_then(Value::as_object);
                let all_declared = value.as_array()?.iter().all(|name| {
                    name.as_str()
                        .is_some_and(|n| declared.is_some_and(|d| d.contains_key(n)))
                });
                if !all_declared {
                    return None;
                }
            }
            "additionalProperties" if value == &Value::Bool(false) => {}
            "items" if value.is_object() => {
                out.insert(key.clone(), tighten(value, depth + 1)?);
            }
            "anyOf" => {
                let branches = value
                    .as_array()?
                    .iter()
                    .map(|branch| tighten(branch, depth + 1))
                    .collect::<Option<Vec<_>>>()?;
                out.insert(key.clone(), Value::Array(branches));
            }
            _ => return None,
        }
    }
    let types = types_of(out.get("type"))?;
    let has = |name: &str| types.iter().any(|t| t == name);
    let is_object = has("object") || (types.is_empty() && properties.is_some());
    if is_object {
        // Only a lone `object` type: a union with `object` has no strict form here.
        if types.len() > 1 {
            return None;
        }
        let properties = properties?;
        out.insert("type".into(), "object".into());
        out.insert(
            "required".into(),
            Value::Array(properties.keys().cloned().map(Value::String).collect()),
        );
        out.insert("properties".into(), Value::Object(properties));
        out.insert("additionalProperties".into(), Value::Bool(false));
    } else if properties.is_some() {
        return None;
    }
    if has("array") && (types.len() > 1 || !out.contains_key("items")) {
        return None;
    }
    let constrained = !types.is_empty()
        || out.contains_key("enum")
        || out.contains_key("const")
        || out.contains_key("anyOf");
    constrained.then_some(Value::Object(out))
}

/// The names `type` lists (none when absent); `None` when it is malformed.
fn types_of(value: Option<&Value>) -> Option<Vec<String>> {
    match value {
        None => Some(Vec::new()),
        Some(Value::String(t)) => Some(vec![t.clone()]),
        Some(Value::Array(items)) => items
            .iter()
            .map(|t| t.as_str().map(str::to_owned))
            .collect(),
        Some(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use serde_json::json;

    use super::*;

    #[test]
    fn objects_are_closed_and_every_property_required() {
        let schema = json!({
            "$schema": "http://json-schema.org/draft-07/schema#",
            "type": "object",
            "required": ["competitors"],
            "properties": {
                "competitors": {
                    "type": "array",
                    "minItems": 5,
                    "items": {
                        "type": "object",
                        "required": ["name"],
                        "properties": {
                            "name": {"type": "string"},
                            "category": {"enum": ["direct", "indirect"]},
                            "founded": {"type": ["integer", "null"], "default": null}
                        }
                    }
                },
                "confidence": {"type": "number", "minimum": 0, "maximum": 1}
            }
        });
        assert_eq!(
            strict_schema(&schema),
            Some(json!({
                "type": "object",
                "required": ["competitors", "confidence"],
                "properties": {
                    "competitors": {
                        "type": "array",
                        "minItems": 5,
                        "items": {
                            "type": "object",
                            "required": ["name", "category", "founded"],
                            "properties": {
                                "name": {"type": "string"},
                                "category": {"enum": ["direct", "indirect"]},
                                "founded": {"type": ["integer", "null"]}
                            },
                            "additionalProperties": false
                        }
                    },
                    "confidence": {"type": "number", "minimum": 0, "maximum": 1}
                },
                "additionalProperties": false
            }))
        );
    }

    #[test]
    fn schemas_whose_strict_form_would_mean_something_else_have_none() {
        let object = |inner: Value| json!({"type": "object", "properties": {"x": inner}});
        let none = [
            json!({"type": "array", "items": {"type": "string"}}),
            json!({"type": "string"}),
            json!({"type": "object"}),
            object(json!({"type": "object"})),
            object(json!({"type": "array"})),
            object(json!({"type": "array", "items": [{"type": "string"}]})),
            object(json!({"type": "object", "properties": {}, "additionalProperties": true})),
            object(json!({"type": "object", "additionalProperties": {"type": "number"}})),
            object(json!({"type": "string", "minLength": 3})),
            object(json!({"type": "string", "format": "uri"})),
            object(json!({"$ref": "#/definitions/x"})),
            object(json!({"oneOf": [{"type": "string"}]})),
            object(json!({})),
            object(json!({"type": ["object", "null"], "properties": {}})),
            object(json!({"type": "object", "properties": {}, "required": ["a"]})),
            object(json!(true)),
            json!({"type": "object", "properties": {"x": {"type": 7}}}),
        ];
        for schema in none {
            assert_eq!(strict_schema(&schema), None, "{schema}");
        }
    }

    #[test]
    fn the_tightened_schema_admits_only_what_the_original_admits() {
        let original = json!({
            "type": "object",
            "required": ["a"],
            "properties": {"a": {"type": "string"}, "b": {"anyOf": [{"type": "number"}, {"type": "null"}]}}
        });
        let strict = strict_schema(&original).unwrap();
        for answer in [
            json!({"a": "x", "b": 1}),
            json!({"a": "x", "b": null}),
            json!({"a": "x"}),
            json!({"a": "x", "b": 1, "c": 2}),
            json!({"b": 1}),
        ] {
            let strict_ok = crate::schema::check_instance(&strict, &answer).is_empty();
            let original_ok = crate::schema::check_instance(&original, &answer).is_empty();
            assert!(!strict_ok || original_ok, "{answer}");
        }
    }

    /// Random schemas of the shapes steps declare.
    fn schemas() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(json!({"type": "string"})),
            Just(json!({"type": "number", "minimum": 0})),
            Just(json!({"type": "integer", "maximum": 3})),
            Just(json!({"type": "boolean"})),
            Just(json!({"enum": ["a", "b"]})),
            Just(json!({"type": ["string", "null"]})),
        ];
        leaf.prop_recursive(3, 16, 3, |inner| {
            prop_oneof![
                (
                    proptest::collection::btree_map("[abc]", (inner.clone(), any::<bool>()), 0..3),
                    any::<bool>()
                )
                    .prop_map(|(declared, closed)| {
                        let required: Vec<&String> =
                            declared.iter().filter(|(_, (_, r))| *r).map(|(n, _)| n).collect();
                        let properties: serde_json::Map<String, Value> =
                            declared.iter().map(|(n, (s, _))| (n.clone(), s.clone())).collect();
                        let mut schema = json!({"type": "object", "properties": properties, "required": required});
                        if closed {
                            schema["additionalProperties"] = json!(false);
                        }
                        schema
                    }),
                (inner, 0u64..3).prop_map(|(items, min)| json!({"type": "array", "items": items, "minItems": min})),
            ]
        })
    }

    /// A value shaped after `schema`, with `choices` deciding where it strays (a property left
    /// out, an extra key, a value of another type), so many are valid and many are not.
    fn instance(schema: &Value, choices: &mut impl Iterator<Item = u8>) -> Value {
        fn next(choices: &mut impl Iterator<Item = u8>) -> u8 {
            choices.next().unwrap_or(0)
        }
        let pool = [
            json!("a"),
            json!(2),
            json!(-1.5),
            json!(true),
            json!(null),
            json!("zz"),
        ];
        if next(choices) % 8 == 0 {
            return pool[usize::from(next(choices)) % pool.len()].clone();
        }
        if let Some(properties) = schema.get("properties").and_then(Value::as_object) {
            let mut object = serde_json::Map::new();
            for (name, property) in properties {
                if next(choices) % 6 != 0 {
                    let value = instance(property, choices);
                    object.insert(name.clone(), value);
                }
            }
            if next(choices) % 7 == 0 {
                object.insert("extra".into(), json!(1));
            }
            return Value::Object(object);
        }
        if let Some(items) = schema.get("items") {
            let count = usize::from(next(choices) % 3);
            return Value::Array((0..count).map(|_| instance(items, choices)).collect());
        }
        match schema.get("type").and_then(Value::as_str) {
            Some("string") => json!("s"),
            Some("number") => json!(1.5),
            Some("integer") => json!(2),
            Some("boolean") => json!(false),
            _ => pool[usize::from(next(choices)) % pool.len()].clone(),
        }
    }

    proptest::proptest! {
        /// Whatever the strict form admits, the step's own schema admits: tightening never lets
        /// an answer through that the engine's validation would reject.
        #[test]
        fn the_strict_form_admits_a_subset_of_the_original(
            schema in schemas(),
            choices in proptest::collection::vec(any::<u8>(), 64),
        ) {
            let root = json!({"type": "object", "properties": {"x": schema}});
            let strict = strict_schema(&root).expect("these shapes all have a strict form");
            for start in 0..8 {
                let mut bits = choices.iter().copied().cycle().skip(start * 7);
                let answer = instance(&strict, &mut bits);
                let strict_ok = crate::schema::check_instance(&strict, &answer).is_empty();
                let original_ok = crate::schema::check_instance(&root, &answer).is_empty();
                proptest::prop_assert!(!strict_ok || original_ok, "{} admits {}", strict, answer);
            }
        }
    }

    #[test]
    fn nesting_is_bounded() {
        let mut schema = json!({"type": "string"});
        for _ in 0..30 {
            schema = json!({"type": "object", "properties": {"x": schema}});
        }
        assert_eq!(strict_schema(&schema), None);
    }
}
