//! The next parse without parsing: when an edit stays inside one scalar value (typing in a
//! description, changing a number), the new document is this one with that value replaced and the
//! spans after it shifted. Parsing a large document costs milliseconds per keystroke; this costs a
//! copy. Whatever the shortcut cannot prove equal to a full parse (keys, structure, comments,
//! escapes, multi-line and block scalars, tags, anchors and aliases, flow collections, a parse that
//! reported problems) is left to [`Document::parse`]; property tests compare the two.

use std::sync::Arc;

use crate::limits::Limits;
use crate::source::{LineIndex, Span};
use crate::yaml::{resolve_plain, Node, NodeValue, ScalarStyle};

use super::Document;

/// Where `new` differs from `old`: the replaced byte range of `old` and the range of `new` that
/// replaces it (common prefix and suffix removed, on character boundaries).
fn changed_range(old: &str, new: &str) -> (Span, Span) {
    let (a, b) = (old.as_bytes(), new.as_bytes());
    let mut prefix = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    while !old.is_char_boundary(prefix) {
        prefix -= 1;
    }
    let room = a.len().min(b.len()) - prefix;
    let mut suffix = a
        .iter()
        .rev()
        .zip(b.iter().rev())
        .take(room)
        .take_while(|(x, y)| x == y)
        .count();
    while !old.is_char_boundary(a.len() - suffix) || !new.is_char_boundary(b.len() - suffix) {
        suffix -= 1;
    }
    (
        Span::new(prefix, a.len() - suffix),
        Span::new(prefix, b.len() - suffix),
    )
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
                    e.key_span.start <= range.end && range.start <= e.key_span.end
                };
                if entries.iter().any(touches_key) {
                    return None;
                }
                let at = entries.iter().position(|e| inside(e.value.span))?;
                let entry = &entries[at];
                if entries[..at].iter().any(|e| e.key == entry.key) {
                    return None;
                }
                path.push(entry.key.to_string());
                node = &entry.value;
            }
            NodeValue::Seq(items) => {
                let at = items.iter().position(|item| inside(item.span))?;
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

/// Moves every span after the edit by `delta` and stretches the ones around it. Refuses trees
/// with aliases (their copies share their anchor's spans).
fn shift(node: &mut Node, edit: Span, delta: isize) -> Option<()> {
    if node.from_alias {
        return None;
    }
    node.span = moved(node.span, edit, delta);
    match &mut node.value {
        NodeValue::Map(entries) => {
            for entry in entries {
                entry.key_span = moved(entry.key_span, edit, delta);
                shift(&mut entry.value, edit, delta)?;
            }
        }
        NodeValue::Seq(items) => {
            for item in items {
                shift(item, edit, delta)?;
            }
        }
        _ => {}
    }
    Some(())
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
/// derived from the old document (the graph) be patched instead of derived again.
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

impl Document {
    /// [`Document::reparse`], also telling which value changed.
    pub fn reparse_edit(&self, text: &str) -> Option<(Document, ScalarEdit)> {
        self.reparse_inner(text)
    }

    /// The document `text` parses to, derived from this one without parsing when `text` differs
    /// from this document's text only inside one single-line scalar value (and this parse found
    /// no problem); `None` when a full [`Document::parse`] is needed. The result equals what that
    /// parse gives, problems included (there are none).
    pub fn reparse(&self, text: &str) -> Option<Document> {
        self.reparse_inner(text).map(|(document, _)| document)
    }

    fn reparse_inner(&self, text: &str) -> Option<(Document, ScalarEdit)> {
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
        let inner = content(&self.text, scalar.span, style)?;
        let raw = &self.text[inner.start..inner.end];
        if raw.is_empty()
            || old.start < inner.start
            || old.end > inner.end
            || scalar_value(style, raw).as_ref() != Some(&scalar.value)
            || !in_block_position(&self.text, scalar.span)
        {
            return None;
        }
        let delta = new.end as isize - old.end as isize;
        let grown = |span: Span| Span::new(span.start, (span.end as isize + delta) as usize);
        let (span, inner) = (grown(scalar.span), grown(inner));
        let value = scalar_value(style, &text[inner.start..inner.end])?;
        let mut root = self.root.clone();
        shift(&mut root, old, delta)?;
        let mut node = &mut root;
        for token in &path {
            node = match &mut node.value {
                NodeValue::Map(entries) => &mut entries.iter_mut().find(|e| &e.key == token)?.value,
                NodeValue::Seq(items) => items.get_mut(token.parse::<usize>().ok()?)?,
                _ => return None,
            };
        }
        node.span = span;
        node.value = value;
        // A JSON view already made is patched at the one place; otherwise it stays to be made.
        let json = match self.json.get() {
            Some(json) => {
                let mut json = json.clone();
                let mut place = &mut json;
                for token in &path {
                    place = match place {
                        serde_json::Value::Object(map) => map.get_mut(token)?,
                        serde_json::Value::Array(items) => {
                            items.get_mut(token.parse::<usize>().ok()?)?
                        }
                        _ => return None,
                    };
                }
                *place = crate::json::to_json(node);
                std::sync::OnceLock::from(json)
            }
            None => std::sync::OnceLock::new(),
        };
        let mut sections = self.sections;
        sections.yaml = moved(sections.yaml, old, delta);
        sections.close = moved(sections.close, old, delta);
        sections.body = moved(sections.body, old, delta);
        let document = Document {
            text: Arc::from(text),
            index: LineIndex::new(text),
            sections,
            root,
            json,
            clean: true,
        };
        Some((
            document,
            ScalarEdit {
                path,
                range: old,
                delta,
            },
        ))
    }
}

#[cfg(test)]
mod tests;
