//! Primitive edits: set, remove and insert at a JSON Pointer, each as one text patch that
//! touches only the region of the changed node. Anything unusual falls back to re-rendering the
//! smallest enclosing collection, which is always correct, only less minimal.

use serde_json::{Map, Value};

use super::render::{self, Quote};
use super::text::{
    after_colon, column, dash_before, first_on_line, leading_comments_start, line_end, line_start,
    newline, next_line_start,
};
use crate::json::pointer_tokens;
use crate::schema::Source;
use crate::source::Span;
use crate::yaml::{Entry, Node, NodeValue, ScalarStyle};

/// Replace `start..end` of the text with `text`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Patch {
    pub start: usize,
    pub end: usize,
    pub text: String,
}

/// A primitive edit's patch, and the regions of the old text whose comments may go with it:
/// those of the entries and items it removes (a removed entry takes its own comments, and
/// nothing else may lose one).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    pub patch: Patch,
    pub owned: Vec<Span>,
}

impl Change {
    /// A change that removes nothing: every comment must stay.
    fn keeping(patch: Patch) -> Change {
        Change {
            patch,
            owned: Vec::new(),
        }
    }

    fn owning(patch: Patch, owned: Span) -> Change {
        Change {
            patch,
            owned: vec![owned],
        }
    }
}

struct Cx<'d> {
    text: &'d str,
    newline: &'static str,
    /// The spans of block scalars and of scalars written over several lines, sorted: a line of
    /// one that starts with `#` is text, not a comment.
    multi_line_scalars: Vec<Span>,
}

