//! Re-emitting the frontmatter from its tree, pulling comments back in by position.
//!
//! Own-line comments belong to the entry or item that follows them and move with it; a comment
//! at the end of a line stays at the end of that line. Scalars keep their text (quotes dropped
//! where a plain scalar reads the same); flow collections and block scalars keep theirs,
//! re-indented. Documents with anchors, aliases or tags are refused: reordering could move an
//! alias before its anchor.

use std::collections::{BTreeMap, BTreeSet};

use super::comments::{find, Comment};
use super::ROOT_ORDER;
use crate::document::Document;
use crate::edit::plain_is_safe;
use crate::schema::{property_order, schema};
use crate::source::Span;
use crate::yaml::{Entry, Node, NodeValue, ScalarStyle};

struct Emitter<'d> {
    text: &'d str,
    document: &'d Document,
    /// Own-line comments by the offset of the key or dash they precede.
    leading: BTreeMap<usize, Vec<Comment>>,
    /// Own-line comments after the last entry of the frontmatter.
    closing: Vec<Comment>,
    /// End-of-line comments by 0-based line.
    trailing: BTreeMap<usize, Comment>,
    emitted: BTreeSet<usize>,
    /// Blank lines that are the end of a keep (`+`) block scalar's value, not separators.
    kept_blank_lines: BTreeSet<usize>,
    /// The comment whose blank line above was written after the head (it moved away from it).
    no_blank_before: Option<usize>,
    out: String,
}

/// Whether the root's first key is not first in the formatted order.
fn first_key_moves(emitter: &Emitter<'_>, root: &Node) -> bool {
    let Some(entries) = root.as_map() else {
        return false;
    };
    match (entries.first(), emitter.ordered(entries, &[]).first()) {
        (Some(first), Some(ordered)) => first.key_span().start != ordered.key_span().start,
        _ => false,
    }
}

/// The comments at the end of `head` with no blank line between them and the key at `key`.
fn attached_to(emitter: &Emitter<'_>, head: &[Comment], key: usize) -> Vec<Comment> {
    let mut next = key;
    let mut attached = Vec::new();
    for comment in head.iter().rev() {
        if emitter.blank_line_before(next) {
            break;
        }
        attached.push(comment.clone());
        next = comment.offset;
    }
    attached.reverse();
    attached
}

/// Why a document with anchors, aliases or tags is left alone.
pub(super) const ANCHORS_REFUSED: &str =
    "documents with anchors, aliases or tags are not reformatted";

pub(super) fn emit(document: &Document) -> Result<String, String> {
    let text = document.text();
    let sections = document.sections();
    let region = sections.yaml;
    let comments = find(text, region, document.root());
    if has_anchors_or_tags(text, region, document.root(), &comments) {
        return Err(ANCHORS_REFUSED.to_owned());
    }
    let mut anchors = Vec::new();
    collect_anchors(text, document.root(), &mut anchors);
    crate::sorting::sort(&mut anchors);
    let mut leading: BTreeMap<usize, Vec<Comment>> = BTreeMap::new();
    let mut closing = Vec::new();
    let mut trailing = BTreeMap::new();
    // Comments above the first key head the document and stay at the top.
    let first_key = anchors.first().copied().unwrap_or(usize::MAX);
    let mut head: Vec<Comment> = Vec::new();
    // Comments inside flow collections travel with the collection's text.
    for comment in comments.iter().filter(|c| !c.in_flow) {
        if comment.own_line && comment.offset < first_key {
            head.push(comment.clone());
        } else if comment.own_line {
            match anchors.iter().find(|a| **a > comment.offset) {
                Some(anchor) => leading.entry(*anchor).or_default().push(comment.clone()),
                None => closing.push(comment.clone()),
            }
        } else {
            trailing.insert(
                document.line_index().line_of(comment.offset),
                comment.clone(),
            );
        }
    }
    let mut emitter = Emitter {
        text,
        document,
        leading,
        closing,
        trailing,
        emitted: BTreeSet::new(),
        kept_blank_lines: BTreeSet::new(),
        no_blank_before: None,
        out: String::new(),
    };
    emitter.mark_kept_blank_lines(document.root());
    // The comments right above the first key (no blank line between) are that key's: when the
    // key order moves it, they move with it, and the blank line that set them apart from the
    // file's head stays after the head.
    let mut head_blank_after = false;
    if first_key_moves(&emitter, document.root()) {
        let attached = attached_to(&emitter, &head, first_key);
        if let Some(first) = attached.first() {
            head_blank_after = emitter.blank_line_before(first.offset);
            emitter.no_blank_before = Some(first.offset);
        }
        head.truncate(head.len() - attached.len());
        emitter.leading.insert(first_key, attached);
    }
    for comment in head {
        // Blank lines between the head comments stay (one each), as between any others.
        if emitter.blank_line_before(comment.offset) && !emitter.out.is_empty() {
            emitter.out.push('\n');
        }
        emitter.out.push_str(&comment.text);
        emitter.out.push('\n');
        emitter.emitted.insert(comment.offset);
    }
    if head_blank_after && !emitter.out.is_empty() {
        emitter.out.push('\n');
    }
    emitter.map(document.root(), 0, &mut Vec::new());
    for comment in std::mem::take(&mut emitter.closing) {
        emitter.out.push_str(&comment.text);
        emitter.out.push('\n');
        emitter.emitted.insert(comment.offset);
    }
    let lost: Vec<&Comment> = comments
        .iter()
        .filter(|c| !c.in_flow && !emitter.emitted.contains(&c.offset))
        .collect();
    if let Some(first) = lost.first() {
        let at = document.line_index().line_col(text, first.offset);
        return Err(format!(
            "the comment at line {} could not be placed",
            at.line
        ));
    }
    let newline = if text.contains("\r\n") { "\r\n" } else { "\n" };
    let body = emitter.out.replace('\n', newline);
    Ok(format!(
        "{}{}{}",
        &text[..region.start],
        body,
        &text[region.end..]
    ))
}

