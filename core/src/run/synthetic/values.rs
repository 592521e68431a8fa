//! A value that satisfies a JSON Schema (the keyword subset documents use), deterministic for a
//! seed: objects with every property, arrays of `minItems` (at least one) items, numbers inside
//! their bounds (high in the range: thresholds are usually floors), strings that honour `enum`,
//! `const`, `format` and length bounds.

use serde_json::{json, Map, Value};

/// How deep a generated value nests at most (schemas can be recursive through `items`).
const MAX_DEPTH: usize = 12;

pub(crate) fn generate(schema: &Value, seed: u64, label: &str) -> Value {
    generate_at(schema, seed, label, 0)
}

fn generate_at(schema: &Value, seed: u64, label: &str, depth: usize) -> Value {
    let Some(schema) = schema.as_object() else {
        return Value::String(format!("{label} {}", 1 + seed % 9));
    };
    if let Some(constant) = schema.get("const") {
        return constant.clone();
    }
    if let Some(choices) = schema.get("enum").and_then(Value::as_array) {
        if let Some(first) = choices.first() {
            return choices
                .get((seed as usize) % choices.len())
                .unwrap_or(first)
                .clone();
        }
    }
    for keyword in ["oneOf", "anyOf", "allOf"] {
        if let Some(first) = schema
            .get(keyword)
            .and_then(Value::as_array)
            .and_then(|a| a.first())
        {
            return generate_at(first, seed, label, depth + 1);
        }
    }
    let kind = match schema.get("type") {
        Some(Value::String(kind)) => kind.as_str(),
        Some(Value::Array(kinds)) => kinds
            .iter()
            .filter_map(Value::as_str)
            .find(|k| *k != "null")
            .unwrap_or("null"),
        _ if schema.contains_key("properties") => "object",
        _ if schema.contains_key("items") => "array",
        _ => "string",
    };
    if depth >= MAX_DEPTH {
        return Value::Null;
    }
    match kind {
        "object" => object(schema, seed, depth),
        "array" => array(schema, seed, label, depth),
        "number" => json!(number(schema, false)),
        "integer" => json!(number(schema, true) as i64),
        "boolean" => Value::Bool(true),
        "null" => Value::Null,
        _ => Value::String(string(schema, seed, label)),
    }
}

fn object(schema: &Map<String, Value>, seed: u64, depth: usize) -> Value {
    let mut out = Map::new();
    let properties = schema.get("properties").and_then(Value::as_object);
    for (i, (name, property)) in properties.into_iter().flatten().enumerate() {
        let value = generate_at(property, seed.wrapping_add(i as u64), name, depth + 1);
        out.insert(name.clone(), value);
    }
    for name in schema
        .get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
    {
        out.entry(name.to_owned())
            .or_insert_with(|| Value::String(format!("{name} {}", 1 + seed % 9)));
    }
    Value::Object(out)
}

fn array(schema: &Map<String, Value>, seed: u64, label: &str, depth: usize) -> Value {
    let minimum = schema.get("minItems").and_then(Value::as_u64).unwrap_or(1);
    let maximum = schema
        .get("maxItems")
        .and_then(Value::as_u64)
        .unwrap_or(u64::MAX);
    let count = minimum.max(1).min(maximum).min(1_000);
    let items = schema
        .get("items")
        .cloned()
        .unwrap_or(json!({"type": "string"}));
    let singular = singular(label);
    Value::Array(
        (0..count)
            .map(|i| {
                generate_at(
                    &items,
                    seed.wrapping_add(i),
                    &format!("{singular} {}", i + 1),
                    depth + 1,
                )
            })
            .collect(),
    )
}

/// High in the range (0.9 of the way up): confidence and score fields are usually floors.
fn number(schema: &Map<String, Value>, integer: bool) -> f64 {
    let bound = |key: &str| schema.get(key).and_then(Value::as_f64);
    let low = bound("minimum")
        .or_else(|| bound("exclusiveMinimum").map(|m| m + if integer { 1.0 } else { 0.01 }));
    let high = bound("maximum")
        .or_else(|| bound("exclusiveMaximum").map(|m| m - if integer { 1.0 } else { 0.01 }));
    let value = match (low, high) {
        (Some(low), Some(high)) if high >= low => low + 0.9 * (high - low),
        (Some(low), None) => low.max(0.0) + if integer { 1.0 } else { 0.9 },
        (None, Some(high)) => high.min(1.0) * 0.9,
        _ if integer => 3.0,
        _ => 0.9,
    };
    if integer {
        value.round()
    } else {
        (value * 1000.0).round() / 1000.0
    }
}

/// The name of one item of a list called `plural` (`competitors` → `competitor`).
pub(super) fn singular(plural: &str) -> String {
    if let Some(stem) = plural.strip_suffix("ies") {
        format!("{stem}y")
    } else if plural.ends_with("ss") {
        plural.to_owned()
    } else {
        plural.strip_suffix('s').unwrap_or(plural).to_owned()
    }
}

fn string(schema: &Map<String, Value>, seed: u64, label: &str) -> String {
    let mut text = match schema.get("format").and_then(Value::as_str) {
        Some("uri" | "url" | "uri-reference") => {
            format!("https://example.com/{}-{}", slug(label), 1 + seed % 9)
        }
        Some("email") => format!("{}@example.com", slug(label)),
        Some("date") => "2026-01-01".to_owned(),
        Some("date-time") => "2026-01-01T00:00:00Z".to_owned(),
        // An item already numbered ("competitor 2") is its own label.
        _ if label.ends_with(|c: char| c.is_ascii_digit()) => label.to_owned(),
        _ => format!("{label} {}", 1 + seed % 9),
    };
    let min = schema.get("minLength").and_then(Value::as_u64).unwrap_or(0) as usize;
    let max = schema
        .get("maxLength")
        .and_then(Value::as_u64)
        .map(|m| m as usize);
    while text.chars().count() < min {
        text.push('x');
    }
    if let Some(max) = max {
        text = text.chars().take(max).collect();
    }
    text
}

fn slug(label: &str) -> String {
    label
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_values_satisfy_their_schema() {
        let schemas = [
            json!({"type": "object", "required": ["competitors"], "properties": {"competitors": {"type": "array", "minItems": 5, "items": {"type": "object", "required": ["name", "category", "url"], "properties": {"name": {"type": "string"}, "category": {"enum": ["direct", "indirect"]}, "url": {"type": "string", "format": "uri"}, "employees": {"type": "integer", "minimum": 1}}}}}}),
            json!({"type": "object", "properties": {"confidence": {"type": "number", "minimum": 0, "maximum": 1}, "summary": {"type": "string", "maxLength": 5, "minLength": 3}}}),
            json!({"type": "array", "items": {"type": "number", "exclusiveMinimum": 2}, "maxItems": 0}),
            json!({"type": ["null", "string"], "const": "x"}),
        ];
        for (seed, schema) in schemas.iter().enumerate() {
            let value = generate(schema, seed as u64, "v");
            assert_eq!(
                crate::schema::check_instance(schema, &value),
                vec![],
                "{value}"
            );
        }
    }
}
