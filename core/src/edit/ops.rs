//! Primitive edits: set, remove and insert at a JSON Pointer, each as one text patch that
//! touches only the region of the changed node. Anything unusual falls back to re-rendering the
//! smallest enclosing collection, which is always correct, only less minimal.

use serde_json::{Map, Value};

use super::render::{self, Quote};
use super::text::{
    after_colon, column, dash_before, first_on_line, leading_comments_start, line_end, newline,
    next_line_start,
};
use crate::json::pointer_tokens;
use crate::schema::Source;
use crate::yaml::{Entry, Node, NodeValue, ScalarStyle};

/// Replace `start..end` of the text with `text`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Patch {
    pub start: usize,
    pub end: usize,
    pub text: String,
}

struct Cx<'d> {
    text: &'d str,
    newline: &'static str,
}

impl Cx<'_> {
    fn patch(&self, start: usize, end: usize, text: String) -> Patch {
        let text = if self.newline == "\n" {
            text
        } else {
            text.replace('\n', self.newline)
        };
        Patch { start, end, text }
    }

    /// Where a node's text really ends: block scalars exclude their trailing line breaks.
    fn end_of(&self, node: &Node) -> usize {
        match node.style {
            Some(ScalarStyle::Literal | ScalarStyle::Folded) => {
                let raw = &self.text[node.span.start..node.span.end];
                node.span.start + raw.trim_end().len()
            }
            _ => node.span.end,
        }
    }
}

/// Where a node sits: under a key of a mapping, or as an item of a sequence.
enum Slot<'n> {
    Entry { parent: &'n Node, entry: &'n Entry },
    Item { parent: &'n Node, index: usize },
}

fn locate<'n>(root: &'n Node, tokens: &[String]) -> Option<(Slot<'n>, &'n Node)> {
    let (last, parents) = tokens.split_last()?;
    let mut parent = root;
    for token in parents {
        parent = child(parent, token)?;
    }
    match &parent.value {
        NodeValue::Map(entries) => {
            let entry = entries.iter().find(|e| e.key == *last)?;
            Some((Slot::Entry { parent, entry }, &entry.value))
        }
        NodeValue::Seq(items) => {
            let index = last.parse::<usize>().ok()?;
            Some((Slot::Item { parent, index }, items.get(index)?))
        }
        _ => None,
    }
}

fn child<'n>(node: &'n Node, token: &str) -> Option<&'n Node> {
    match &node.value {
        NodeValue::Map(_) => node.get(token),
        NodeValue::Seq(items) => items.get(token.parse::<usize>().ok()?),
        _ => None,
    }
}

fn node_at<'n>(root: &'n Node, tokens: &[String]) -> Option<&'n Node> {
    tokens
        .iter()
        .try_fold(root, |node, token| child(node, token))
}

fn quote_of(node: &Node) -> Quote {
    match node.style {
        Some(ScalarStyle::SingleQuoted) => Quote::Single,
        Some(ScalarStyle::DoubleQuoted) => Quote::Double,
        _ => Quote::Plain,
    }
}

fn is_scalar(value: &Value) -> bool {
    !matches!(value, Value::Array(_) | Value::Object(_))
}

fn guard_alias(node: &Node, pointer: &str) -> Result<(), String> {
    if node.from_alias {
        Err(format!(
            "`{pointer}` comes from an alias; edit the anchored value instead"
        ))
    } else {
        Ok(())
    }
}

/// Sets the value at `pointer`, creating missing mapping entries on the way.
pub fn set(document: &dyn Source, pointer: &str, value: &Value) -> Result<Patch, String> {
    let tokens = pointer_tokens(pointer);
    let cx = Cx {
        text: document.text(),
        newline: newline(document.text()),
    };
    let root = document.root();
    if tokens.is_empty() {
        return Err("cannot replace the whole frontmatter".to_owned());
    }
    if let Some((slot, node)) = locate(root, &tokens) {
        guard_alias(node, pointer)?;
        return Ok(replace(&cx, slot, node, value));
    }
    // Find the deepest existing ancestor and grow the missing part from it.
    let mut depth = tokens.len() - 1;
    while depth > 0 && node_at(root, &tokens[..depth]).is_none() {
        depth -= 1;
    }
    let ancestor = node_at(root, &tokens[..depth]).ok_or("the frontmatter root is missing")?;
    guard_alias(ancestor, pointer)?;
    let nested = tokens[depth + 1..]
        .iter()
        .rev()
        .fold(value.clone(), |inner, key| {
            let mut map = Map::new();
            map.insert(key.clone(), inner);
            Value::Object(map)
        });
    let key = &tokens[depth];
    match &ancestor.value {
        NodeValue::Map(entries) => Ok(insert_entry(&cx, ancestor, entries, key, &nested)),
        NodeValue::Seq(items) => {
            let index: usize = key.parse().map_err(|_| {
                format!(
                    "`{key}` is not an index of the list at `{}`",
                    prefix(&tokens[..depth])
                )
            })?;
            if index == items.len() {
                Ok(insert_item(&cx, ancestor, items, index, &nested))
            } else {
                Err(format!(
                    "the list at `{}` has {} item(s); cannot set index {index}",
                    prefix(&tokens[..depth]),
                    items.len()
                ))
            }
        }
        NodeValue::Null if depth > 0 => {
            let mut map = Map::new();
            map.insert(key.clone(), nested);
            set(document, &prefix(&tokens[..depth]), &Value::Object(map))
        }
        _ => Err(format!(
            "`{}` is a {}, not an object; it has no field `{key}`",
            prefix(&tokens[..depth]),
            ancestor.type_name()
        )),
    }
}

