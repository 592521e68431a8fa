//! The next parse without parsing: when an edit stays inside one scalar value (typing in a
//! description, changing a number), the new document is this one with that value replaced and the
//! spans after it shifted. Parsing a large document costs milliseconds per keystroke; this costs a
//! copy. Whatever the shortcut cannot prove equal to a full parse (keys, structure, comments,
//! escapes, multi-line and block scalars, tags, anchors and aliases, flow collections, a parse that
//! reported problems) is left to [`Document::parse`]; property tests compare the two.

use std::sync::Arc;

use crate::limits::Limits;
use crate::source::Span;
use crate::yaml::{resolve_plain, Node, NodeValue, ScalarStyle};

use super::Document;

/// Where `new` differs from `old`: the replaced byte range of `old` and the range of `new` that
/// replaces it (common prefix and suffix removed, on character boundaries).
fn changed_range(old: &str, new: &str) -> (Span, Span) {
    let (a, b) = (old.as_bytes(), new.as_bytes());
    let mut prefix = common_len(a.iter(), b.iter(), a.chunks_exact(8), b.chunks_exact(8));
    while !old.is_char_boundary(prefix) {
        prefix -= 1;
    }
    let room = a.len().min(b.len()) - prefix;
    let (a_rest, b_rest) = (&a[a.len() - room..], &b[b.len() - room..]);
    let mut suffix = common_len(
        a_rest.iter().rev(),
        b_rest.iter().rev(),
        a_rest.rchunks_exact(8),
        b_rest.rchunks_exact(8),
    );
    while !old.is_char_boundary(a.len() - suffix) || !new.is_char_boundary(b.len() - suffix) {
        suffix -= 1;
    }
    (
        Span::new(prefix, a.len() - suffix),
        Span::new(prefix, b.len() - suffix),
    )
}

/// How many bytes two byte sequences share from their start (`bytes`, one at a time) given the
/// same sequences as eight-byte words (`words`): compared a word at a time, then a byte at a
/// time in the first word that differs. A keystroke compares the whole text before and after it;
/// one byte at a time that was most of the reparse on a large document.
fn common_len<'t>(
    a: impl Iterator<Item = &'t u8>,
    b: impl Iterator<Item = &'t u8>,
    a_words: impl Iterator<Item = &'t [u8]>,
    b_words: impl Iterator<Item = &'t [u8]>,
) -> usize {
    let word = |bytes: &[u8]| {
        let mut w = [0u8; 8];
        w.copy_from_slice(bytes);
        u64::from_ne_bytes(w)
    };
    let same_words = a_words
        .zip(b_words)
        .take_while(|(x, y)| word(x) == word(y))
        .count();
    let skip = same_words * 8;
    skip + a
        .skip(skip)
        .zip(b.skip(skip))
        .take_while(|(x, y)| x == y)
        .count()
}

/// The scalar value holding `range` and its JSON path; `None` when the range touches a key, is
/// not inside one value, or passes through a key that is not its mapping's first of that name.
fn scalar_at(root: &Node, range: Span) -> Option<(Vec<String>, &Node)> {
    let inside = |span: Span| span.start <= range.start && range.end <= span.end;
    let mut node = root;
    let mut path = Vec::new();
    loop {
        match &node.value {
            NodeValue::Map(entries) => {
                let touches_key = |e: &crate::yaml::Entry| {
                    e.key_span().start <= range.end && range.start <= e.key_span().end
                };
                if entries.iter().any(touches_key) {
                    return None;
                }
                let at = entries.iter().position(|e| inside(e.value.span()))?;
                let entry = &entries[at];
                if entries[..at].iter().any(|e| e.key == entry.key) {
                    return None;
                }
                path.push(entry.key.to_string());
                node = &entry.value;
            }
            NodeValue::Seq(items) => {
                let at = items.iter().position(|item| inside(item.span()))?;
                path.push(at.to_string());
                node = &items[at];
            }
            _ => return Some((path, node)),
        }
    }
}

