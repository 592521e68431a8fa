//! JSON equality where numbers compare by value: YAML's `2.0` and JSON's `2` are the same.

use serde_json::Value;

/// Where `actual` differs from `expected`, as a JSON Pointer and a description.
pub fn first_difference(expected: &Value, actual: &Value) -> Option<String> {
    diff("", expected, actual)
}

fn diff(at: &str, expected: &Value, actual: &Value) -> Option<String> {
    match (expected, actual) {
        (Value::Number(a), Value::Number(b)) => {
            (a.as_f64() != b.as_f64()).then(|| format!("{at}: expected {a}, found {b}"))
        }
        (Value::Array(a), Value::Array(b)) => {
            if a.len() != b.len() {
                return Some(format!(
                    "{at}: expected {} items, found {}",
                    a.len(),
                    b.len()
                ));
            }
            a.iter()
                .zip(b)
                .enumerate()
                .find_map(|(i, (x, y))| diff(&format!("{at}/{i}"), x, y))
        }
        (Value::Object(a), Value::Object(b)) => {
            if let Some(key) = a.keys().find(|k| !b.contains_key(*k)) {
                return Some(format!("{at}: missing key `{key}`"));
            }
            if let Some(key) = b.keys().find(|k| !a.contains_key(*k)) {
                return Some(format!("{at}: unexpected key `{key}`"));
            }
            a.iter()
                .find_map(|(k, x)| diff(&format!("{at}/{k}"), x, &b[k]))
        }
        (a, b) => (a != b).then(|| format!("{at}: expected {a}, found {b}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn numbers_compare_by_value() {
        assert_eq!(first_difference(&json!({"a": 2}), &json!({"a": 2.0})), None);
        assert!(first_difference(&json!({"a": 2}), &json!({"a": 3})).is_some());
        assert!(first_difference(&json!([1]), &json!([1, 2])).is_some());
        assert!(first_difference(&json!({"a": 1}), &json!({"a": 1, "b": 2})).is_some());
        assert!(first_difference(&json!("1"), &json!(1)).is_some());
    }
}
