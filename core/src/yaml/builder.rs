//! Builds the spanned tree from saphyr's event stream, iteratively and within [`Limits`].
//!
//! The builder keeps an explicit stack of open collections instead of recursing, so nesting depth
//! costs heap, not call stack, and the depth limit is checked before anything deep is built.
//! Aliases are expanded by copying the anchored node, charged against the node budget, so an
//! alias bomb stops at the budget instead of exhausting memory.

use std::collections::hash_map::Entry as Slot;
use std::collections::HashMap;
use std::sync::Arc;

use rustc_hash::FxHashMap;

use saphyr_parser::{Event, Parser, ScalarStyle as SaphyrStyle, Tag};

use super::node::{Entry, Node, NodeValue, ScalarStyle};
use super::scalar::{resolve_plain, resolve_plain_with};
use super::text::Source;
use super::Text;
use crate::diagnostic::Diagnostic;
use crate::limits::Limits;
use crate::source::{CharToByte, LineIndex, Span};

/// A problem found while building, before it is placed in the file.
#[derive(Debug, Clone)]
pub(crate) struct BuildProblem {
    pub code: &'static str,
    pub message: String,
    pub span: Span,
    pub help: Option<String>,
}

impl BuildProblem {
    fn new(code: &'static str, message: impl Into<String>, span: Span) -> Self {
        BuildProblem {
            code,
            message: message.into(),
            span,
            help: None,
        }
    }

    fn help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    pub(crate) fn into_diagnostic(self) -> Diagnostic {
        let mut diagnostic = Diagnostic::error(self.code, self.message);
        diagnostic.span = Some(self.span);
        diagnostic.help = self.help;
        diagnostic
    }
}

/// The outcome of building: the root (if the stream had one) and every problem met on the way.
/// A fatal problem (syntax, limits) ends the build with `root: None`.
#[derive(Debug, Default)]
pub(crate) struct Built {
    pub root: Option<Node>,
    pub problems: Vec<BuildProblem>,
}

enum Frame {
    Seq {
        items: Vec<Node>,
        start: usize,
        anchor: usize,
        size: usize,
    },
    Map {
        entries: Vec<Entry>,
        start: usize,
        anchor: usize,
        size: usize,
        pending_key: Option<(Text, Span)>,
        seen: FxHashMap<Text, Span>,
    },
}

struct Builder<'a> {
    /// The original file, to name places in messages.
    file: &'a str,
    /// The same file as the tree's texts share it: a scalar written as it reads is a range of
    /// it, not a copy.
    source: Source,
    index: &'a LineIndex,
    /// Byte offset of the YAML text in the original file.
    base: usize,
    chars: CharToByte,
    yaml: &'a str,
    limits: Limits,
    stack: Vec<Frame>,
    /// Anchored nodes by the parser's anchor id, with their node counts.
    anchors: HashMap<usize, (Node, usize)>,
    nodes: usize,
    root: Option<Node>,
    documents: usize,
    problems: Vec<BuildProblem>,
}

/// Builds the tree of the frontmatter, the `yaml` range of the original `file`.
pub(crate) fn build(file: &Arc<str>, index: &LineIndex, yaml: Span, limits: Limits) -> Built {
    // The common subset, read directly; anything else (and every problem) is read below.
    if let Some(root) = super::fast::read(file, index, yaml, limits) {
        return Built {
            root: Some(root),
            problems: Vec::new(),
        };
    }
    build_from_events(file, index, yaml, limits)
}

/// Builds the tree from saphyr's events: any YAML, every problem found and worded.
pub(crate) fn build_from_events(
    file: &Arc<str>,
    index: &LineIndex,
    yaml: Span,
    limits: Limits,
) -> Built {
    let base = yaml.start;
    let yaml = &file[yaml.start..yaml.end];
    let mut builder = Builder {
        file,
        source: Source::new(file),
        index,
        base,
        chars: CharToByte::new(yaml),
        yaml,
        limits,
        stack: Vec::new(),
        anchors: HashMap::new(),
        nodes: 0,
        root: None,
        documents: 0,
        problems: Vec::new(),
    };
    match builder.run() {
        Ok(()) => Built {
            root: builder.root,
            problems: builder.problems,
        },
        Err(fatal) => {
            builder.problems.push(fatal);
            Built {
                root: None,
                problems: builder.problems,
            }
        }
    }
}