fn prefix(tokens: &[String]) -> String {
    tokens
        .iter()
        .map(|t| format!("/{}", crate::json::escape_token(t)))
        .collect()
}

/// Replaces an existing node's text.
fn replace(cx: &Cx<'_>, slot: Slot<'_>, node: &Node, value: &Value) -> Patch {
    let block_style = matches!(node.style, Some(ScalarStyle::Literal | ScalarStyle::Folded));
    if node.style == Some(ScalarStyle::Literal) {
        if let Value::String(text) = value {
            // Keep the block: replace the content lines, at their indentation.
            let start = super::text::line_start(cx.text, node.span.start);
            let pad = " ".repeat(column(cx.text, node.span.start));
            let lines: Vec<String> = text
                .trim_end_matches('\n')
                .split('\n')
                .map(|line| {
                    if line.is_empty() {
                        String::new()
                    } else {
                        format!("{pad}{line}")
                    }
                })
                .collect();
            return cx.patch(start, cx.end_of(node), lines.join("\n"));
        }
    }
    if node.style.is_some() && !block_style && is_scalar(value) && !node.span.is_empty() {
        return cx.patch(
            node.span.start,
            node.span.end,
            render::scalar(value, quote_of(node)),
        );
    }
    let in_flow = match &slot {
        Slot::Entry { parent, .. } | Slot::Item { parent, .. } => parent.flow,
    };
    if (node.flow || in_flow) && !node.span.is_empty() {
        return cx.patch(node.span.start, node.span.end, render::flow(value));
    }
    match slot {
        Slot::Entry { entry, .. } => {
            let start = after_colon(cx.text, entry.key_span.end).unwrap_or(entry.key_span.end);
            let end = if node.span.is_empty() {
                start
            } else {
                cx.end_of(node).max(start)
            };
            let indent =
                if node.style.is_none() && !node.flow && first_on_line(cx.text, node.span.start) {
                    column(cx.text, node.span.start)
                } else {
                    column(cx.text, entry.key_span.start) + 2
                };
            let text = if render::is_inline(value) {
                format!(" {}", render::flow(value))
            } else {
                format!("\n{}", render::block(value, indent))
            };
            cx.patch(start, end, text)
        }
        Slot::Item { .. } => {
            let start = node.span.start;
            let end = cx.end_of(node).max(start);
            cx.patch(start, end, render::item_text(value, column(cx.text, start)))
        }
    }
}

/// Adds `key: value` as the last entry of a mapping.
fn insert_entry(cx: &Cx<'_>, map: &Node, entries: &[Entry], key: &str, value: &Value) -> Patch {
    let Some(last) = entries.last() else {
        // An empty mapping is always `{}` in flow style.
        return cx.patch(
            map.span.start,
            map.span.end,
            render::flow(&Value::Object(
                [(key.to_owned(), value.clone())].into_iter().collect(),
            )),
        );
    };
    if map.flow {
        let at = cx.end_of(&last.value).max(last.key_span.end);
        return cx.patch(
            at,
            at,
            format!(", {}: {}", render::key(key), render::flow(value)),
        );
    }
    let indent = column(cx.text, entries[0].key_span.start);
    let at = line_end(cx.text, cx.end_of(&last.value).max(last.key_span.end));
    let pad = " ".repeat(indent);
    cx.patch(
        at,
        at,
        format!(
            "\n{}",
            render::entry(&pad, &render::key(key), value, indent)
        ),
    )
}

/// Inserts `value` as item `index` of a sequence (`index == len` appends).
fn insert_item(cx: &Cx<'_>, seq: &Node, items: &[Node], index: usize, value: &Value) -> Patch {
    if items.is_empty() {
        return cx.patch(
            seq.span.start,
            seq.span.end,
            render::flow(&Value::Array(vec![value.clone()])),
        );
    }
    if seq.flow {
        return if index < items.len() {
            let at = items[index].span.start;
            cx.patch(at, at, format!("{}, ", render::flow(value)))
        } else {
            let at = cx.end_of(&items[items.len() - 1]);
            cx.patch(at, at, format!(", {}", render::flow(value)))
        };
    }
    let first_dash = dash_before(cx.text, items[0].span.start);
    let Some(first_dash) = first_dash.filter(|d| first_on_line(cx.text, *d)) else {
        let mut all: Vec<Value> = items.iter().map(crate::json::to_json).collect();
        all.insert(index, value.clone());
        return cx.patch(
            seq.span.start,
            seq.span.end,
            render::flow(&Value::Array(all)),
        );
    };
    let indent = column(cx.text, first_dash);
    let pad = " ".repeat(indent);
    let line = format!("{pad}- {}", render::item_text(value, indent + 2));
    if index < items.len() {
        let dash = dash_before(cx.text, items[index].span.start).unwrap_or(items[index].span.start);
        let at = leading_comments_start(cx.text, dash);
        cx.patch(at, at, format!("{line}\n"))
    } else {
        let at = line_end(cx.text, cx.end_of(&items[items.len() - 1]));
        cx.patch(at, at, format!("\n{line}"))
    }
}