/// Whether the frontmatter uses an anchor, alias or tag: a key or scalar whose text starts with
/// one, or a `&`, `!` or `*` anywhere outside keys, scalars and comments (there it can only be
/// a collection's anchor or tag).
fn has_anchors_or_tags(text: &str, region: Span, root: &Node, comments: &[Comment]) -> bool {
    let mut texts = Vec::new();
    let mut pending = vec![root];
    while let Some(node) = pending.pop() {
        if node.from_alias {
            return true;
        }
        match &node.value {
            NodeValue::Map(entries) => {
                for entry in entries {
                    texts.push(entry.key_span());
                    pending.push(&entry.value);
                }
            }
            NodeValue::Seq(items) => pending.extend(items.iter()),
            _ => texts.push(node.span()),
        }
    }
    let property = |span: &Span| text[span.start..span.end].starts_with(['&', '!', '*']);
    if texts.iter().any(property) {
        return true;
    }
    let mut skipped: Vec<Span> = texts;
    skipped.extend(
        comments
            .iter()
            .map(|c| Span::new(c.offset, c.offset + c.text.len())),
    );
    crate::sorting::sort_by_key(&mut skipped, |s| s.start);
    let mut at = region.start;
    for span in skipped.iter().filter(|s| s.end > region.start) {
        if span.start > at && text[at..span.start.min(region.end)].contains(['&', '!', '*']) {
            return true;
        }
        at = at.max(span.end);
    }
    at < region.end && text[at..region.end].contains(['&', '!', '*'])
}

/// The offsets comments can attach to: keys of block mappings and dashes of block sequences.
fn collect_anchors(text: &str, node: &Node, out: &mut Vec<usize>) {
    if node.flow {
        return;
    }
    match &node.value {
        NodeValue::Map(entries) => {
            for entry in entries {
                out.push(entry.key_span().start);
                collect_anchors(text, &entry.value, out);
            }
        }
        NodeValue::Seq(items) => {
            for item in items {
                out.push(dash_of(text, item));
                collect_anchors(text, item, out);
            }
        }
        _ => {}
    }
}

fn dash_of(text: &str, item: &Node) -> usize {
    crate::edit::dash_offset(text, item).unwrap_or(item.span().start)
}

impl<'d> Emitter<'d> {
    fn line_of(&self, offset: usize) -> usize {
        self.document.line_index().line_of(offset)
    }

    fn leading_comments(&mut self, anchor: usize, pad: &str) {
        // A blank line before the entry (or its comments) separates it; keep one.
        let first = self
            .leading
            .get(&anchor)
            .and_then(|c| c.first())
            .map_or(anchor, |c| c.offset);
        if self.blank_line_before(first)
            && self.no_blank_before != Some(first)
            && !self.out.is_empty()
            && !self.out.ends_with("\n\n")
        {
            self.out.push('\n');
        }
        if let Some(comments) = self.leading.remove(&anchor) {
            for comment in comments {
                self.out.push_str(pad);
                self.out.push_str(&comment.text);
                self.out.push('\n');
                self.emitted.insert(comment.offset);
            }
        }
    }

