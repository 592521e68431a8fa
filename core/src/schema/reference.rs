//! The schema evaluator as it was before issue #17: it walks the schema's JSON for every value
//! of every document. Kept as the oracle the compiled [`super::Program`] is compared with
//! (`tests/pipeline_differential_properties.rs`); nothing else uses it.

use std::borrow::Cow;

use serde_json::{Map, Value};

use super::engine::{ErrorKind, SchemaError};
use crate::json::pointer_push;

/// Evaluates instances against one root schema, walking its JSON.
pub struct ReferenceEvaluator<'s> {
    root: &'s Value,
}

impl<'s> ReferenceEvaluator<'s> {
    pub fn new(root: &'s Value) -> Self {
        ReferenceEvaluator { root }
    }

    /// Every failure of `instance`, outermost first.
    pub fn errors<'a>(&self, instance: &'a Value) -> Vec<SchemaError<'a>>
    where
        's: 'a,
    {
        let mut out = Vec::new();
        self.check(self.root, instance, "", &mut out);
        out
    }

    fn is_valid(&self, schema: &'s Value, instance: &Value) -> bool {
        let mut out = Vec::new();
        self.check(schema, instance, "", &mut out);
        out.is_empty()
    }

    fn check<'a>(
        &self,
        schema: &'s Value,
        instance: &'a Value,
        path: &str,
        out: &mut Vec<SchemaError<'a>>,
    ) where
        's: 'a,
    {
        let map = match schema {
            Value::Bool(true) => return,
            Value::Object(map) => map,
            _ => return push(out, path, instance, ErrorKind::Nothing),
        };
        // Draft-07: a `$ref` replaces its siblings.
        if let Some(reference) = map.get("$ref").and_then(Value::as_str) {
            return match self.resolve(reference) {
                Some(target) => self.check(target, instance, path, out),
                None => push(out, path, instance, ErrorKind::BadReference { reference }),
            };
        }
        if let Some(expected) = map.get("type") {
            if !type_matches(expected, instance) {
                let expected = match expected {
                    Value::Array(names) => names.iter().filter_map(Value::as_str).collect(),
                    other => other.as_str().into_iter().collect(),
                };
                // A value of the wrong type makes every other keyword's message noise.
                return push(out, path, instance, ErrorKind::Type { expected });
            }
        }
        if let Some(options) = map.get("enum") {
            let allowed = options.as_array().into_iter().flatten();
            if !allowed.clone().any(|option| equal(option, instance)) {
                push(out, path, instance, ErrorKind::Enum { options });
            }
        }
        if let Some(expected) = map.get("const") {
            if !equal(expected, instance) {
                push(out, path, instance, ErrorKind::Const { expected });
            }
        }
        check_bounds(map, instance, path, out);
        self.check_object(map, instance, path, out);
        self.check_array(map, instance, path, out);
        self.check_combinators(map, instance, path, out);
    }

    fn resolve(&self, reference: &str) -> Option<&'s Value> {
        let pointer = reference.strip_prefix('#')?;
        self.root.pointer(pointer)
    }

    fn check_object<'a>(
        &self,
        map: &'s Map<String, Value>,
        instance: &'a Value,
        path: &str,
        out: &mut Vec<SchemaError<'a>>,
    ) where
        's: 'a,
    {
        let Value::Object(object) = instance else {
            return;
        };
        for property in map
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            if let Some(property) = property.as_str() {
                if !object.contains_key(property) {
                    push(out, path, instance, ErrorKind::Required { property });
                }
            }
        }
        let properties = map.get("properties").and_then(Value::as_object);
        let additional = map.get("additionalProperties");
        let mut unexpected = Vec::new();
        for (key, value) in object {
            let child = pointer_push(path, key);
            if let Some(schema) = properties.and_then(|p| p.get(key)) {
                self.check(schema, value, &child, out);
            } else {
                match additional {
                    Some(Value::Bool(false)) => unexpected.push(key.as_str()),
                    Some(schema) => self.check(schema, value, &child, out),
                    None => {}
                }
            }
        }
        if !unexpected.is_empty() {
            push(
                out,
                path,
                instance,
                ErrorKind::AdditionalProperties { unexpected },
            );
        }
    }

    fn check_array<'a>(
        &self,
        map: &'s Map<String, Value>,
        instance: &'a Value,
        path: &str,
        out: &mut Vec<SchemaError<'a>>,
    ) where
        's: 'a,
    {
        let Value::Array(items) = instance else {
            return;
        };
        if let Some(schema) = map.get("items") {
            for (i, item) in items.iter().enumerate() {
                self.check(schema, item, &pointer_push(path, &i.to_string()), out);
            }
        }
        if map.get("uniqueItems") == Some(&Value::Bool(true)) {
            let repeated = items
                .iter()
                .enumerate()
                .any(|(i, a)| items[..i].iter().any(|b| equal(a, b)));
            if repeated {
                push(out, path, instance, ErrorKind::UniqueItems);
            }
        }
    }

    fn check_combinators<'a>(
        &self,
        map: &'s Map<String, Value>,
        instance: &'a Value,
        path: &str,
        out: &mut Vec<SchemaError<'a>>,
    ) where
        's: 'a,
    {
        for schema in map
            .get("allOf")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            self.check(schema, instance, path, out);
        }
        if let Some(alternatives) = map.get("anyOf").and_then(Value::as_array) {
            let context = self.alternatives(alternatives, instance, path);
            if context.iter().all(|errors| !errors.is_empty()) {
                push(out, path, instance, ErrorKind::AnyOf { context });
            }
        }
        if let Some(alternatives) = map.get("oneOf").and_then(Value::as_array) {
            let context = self.alternatives(alternatives, instance, path);
            match context.iter().filter(|errors| errors.is_empty()).count() {
                0 => push(out, path, instance, ErrorKind::OneOfNone { context }),
                1 => {}
                _ => push(out, path, instance, ErrorKind::OneOfMany),
            }
        }
        if let Some(schema) = map.get("not") {
            if self.is_valid(schema, instance) {
                push(out, path, instance, ErrorKind::Not);
            }
        }
        if let Some(condition) = map.get("if") {
            let branch = if self.is_valid(condition, instance) {
                map.get("then")
            } else {
                map.get("else")
            };
            if let Some(branch) = branch {
                self.check(branch, instance, path, out);
            }
        }
    }

    fn alternatives<'a>(
        &self,
        alternatives: &'s [Value],
        instance: &'a Value,
        path: &str,
    ) -> Vec<Vec<SchemaError<'a>>>
    where
        's: 'a,
    {
        alternatives
            .iter()
            .map(|schema| {
                let mut errors = Vec::new();
                self.check(schema, instance, path, &mut errors);
                errors
            })
            .collect()
    }
}