/// Inserts `value` at `index` of the list at `pointer` (`index == len` appends; a missing
/// list is created).
pub fn insert(
    document: &dyn Source,
    pointer: &str,
    index: usize,
    value: &Value,
) -> Result<Patch, String> {
    let tokens = pointer_tokens(pointer);
    let cx = Cx {
        text: document.text(),
        newline: newline(document.text()),
    };
    match node_at(document.root(), &tokens) {
        None
        | Some(Node {
            value: NodeValue::Null,
            ..
        }) if index == 0 => set(document, pointer, &Value::Array(vec![value.clone()])),
        Some(
            node @ Node {
                value: NodeValue::Seq(items),
                ..
            },
        ) => {
            guard_alias(node, pointer)?;
            if index > items.len() {
                return Err(format!(
                    "the list at `{pointer}` has {} item(s); cannot insert at {index}",
                    items.len()
                ));
            }
            Ok(insert_item(&cx, node, items, index, value))
        }
        Some(other) => Err(format!(
            "`{pointer}` is a {}, not a list",
            other.type_name()
        )),
        None => Err(format!("there is no list at `{pointer}`")),
    }
}

/// Removes the entry or item at `pointer`, with the comment lines directly above it.
pub fn remove(document: &dyn Source, pointer: &str) -> Result<Patch, String> {
    let tokens = pointer_tokens(pointer);
    let cx = Cx {
        text: document.text(),
        newline: newline(document.text()),
    };
    let Some((slot, node)) = locate(document.root(), &tokens) else {
        return Err(format!("nothing to remove at `{pointer}`"));
    };
    guard_alias(node, pointer)?;
    let parent_pointer = prefix(&tokens[..tokens.len() - 1]);
    match slot {
        Slot::Entry { parent, entry } => {
            let entries = parent.as_map().unwrap_or_default();
            let position = entries
                .iter()
                .position(|e| std::ptr::eq(e, entry))
                .unwrap_or(0);
            if entries.len() == 1 {
                if tokens.len() == 1 {
                    return Err("cannot remove the last key of the frontmatter".to_owned());
                }
                return set(document, &parent_pointer, &Value::Object(Map::new()));
            }
            let next = entries.get(position + 1);
            if parent.flow {
                return Ok(match next {
                    Some(next) => {
                        cx.patch(entry.key_span.start, next.key_span.start, String::new())
                    }
                    None => {
                        let previous = &entries[position - 1];
                        let from = cx.end_of(&previous.value).max(previous.key_span.end);
                        cx.patch(from, cx.end_of(node).max(entry.key_span.end), String::new())
                    }
                });
            }
            let value_end = cx.end_of(node).max(entry.key_span.end);
            if first_on_line(cx.text, entry.key_span.start) {
                let start = leading_comments_start(cx.text, entry.key_span.start);
                let end = next_line_start(cx.text, value_end);
                Ok(cx.patch(start, end, String::new()))
            } else if let Some(next) = next {
                Ok(cx.patch(entry.key_span.start, next.key_span.start, String::new()))
            } else {
                let mut remaining = crate::json::to_json(parent);
                if let Value::Object(map) = &mut remaining {
                    map.remove(&entry.key);
                }
                set(document, &parent_pointer, &remaining)
            }
        }
        Slot::Item { parent, index } => {
            let items = parent.as_seq().unwrap_or_default();
            if items.len() == 1 {
                return set(document, &parent_pointer, &Value::Array(Vec::new()));
            }
            if parent.flow {
                return Ok(match items.get(index + 1) {
                    Some(next) => cx.patch(node.span.start, next.span.start, String::new()),
                    None => cx.patch(cx.end_of(&items[index - 1]), cx.end_of(node), String::new()),
                });
            }
            match dash_before(cx.text, node.span.start).filter(|d| first_on_line(cx.text, *d)) {
                Some(dash) => {
                    let start = leading_comments_start(cx.text, dash);
                    let end = next_line_start(cx.text, cx.end_of(node).max(dash));
                    Ok(cx.patch(start, end, String::new()))
                }
                None => {
                    let mut remaining: Vec<Value> =
                        items.iter().map(crate::json::to_json).collect();
                    remaining.remove(index);
                    set(document, &parent_pointer, &Value::Array(remaining))
                }
            }
        }
    }
}