    fn blank_line_before(&self, offset: usize) -> bool {
        let line_start = self.text[..offset].rfind('\n').map_or(0, |i| i + 1);
        if line_start == 0 {
            return false;
        }
        let previous_start = self.text[..line_start - 1].rfind('\n').map_or(0, |i| i + 1);
        self.text[previous_start..line_start].trim().is_empty()
            && !self
                .kept_blank_lines
                .contains(&self.line_of(previous_start))
    }

    /// Records the blank lines that end keep block scalars' values, under `node`.
    fn mark_kept_blank_lines(&mut self, node: &Node) {
        match &node.value {
            NodeValue::Map(entries) => entries
                .iter()
                .for_each(|entry| self.mark_kept_blank_lines(&entry.value)),
            NodeValue::Seq(items) => items
                .iter()
                .for_each(|item| self.mark_kept_blank_lines(item)),
            _ if is_block_scalar(node) => {
                let (header_start, header) = self.block_header(node);
                if !header.contains('+') {
                    return;
                }
                let first_line = self.line_of(header_start) + 1;
                let lines = self.block_lines(node, header_start);
                let last_content = lines.iter().rposition(|l| !l.trim().is_empty());
                let blank_from = last_content.map_or(0, |last| last + 1);
                for index in blank_from..lines.len() {
                    self.kept_blank_lines.insert(first_line + index);
                }
            }
            _ => {}
        }
    }

    fn end_line(&mut self, source_line: usize) {
        if let Some(comment) = self.trailing.remove(&source_line) {
            self.out.push(' ');
            self.out.push_str(&comment.text);
            self.emitted.insert(comment.offset);
        }
        self.out.push('\n');
    }