fn push<'a>(out: &mut Vec<SchemaError<'a>>, path: &str, instance: &'a Value, kind: ErrorKind<'a>) {
    out.push(SchemaError {
        instance_path: path.to_owned(),
        node: None,
        instance: Cow::Borrowed(instance),
        kind,
    });
}

fn check_bounds<'a>(
    map: &'a Map<String, Value>,
    instance: &'a Value,
    path: &str,
    out: &mut Vec<SchemaError<'a>>,
) {
    let limit = |key: &str| map.get(key).and_then(Value::as_u64);
    if let Value::Number(number) = instance {
        let value = number.as_f64().unwrap_or(f64::NAN);
        let bound = |key: &str| match map.get(key) {
            Some(Value::Number(limit)) => Some((limit, limit.as_f64().unwrap_or(f64::NAN))),
            _ => None,
        };
        if let Some((limit, _)) = bound("minimum").filter(|&(_, l)| value < l) {
            push(out, path, instance, ErrorKind::Minimum { limit });
        }
        if let Some((limit, _)) = bound("maximum").filter(|&(_, l)| value > l) {
            push(out, path, instance, ErrorKind::Maximum { limit });
        }
        if let Some((limit, _)) = bound("exclusiveMinimum").filter(|&(_, l)| value <= l) {
            push(out, path, instance, ErrorKind::ExclusiveMinimum { limit });
        }
        if let Some((limit, _)) = bound("exclusiveMaximum").filter(|&(_, l)| value >= l) {
            push(out, path, instance, ErrorKind::ExclusiveMaximum { limit });
        }
    }
    let size = match instance {
        Value::String(text) => Some((text.chars().count(), "minLength", "maxLength")),
        Value::Array(items) => Some((items.len(), "minItems", "maxItems")),
        Value::Object(object) => Some((object.len(), "minProperties", "maxProperties")),
        _ => None,
    };
    if let Some((len, min_key, max_key)) = size {
        let len = len as u64;
        if let Some(limit) = limit(min_key).filter(|&l| len < l) {
            let kind = match min_key {
                "minLength" => ErrorKind::MinLength { limit },
                "minItems" => ErrorKind::MinItems { limit },
                _ => ErrorKind::MinProperties { limit },
            };
            push(out, path, instance, kind);
        }
        if let Some(limit) = limit(max_key).filter(|&l| len > l) {
            let kind = match max_key {
                "maxLength" => ErrorKind::MaxLength { limit },
                "maxItems" => ErrorKind::MaxItems { limit },
                _ => ErrorKind::MaxProperties { limit },
            };
            push(out, path, instance, kind);
        }
    }
}

fn type_matches(expected: &Value, instance: &Value) -> bool {
    match expected {
        Value::String(name) => is_type(name, instance),
        Value::Array(names) => names
            .iter()
            .filter_map(Value::as_str)
            .any(|name| is_type(name, instance)),
        _ => true,
    }
}

fn is_type(name: &str, instance: &Value) -> bool {
    match (name, instance) {
        ("null", Value::Null)
        | ("boolean", Value::Bool(_))
        | ("string", Value::String(_))
        | ("array", Value::Array(_))
        | ("object", Value::Object(_))
        | ("number", Value::Number(_)) => true,
        // Draft-07: an integer is any number without a fractional part, `2.0` included.
        ("integer", Value::Number(n)) => {
            n.is_i64() || n.is_u64() || n.as_f64().is_some_and(|f| f.fract() == 0.0)
        }
        _ => false,
    }
}

/// JSON Schema equality: numbers compare by value (`1` equals `1.0`), objects ignore key order.
fn equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (x.as_i64(), y.as_i64()) {
            (Some(x), Some(y)) => x == y,
            _ => x.as_f64() == y.as_f64(),
        },
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| equal(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(key, a)| y.get(key).is_some_and(|b| equal(a, b)))
        }
        _ => a == b,
    }
}

/// The schema diagnostics of `document` as they were made before issue #17: the JSON view
/// evaluated by [`ReferenceEvaluator`], every finding placed as [`super::validate`] places it.
pub fn validate(document: &crate::document::Document) -> Vec<crate::diagnostic::Diagnostic> {
    let schema = super::schema();
    let places = super::places::Places::new(schema);
    let mut diagnostics = Vec::new();
    for error in ReferenceEvaluator::new(schema).errors(document.json()) {
        super::diagnose(document, &places, &error, &mut diagnostics);
    }
    crate::diagnostic::sort_diagnostics(&mut diagnostics);
    diagnostics
}
