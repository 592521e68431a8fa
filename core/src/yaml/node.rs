//! The spanned YAML tree: every key and value knows its byte range in the original file.

use super::Text;
use crate::source::Span;

/// How a scalar was written; kept so edits and the formatter can respect the author's style.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScalarStyle {
    /// Unquoted: `name: demo`.
    Plain,
    /// In single quotes: `'demo'`.
    SingleQuoted,
    /// In double quotes, with escapes: `"demo\n"`.
    DoubleQuoted,
    /// A literal block scalar (`|`): line breaks kept.
    Literal,
    /// A folded block scalar (`>`): line breaks folded into spaces.
    Folded,
}

/// What a node holds, resolved by the YAML 1.2 core schema (`yes` is a string, `0x1F` an integer).
#[derive(Debug, Clone, PartialEq)]
pub enum NodeValue {
    /// `null`, `~` or an empty value.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// An integer that fits in 64 bits (decimal, `0x` hex or `0o` octal).
    Int(i64),
    /// A floating-point number, `.inf` and `.nan` included.
    Float(f64),
    /// Any other scalar, unescaped.
    String(Text),
    /// A sequence, items in order.
    Seq(Vec<Node>),
    /// A mapping, entries in document order (a repeated key is kept; the parse reports it).
    Map(Vec<Entry>),
}

/// A YAML value with where and how it was written.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    /// The value itself.
    pub value: NodeValue,
    /// The value's range ([`Node::span`]), 32-bit: the language server keeps a tree per open
    /// file, and 32-bit ranges save a word in every node and two in every entry.
    pub(crate) at: Range32,
    /// Scalar style; `None` for collections.
    pub style: Option<ScalarStyle>,
    /// Flow (`[..]`, `{..}`) rather than block collection.
    pub flow: bool,
    /// Produced by expanding an alias: edits must go to the anchor instead.
    pub from_alias: bool,
}

/// One `key: value` of a mapping.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    /// The key's text.
    pub key: Text,
    /// The key's range ([`Entry::key_span`]), 32-bit like a node's.
    pub(crate) key_at: Range32,
    /// The value under the key.
    pub value: Node,
}

/// A byte range of a parsed file, in half the room of a [`Span`]: parsing refuses a file of
/// 4 GiB or more ([`crate::limits::MAX_PARSED_BYTES`]), so every offset of its tree fits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Range32 {
    start: u32,
    end: u32,
}

impl From<Span> for Range32 {
    #[inline]
    fn from(span: Span) -> Self {
        // Saturating only for a tree made by hand beyond the parse's bound: parsed offsets fit.
        let fit = |offset: usize| u32::try_from(offset).unwrap_or(u32::MAX);
        Range32 {
            start: fit(span.start),
            end: fit(span.end),
        }
    }
}

impl From<Range32> for Span {
    #[inline]
    fn from(range: Range32) -> Self {
        Span::new(range.start as usize, range.end as usize)
    }
}

impl Entry {
    /// A `key: value` entry whose key is written at `key_span`.
    pub fn new(key: Text, key_span: Span, value: Node) -> Self {
        Entry {
            key,
            key_at: key_span.into(),
            value,
        }
    }

    /// The key's range in the file (quotes excluded).
    #[inline]
    pub fn key_span(&self) -> Span {
        self.key_at.into()
    }

    /// Moves the key's range.
    pub fn set_key_span(&mut self, span: Span) {
        self.key_at = span.into();
    }
}

impl Node {
    /// A node holding `value`, written at `span` in `style` (`None` for a collection), in
    /// flow or block form; not the expansion of an alias.
    pub fn new(value: NodeValue, span: Span, style: Option<ScalarStyle>, flow: bool) -> Self {
        Node {
            value,
            at: span.into(),
            style,
            flow,
            from_alias: false,
        }
    }

    /// The value's range: a scalar's text (with quotes or block header excluded), a
    /// collection's from its first to its last character.
    #[inline]
    pub fn span(&self) -> Span {
        self.at.into()
    }

    /// Moves the value's range.
    pub fn set_span(&mut self, span: Span) {
        self.at = span.into();
    }

    /// The text of a string scalar; `None` for every other kind (numbers included).
    pub fn as_str(&self) -> Option<&str> {
        match &self.value {
            NodeValue::String(s) => Some(s.as_str()),
            _ => None,
        }
    }

    /// The entries of a mapping.
    pub fn as_map(&self) -> Option<&[Entry]> {
        match &self.value {
            NodeValue::Map(entries) => Some(entries),
            _ => None,
        }
    }

    /// The items of a sequence.
    pub fn as_seq(&self) -> Option<&[Node]> {
        match &self.value {
            NodeValue::Seq(items) => Some(items),
            _ => None,
        }
    }

    /// An integer or float as `f64`.
    pub fn as_f64(&self) -> Option<f64> {
        match self.value {
            NodeValue::Int(i) => Some(i as f64),
            NodeValue::Float(f) => Some(f),
            _ => None,
        }
    }

    /// A boolean's value.
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