    fn ordered<'n>(&self, entries: &'n [Entry], path: &[String]) -> Vec<&'n Entry> {
        let order: Vec<String> = if path.is_empty() {
            ROOT_ORDER.iter().map(|s| (*s).to_owned()).collect()
        } else {
            property_order(schema(), path)
        };
        let mut sorted: Vec<(usize, usize, &Entry)> = entries
            .iter()
            .enumerate()
            .map(|(i, e)| {
                (
                    order
                        .iter()
                        .position(|k| *k == *e.key)
                        .unwrap_or(usize::MAX),
                    i,
                    e,
                )
            })
            .collect();
        crate::sorting::sort_by_key(&mut sorted, |(rank, i, _)| (*rank, *i));
        sorted.into_iter().map(|(_, _, e)| e).collect()
    }

    fn map(&mut self, node: &Node, indent: usize, path: &mut Vec<String>) {
        let Some(entries) = node.as_map() else { return };
        let pad = " ".repeat(indent);
        for entry in self.ordered(entries, path) {
            self.leading_comments(entry.key_span().start, &pad);
            let key = self.scalar_text(&entry.key_span(), None, &entry.key);
            self.out.push_str(&pad);
            self.out.push_str(&key);
            self.out.push(':');
            path.push(entry.key.to_string());
            self.value_after_key(
                &entry.value,
                indent,
                self.line_of(entry.key_span().start),
                path,
            );
            path.pop();
        }
    }

    /// Writes what follows `key:` (inline value or a newline and a nested block).
    fn value_after_key(
        &mut self,
        value: &Node,
        indent: usize,
        key_line: usize,
        path: &mut Vec<String>,
    ) {
        match (&value.value, value.flow) {
            (NodeValue::Map(_), false) => {
                self.end_line(key_line);
                self.map(value, indent + 2, path);
            }
            (NodeValue::Seq(_), false) => {
                self.end_line(key_line);
                self.seq(value, indent + 2, path);
            }
            _ if value.span().is_empty() && !is_block_scalar(value) => self.end_line(key_line),
            _ => {
                self.out.push(' ');
                let last_line = self.inline(value, indent, indent);
                self.end_line(last_line);
            }
        }
    }

    fn seq(&mut self, node: &Node, indent: usize, path: &mut Vec<String>) {
        let Some(items) = node.as_seq() else { return };
        let pad = " ".repeat(indent);
        for (index, item) in items.iter().enumerate() {
            let dash = dash_of(self.text, item);
            self.leading_comments(dash, &pad);
            path.push(index.to_string());
            match (&item.value, item.flow) {
                (NodeValue::Map(_) | NodeValue::Seq(_), false) => {
                    // Emit the nested block at indent + 2, then put the dash on its first line.
                    let outer = std::mem::take(&mut self.out);
                    let dash_line = self.line_of(dash);
                    let before_content = self
                        .trailing
                        .get(&dash_line)
                        .is_some_and(|c| c.offset < item.span().start);
                    if let Some(comment) = before_content
                        .then(|| self.trailing.remove(&dash_line))
                        .flatten()
                    {
                        // A comment on the dash line before the content: keep it above the item.
                        self.out.push_str(&pad);
                        self.out.push_str(&comment.text);
                        self.out.push('\n');
                        self.emitted.insert(comment.offset);
                    }
                    if matches!(item.value, NodeValue::Map(_)) {
                        self.map(item, indent + 2, path);
                    } else {
                        self.seq(item, indent + 2, path);
                    }
                    let nested = std::mem::replace(&mut self.out, outer);
                    let inner_pad = " ".repeat(indent + 2);
                    let mut placed = false;
                    for line in nested.split_inclusive('\n') {
                        if !placed && line.trim_start().starts_with('#') {
                            // A comment of the item's first key goes above the dash, so it
                            // reads (and formats again) as the item's own comment.
                            self.out.push_str(&pad);
                            self.out.push_str(line.trim_start());
                        } else if !placed {
                            self.out.push_str(&pad);
                            self.out.push_str("- ");
                            self.out.push_str(
                                line.strip_prefix(&inner_pad).unwrap_or(line.trim_start()),
                            );
                            placed = true;
                        } else {
                            self.out.push_str(line);
                        }
                    }
                }
                _ => {
                    self.out.push_str(&pad);
                    self.out.push_str("- ");
                    let last_line = self.inline(item, indent, indent + 2);
                    self.end_line(last_line);
                }
            }
            path.pop();
        }
    }

    /// Writes a scalar, flow collection or block scalar that starts on the current line;
    /// returns the source line it ends on (for its trailing comment). `parent` is the indentation
    /// a block scalar's indentation indicator counts from (its key's, or its dash's).
    fn inline(&mut self, node: &Node, parent: usize, indent: usize) -> usize {
        let end_line = self.line_of(node.span().end.saturating_sub(1).max(node.span().start));
        if node.flow {
            let raw = &self.text[node.span().start..node.span().end];
            let line_start = self.out.rfind('\n').map_or(0, |i| i + 1);
            let now_at = self.out[line_start..].chars().count();
            let shift = reindent(raw, self.column(node.span().start), now_at, indent + 2);
            self.out.push_str(&shift);
            return end_line;
        }
        match node.style {
            Some(ScalarStyle::Literal | ScalarStyle::Folded) => {
                self.block_scalar(node, parent, indent + 2);
                usize::MAX
            }
            _ => {
                let value = match &node.value {
                    NodeValue::String(s) => Some(s.as_str()),
                    _ => None,
                };
                let text = self.scalar_text(&node.span(), node.style, value.unwrap_or_default());
                let text = if value.is_none() {
                    self.text[node.span().start..node.span().end].to_owned()
                } else {
                    text
                };
                self.out.push_str(&text);
                end_line
            }
        }
    }

    /// A scalar's text: plain when a plain scalar reads back the same string, else as written
    /// (or double-quoted, when it was written across lines).
    fn scalar_text(&self, span: &Span, style: Option<ScalarStyle>, value: &str) -> String {
        let raw = &self.text[span.start..span.end];
        let quoted = raw.starts_with('"') || raw.starts_with('\'');
        let _ = style;
        if quoted && plain_is_safe(value) {
            return value.to_owned();
        }
        if raw.contains('\n') {
            return if !quoted && plain_is_safe(value) {
                value.to_owned()
            } else {
                serde_json::to_string(value).unwrap_or_else(|_| raw.to_owned())
            };
        }
        raw.to_owned()
    }

    /// Writes a literal or folded block scalar: its header (an explicit indentation indicator
    /// rewritten for the new indentation), its trailing comment, and its lines moved to `pad`
    /// columns; the blank lines after its last line only when they are its value (`+`, keep).
    fn block_scalar(&mut self, node: &Node, parent: usize, pad: usize) {
        let (header_start, header) = self.block_header(node);
        let header_line = self.line_of(header_start);
        let explicit = header.chars().any(|c| c.is_ascii_digit());
        let keep = header.contains('+');
        let written: String = header
            .chars()
            .map(|c| {
                if c.is_ascii_digit() {
                    char::from(b'0' + (pad - parent).min(9) as u8)
                } else {
                    c
                }
            })
            .collect();
        self.out.push_str(&written);
        if let Some(comment) = self.trailing.remove(&header_line) {
            self.out.push(' ');
            self.out.push_str(&comment.text);
            self.emitted.insert(comment.offset);
        }
        let lines = self.block_lines(node, header_start);
        let value = match &node.value {
            NodeValue::String(value) => value.as_str(),
            _ => "",
        };
        let original = lines
            .iter()
            .find(|line| !line.trim().is_empty())
            .map_or(0, |line| content_indent(line, value, explicit));
        let last_content = lines.iter().rposition(|line| !line.trim().is_empty());
        let kept = match last_content {
            Some(last) if !keep => &lines[..=last],
            None if !keep => &lines[..0],
            _ => &lines[..],
        };
        let pad = " ".repeat(pad);
        for line in kept {
            self.out.push('\n');
            let content = line.get(original..).unwrap_or("");
            if !content.is_empty() {
                self.out.push_str(&pad);
                self.out.push_str(content);
            }
        }
    }

    /// The source lines of `node`, a block scalar whose header is at `header_start`: the lines
    /// after the header's through its last content line, then the blank lines after it (a keep
    /// scalar's value ends with them), up to the next text or the frontmatter's end; without
    /// their `\r`.
    fn block_lines(&self, node: &Node, header_start: usize) -> Vec<&'d str> {
        let region_end = self.document.sections().yaml.end;
        let Some(first) = self.text[header_start..region_end].find('\n') else {
            return Vec::new();
        };
        let start = header_start + first + 1;
        let content_end = if node.span().is_empty() {
            start
        } else {
            let last = node.span().end.saturating_sub(1).max(node.span().start);
            self.text[last..region_end]
                .find('\n')
                .map_or(region_end, |i| last + i + 1)
                .max(start)
        };
        let mut lines: Vec<&str> = self.text[start..content_end]
            .split_inclusive('\n')
            .collect();
        for line in self.text[content_end..region_end].split_inclusive('\n') {
            if !line.trim().is_empty() {
                break;
            }
            lines.push(line);
        }
        lines
            .into_iter()
            .map(|line| line.trim_end_matches('\n').trim_end_matches('\r'))
            .collect()
    }

    /// The `|`/`>` header of a block scalar (between the key's colon and the content), and where
    /// it starts.
    fn block_header(&self, node: &Node) -> (usize, String) {
        // An empty block scalar's span may be its header (`|` with no content after it).
        let start = if self.text[node.span().start..].starts_with(['|', '>']) {
            node.span().start
        } else {
            let header_end = self.text[..node.span().start].trim_end().len();
            let line_start = self.text[..header_end].rfind('\n').map_or(0, |i| i + 1);
            line_start
                + self.text[line_start..header_end]
                    .rfind(['|', '>'])
                    .unwrap_or(0)
        };
        let line_end = self.text[start..]
            .find('\n')
            .map_or(self.text.len(), |i| start + i);
        let header = &self.text[start..line_end];
        // Drop a trailing comment: it is emitted from the trailing-comment table.
        let header = header.split(" #").next().unwrap_or(header).trim_end();
        (start, header.to_owned())
    }

    fn column(&self, offset: usize) -> usize {
        let start = self.text[..offset].rfind('\n').map_or(0, |i| i + 1);
        self.text[start..offset].chars().count()
    }
}

