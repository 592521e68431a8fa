//! Tolerant readers over a frontmatter's JSON: a value of the wrong type reads as absent, so the
//! typed view can be built from any parsed document (the schema reports the wrong types).

use serde_json::{Map, Value};

use crate::json::pointer_push;

/// A JSON object with the JSON Pointer it sits at, read field by field.
#[derive(Clone)]
pub(crate) struct At<'v> {
    pub value: &'v Value,
    pub pointer: String,
}

impl<'v> At<'v> {
    pub fn new(value: &'v Value, pointer: impl Into<String>) -> Self {
        At {
            value,
            pointer: pointer.into(),
        }
    }

    /// The object under `key`, when there is one.
    pub fn child(&self, key: &str) -> Option<At<'v>> {
        self.get(key)
            .filter(|v| v.is_object())
            .map(|value| At::new(value, pointer_push(&self.pointer, key)))
    }

    pub fn get(&self, key: &str) -> Option<&'v Value> {
        self.value.get(key)
    }

    pub fn text(&self, key: &str) -> Option<String> {
        self.get(key).and_then(Value::as_str).map(str::to_owned)
    }

    pub fn number(&self, key: &str) -> Option<f64> {
        self.get(key).and_then(Value::as_f64)
    }

    /// A non-negative whole number (`2.0` counts, as in JSON Schema's `integer`).
    pub fn count(&self, key: &str) -> Option<u64> {
        let n = self.get(key)?;
        n.as_u64().or_else(|| {
            n.as_f64()
                .filter(|f| f.fract() == 0.0 && *f >= 0.0 && *f <= u64::MAX as f64)
                .map(|f| f as u64)
        })
    }

    pub fn flag(&self, key: &str) -> Option<bool> {
        self.get(key).and_then(Value::as_bool)
    }

    /// The string items of a list (other items are skipped).
    pub fn strings(&self, key: &str) -> Vec<String> {
        strings(self.get(key))
    }

    pub fn object(&self, key: &str) -> Option<&'v Map<String, Value>> {
        self.get(key).and_then(Value::as_object)
    }

    /// The items of a list with their pointers.
    pub fn items(&self, key: &str) -> Vec<At<'v>> {
        let base = pointer_push(&self.pointer, key);
        self.get(key)
            .and_then(Value::as_array)
            .map(|items| {
                items
                    .iter()
                    .enumerate()
                    .map(|(i, item)| At::new(item, format!("{base}/{i}")))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The entries of a map with their pointers, in document order.
    pub fn entries(&self, key: &str) -> Vec<(String, At<'v>)> {
        let base = pointer_push(&self.pointer, key);
        self.object(key)
            .map(|map| {
                map.iter()
                    .map(|(name, value)| (name.clone(), At::new(value, pointer_push(&base, name))))
                    .collect()
            })
            .unwrap_or_default()
    }
}

pub(crate) fn strings(value: Option<&Value>) -> Vec<String> {
    value
        .and_then(Value::as_array)
        .map(|items| {
            items
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default()
}
