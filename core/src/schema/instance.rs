//! What the schema program evaluates: a JSON value, or the spanned YAML tree read as the JSON it
//! stands for (so validating a document needs no JSON copy of it). Both answer the same
//! questions with the same results as `json::to_json` of the tree would.

use std::borrow::Cow;

use rustc_hash::FxHashSet;
use serde_json::{Map, Value};

use crate::yaml::{Entry, Node, NodeValue};

/// A number as JSON Schema compares it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Num {
    /// The value as an `i64`, when it is one.
    pub int: Option<i64>,
    /// Written as an integer (not a float), of any size.
    pub integer: bool,
    pub value: f64,
}

/// The JSON type of an instance.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum JsonType {
    Null,
    Boolean,
    Number,
    String,
    Array,
    Object,
}

impl JsonType {
    /// This type's bit in a mask of types.
    pub fn bit(self) -> u8 {
        1 << self as u8
    }
}

/// A JSON instance the program can evaluate.
pub(crate) trait Instance<'a>: Copy {
    type Items: Iterator<Item = Self>;
    type Entries: Iterator<Item = (&'a str, Self)>;

    fn json_type(self) -> JsonType;
    fn as_bool(self) -> Option<bool>;
    fn as_number(self) -> Option<Num>;
    fn as_str(self) -> Option<&'a str>;
    /// Items of an array (none otherwise).
    fn items(self) -> Self::Items;
    /// Entries of an object, each key once (none otherwise).
    fn entries(self) -> Self::Entries;
    /// The value under `key` of an object.
    fn get(self, key: &str) -> Option<Self>;
    /// Items of an array, entries of an object.
    fn len(self) -> usize;
    /// The value as messages show it.
    fn shown(self) -> Cow<'a, Value>;
    /// The YAML node the value is, when it is one.
    fn node(self) -> Option<&'a Node>;
}

impl<'a> Instance<'a> for &'a Value {
    type Items = std::slice::Iter<'a, Value>;
    type Entries = std::iter::Map<
        serde_json::map::Iter<'a>,
        fn((&'a String, &'a Value)) -> (&'a str, &'a Value),
    >;

    fn json_type(self) -> JsonType {
        match self {
            Value::Null => JsonType::Null,
            Value::Bool(_) => JsonType::Boolean,
            Value::Number(_) => JsonType::Number,
            Value::String(_) => JsonType::String,
            Value::Array(_) => JsonType::Array,
            Value::Object(_) => JsonType::Object,
        }
    }
    fn as_bool(self) -> Option<bool> {
        Value::as_bool(self)
    }
    fn as_number(self) -> Option<Num> {
        let Value::Number(n) = self else { return None };
        Some(Num {
            int: n.as_i64(),
            integer: n.is_i64() || n.is_u64(),
            value: n.as_f64().unwrap_or(f64::NAN),
        })
    }
    fn as_str(self) -> Option<&'a str> {
        Value::as_str(self)
    }
    fn items(self) -> Self::Items {
        match self {
            Value::Array(items) => items.iter(),
            _ => [].iter(),
        }
    }
    fn entries(self) -> Self::Entries {
        static EMPTY: std::sync::OnceLock<Map<String, Value>> = std::sync::OnceLock::new();
        let map = match self {
            Value::Object(map) => map,
            _ => EMPTY.get_or_init(Map::new),
        };
        map.iter().map(|(key, value)| (key.as_str(), value))
    }
    fn get(self, key: &str) -> Option<Self> {
        self.as_object()?.get(key)
    }
    fn len(self) -> usize {
        match self {
            Value::Array(items) => items.len(),
            Value::Object(map) => map.len(),
            _ => 0,
        }
    }
    fn shown(self) -> Cow<'a, Value> {
        Cow::Borrowed(self)
    }
    fn node(self) -> Option<&'a Node> {
        None
    }
}

/// A node of the spanned YAML tree, read as its JSON value.
#[derive(Debug, Clone, Copy)]
pub(crate) struct TreeInstance<'a> {
    pub node: &'a Node,
    /// The tree may repeat a key in a mapping (a parse that reported `yaml-duplicate-key`): then
    /// only the first entry counts, as in the JSON view. A clean parse skips the check.
    pub repeats: bool,
}

impl<'a> TreeInstance<'a> {
    fn child(self, node: &'a Node) -> Self {
        TreeInstance {
            node,
            repeats: self.repeats,
        }
    }
}

/// The entries of a mapping, each key once (the first occurrence).
pub(crate) struct FirstEntries<'a> {
    entries: std::slice::Iter<'a, Entry>,
    /// Keys met so far, when the mapping may repeat one.
    seen: Option<FxHashSet<&'a str>>,
    repeats: bool,
}

impl<'a> Iterator for FirstEntries<'a> {
    type Item = (&'a str, TreeInstance<'a>);

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            let entry = self.entries.next()?;
            if let Some(seen) = &mut self.seen {
                if !seen.insert(entry.key.as_ref()) {
                    continue;
                }
            }
            let child = TreeInstance {
                node: &entry.value,
                repeats: self.repeats,
            };
            return Some((entry.key.as_ref(), child));
        }
    }
}