/// A plain scalar that reads back as itself in block context: no indicator first, no `: ` or
/// ` #`, no flow or quote characters, no surrounding or special whitespace.
fn plain_is_safe(raw: &str) -> bool {
    let Some(first) = raw.chars().next() else {
        return false;
    };
    !"-?:,[]{}#&*!|>'\"%@`".contains(first)
        && raw.trim() == raw
        && !raw.ends_with(':')
        && !raw.contains(": ")
        && !raw.contains(" #")
        && !raw.contains(['\t', '\n', '\r', ',', '[', ']', '{', '}', '"', '\''])
        && !raw.chars().any(char::is_control)
        && !raw.starts_with("---")
        && !raw.starts_with("...")
}

/// YAML 1.2's printable characters (`c-printable`, §5.1) less the byte-order mark: anything
/// else inside a scalar is a parse matter (an error, or a BOM a parser treats specially).
fn printable(c: char) -> bool {
    matches!(c,
        '\t' | '\u{20}'..='\u{7e}' | '\u{85}' | '\u{a0}'..='\u{d7ff}' | '\u{e000}'..='\u{fefe}'
        | '\u{ff00}'..='\u{fffd}' | '\u{10000}'..='\u{10ffff}')
}

/// The value `raw` stands for in a scalar of `style`, when it reads back as that value alone.
fn scalar_value(style: ScalarStyle, raw: &str) -> Option<NodeValue> {
    if !raw.chars().all(printable) {
        return None;
    }
    match style {
        ScalarStyle::Plain if plain_is_safe(raw) => match resolve_plain(raw) {
            NodeValue::Float(f) if !f.is_finite() => None,
            value => Some(value),
        },
        ScalarStyle::SingleQuoted if !raw.contains('\'') => Some(NodeValue::String(raw.into())),
        ScalarStyle::DoubleQuoted if !raw.contains(['"', '\\']) => {
            Some(NodeValue::String(raw.into()))
        }
        _ => None,
    }
}

/// The quote character of a quoted style.
fn quote_of(style: ScalarStyle) -> Option<char> {
    match style {
        ScalarStyle::SingleQuoted => Some('\''),
        ScalarStyle::DoubleQuoted => Some('"'),
        _ => None,
    }
}

/// The text of a scalar whose `span` (quotes included) is in `text`: what is between its quotes,
/// or all of it when plain. `None` when the quotes are not where the style says.
fn content(text: &str, span: Span, style: ScalarStyle) -> Option<Span> {
    let raw = text.get(span.start..span.end)?;
    match quote_of(style) {
        Some(q) if raw.len() >= 2 && raw.starts_with(q) && raw.ends_with(q) => {
            Some(Span::new(span.start + 1, span.end - 1))
        }
        Some(_) => None,
        None => Some(span),
    }
}

/// The scalar is a block mapping value or sequence item written on its own: only spaces between
/// its `:` or `-` and its first character (no tag, no anchor, no flow sequence around it).
fn in_block_position(text: &str, span: Span) -> bool {
    let before = text[..span.start].trim_end_matches(' ');
    before.len() < span.start && (before.ends_with(':') || before.ends_with('-'))
}

/// Whether the tree holds a copy made by an alias: the shortcut refuses those (the copies share
/// their anchor's spans, so moving spans one by one would be wrong).
fn has_alias(node: &Node) -> bool {
    node.from_alias
        || match &node.value {
            NodeValue::Map(entries) => entries.iter().any(|e| has_alias(&e.value)),
            NodeValue::Seq(items) => items.iter().any(has_alias),
            _ => false,
        }
}

/// Moves every span after the edit by `delta` and stretches the ones around it, in place.
fn shift(node: &mut Node, edit: Span, delta: isize) {
    node.set_span(moved(node.span(), edit, delta));
    match &mut node.value {
        NodeValue::Map(entries) => {
            for entry in entries {
                entry.set_key_span(moved(entry.key_span(), edit, delta));
                shift(&mut entry.value, edit, delta);
            }
        }
        NodeValue::Seq(items) => {
            for item in items {
                shift(item, edit, delta);
            }
        }
        _ => {}
    }
}