impl Builder<'_> {
    fn run(&mut self) -> Result<(), BuildProblem> {
        for item in Parser::new_from_str(self.yaml) {
            let (event, span) = item.map_err(|error| {
                let at = Span::empty(self.offset(error.marker().index()));
                if error.info().contains("recursion limit") {
                    // The scanner has its own nesting bound for flow collections.
                    self.too_deep(at)
                } else if let Some((offset, c)) = forbidden_character(self.yaml) {
                    // The scanner reads some of these as the end of the text ("unexpected end
                    // of stream"): name the character and where it is instead.
                    let at = Span::new(self.base + offset, self.base + offset + c.len_utf8());
                    BuildProblem::new(
                        "yaml-syntax",
                        format!(
                            "invalid YAML: the control character U+{:04X} is not allowed in YAML text",
                            u32::from(c)
                        ),
                        at,
                    )
                    .help("inside a double-quoted string it is written as an escape (`\\0` for NUL, `\\x01`, `\\u0080`)")
                } else {
                    let problem =
                        BuildProblem::new("yaml-syntax", syntax_message(error.info()), at);
                    match self.open_flow_collection() {
                        Some(open) => problem.help(format!(
                            "the flow collection opened at {} is not closed before this point",
                            self.place(open)
                        )),
                        None => problem,
                    }
                }
            })?;
            let span = Span::new(
                self.offset(span.start.index()),
                self.offset(span.end.index()),
            );
            self.event(event, span)?;
        }
        Ok(())
    }

    /// The text of a scalar whose value is `value`, written at `span`: the vocabulary's word,
    /// else the file's own bytes when the value reads there as written (plain, or quoted
    /// without escapes), else a copy.
    fn text(&self, value: &str, span: Span) -> Text {
        if let Some(word) = Text::word(value) {
            return word;
        }
        let written = |start: usize| {
            self.file
                .get(start..start + value.len())
                .filter(|written| *written == value)
        };
        written(span.start)
            .or_else(|| written(span.start + 1))
            .and_then(|written| Text::within(&self.source, written))
            .unwrap_or_else(|| Text::from(value))
    }

    /// "line L, column C" of a byte offset in the original file.
    fn place(&self, offset: usize) -> String {
        let at = self.index.line_col(self.file, offset);
        format!("line {}, column {}", at.line, at.column)
    }

    /// Where the innermost open `[` or `{` starts, when the scanner stopped inside one.
    fn open_flow_collection(&self) -> Option<usize> {
        let start = match self.stack.last()? {
            Frame::Seq { start, .. } | Frame::Map { start, .. } => *start,
        };
        matches!(self.file.as_bytes().get(start), Some(b'[' | b'{')).then_some(start)
    }

    fn offset(&self, char_index: usize) -> usize {
        self.base + self.chars.byte(char_index)
    }

    fn event(&mut self, event: Event<'_>, span: Span) -> Result<(), BuildProblem> {
        match event {
            Event::DocumentStart(_) => {
                self.documents += 1;
                if self.documents > 1 {
                    return Err(BuildProblem::new(
                        "yaml-multiple-documents",
                        "the frontmatter holds more than one YAML document",
                        span,
                    )
                    .help("remove the `---` or `...` line inside the frontmatter"));
                }
            }
            Event::Scalar(text, style, anchor, tag) => {
                let node = self.scalar(&text, style, tag.as_deref(), span);
                if self.expecting_key() {
                    let key = self.text(&text, span);
                    self.key(key, span);
                } else {
                    self.charge(1, span)?;
                    self.complete(node, anchor, 1);
                }
            }
            Event::SequenceStart(anchor, tag) => self.open(false, anchor, tag.as_deref(), span)?,
            Event::MappingStart(anchor, tag) => self.open(true, anchor, tag.as_deref(), span)?,
            Event::SequenceEnd | Event::MappingEnd => self.close(span)?,
            Event::Alias(id) => self.alias(id, span)?,
            Event::Nothing | Event::StreamStart | Event::StreamEnd | Event::DocumentEnd => {}
        }
        Ok(())
    }

    fn too_deep(&self, span: Span) -> BuildProblem {
        BuildProblem::new(
            "yaml-too-deep",
            format!(
                "the frontmatter nests deeper than {} levels",
                self.limits.max_depth
            ),
            span,
        )
        .help("flatten the structure; LOGIC.md documents need only a few levels")
    }

    fn expecting_key(&self) -> bool {
        matches!(
            self.stack.last(),
            Some(Frame::Map {
                pending_key: None,
                ..
            })
        )
    }

    /// Counts `count` more nodes against the budget.
    fn charge(&mut self, count: usize, span: Span) -> Result<(), BuildProblem> {
        charge(&mut self.nodes, &self.limits, count, span, false)
    }

    fn scalar(&mut self, text: &str, style: SaphyrStyle, tag: Option<&Tag>, span: Span) -> Node {
        let style = match style {
            SaphyrStyle::Plain => ScalarStyle::Plain,
            SaphyrStyle::SingleQuoted => ScalarStyle::SingleQuoted,
            SaphyrStyle::DoubleQuoted => ScalarStyle::DoubleQuoted,
            SaphyrStyle::Literal => ScalarStyle::Literal,
            SaphyrStyle::Folded => ScalarStyle::Folded,
        };
        // Block scalars' spans run on over the trailing line breaks and the next line's
        // indentation; end them at their last character instead.
        // Quoted scalars' spans run on over the spaces and comment after the closing quote (a
        // comment there was lost by every edit and by `fmt`); end them at the closing quote.
        let raw = self.file.get(span.start..span.end).unwrap_or_default();
        let span = match style {
            ScalarStyle::Literal | ScalarStyle::Folded => {
                Span::new(span.start, span.start + raw.trim_end().len())
            }
            ScalarStyle::SingleQuoted | ScalarStyle::DoubleQuoted => {
                Span::new(span.start, span.start + quoted_len(raw, style))
            }
            ScalarStyle::Plain => span,
        };
        let value = match tag {
            Some(tag) => self.tagged_scalar(text, tag, span),
            None if style == ScalarStyle::Plain => resolve_plain_with(text, |t| self.text(t, span)),
            None => NodeValue::String(self.text(text, span)),
        };
        let value = match value {
            NodeValue::Float(f) if !f.is_finite() => {
                self.problems.push(
                    BuildProblem::new(
                        "yaml-non-finite-number",
                        format!("`{text}` is not a finite number, which JSON cannot represent"),
                        span,
                    )
                    .help("quote it to make it a string"),
                );
                NodeValue::String(text.into())
            }
            other => other,
        };
        Node::new(value, span, Some(style), false)
    }

    /// Resolves an explicitly tagged scalar: the core schema's tags and the non-specific `!`.
    fn tagged_scalar(&mut self, text: &str, tag: &Tag, span: Span) -> NodeValue {
        if tag.handle == "!" && tag.suffix.is_empty() {
            return NodeValue::String(text.into());
        }
        if !tag.is_yaml_core_schema() {
            self.unsupported_tag(tag, span);
            return NodeValue::String(text.into());
        }
        let resolved = resolve_plain(text);
        let fits = match (tag.suffix.as_str(), &resolved) {
            ("str", _) => return NodeValue::String(text.into()),
            ("null", NodeValue::Null)
            | ("bool", NodeValue::Bool(_))
            | ("int", NodeValue::Int(_))
            | ("float", NodeValue::Float(_)) => true,
            ("float", NodeValue::Int(i)) => return NodeValue::Float(*i as f64),
            ("null" | "bool" | "int" | "float", _) => false,
            _ => {
                self.unsupported_tag(tag, span);
                return NodeValue::String(text.into());
            }
        };
        if !fits {
            self.problems.push(BuildProblem::new(
                "yaml-tag-mismatch",
                format!("`{text}` is not a valid `!!{}` value", tag.suffix),
                span,
            ));
            return NodeValue::String(text.into());
        }
        resolved
    }

    fn unsupported_tag(&mut self, tag: &Tag, span: Span) {
        self.problems.push(
            BuildProblem::new(
                "yaml-unsupported-tag",
                format!("the tag `{tag}` is not supported; LOGIC.md frontmatter is plain YAML 1.2 core schema"),
                span,
            )
            .help("remove the tag, or quote the value to make it a string"),
        );
    }

    fn key(&mut self, key: Text, span: Span) {
        let first = match self.stack.last_mut() {
            Some(Frame::Map { seen, .. }) => match seen.entry(key.clone()) {
                Slot::Occupied(first) => Some(*first.get()),
                Slot::Vacant(place) => {
                    place.insert(span);
                    None
                }
            },
            _ => return,
        };
        if let Some(first) = first {
            let help = format!(
                "`{key}` is first defined at {}; a mapping's keys must be unique",
                self.place(first.start)
            );
            self.problems.push(
                BuildProblem::new(
                    "yaml-duplicate-key",
                    format!("duplicate key `{key}` in this mapping"),
                    span,
                )
                .help(help),
            );
        }
        if let Some(Frame::Map { pending_key, .. }) = self.stack.last_mut() {
            *pending_key = Some((key, span));
        }
    }

    fn open(
        &mut self,
        is_map: bool,
        anchor: usize,
        tag: Option<&Tag>,
        span: Span,
    ) -> Result<(), BuildProblem> {
        if self.expecting_key() {
            return Err(BuildProblem::new(
                "yaml-complex-key",
                "a mapping key must be a scalar, not a sequence or mapping",
                span,
            ));
        }
        if let Some(tag) = tag {
            let expected = if is_map { "map" } else { "seq" };
            if !(tag.is_yaml_core_schema() && tag.suffix == expected
                || tag.handle == "!" && tag.suffix.is_empty())
            {
                self.unsupported_tag(tag, span);
            }
        }
        if self.stack.len() >= self.limits.max_depth {
            return Err(self.too_deep(span));
        }
        self.charge(1, span)?;
        self.stack.push(if is_map {
            Frame::Map {
                entries: Vec::new(),
                start: span.start,
                anchor,
                size: 1,
                pending_key: None,
                seen: FxHashMap::default(),
            }
        } else {
            Frame::Seq {
                items: Vec::new(),
                start: span.start,
                anchor,
                size: 1,
            }
        });
        Ok(())
    }

    fn close(&mut self, span: Span) -> Result<(), BuildProblem> {
        let Some(frame) = self.stack.pop() else {
            return Ok(());
        };
        // Flow collections end at their bracket; block ones at their last child.
        let flow = !span.is_empty();
        let (value, start, anchor, size, last_end) = match frame {
            Frame::Seq {
                items,
                start,
                anchor,
                size,
            } => {
                let last = items.last().map(|n| n.span().end);
                (NodeValue::Seq(items), start, anchor, size, last)
            }
            Frame::Map {
                entries,
                start,
                anchor,
                size,
                ..
            } => {
                let last = entries
                    .last()
                    .map(|e| e.value.span().end.max(e.key_span().end));
                (NodeValue::Map(entries), start, anchor, size, last)
            }
        };
        // A flow collection's end event starts at its closing bracket; its span may run on
        // over trailing spaces and a comment.
        let end = if flow {
            span.start + 1
        } else {
            last_end.unwrap_or(start)
        };
        let node = Node::new(value, Span::new(start, end.max(start)), None, flow);
        self.complete(node, anchor, size);
        Ok(())
    }

    fn alias(&mut self, id: usize, span: Span) -> Result<(), BuildProblem> {
        let Some((anchored, size)) = self.anchors.get(&id) else {
            return Err(BuildProblem::new(
                "yaml-unknown-anchor",
                "this alias refers to an anchor that is not defined before it",
                span,
            ));
        };
        let size = *size;
        if self.expecting_key() {
            return match &anchored.value {
                NodeValue::String(key) => {
                    let key = key.clone();
                    self.key(key, span);
                    Ok(())
                }
                _ => Err(BuildProblem::new(
                    "yaml-complex-key",
                    "an alias used as a mapping key must refer to a string",
                    span,
                )),
            };
        }
        // Charged before it is copied: the alias that breaks the budget (in a bomb, the biggest
        // node of the document) is refused without a copy made only to be dropped. (The budget
        // is charged through its fields: `anchored` still borrows the anchors.)
        charge(&mut self.nodes, &self.limits, size, span, true)?;
        let mut node = anchored.clone();
        mark_alias(&mut node, span);
        self.complete(node, 0, size);
        Ok(())
    }

    /// Attaches a finished node to its parent, or makes it the root.
    fn complete(&mut self, node: Node, anchor: usize, size: usize) {
        if anchor != 0 {
            self.anchors.insert(anchor, (node.clone(), size));
        }
        match self.stack.last_mut() {
            None => self.root = Some(node),
            Some(Frame::Seq {
                items, size: total, ..
            }) => {
                *total += size;
                items.push(node);
            }
            Some(Frame::Map {
                entries,
                pending_key,
                size: total,
                ..
            }) => {
                *total += size;
                if let Some((key, key_span)) = pending_key.take() {
                    entries.push(Entry::new(key, key_span, node));
                }
            }
        }
    }
}