impl<'a> Instance<'a> for TreeInstance<'a> {
    type Items = std::iter::Map<
        std::iter::Zip<std::slice::Iter<'a, Node>, std::iter::Repeat<bool>>,
        fn((&'a Node, bool)) -> TreeInstance<'a>,
    >;
    type Entries = FirstEntries<'a>;

    fn json_type(self) -> JsonType {
        match &self.node.value {
            NodeValue::Null => JsonType::Null,
            NodeValue::Bool(_) => JsonType::Boolean,
            NodeValue::Int(_) => JsonType::Number,
            // `to_json` turns a float JSON cannot hold into null.
            NodeValue::Float(f) if !f.is_finite() => JsonType::Null,
            NodeValue::Float(_) => JsonType::Number,
            NodeValue::String(_) => JsonType::String,
            NodeValue::Seq(_) => JsonType::Array,
            NodeValue::Map(_) => JsonType::Object,
        }
    }
    fn as_bool(self) -> Option<bool> {
        self.node.as_bool()
    }
    fn as_number(self) -> Option<Num> {
        match self.node.value {
            NodeValue::Int(i) => Some(Num {
                int: Some(i),
                integer: true,
                value: i as f64,
            }),
            NodeValue::Float(f) if f.is_finite() => Some(Num {
                int: None,
                integer: false,
                value: f,
            }),
            _ => None,
        }
    }
    fn as_str(self) -> Option<&'a str> {
        self.node.as_str()
    }
    fn items(self) -> Self::Items {
        let items = self.node.as_seq().unwrap_or(&[]);
        items
            .iter()
            .zip(std::iter::repeat(self.repeats))
            .map(|(node, repeats)| TreeInstance { node, repeats })
    }
    fn entries(self) -> Self::Entries {
        let entries = self.node.as_map().unwrap_or(&[]);
        FirstEntries {
            entries: entries.iter(),
            seen: (self.repeats && entries.len() > 1).then(FxHashSet::default),
            repeats: self.repeats,
        }
    }
    fn get(self, key: &str) -> Option<Self> {
        self.node.get(key).map(|node| self.child(node))
    }
    fn len(self) -> usize {
        match &self.node.value {
            NodeValue::Seq(items) => items.len(),
            NodeValue::Map(entries) if self.repeats => self.entries().count(),
            NodeValue::Map(entries) => entries.len(),
            _ => 0,
        }
    }
    /// A scalar copied; a collection as an empty one of its kind: messages and hints name a
    /// collection by its kind only (`this object`, `found an array`), and copying a mapping
    /// with everything under it, for every error at it (a missing property at the root copied
    /// the whole frontmatter), was a tenth of the corpus's schema work (issue #38).
    fn shown(self) -> Cow<'a, Value> {
        Cow::Owned(match &self.node.value {
            NodeValue::Seq(_) => Value::Array(Vec::new()),
            NodeValue::Map(_) => Value::Object(Map::new()),
            _ => crate::json::to_json(self.node),
        })
    }
    fn node(self) -> Option<&'a Node> {
        Some(self.node)
    }
}

/// JSON Schema equality of a schema's value and an instance: numbers compare by value (`1`
/// equals `1.0`), objects ignore key order.
pub(crate) fn equals<'a, I: Instance<'a>>(expected: &Value, instance: I) -> bool {
    match expected {
        Value::Null => instance.json_type() == JsonType::Null,
        Value::Bool(b) => instance.as_bool() == Some(*b),
        Value::String(s) => instance.as_str() == Some(s.as_str()),
        Value::Number(n) => instance.as_number().is_some_and(|m| {
            let n = Num {
                int: n.as_i64(),
                integer: n.is_i64() || n.is_u64(),
                value: n.as_f64().unwrap_or(f64::NAN),
            };
            same_number(n, m)
        }),
        Value::Array(items) => {
            instance.json_type() == JsonType::Array
                && items.len() == instance.len()
                && items
                    .iter()
                    .zip(instance.items())
                    .all(|(a, b)| equals(a, b))
        }
        Value::Object(map) => {
            instance.json_type() == JsonType::Object
                && map.len() == instance.len()
                && map
                    .iter()
                    .all(|(key, a)| instance.get(key).is_some_and(|b| equals(a, b)))
        }
    }
}

/// JSON Schema equality of two instances (`uniqueItems`).
pub(crate) fn same<'a, I: Instance<'a>>(a: I, b: I) -> bool {
    match (a.json_type(), b.json_type()) {
        (JsonType::Null, JsonType::Null) => true,
        (JsonType::Boolean, JsonType::Boolean) => a.as_bool() == b.as_bool(),
        (JsonType::String, JsonType::String) => a.as_str() == b.as_str(),
        (JsonType::Number, JsonType::Number) => match (a.as_number(), b.as_number()) {
            (Some(x), Some(y)) => same_number(x, y),
            _ => false,
        },
        (JsonType::Array, JsonType::Array) => {
            a.len() == b.len() && a.items().zip(b.items()).all(|(x, y)| same(x, y))
        }
        (JsonType::Object, JsonType::Object) => {
            a.len() == b.len()
                && a.entries()
                    .all(|(key, x)| b.get(key).is_some_and(|y| same(x, y)))
        }
        _ => false,
    }
}

fn same_number(x: Num, y: Num) -> bool {
    match (x.int, y.int) {
        (Some(x), Some(y)) => x == y,
        _ => x.value == y.value,
    }
}
