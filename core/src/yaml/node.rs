//! The spanned YAML tree: every key and value knows its byte range in the original file.

use std::borrow::Cow;

use crate::source::Span;

/// How a scalar was written; kept so edits and the formatter can respect the author's style.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScalarStyle {
    Plain,
    SingleQuoted,
    DoubleQuoted,
    Literal,
    Folded,
}

#[derive(Debug, Clone, PartialEq)]
pub enum NodeValue {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    String(String),
    Seq(Vec<Node>),
    Map(Vec<Entry>),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    pub value: NodeValue,
    /// The value's range: a scalar's text (with quotes or block header excluded), a
    /// collection's from its first to its last character.
    pub span: Span,
    /// Scalar style; `None` for collections.
    pub style: Option<ScalarStyle>,
    /// Flow (`[..]`, `{..}`) rather than block collection.
    pub flow: bool,
    /// Produced by expanding an alias: edits must go to the anchor instead.
    pub from_alias: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    /// The key's text; a word of the schemas is shared rather than copied (`yaml::key`).
    pub key: Cow<'static, str>,
    pub key_span: Span,
    pub value: Node,
}

impl Node {
    pub fn as_str(&self) -> Option<&str> {
        match &self.value {
            NodeValue::String(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_map(&self) -> Option<&[Entry]> {
        match &self.value {
            NodeValue::Map(entries) => Some(entries),
            _ => None,
        }
    }

    pub fn as_seq(&self) -> Option<&[Node]> {
        match &self.value {
            NodeValue::Seq(items) => Some(items),
            _ => None,
        }
    }

    pub fn as_f64(&self) -> Option<f64> {
        match self.value {
            NodeValue::Int(i) => Some(i as f64),
            NodeValue::Float(f) => Some(f),
            _ => None,
        }
    }

    pub fn as_bool(&self) -> Option<bool> {
        match self.value {
            NodeValue::Bool(b) => Some(b),
            _ => None,
        }
    }

    /// The entry of a mapping under `key`.
    pub fn entry(&self, key: &str) -> Option<&Entry> {
        self.as_map()?.iter().find(|e| e.key == key)
    }

    /// The value of a mapping under `key`.
    pub fn get(&self, key: &str) -> Option<&Node> {
        self.entry(key).map(|e| &e.value)
    }

    /// A name for the value's type, as JSON would call it.
    pub fn type_name(&self) -> &'static str {
        match self.value {
            NodeValue::Null => "null",
            NodeValue::Bool(_) => "boolean",
            NodeValue::Int(_) | NodeValue::Float(_) => "number",
            NodeValue::String(_) => "string",
            NodeValue::Seq(_) => "array",
            NodeValue::Map(_) => "object",
        }
    }
}