/// The length of the part of `raw` (a quoted scalar's event text: anchor and tag first, if
/// any) that runs through the closing quote; all of `raw` when the quotes are not found, which
/// the scanner would not have accepted.
fn quoted_len(raw: &str, style: ScalarStyle) -> usize {
    let quote = if style == ScalarStyle::SingleQuoted {
        '\''
    } else {
        '"'
    };
    // The opening quote is the first one at the start or after a space (anchors and tags
    // end at a space).
    let Some(open) = raw
        .char_indices()
        .find(|&(i, c)| c == quote && (i == 0 || raw[..i].ends_with([' ', '\t', '\n', '\r'])))
    else {
        return raw.len();
    };
    let mut chars = raw[open.0 + 1..].char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let at = open.0 + 1 + i;
        match c {
            '\\' if quote == '"' => {
                chars.next();
            }
            '\'' if quote == '\'' && chars.peek().map(|&(_, c)| c) == Some('\'') => {
                chars.next();
            }
            c if c == quote => return at + 1,
            _ => {}
        }
    }
    raw.len()
}

/// The first character YAML 1.2 does not allow in a stream (§5.1: C0 controls other than tab,
/// line feed and carriage return, DEL, C1 controls other than NEL, U+FFFE and U+FFFF), with its
/// byte offset.
fn forbidden_character(text: &str) -> Option<(usize, char)> {
    text.char_indices().find(|&(_, c)| {
        matches!(c, '\u{0}'..='\u{8}' | '\u{b}' | '\u{c}' | '\u{e}'..='\u{1f}' | '\u{7f}'
            | '\u{80}'..='\u{84}' | '\u{86}'..='\u{9f}' | '\u{fffe}' | '\u{ffff}')
    })
}

