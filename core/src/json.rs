//! Between the spanned YAML tree and JSON: conversion, and finding nodes by JSON Pointer.

use std::borrow::Cow;

use serde_json::{Map, Number, Value};

use crate::yaml::{Entry, Node, NodeValue};

/// The JSON value of a node. Where a mapping repeats a key (already reported as an error),
/// the first occurrence is kept, matching where the duplicate-key diagnostic points.
pub fn to_json(node: &Node) -> Value {
    match &node.value {
        NodeValue::Null => Value::Null,
        NodeValue::Bool(b) => Value::Bool(*b),
        NodeValue::Int(i) => Value::Number((*i).into()),
        NodeValue::Float(f) => Number::from_f64(*f).map_or(Value::Null, Value::Number),
        // Copied as a `str`: `to_string` went through the formatting machinery (its padding
        // checks), a third of a schema error's shown value (issue #38, round two).
        NodeValue::String(s) => Value::String(s.as_str().to_owned()),
        NodeValue::Seq(items) => Value::Array(items.iter().map(to_json).collect()),
        NodeValue::Map(entries) => {
            let mut map = Map::with_capacity(entries.len());
            for entry in entries {
                map.entry(entry.key.clone())
                    .or_insert_with(|| to_json(&entry.value));
            }
            Value::Object(map)
        }
    }
}

/// Splits a JSON Pointer into its unescaped reference tokens ("" → no tokens).
pub(crate) fn pointer_tokens(pointer: &str) -> Vec<String> {
    tokens_of(pointer).map(Cow::into_owned).collect()
}

/// The unescaped reference tokens of a JSON Pointer, as [`pointer_tokens`] reads them, each
/// borrowed from the pointer unless it has an escape: placing a diagnostic and the schema's
/// hints walk a pointer per error, and a string per token was most of that walk (issue #17).
pub(crate) fn tokens_of(pointer: &str) -> Tokens<'_> {
    let rest = pointer.strip_prefix('/').unwrap_or(pointer);
    Tokens {
        rest: (!pointer.is_empty()).then_some(rest),
    }
}

/// The iterator of [`tokens_of`]: the text after the last `/` taken, `None` past the end. A
/// byte search per token instead of `str::split`'s searcher, whose start-up dominated on
/// tokens of a few bytes.
pub(crate) struct Tokens<'p> {
    rest: Option<&'p str>,
}

impl<'p> Iterator for Tokens<'p> {
    type Item = Cow<'p, str>;

    fn next(&mut self) -> Option<Cow<'p, str>> {
        let rest = self.rest?;
        // One pass to the token's end that also notes an escape (placing each schema error
        // reads its pointer: issue #38).
        let mut escaped = false;
        let end = rest.bytes().position(|b| {
            escaped |= b == b'~';
            b == b'/'
        });
        let token = match end {
            Some(at) => {
                // `/` is ASCII: both sides of it are character boundaries.
                self.rest = Some(&rest[at + 1..]);
                &rest[..at]
            }
            None => {
                self.rest = None;
                rest
            }
        };
        Some(if escaped {
            Cow::Owned(token.replace("~1", "/").replace("~0", "~"))
        } else {
            Cow::Borrowed(token)
        })
    }
}

/// Escapes one reference token for a JSON Pointer.
pub(crate) fn escape_token(token: &str) -> String {
    let mut out = String::with_capacity(token.len());
    push_escaped(&mut out, token);
    out
}

/// Appends `token` to `pointer`.
pub fn pointer_push(pointer: &str, token: &str) -> String {
    let mut out = String::with_capacity(pointer.len() + 1 + token.len());
    out.push_str(pointer);
    push_token(&mut out, token);
    out
}

/// The member `key` of `value` when it is an object. A small object (a step, a schema, a retry
/// policy) is searched in order: hashing the key cost more than comparing a few (lint asks
/// tens of these per step).
pub fn field<'v>(value: &'v Value, key: &str) -> Option<&'v Value> {
    member(value.as_object()?, key).map(|(_, member)| member)
}

/// The member `key` of `map` with its key, found as [`field`] finds it.
pub fn member<'v>(map: &'v Map<String, Value>, key: &str) -> Option<(&'v String, &'v Value)> {
    if map.len() <= SMALL_OBJECT {
        map.iter().find(|(name, _)| *name == key)
    } else {
        map.get_key_value(key)
    }
}

/// Up to this many members, [`field`] compares keys instead of hashing.
const SMALL_OBJECT: usize = 8;

/// Appends item `index` to `pointer`.
pub fn pointer_push_index(pointer: &str, index: usize) -> String {
    let mut out = String::with_capacity(pointer.len() + 6);
    out.push_str(pointer);
    push_index(&mut out, index);
    out
}