impl<'d> Cx<'d> {
    fn new(document: &'d dyn Source) -> Cx<'d> {
        let text = document.text();
        let mut multi_line_scalars = Vec::new();
        let mut pending = vec![document.root()];
        while let Some(node) = pending.pop() {
            match &node.value {
                NodeValue::Map(entries) => pending.extend(entries.iter().map(|e| &e.value)),
                NodeValue::Seq(items) => pending.extend(items.iter()),
                _ if matches!(node.style, Some(ScalarStyle::Literal | ScalarStyle::Folded))
                    || text[node.span().start..node.span().end].contains('\n') =>
                {
                    multi_line_scalars.push(node.span());
                }
                _ => {}
            }
        }
        crate::sorting::sort_by_key(&mut multi_line_scalars, |s| s.start);
        Cx {
            text,
            newline: newline(text),
            multi_line_scalars,
        }
    }

    fn in_scalar(&self, offset: usize) -> bool {
        let at = self
            .multi_line_scalars
            .partition_point(|s| s.start <= offset);
        at > 0 && self.multi_line_scalars[at - 1].end > offset
    }

    /// The start of the comment lines directly above the line of `offset` (none when a blank
    /// line or anything else comes between), or that line's start.
    fn leading_comments_start(&self, offset: usize) -> usize {
        leading_comments_start(self.text, offset, |at| self.in_scalar(at))
    }
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
                let raw = &self.text[node.span().start..node.span().end];
                node.span().start + raw.trim_end().len()
            }
            _ => node.span().end,
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
pub fn set(document: &dyn Source, pointer: &str, value: &Value) -> Result<Change, String> {
    let tokens = pointer_tokens(pointer);
    let cx = Cx::new(document);
    let root = document.root();
    if tokens.is_empty() {
        return Err("cannot replace the whole frontmatter".to_owned());
    }
    if let Some((slot, node)) = locate(root, &tokens) {
        guard_alias(node, pointer)?;
        return replace(&cx, slot, node, value);
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
        NodeValue::Map(entries) => Ok(Change::keeping(insert_entry(
            &cx, ancestor, entries, key, &nested,
        ))),
        NodeValue::Seq(items) => {
            let index: usize = key.parse().map_err(|_| {
                format!(
                    "`{key}` is not an index of the list at `{}`",
                    prefix(&tokens[..depth])
                )
            })?;
            if index == items.len() {
                Ok(Change::keeping(insert_item(
                    &cx, ancestor, items, index, &nested,
                )))
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

/// Replaces an existing node's text. Comments outside the old value stay: the one after a
/// scalar, on a key's line, after a block scalar's header. Comments inside a replaced
/// collection go with its entries and items.
fn replace(cx: &Cx<'_>, slot: Slot<'_>, node: &Node, value: &Value) -> Result<Change, String> {
    let block_scalar = matches!(node.style, Some(ScalarStyle::Literal | ScalarStyle::Folded));
    if node.style == Some(ScalarStyle::Literal) && !node.span().is_empty() {
        if let Some(text) = value
            .as_str()
            .filter(|t| fits_clipped_literal(cx.text, node, t))
        {
            // Keep the block: replace the content lines, at their indentation.
            let start = line_start(cx.text, node.span().start);
            let pad = " ".repeat(column(cx.text, node.span().start));
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
            return Ok(Change::keeping(cx.patch(
                start,
                cx.end_of(node),
                lines.join("\n"),
            )));
        }
    }
    let in_flow = match &slot {
        Slot::Entry { parent, .. } | Slot::Item { parent, .. } => parent.flow,
    };
    if !in_flow && !node.flow && !is_block_collection(node) {
        if let Some(change) = value
            .as_str()
            .and_then(|t| replace_with_literal(cx, &slot, node, t))
        {
            return Ok(change);
        }
    }
    if node.style.is_some() && !block_scalar && is_scalar(value) && !node.span().is_empty() {
        return Ok(Change::keeping(cx.patch(
            node.span().start,
            node.span().end,
            render::scalar(value, quote_of(node)),
        )));
    }
    if (node.flow || in_flow) && !node.span().is_empty() {
        return Ok(Change::owning(
            cx.patch(node.span().start, node.span().end, render::flow(value)),
            node.span(),
        ));
    }
    match slot {
        Slot::Entry { entry, .. } => replace_entry_value(cx, entry, node, value),
        Slot::Item { .. } => replace_item(cx, node, value),
    }
}

/// A scalar (or null) in block context replaced by a multi-line string written as a literal
/// block: from the key's colon (or the item's start) to the end of the old value's last line,
/// with a comment there moved after the header (after the content it would be text). `None`
/// when the block cannot hold the text or the old line holds more than a comment.
fn replace_with_literal(cx: &Cx<'_>, slot: &Slot<'_>, node: &Node, text: &str) -> Option<Change> {
    let (start, indent, indicator, lead) = match slot {
        Slot::Entry { entry, .. } => {
            let colon = after_colon(cx.text, entry.key_span().end)?;
            let key_column = column(cx.text, entry.key_span().start);
            (colon, key_column + 2, Some(2), " ")
        }
        Slot::Item { .. } if !node.span().is_empty() => {
            let start = block_scalar_header(cx.text, node).map_or(node.span().start, |(h, _)| h);
            (start, column(cx.text, start), None, "")
        }
        Slot::Item { .. } => return None,
    };
    let block = render::literal(text, indent, indicator)?;
    let (end, comment) = match block_scalar_header(cx.text, node) {
        Some((_, comment)) => (cx.end_of(node), comment.to_owned()),
        None if node.span().is_empty() => {
            let end = line_end(cx.text, start);
            let rest = cx.text[start..end].trim_end();
            if !rest.trim_start().is_empty() && !rest.trim_start().starts_with('#') {
                return None;
            }
            (end, rest.to_owned())
        }
        None => {
            if cx.text[start..node.span().start].contains('#') {
                return None;
            }
            let value_end = cx.end_of(node).max(start);
            let end = line_end(cx.text, value_end);
            let rest = cx.text[value_end..end].trim_end();
            if !rest.trim_start().is_empty() && !rest.trim_start().starts_with('#') {
                return None;
            }
            (end, rest.to_owned())
        }
    };
    let written = format!("{lead}{}{comment}{}", block.header, block.body);
    Some(Change::keeping(cx.patch(start, end, written)))
}

/// Whether `value` can replace the content of the literal block scalar `node` and keep its
/// header: the header is a plain `|` (one final line break kept), and the value ends with
/// exactly one line break, has no other control character, and does not start with a space
/// (which would need an indentation indicator).
fn fits_clipped_literal(text: &str, node: &Node, value: &str) -> bool {
    let clipped = block_scalar_header(text, node).is_some_and(|(header, _)| {
        text[header + 1..]
            .chars()
            .next()
            .is_none_or(|c| c == ' ' || c == '\t' || c == '\n' || c == '\r')
    });
    clipped
        && value.ends_with('\n')
        && !value.ends_with("\n\n")
        && !value.starts_with([' ', '\n'])
        && !value
            .chars()
            .any(|c| c.is_control() && c != '\n' && c != '\t')
}

/// Whether a node is a block mapping or sequence (its text starts on a line of its own).
fn is_block_collection(node: &Node) -> bool {
    node.style.is_none() && !node.flow && !node.span().is_empty()
}

/// The value of `key:` replaced in block context.
fn replace_entry_value(
    cx: &Cx<'_>,
    entry: &Entry,
    node: &Node,
    value: &Value,
) -> Result<Change, String> {
    let colon = after_colon(cx.text, entry.key_span().end).unwrap_or(entry.key_span().end);
    let key_line_end = line_end(cx.text, colon);
    let indent = if matches!(node.value, NodeValue::Map(_))
        && is_block_collection(node)
        && first_on_line(cx.text, node.span().start)
    {
        column(cx.text, node.span().start)
    } else {
        column(cx.text, entry.key_span().start) + 2
    };
    let inline = render::is_inline(value);
    let written = if inline {
        format!(" {}", render::flow(value))
    } else {
        format!("\n{}", render::block(value, indent))
    };
    let (start, end, text, owned) = if node.span().is_empty() {
        // Nothing after the colon (null): write there, or below the key line's comment.
        let at = if inline { colon } else { key_line_end };
        (at, at, written, None)
    } else if let Some((_, comment)) = block_scalar_header(cx.text, node) {
        let text = if inline {
            format!("{written}{comment}")
        } else {
            format!("{comment}{written}")
        };
        (colon, cx.end_of(node), text, None)
    } else if is_block_collection(node) {
        let key_comment = cx.text[colon..key_line_end].trim_end();
        let end = line_end(cx.text, cx.end_of(node));
        let text = if inline {
            format!("{written}{key_comment}")
        } else {
            format!("{key_comment}{written}")
        };
        (colon, end, text, Some(Span::new(key_line_end, end)))
    } else {
        // A scalar written on the key line, replaced by a collection.
        let value_end = cx.end_of(node);
        if inline {
            (colon, value_end, written, None)
        } else {
            let last_line_end = line_end(cx.text, value_end);
            let trailing = cx.text[value_end..last_line_end].trim_end();
            (colon, last_line_end, format!("{trailing}{written}"), None)
        }
    };
    let patch = cx.patch(start, end, text);
    Ok(Change {
        patch,
        owned: owned.into_iter().collect(),
    })
}

/// A block sequence item's value replaced.
fn replace_item(cx: &Cx<'_>, node: &Node, value: &Value) -> Result<Change, String> {
    let start = node.span().start;
    if let Some((header, comment)) = block_scalar_header(cx.text, node) {
        let text = render::item_text(value, column(cx.text, header));
        let text = match text.split_once('\n') {
            Some((first, rest)) => format!("{first}{comment}\n{rest}"),
            None => format!("{text}{comment}"),
        };
        return Ok(Change::keeping(cx.patch(header, cx.end_of(node), text)));
    }
    let text = render::item_text(value, column(cx.text, start));
    if is_block_collection(node) {
        let end = line_end(cx.text, cx.end_of(node));
        return Ok(Change::owning(
            cx.patch(start, end, text),
            Span::new(start, end),
        ));
    }
    let end = cx.end_of(node).max(start);
    Ok(Change::keeping(cx.patch(start, end, text)))
}

/// The `-` of a block sequence item: before its text on its line, or alone (perhaps with a
/// comment) on the line above a collection; a block scalar's is before its header.
pub(crate) fn item_dash(text: &str, item: &Node) -> Option<usize> {
    let start = block_scalar_header(text, item).map_or(item.span().start, |(header, _)| header);
    dash_before(text, start).or_else(|| {
        let line = line_start(text, start);
        let previous = line_start(text, line.checked_sub(1)?);
        let above = text[previous..line - 1].trim_end_matches('\r');
        let dash = above.trim_start();
        let alone = dash == "-" || dash.starts_with("- #") || dash.starts_with("-\t#");
        (alone && is_block_collection(item)).then(|| previous + above.len() - dash.len())
    })
}

/// Where a block scalar's header (`|`, `>-`, `|2`) starts, and the spaces and comment after it
/// on its line (`""` when none).
fn block_scalar_header<'t>(text: &'t str, node: &Node) -> Option<(usize, &'t str)> {
    if !matches!(node.style, Some(ScalarStyle::Literal | ScalarStyle::Folded))
        || node.span().start == 0
    {
        return None;
    }
    let content_line = line_start(text, node.span().start);
    let header_line = line_start(text, content_line.saturating_sub(1));
    let line = &text[header_line..line_end(text, header_line)];
    let bytes = line.as_bytes();
    let at = (1..bytes.len()).find(|&i| {
        matches!(bytes[i], b'|' | b'>')
            && bytes[i - 1] == b' '
            && line[i + 1..]
                .find(|c: char| !matches!(c, '0'..='9' | '+' | '-'))
                .is_none_or(|end| line[i + 1 + end..].starts_with([' ', '\t']))
    })?;
    let after = line[at + 1..]
        .find(|c: char| !matches!(c, '0'..='9' | '+' | '-'))
        .map_or(line.len(), |end| at + 1 + end);
    let rest = &line[after..];
    let comment = if rest.trim_start().starts_with('#') {
        rest.trim_end()
    } else {
        ""
    };
    Some((header_line + at, comment))
}

/// Adds `key: value` to the mapping at `pointer`, right after its entry `after`.
pub fn insert_entry_after(
    document: &dyn Source,
    pointer: &str,
    after: &str,
    key: &str,
    value: &Value,
) -> Result<Change, String> {
    let cx = Cx::new(document);
    let map = node_at(document.root(), &pointer_tokens(pointer))
        .ok_or_else(|| format!("there is no mapping at `{pointer}`"))?;
    guard_alias(map, pointer)?;
    let entries = map
        .as_map()
        .ok_or_else(|| format!("`{pointer}` is a {}, not a mapping", map.type_name()))?;
    let entry = entries
        .iter()
        .find(|e| e.key == after)
        .ok_or_else(|| format!("`{pointer}` has no entry `{after}`"))?;
    let end = cx.end_of(&entry.value).max(entry.key_span().end);
    if map.flow {
        return Ok(Change::keeping(cx.patch(
            end,
            end,
            format!(", {}: {}", render::key(key), render::flow(value)),
        )));
    }
    let indent = column(cx.text, entries[0].key_span().start);
    let at = line_end(cx.text, end);
    Ok(Change::keeping(cx.patch(
        at,
        at,
        format!(
            "\n{}",
            render::entry(&" ".repeat(indent), &render::key(key), value, indent)
        ),
    )))
}

/// Adds `key: value` as the last entry of a mapping.
fn insert_entry(cx: &Cx<'_>, map: &Node, entries: &[Entry], key: &str, value: &Value) -> Patch {
    let Some(last) = entries.last() else {
        // An empty mapping is always `{}` in flow style.
        return cx.patch(
            map.span().start,
            map.span().end,
            render::flow(&Value::Object(
                [(key.to_owned(), value.clone())].into_iter().collect(),
            )),
        );
    };
    if map.flow {
        let at = cx.end_of(&last.value).max(last.key_span().end);
        return cx.patch(
            at,
            at,
            format!(", {}: {}", render::key(key), render::flow(value)),
        );
    }
    let indent = column(cx.text, entries[0].key_span().start);
    let at = line_end(cx.text, cx.end_of(&last.value).max(last.key_span().end));
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
            seq.span().start,
            seq.span().end,
            render::flow(&Value::Array(vec![value.clone()])),
        );
    }
    if seq.flow {
        return if index < items.len() {
            let at = items[index].span().start;
            cx.patch(at, at, format!("{}, ", render::flow(value)))
        } else {
            let at = cx.end_of(&items[items.len() - 1]);
            cx.patch(at, at, format!(", {}", render::flow(value)))
        };
    }
    let first_dash = item_dash(cx.text, &items[0]);
    let Some(first_dash) = first_dash.filter(|d| first_on_line(cx.text, *d)) else {
        let mut all: Vec<Value> = items.iter().map(crate::json::to_json).collect();
        all.insert(index, value.clone());
        return cx.patch(
            seq.span().start,
            seq.span().end,
            render::flow(&Value::Array(all)),
        );
    };
    let indent = column(cx.text, first_dash);
    let pad = " ".repeat(indent);
    let line = format!("{pad}- {}", render::item_text(value, indent + 2));
    if index < items.len() {
        let dash = item_dash(cx.text, &items[index]).unwrap_or(items[index].span().start);
        let at = cx.leading_comments_start(dash);
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
) -> Result<Change, String> {
    let tokens = pointer_tokens(pointer);
    let cx = Cx::new(document);
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
            Ok(Change::keeping(insert_item(&cx, node, items, index, value)))
        }
        Some(other) => Err(format!(
            "`{pointer}` is a {}, not a list",
            other.type_name()
        )),
        None => Err(format!("there is no list at `{pointer}`")),
    }
}

/// Removes the entry or item at `pointer`, with its comments: the comment lines directly above
/// it, those inside it and the one at the end of its last line.
pub fn remove(document: &dyn Source, pointer: &str) -> Result<Change, String> {
    let tokens = pointer_tokens(pointer);
    let cx = Cx::new(document);
    let Some((slot, node)) = locate(document.root(), &tokens) else {
        return Err(format!("nothing to remove at `{pointer}`"));
    };
    guard_alias(node, pointer)?;
    let parent_pointer = prefix(&tokens[..tokens.len() - 1]);
    match slot {
        Slot::Entry { parent, entry } => remove_entry(
            &cx,
            document,
            &parent_pointer,
            parent,
            entry,
            tokens.len() == 1,
        ),
        Slot::Item { parent, index } => remove_item(&cx, document, &parent_pointer, parent, index),
    }
}

/// The text an entry or item owns: its leading comment lines (when it starts its line), its
/// own text, and the rest of its last line (a comment there is its own).
fn extent(cx: &Cx<'_>, start: usize, value: &Node) -> Span {
    let first = if first_on_line(cx.text, start) {
        cx.leading_comments_start(start)
    } else {
        start
    };
    let end = cx.end_of(value).max(start);
    Span::new(first, line_end(cx.text, end))
}

/// Re-renders the parent without the removed entry or item: the comments of the removed one
/// may go, and the check refuses the edit if any other would.
fn without(
    document: &dyn Source,
    parent_pointer: &str,
    remaining: &Value,
    owned: Span,
) -> Result<Change, String> {
    let mut change = set(document, parent_pointer, remaining)?;
    change.owned = vec![owned];
    Ok(change)
}

fn remove_entry(
    cx: &Cx<'_>,
    document: &dyn Source,
    parent_pointer: &str,
    parent: &Node,
    entry: &Entry,
    at_root: bool,
) -> Result<Change, String> {
    let node = &entry.value;
    let entries = parent.as_map().unwrap_or_default();
    let position = entries
        .iter()
        .position(|e| std::ptr::eq(e, entry))
        .unwrap_or(0);
    let owned = extent(cx, entry.key_span().start, node);
    if entries.len() == 1 {
        if at_root {
            return Err("cannot remove the last key of the frontmatter".to_owned());
        }
        return without(document, parent_pointer, &Value::Object(Map::new()), owned);
    }
    let next = entries.get(position + 1);
    if parent.flow {
        let patch = match next {
            Some(next) => cx.patch(entry.key_span().start, next.key_span().start, String::new()),
            None => {
                let previous = &entries[position - 1];
                let from = cx.end_of(&previous.value).max(previous.key_span().end);
                cx.patch(
                    from,
                    cx.end_of(node).max(entry.key_span().end),
                    String::new(),
                )
            }
        };
        let span = Span::new(patch.start, patch.end);
        return Ok(Change::owning(patch, span));
    }
    let value_end = cx.end_of(node).max(entry.key_span().end);
    if first_on_line(cx.text, entry.key_span().start) {
        // Comments above the document's first key head the document (as `fmt` keeps them).
        let start = if at_root && position == 0 {
            line_start(cx.text, entry.key_span().start)
        } else {
            cx.leading_comments_start(entry.key_span().start)
        };
        let end = next_line_start(cx.text, value_end);
        return Ok(Change::owning(
            cx.patch(start, end, String::new()),
            Span::new(start, end),
        ));
    }
    match next {
        Some(next) => {
            // The first entry of a sequence item (`- key: ...`): the next entry moves up to the
            // dash, unless comments above it stay between (`- # comment`).
            let comments = cx.leading_comments_start(next.key_span().start);
            let end = if comments < line_start(cx.text, next.key_span().start) {
                comments + cx.text[comments..].find('#').unwrap_or(0)
            } else {
                next.key_span().start
            };
            Ok(Change::owning(
                cx.patch(entry.key_span().start, end, String::new()),
                Span::new(entry.key_span().start, end),
            ))
        }
        None => {
            let mut remaining = crate::json::to_json(parent);
            if let Value::Object(map) = &mut remaining {
                map.shift_remove(entry.key.as_ref());
            }
            without(document, parent_pointer, &remaining, owned)
        }
    }
}

fn remove_item(
    cx: &Cx<'_>,
    document: &dyn Source,
    parent_pointer: &str,
    parent: &Node,
    index: usize,
) -> Result<Change, String> {
    let items = parent.as_seq().unwrap_or_default();
    let node = &items[index];
    let dash = item_dash(cx.text, node).filter(|d| first_on_line(cx.text, *d));
    let owned = extent(cx, dash.unwrap_or(node.span().start), node);
    if items.len() == 1 {
        return without(document, parent_pointer, &Value::Array(Vec::new()), owned);
    }
    if parent.flow {
        let patch = match items.get(index + 1) {
            Some(next) => cx.patch(node.span().start, next.span().start, String::new()),
            None => cx.patch(cx.end_of(&items[index - 1]), cx.end_of(node), String::new()),
        };
        let span = Span::new(patch.start, patch.end);
        return Ok(Change::owning(patch, span));
    }
    match dash {
        Some(dash) => {
            let start = cx.leading_comments_start(dash);
            let end = next_line_start(cx.text, cx.end_of(node).max(dash));
            Ok(Change::owning(
                cx.patch(start, end, String::new()),
                Span::new(start, end),
            ))
        }
        None => {
            let mut remaining: Vec<Value> = items.iter().map(crate::json::to_json).collect();
            remaining.remove(index);
            without(document, parent_pointer, &Value::Array(remaining), owned)
        }
    }
}