/// Counts `count` more nodes against `limits`' budget, `nodes` being those counted so far;
/// `alias`: they are an alias's copy (the help then says how aliases multiply a document).
fn charge(
    nodes: &mut usize,
    limits: &Limits,
    count: usize,
    span: Span,
    alias: bool,
) -> Result<(), BuildProblem> {
    *nodes = nodes.saturating_add(count);
    if *nodes > limits.max_nodes {
        let (what, help) = if alias {
            (
                "expands to",
                "aliases are expanded in place; an alias of an alias multiplies the document",
            )
        } else {
            (
                "has",
                "the bound keeps untrusted input cheap to read: split the document (imports, workflow nodes)",
            )
        };
        return Err(BuildProblem::new(
            "yaml-too-many-nodes",
            format!("the YAML {what} more than {} nodes", limits.max_nodes),
            span,
        )
        .help(help));
    }
    Ok(())
}

/// Marks a copied alias target: its nodes all sit at the alias in the file.
fn mark_alias(node: &mut Node, span: Span) {
    let mut pending = vec![node];
    while let Some(node) = pending.pop() {
        node.set_span(span);
        node.from_alias = true;
        match &mut node.value {
            NodeValue::Seq(items) => pending.extend(items.iter_mut()),
            NodeValue::Map(entries) => {
                for entry in entries.iter_mut() {
                    entry.set_key_span(span);
                    pending.push(&mut entry.value);
                }
            }
            _ => {}
        }
    }
}

/// Rephrases the scanner's terse messages where a user would not know what they mean.
fn syntax_message(info: &str) -> String {
    let hint = match info {
        i if i.contains("mapping values are not allowed") => {
            " (a `:` followed by a space starts a mapping here; quote the value if it is text)"
        }
        i if i.contains("did not find expected key") => " (check the indentation of this line)",
        i if i.contains("unknown anchor") => {
            " (an alias `*name` must come after the anchor `&name` it refers to)"
        }
        i if i.contains("found character that cannot start any token") => {
            " (tabs cannot indent YAML; `@` and `` ` `` cannot start a plain value; quote it)"
        }
        _ => "",
    };
    format!("invalid YAML: {info}{hint}")
}