/// Writes `/` and `token` escaped at the end of the pointer `out`.
pub(crate) fn push_token(out: &mut String, token: &str) {
    out.push('/');
    push_escaped(out, token);
}

/// Writes `/` and `index` in decimal at the end of the pointer `out`, without the formatting
/// machinery (lint writes one for every item of every list it walks).
pub(crate) fn push_index(out: &mut String, index: usize) {
    out.push('/');
    push_decimal(out, index as u64);
}

/// Writes `value` in decimal, as JSON (and `serde_json`) writes an integer, without the
/// formatting machinery.
pub(crate) fn push_decimal(out: &mut String, value: u64) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    let mut rest = value;
    loop {
        at -= 1;
        digits[at] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    out.extend(digits[at..].iter().map(|&digit| char::from(digit)));
}

/// Writes `token` escaped (`~` as `~0`, `/` as `~1`) without an intermediate string.
fn push_escaped(out: &mut String, token: &str) {
    // Most tokens (step names, field names, indices) need no escape: one copy, not a char loop.
    if !token.bytes().any(|b| b == b'~' || b == b'/') {
        out.push_str(token);
        return;
    }
    for c in token.chars() {
        match c {
            '~' => out.push_str("~0"),
            '/' => out.push_str("~1"),
            c => out.push(c),
        }
    }
}

/// The node at `pointer`, or `None` when the path leaves the tree.
pub fn node_at<'n>(root: &'n Node, pointer: &str) -> Option<&'n Node> {
    let mut node = root;
    for token in tokens_of(pointer) {
        node = child(node, &token)?;
    }
    Some(node)
}

/// The deepest node on the way to `pointer`: where to point when the path itself is absent.
pub(crate) fn nearest_node<'n>(root: &'n Node, pointer: &str) -> &'n Node {
    let mut node = root;
    for token in tokens_of(pointer) {
        match child(node, &token) {
            Some(next) => node = next,
            None => break,
        }
    }
    node
}

/// The mapping entry that holds the node at `pointer` (its key and key span).
pub fn entry_at<'n>(root: &'n Node, pointer: &str) -> Option<&'n Entry> {
    let mut tokens = tokens_of(pointer).peekable();
    let mut node = root;
    while let Some(token) = tokens.next() {
        if tokens.peek().is_none() {
            return node.entry(&token);
        }
        node = child(node, &token)?;
    }
    None
}

fn child<'n>(node: &'n Node, token: &str) -> Option<&'n Node> {
    match &node.value {
        NodeValue::Map(_) => node.get(token),
        NodeValue::Seq(items) => token.parse::<usize>().ok().and_then(|i| items.get(i)),
        _ => None,
    }
}

/// What kind of JSON value `value` is, as a message says it: `an object`, `a list`, `a string`,
/// `a number`, `a boolean`, `null`.
pub fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Object(_) => "an object",
        Value::Array(_) => "a list",
        Value::String(_) => "a string",
        Value::Number(_) => "a number",
        Value::Bool(_) => "a boolean",
        Value::Null => "null",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pointer_tokens_unescape() {
        assert_eq!(pointer_tokens(""), Vec::<String>::new());
        assert_eq!(pointer_tokens("/a~1b/c~0d/0"), vec!["a/b", "c~d", "0"]);
        assert_eq!(pointer_push("/steps", "a/b"), "/steps/a~1b");
    }

    /// The tokens as the first version split them: a string each.
    fn tokens_by_copy(pointer: &str) -> Vec<String> {
        if pointer.is_empty() {
            return Vec::new();
        }
        let rest = pointer.strip_prefix('/').unwrap_or(pointer);
        rest.split('/')
            .map(|token| token.replace("~1", "/").replace("~0", "~"))
            .collect()
    }

    proptest::proptest! {
        /// Borrowed or not, the tokens are the ones the copying split made, for any text,
        /// pointer or not.
        #[test]
        fn borrowed_tokens_are_the_copied_ones(pointer in "[a/~01é]{0,12}") {
            let borrowed: Vec<String> = tokens_of(&pointer).map(Cow::into_owned).collect();
            proptest::prop_assert_eq!(borrowed, tokens_by_copy(&pointer));
        }

        /// The fast paths write what the general rule writes: a token escaped (read back as it
        /// was) and an index in decimal.
        #[test]
        fn pointers_read_back_as_written(
            tokens in proptest::collection::vec("[a-z~/ é0-9]{0,6}", 0..5),
            index in proptest::prelude::any::<usize>(),
        ) {
            let mut pointer = String::new();
            for token in &tokens {
                push_token(&mut pointer, token);
            }
            proptest::prop_assert_eq!(pointer_tokens(&pointer), tokens);
            proptest::prop_assert_eq!(pointer_push_index(&pointer, index), format!("{pointer}/{index}"));
        }
    }
}