fn is_block_scalar(node: &Node) -> bool {
    matches!(node.style, Some(ScalarStyle::Literal | ScalarStyle::Folded))
}

/// The indentation of a block scalar's content, read from its first non-blank `line`: that
/// line's indentation, or, with an explicit indentation indicator (the content may start with
/// spaces), the columns before the text the value starts with.
fn content_indent(line: &str, value: &str, explicit: bool) -> usize {
    let spaces = line.len() - line.trim_start_matches(' ').len();
    if !explicit {
        return spaces;
    }
    let text = value.trim_start_matches('\n');
    (0..=spaces)
        .find(|&i| text.starts_with(&line[i..]))
        .unwrap_or(spaces)
}

/// Moves a multi-line flow collection written at column `from` to column `to`: each
/// continuation line keeps its offset from the opening bracket (so formatting twice changes
/// nothing), but is indented at least `min` (deeper than the entry it belongs to).
fn reindent(raw: &str, from: usize, to: usize, min: usize) -> String {
    let mut lines = raw.split('\n').map(|line| line.trim_end_matches('\r'));
    let mut out = lines.next().unwrap_or_default().to_owned();
    for line in lines {
        out.push('\n');
        let current = line.len() - line.trim_start().len();
        let moved = (to + current).saturating_sub(from).max(min);
        out.push_str(&" ".repeat(moved));
        out.push_str(line.trim_start());
    }
    out
}