/// The node at `path` (JSON path tokens, a mapping's first entry of a key).
fn node_at_mut<'n>(mut node: &'n mut Node, path: &[String]) -> Option<&'n mut Node> {
    for token in path {
        node = match &mut node.value {
            NodeValue::Map(entries) => &mut entries.iter_mut().find(|e| &e.key == token)?.value,
            NodeValue::Seq(items) => items.get_mut(token.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    Some(node)
}

/// The JSON value at `path`.
fn json_at_mut<'v>(
    mut place: &'v mut serde_json::Value,
    path: &[String],
) -> Option<&'v mut serde_json::Value> {
    for token in path {
        place = match place {
            serde_json::Value::Object(map) => map.get_mut(token)?,
            serde_json::Value::Array(items) => items.get_mut(token.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    Some(place)
}

/// Whether `path` leads to a value in `json`.
fn json_has(mut place: &serde_json::Value, path: &[String]) -> bool {
    for token in path {
        let next = match place {
            serde_json::Value::Object(map) => map.get(token),
            serde_json::Value::Array(items) => {
                token.parse::<usize>().ok().and_then(|i| items.get(i))
            }
            _ => None,
        };
        match next {
            Some(next) => place = next,
            None => return false,
        }
    }
    true
}

/// `span` after `edit` (a range of the old text) became `delta` bytes longer.
fn moved(span: Span, edit: Span, delta: isize) -> Span {
    let by = |at: usize| (at as isize + delta) as usize;
    if span.start >= edit.end {
        Span::new(by(span.start), by(span.end))
    } else if span.end >= edit.end {
        Span::new(span.start, by(span.end))
    } else {
        span
    }
}

/// What [`Document::reparse_edit`] changed: the one scalar value at `path` (JSON path tokens),
/// whose text in the old document covered `range`, now `delta` bytes longer. Lets what was
/// derived from the old document (the graph) be patched instead of derived again. Neither the
/// replaced text nor its replacement holds a line break: every line keeps its number.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScalarEdit {
    /// The JSON path of the changed value.
    pub path: Vec<String>,
    /// The replaced byte range of the old text.
    pub range: Span,
    /// How many bytes longer the text became (negative when shorter).
    pub delta: isize,
}

impl ScalarEdit {
    /// `span` (of the old text) as it is in the new text.
    pub fn moved(&self, span: Span) -> Span {
        moved(span, self.range, self.delta)
    }
}

/// What the shortcut will do to a document whose text becomes `text`: checked on the document
/// by reference, so that a refusal leaves a document handed over by value untouched.
struct Plan {
    path: Vec<String>,
    /// The replaced byte range of the old text.
    old: Span,
    delta: isize,
    /// The scalar's span in the new text.
    span: Span,
    value: NodeValue,
}

impl Document {
    /// [`Document::reparse`], also telling which value changed.
    pub fn reparse_edit(&self, text: &str) -> Option<(Document, ScalarEdit)> {
        let plan = self.plan(text)?;
        Some(self.copied().apply(plan, Arc::from(text)))
    }

    /// [`Document::reparse_edit`] of a document handed over by value: the tree and the JSON
    /// view are changed in place (the one value replaced, the spans after it moved) instead of
    /// copied, which is most of a keystroke's cost on a large document. `Err` gives the document
    /// back unchanged when a full [`Document::parse`] is needed.
    #[allow(
        clippy::result_large_err,
        reason = "the document given back is the one handed over; the Ok side is as large"
    )]
    pub fn reparse_edit_owned(self, text: &str) -> Result<(Document, ScalarEdit), Document> {
        match self.plan(text) {
            Some(plan) => Ok(self.apply(plan, Arc::from(text))),
            None => Err(self),
        }
    }

    /// [`Document::reparse_edit_owned`] of a text the caller already holds shared: the new
    /// document keeps that text instead of a copy of it (the language server holds every open
    /// file's text; a second copy in its document was one more text's size in memory).
    #[allow(
        clippy::result_large_err,
        reason = "the document given back is the one handed over; the Ok side is as large"
    )]
    pub fn reparse_shared_owned(self, text: &Arc<str>) -> Result<(Document, ScalarEdit), Document> {
        match self.plan(text) {
            Some(plan) => Ok(self.apply(plan, Arc::clone(text))),
            None => Err(self),
        }
    }

    /// The document `text` parses to, derived from this one without parsing when `text` differs
    /// from this document's text only inside one single-line scalar value (and this parse found
    /// no problem); `None` when a full [`Document::parse`] is needed. The result equals what that
    /// parse gives, problems included (there are none).
    pub fn reparse(&self, text: &str) -> Option<Document> {
        self.reparse_edit(text).map(|(document, _)| document)
    }

    /// [`Document::reparse`] keeping the caller's shared `text` rather than a copy of it.
    pub fn reparse_shared(&self, text: &Arc<str>) -> Option<Document> {
        let plan = self.plan(text)?;
        Some(self.copied().apply(plan, Arc::clone(text)).0)
    }

    /// A copy to derive the next parse from (the text shared, the tree copied).
    fn copied(&self) -> Document {
        Document {
            text: Arc::clone(&self.text),
            index: self.index.clone(),
            sections: self.sections,
            root: self.root.clone(),
            json: self.json.clone(),
            clean: self.clean,
            aliases: self.aliases.clone(),
        }
    }

    fn plan(&self, text: &str) -> Option<Plan> {
        if !self.clean || text.len() > Limits::DEFAULT.max_bytes {
            return None;
        }
        let (old, new) = changed_range(&self.text, text);
        let removed = &self.text[old.start..old.end];
        let inserted = &text[new.start..new.end];
        let yaml = self.sections.yaml;
        if removed.contains(['\n', '\r'])
            || inserted.contains(['\n', '\r'])
            || old.start < yaml.start
            || old.end >= yaml.end
        {
            return None;
        }
        let (path, scalar) = scalar_at(&self.root, old)?;
        let style = scalar.style?;
        let inner = content(&self.text, scalar.span(), style)?;
        let raw = &self.text[inner.start..inner.end];
        if raw.is_empty()
            || old.start < inner.start
            || old.end > inner.end
            || scalar_value(style, raw).as_ref() != Some(&scalar.value)
            || !in_block_position(&self.text, scalar.span())
        {
            return None;
        }
        let delta = new.end as isize - old.end as isize;
        let grown = |span: Span| Span::new(span.start, (span.end as isize + delta) as usize);
        let (span, inner) = (grown(scalar.span()), grown(inner));
        let value = scalar_value(style, &text[inner.start..inner.end])?;
        let json_ready = self.json.get().is_none_or(|json| json_has(json, &path));
        if !json_ready || *self.aliases.get_or_init(|| has_alias(&self.root)) {
            return None;
        }
        Some(Plan {
            path,
            old,
            delta,
            span,
            value,
        })
    }

    /// This document (its own copy or one handed over) made the parse of `text` by `plan`, which
    /// checked that the value's place exists in the tree and in the JSON view.
    fn apply(mut self, plan: Plan, text: Arc<str>) -> (Document, ScalarEdit) {
        let Plan {
            path,
            old,
            delta,
            span,
            value,
        } = plan;
        shift(&mut self.root, old, delta);
        if let Some(node) = node_at_mut(&mut self.root, &path) {
            node.set_span(span);
            node.value = value;
            // A JSON view already made is patched at the one place; otherwise it stays to be made.
            if let Some(place) = self.json.get_mut().and_then(|j| json_at_mut(j, &path)) {
                *place = crate::json::to_json(node);
            }
        }
        self.sections.yaml = moved(self.sections.yaml, old, delta);
        self.sections.close = moved(self.sections.close, old, delta);
        self.sections.body = moved(self.sections.body, old, delta);
        self.text = text;
        self.index.edited(old, delta);
        let edit = ScalarEdit {
            path,
            range: old,
            delta,
        };
        (self, edit)
    }
}

#[cfg(test)]
mod tests;
