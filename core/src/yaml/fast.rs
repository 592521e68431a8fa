//! A fast reader for the YAML that LOGIC.md files are written in: block mappings and sequences,
//! one-line plain and quoted scalars, literal block scalars and one-line flow collections.
//! It builds the same spanned tree the saphyr builder builds, or gives up (`None`) at anything
//! else and at anything wrong — then the builder reads the text, so every problem is still
//! found and worded in one place. Giving up is always safe; reading differently is not, which
//! `tests/pipeline_differential.rs` holds it to.

use std::sync::Arc;

use rustc_hash::FxHashSet;

use super::node::{Entry, Node, NodeValue, ScalarStyle};
use super::scalar::resolve_plain_with;
use super::text::Source;
use super::Text;
use crate::limits::Limits;
use crate::source::{LineIndex, Span};

/// The most lines the entries' stack is sized for at the start (72 KiB of entries).
const STACK_LINES: usize = 1024;

/// Why reading stopped: the text is outside the subset (or wrong); the builder reads it.
struct GiveUp;

type Read<T> = Result<T, GiveUp>;

/// One line of the YAML text: where it starts, where its content ends (before the break).
/// Offsets are `u32` (a file past 4 GiB is the builder's) to keep the line table small.
#[derive(Clone, Copy)]
struct RawLine {
    start: u32,
    end: u32,
    /// Leading spaces.
    indent: u32,
}

/// A line with its offsets widened for reading.
#[derive(Clone, Copy)]
struct Line {
    start: usize,
    end: usize,
    indent: usize,
}

impl From<RawLine> for Line {
    fn from(line: RawLine) -> Self {
        Line {
            start: line.start as usize,
            end: line.end as usize,
            indent: line.indent as usize,
        }
    }
}

impl Line {
    /// Whether only spaces, or a comment, are on it.
    fn is_empty(self, text: &[u8]) -> bool {
        let first = self.start + self.indent;
        first >= self.end || text[first] == b'#'
    }
}

struct Reader<'t> {
    /// The whole file, shared by the texts of scalars written in it as they read.
    source: Source,
    /// The whole file; offsets are the file's.
    text: &'t str,
    bytes: &'t [u8],
    lines: Vec<RawLine>,
    /// The next line to read.
    line: usize,
    limits: Limits,
    nodes: usize,
    depth: usize,
    /// The entries of the mappings being read, innermost last: a mapping takes its own off the
    /// top into a vector of exactly their number (no growing, no spare capacity in the tree).
    entries: Vec<Entry>,
    /// The same for the items of sequences.
    items: Vec<Node>,
}

/// The tree of the frontmatter `yaml` (a range of `file`), or `None` when the builder must read it.
pub(crate) fn read(
    source: &Arc<str>,
    index: &LineIndex,
    yaml: Span,
    limits: Limits,
) -> Option<Node> {
    let file: &str = source;
    let text = file.get(yaml.start..yaml.end)?;
    if u32::try_from(file.len()).is_err() || !plain_text(text) {
        return None;
    }
    let mut scratch = Scratch::take();
    let found = lines(&mut scratch.lines, file, index, yaml);
    if found.is_none() {
        scratch.put_back();
        return None;
    }
    // The entries' stack holds at most about one entry per line (a one-line flow mapping holds
    // more, and grows it): sized once, it is not grown and copied again and again for every
    // document (issue #38: 2.5% of a corpus pass). Up to `STACK_LINES` lines: a long
    // document's stack grows from there, and no allocation is made past what the allocator
    // serves from its heap. (The items' stack grows: most documents have few sequences, or
    // none.)
    let stack = scratch.lines.len().min(STACK_LINES);
    scratch.entries.reserve(stack);
    let mut reader = Reader {
        source: Source::new(source),
        text: file,
        bytes: file.as_bytes(),
        lines: scratch.lines,
        line: 0,
        limits,
        nodes: 0,
        depth: 0,
        entries: scratch.entries,
        items: scratch.items,
    };
    let root = reader.document().ok();
    Scratch {
        lines: reader.lines,
        entries: reader.entries,
        items: reader.items,
    }
    .put_back();
    root
}

/// The reader's working vectors (its line table and its two stacks), kept on the thread
/// between reads. *Why:* allocating and freeing them was three of a small document's dozen or
/// so allocations, the entries' stack a block of up to 72 KiB (issue #38, round two). Kept
/// empty, and only up to `STACK_LINES` lines and entries (at most 132 KiB a thread): a long
/// document's vectors are freed as before.
#[derive(Default)]
struct Scratch {
    lines: Vec<RawLine>,
    entries: Vec<Entry>,
    items: Vec<Node>,
}

thread_local! {
    static SCRATCH: std::cell::Cell<Option<Scratch>> = const { std::cell::Cell::new(None) };
}

impl Scratch {
    /// The thread's vectors, or new ones (the first read, or a read while the thread ends).
    fn take() -> Scratch {
        SCRATCH
            .try_with(std::cell::Cell::take)
            .ok()
            .flatten()
            .unwrap_or_default()
    }

    /// Empties the vectors (a read that gave up leaves entries behind) and keeps them for the
    /// thread's next read, unless a long document grew them.
    fn put_back(mut self) {
        self.lines.clear();
        self.entries.clear();
        self.items.clear();
        let small = self.lines.capacity() <= STACK_LINES
            && self.entries.capacity() <= STACK_LINES
            && self.items.capacity() <= STACK_LINES;
        if small {
            // Ignored while the thread ends: the vectors are then freed here.
            let _ = SCRATCH.try_with(|kept| kept.set(Some(self)));
        }
    }
}

/// Fills `lines` (empty) with the lines of the range `yaml` of `file` (whose line index is
/// `index`: the file's line breaks are found once, not again here); `None` at a document marker
/// or directive (the builder reports them).
fn lines(lines: &mut Vec<RawLine>, file: &str, index: &LineIndex, yaml: Span) -> Option<()> {
    let bytes = file.as_bytes();
    let starts = index.line_starts();
    let first = index.line_of(yaml.start);
    lines.reserve(starts.len().saturating_sub(first));
    for (line, &line_start) in starts.iter().enumerate().skip(first) {
        let from = line_start.max(yaml.start);
        if from >= yaml.end {
            break;
        }
        // The next line starts after this one's break.
        let end = starts
            .get(line + 1)
            .map_or(bytes.len(), |next| next - 1)
            .min(yaml.end);
        let content = bytes.get(from..end)?;
        // Most lines start with a space or a letter: the markers are compared on the others.
        let indent = match content.first() {
            Some(b' ') => leading_spaces(content),
            Some(b'-' | b'.' | b'%')
                if content.starts_with(b"---")
                    || content.starts_with(b"...")
                    || content.starts_with(b"%") =>
            {
                return None
            }
            _ => 0,
        };
        // Offsets fit: the file is under 4 GiB (checked by the caller).
        lines.push(RawLine {
            start: from as u32,
            end: end as u32,
            indent: indent as u32,
        });
    }
    Some(())
}

/// The number of spaces `line` starts with, eight bytes at a time: the bytes that differ from
/// a space are the set bits of the word XOR eight spaces, the first of them the lowest (read
/// little-endian). *Why:* a line's indentation is read once per line of every document, a
/// byte at a time it was a fifth of the line table's work (issue #38, round two).
fn leading_spaces(line: &[u8]) -> usize {
    const SPACES: u64 = u64::from_ne_bytes([b' '; 8]);
    let mut chunks = line.chunks_exact(8);
    let mut count = 0;
    for chunk in chunks.by_ref() {
        let mut word = [0; 8];
        word.copy_from_slice(chunk);
        let differ = u64::from_le_bytes(word) ^ SPACES;
        if differ != 0 {
            return count + differ.trailing_zeros() as usize / 8;
        }
        count += 8;
    }
    let rest = chunks.remainder();
    count + rest.iter().position(|&b| b != b' ').unwrap_or(rest.len())
}

/// No tab, carriage return, control character, byte-order mark or Unicode line break: the
/// places where YAML's rules get subtle are left to the builder.
fn plain_text(text: &str) -> bool {
    // In chunks without an early exit, so the check compiles to vector instructions.
    let control = |chunk: &[u8]| {
        chunk.iter().fold(false, |found, &b| {
            found | ((b < 0x20) & (b != b'\n')) | (b == 0x7f)
        })
    };
    if text.as_bytes().chunks(64).any(control) {
        return false;
    }
    !has_subtle_character(text.as_bytes())
}

/// Whether the UTF-8 `text` holds a C1 control (U+0080 to U+009F: `C2 80` to `C2 9F`), a
/// byte-order mark (U+FEFF: `EF BB BF`), U+FFFE or U+FFFF (`EF BF BE`, `EF BF BF`), or a
/// line or paragraph separator (U+2028, U+2029: `E2 80 A8`, `E2 80 A9`). Their first bytes
/// are searched for (in valid UTF-8 they only ever start a character): decoding every
/// character of a text with any non-ASCII letter in it was a third of the reader's own work
/// on the corpus (issue #38).
fn has_subtle_character(text: &[u8]) -> bool {
    memchr::memchr3_iter(0xc2, 0xe2, 0xef, text).any(|at| {
        matches!(
            (text[at], text.get(at + 1), text.get(at + 2)),
            (0xc2, Some(0x80..=0x9f), _)
                | (0xe2, Some(0x80), Some(0xa8 | 0xa9))
                | (0xef, Some(0xbb), Some(0xbf))
                | (0xef, Some(0xbf), Some(0xbe | 0xbf))
        )
    })
}

impl<'t> Reader<'t> {
    fn document(&mut self) -> Read<Node> {
        let first = self.next_content().ok_or(GiveUp)?;
        let line = self.line_at(first);
        let indent = line.indent;
        let at = line.start + indent;
        let root = if self.is_sequence_item(at) {
            self.block_sequence(indent, false)?
        } else {
            self.block_mapping(indent, at)?
        };
        // Anything left must be blank or comments.
        if self.next_content().is_some() {
            return Err(GiveUp);
        }
        Ok(root)
    }

    /// The next line with content, from the current one (which becomes it).
    fn next_content(&mut self) -> Option<usize> {
        while self.line < self.lines.len() {
            if !Line::from(self.lines[self.line]).is_empty(self.bytes) {
                return Some(self.line);
            }
            self.line += 1;
        }
        None
    }

    fn byte(&self, at: usize) -> Option<u8> {
        self.bytes.get(at).copied()
    }

    fn line_end(&self) -> usize {
        self.lines[self.line].end as usize
    }

    /// The 0-based line `line`.
    fn line_at(&self, line: usize) -> Line {
        self.lines[line].into()
    }

    /// `-` followed by a space or the end of the line.
    fn is_sequence_item(&self, at: usize) -> bool {
        self.byte(at) == Some(b'-') && matches!(self.byte(at + 1), Some(b' ' | b'\n') | None)
    }

    fn charge(&mut self) -> Read<()> {
        self.nodes += 1;
        if self.nodes > self.limits.max_nodes {
            return Err(GiveUp);
        }
        Ok(())
    }

    fn enter(&mut self) -> Read<()> {
        if self.depth >= self.limits.max_depth {
            return Err(GiveUp);
        }
        self.depth += 1;
        self.charge()
    }

    /// A block mapping whose keys sit at `indent`; the first key starts at `first` on the
    /// current line (mid-line after `- ` in a sequence).
    fn block_mapping(&mut self, indent: usize, first: usize) -> Read<Node> {
        self.enter()?;
        let mark = self.entries.len();
        let mut keys = Keys::default();
        let mut at = first;
        loop {
            let (key, key_span) = self.key(at)?;
            if !keys.insert(key, &self.entries[mark..], self.text) {
                return Err(GiveUp);
            }
            let value = self.mapping_value(indent, key_span.end + 1)?;
            self.entries
                .push(Entry::new(self.share(key_span.start, key), key_span, value));
            let Some(next) = self.next_content() else {
                break;
            };
            let line = self.line_at(next);
            if line.indent < indent {
                break;
            }
            at = line.start + line.indent;
            if line.indent > indent || self.is_sequence_item(at) {
                return Err(GiveUp);
            }
        }
        self.depth -= 1;
        let entries = take_top(&mut self.entries, mark);
        let start = entries.first().map_or(first, |e| e.key_span().start);
        let end = entries
            .last()
            .map_or(start, |e| e.value.span().end.max(e.key_span().end));
        Ok(collection(
            NodeValue::Map(entries),
            Span::new(start, end),
            false,
        ))
    }

    /// A plain key at `at` followed by `:` and a space or the end of the line.
    fn key(&self, at: usize) -> Read<(&'t str, Span)> {
        let end = self.line_end();
        // One pass to the first `:`; a comment or quote before it is the builder's (keys are
        // short: a loop beats a searcher's start-up plus a second pass). A flow indicator past
        // the key's first character is part of a block key (`pre_output[0].severity`), as the
        // builder reads it; at the first it is refused below.
        let rest = &self.bytes[at..end];
        let stop = rest
            .iter()
            .position(|&b| class(b) & (COLON | QUOTE_OR_COMMENT) != 0)
            .ok_or(GiveUp)?;
        if rest[stop] != b':' {
            return Err(GiveUp);
        }
        let colon = at + stop;
        let key = &self.text[at..colon];
        let after = colon + 1;
        if key.is_empty()
            || after != end && self.bytes[after] != b' '
            || key.ends_with(' ')
            || starts_with_indicator(key)
        {
            return Err(GiveUp);
        }
        Ok((key, Span::new(at, colon)))
    }

    /// The value after a mapping key's `:` at `after`, on this line or nested below it.
    fn mapping_value(&mut self, indent: usize, after: usize) -> Read<Node> {
        let at = self.skip_spaces(after);
        if at < self.line_end() && self.bytes[at] != b'#' {
            return self.inline_value(indent, at);
        }
        self.line += 1;
        let next = self.next_content().ok_or(GiveUp)?;
        let line = self.line_at(next);
        let start = line.start + line.indent;
        if line.indent > indent {
            if self.is_sequence_item(start) {
                self.block_sequence(line.indent, false)
            } else {
                self.block_mapping(line.indent, start)
            }
        } else if line.indent == indent && self.is_sequence_item(start) {
            self.block_sequence(indent, true)
        } else {
            // An empty value is null; its span is the builder's to say.
            Err(GiveUp)
        }
    }

    /// A value that starts at `at` on the current line, in a collection indented `indent`;
    /// moves to the next line.
    fn inline_value(&mut self, indent: usize, at: usize) -> Read<Node> {
        let node = match self.bytes[at] {
            b'|' => return self.literal(indent, at),
            b'[' | b'{' => {
                let (node, end) = self.flow(at)?;
                self.line_rest(end)?;
                node
            }
            b'"' | b'\'' => {
                let (node, end) = self.quoted(at)?;
                self.line_rest(end)?;
                node
            }
            _ => self.plain_block(at)?,
        };
        self.line += 1;
        self.no_continuation(indent)?;
        Ok(node)
    }

    /// After a one-line value: only spaces and a comment may follow on its line.
    fn line_rest(&self, end: usize) -> Read<()> {
        let at = self.skip_spaces(end);
        let line_end = self.line_end();
        if at == line_end || (at > end && self.bytes[at] == b'#') {
            Ok(())
        } else {
            Err(GiveUp)
        }
    }

    /// A line indented deeper than the collection would continue the value: left to the builder.
    fn no_continuation(&mut self, indent: usize) -> Read<()> {
        let mut line = self.line;
        while line < self.lines.len() {
            let next = self.line_at(line);
            if next.start + next.indent < next.end {
                return if next.indent > indent {
                    Err(GiveUp)
                } else {
                    Ok(())
                };
            }
            line += 1;
        }
        Ok(())
    }

    fn skip_spaces(&self, mut at: usize) -> usize {
        let end = self.line_end();
        while at < end && self.bytes[at] == b' ' {
            at += 1;
        }
        at
    }

    /// A plain scalar running to a comment or the end of the line.
    fn plain_block(&mut self, at: usize) -> Read<Node> {
        let rest = &self.bytes[at..self.line_end()];
        // One pass: the value ends at ` #`; a `: ` inside it would make it a mapping.
        let mut len = rest.len();
        let mut mapping = false;
        for i in memchr::memchr2_iter(b':', b'#', rest) {
            if rest[i] == b'#' {
                if i > 0 && rest[i - 1] == b' ' {
                    len = i - 1;
                    break;
                }
            } else if rest.get(i + 1) == Some(&b' ') {
                mapping = true;
                break;
            }
        }
        let text = self.text[at..at + len].trim_end_matches(' ');
        if mapping || text.is_empty() || starts_with_indicator(text) || text.ends_with(':') {
            return Err(GiveUp);
        }
        self.scalar(text, at)
    }

    #[inline(always)]
    fn scalar(&mut self, text: &str, at: usize) -> Read<Node> {
        self.charge()?;
        let value = resolve_plain_with(text, |text| self.share(at, text));
        if matches!(value, NodeValue::Float(f) if !f.is_finite()) {
            return Err(GiveUp);
        }
        Ok(scalar(
            value,
            Span::new(at, at + text.len()),
            ScalarStyle::Plain,
        ))
    }

    /// The text of a scalar written at `at` as it reads: one of the vocabulary's words, or
    /// else shared with the source.
    // Inlined (as `take_top` is): a call per key and scalar, its text returned through
    // memory, showed in the wall-clock profile (docs/perf.md, round seven).
    #[inline(always)]
    fn share(&self, at: usize, text: &str) -> Text {
        debug_assert_eq!(
            text.as_ptr(),
            self.bytes[at..].as_ptr(),
            "a slice of the source"
        );
        Text::word(text)
            .or_else(|| Text::within(&self.source, text))
            .unwrap_or_else(|| Text::from(text))
    }

    /// A block sequence whose `-` sit at `indent`; `indentless` when it sits at its mapping
    /// key's indentation (then it starts, as the builder has it, where its first item does).
    fn block_sequence(&mut self, indent: usize, indentless: bool) -> Read<Node> {
        self.enter()?;
        let first = self.line_at(self.line).start + indent;
        let mark = self.items.len();
        loop {
            let dash = self.line_at(self.line).start + indent;
            let at = self.skip_spaces(dash + 1);
            let item = if at >= self.line_end() || self.bytes[at] == b'#' || at == dash + 1 {
                // `-` alone on its line (or glued to its value): left to the builder.
                return Err(GiveUp);
            } else if self.is_sequence_item(at) {
                return Err(GiveUp);
            } else if self.starts_key(at) {
                let column = at - self.line_at(self.line).start;
                self.block_mapping(column, at)?
            } else {
                self.inline_value(indent, at)?
            };
            self.items.push(item);
            let Some(next) = self.next_content() else {
                break;
            };
            let line = self.line_at(next);
            let start = line.start + line.indent;
            if line.indent < indent || line.indent == indent && !self.is_sequence_item(start) {
                break;
            }
            if line.indent > indent {
                return Err(GiveUp);
            }
        }
        self.depth -= 1;
        let items = take_top(&mut self.items, mark);
        let end = items.last().map_or(first, |n: &Node| n.span().end);
        let start = match items.first() {
            Some(item) if indentless => item.span().start,
            _ => first,
        };
        Ok(collection(
            NodeValue::Seq(items),
            Span::new(start, end),
            false,
        ))
    }

    /// Whether a mapping key starts at `at`: a `:` followed by a space or the line's end comes
    /// before any quote or flow bracket.
    fn starts_key(&self, at: usize) -> bool {
        let rest = &self.text[at..self.line_end()];
        if starts_with_indicator(rest) || rest.starts_with(['"', '\'', '[', '{', '|', '>']) {
            return false;
        }
        let bytes = rest.as_bytes();
        bytes
            .iter()
            .enumerate()
            .any(|(i, &b)| b == b':' && matches!(bytes.get(i + 1), Some(b' ') | None))
    }

    /// A literal block scalar (`|`, `|-`) whose header is at `at`; its lines are indented
    /// deeper than `indent`.
    fn literal(&mut self, indent: usize, at: usize) -> Read<Node> {
        let mut header = at + 1;
        let strip = match self.byte(header) {
            Some(b'-') => {
                header += 1;
                true
            }
            _ => false,
        };
        self.line_rest(header)?;
        self.line += 1;
        let first = Line::from(*self.lines.get(self.line).ok_or(GiveUp)?);
        let content_indent = first.indent;
        if content_indent <= indent || first.start + first.indent >= first.end {
            return Err(GiveUp);
        }
        // The block's lines are found first, and the value's size with them: the value is then
        // written into a string of that size (grown line by line, it was reallocated a few
        // times per block: issue #38).
        let block = self.line;
        let mut size = 0;
        let mut blank = 0;
        while let Some(&line) = self.lines.get(self.line) {
            let line = Line::from(line);
            if line.start == line.end {
                blank += 1;
            } else if line.indent < content_indent {
                if line.start + line.indent >= line.end {
                    // A line of spaces only: its spaces are content or not by rules left to
                    // the builder.
                    return Err(GiveUp);
                }
                break;
            } else {
                if self.text[line.start..line.end].trim_end_matches(' ').len() <= content_indent {
                    return Err(GiveUp);
                }
                size += blank + (line.end - line.start - content_indent) + 1;
                blank = 0;
            }
            self.line += 1;
        }
        let mut value = String::with_capacity(size);
        let mut last_end = first.start + content_indent;
        blank = 0;
        for &line in &self.lines[block..self.line] {
            let line = Line::from(line);
            if line.start == line.end {
                blank += 1;
                continue;
            }
            value.extend(std::iter::repeat_n('\n', blank));
            blank = 0;
            value.push_str(&self.text[line.start + content_indent..line.end]);
            value.push('\n');
            last_end = line.start + self.text[line.start..line.end].trim_end_matches(' ').len();
        }
        if strip {
            value.pop();
        }
        self.charge()?;
        let span = Span::new(first.start + content_indent, last_end);
        Ok(scalar(
            NodeValue::String(value.into()),
            span,
            ScalarStyle::Literal,
        ))
    }

    /// A quoted scalar opening at `at`, closed on the same line; and where it ends.
    fn quoted(&mut self, at: usize) -> Read<(Node, usize)> {
        let quote = self.bytes[at];
        let end = self.line_end();
        // Only a text with escapes (or doubled quotes) is copied; the rest is shared.
        let mut value = String::new();
        let mut escaped = false;
        let mut i = at + 1;
        let mut run = i;
        loop {
            if i >= end {
                return Err(GiveUp);
            }
            let b = self.bytes[i];
            if b == quote {
                if quote == b'\'' && self.byte(i + 1) == Some(b'\'') {
                    value.push_str(&self.text[run..i]);
                    escaped = true;
                    value.push('\'');
                    i += 2;
                    run = i;
                    continue;
                }
                break;
            }
            if b == b'\\' && quote == b'"' {
                value.push_str(&self.text[run..i]);
                escaped = true;
                let unescaped = match self.byte(i + 1) {
                    Some(b'\\') => '\\',
                    Some(b'"') => '"',
                    Some(b'/') => '/',
                    Some(b'n') => '\n',
                    Some(b't') => '\t',
                    _ => return Err(GiveUp),
                };
                value.push(unescaped);
                i += 2;
                run = i;
                continue;
            }
            i += 1;
        }
        self.charge()?;
        let style = if quote == b'"' {
            ScalarStyle::DoubleQuoted
        } else {
            ScalarStyle::SingleQuoted
        };
        let span = Span::new(at, i + 1);
        let text = if escaped {
            value.push_str(&self.text[run..i]);
            Text::from(value)
        } else {
            self.share(at + 1, &self.text[at + 1..i])
        };
        Ok((scalar(NodeValue::String(text), span, style), i + 1))
    }

    /// A flow collection opening at `at`, closed on the same line; and where it ends.
    fn flow(&mut self, at: usize) -> Read<(Node, usize)> {
        self.enter()?;
        let map = self.bytes[at] == b'{';
        let close = if map { b'}' } else { b']' };
        let entries_mark = self.entries.len();
        let items_mark = self.items.len();
        let mut keys = Keys::default();
        let mut i = self.skip_spaces(at + 1);
        if self.byte(i) == Some(close) {
            i += 1;
        } else {
            loop {
                if map {
                    let (key, key_span) = self.flow_key(i)?;
                    if !keys.insert(key, &self.entries[entries_mark..], self.text) {
                        return Err(GiveUp);
                    }
                    let start = self.skip_spaces(key_span.end + 1);
                    if start == key_span.end + 1 {
                        return Err(GiveUp);
                    }
                    let (value, end) = self.flow_item(start)?;
                    self.entries
                        .push(Entry::new(self.share(key_span.start, key), key_span, value));
                    i = end;
                } else {
                    let (item, end) = self.flow_item(i)?;
                    self.items.push(item);
                    i = end;
                }
                i = self.skip_spaces(i);
                match self.byte(i) {
                    Some(b',') if i < self.line_end() => {
                        i = self.skip_spaces(i + 1);
                        if matches!(self.byte(i), Some(b']' | b'}')) || i >= self.line_end() {
                            return Err(GiveUp);
                        }
                    }
                    Some(b) if b == close && i < self.line_end() => {
                        i += 1;
                        break;
                    }
                    _ => return Err(GiveUp),
                }
            }
        }
        self.depth -= 1;
        let value = if map {
            NodeValue::Map(take_top(&mut self.entries, entries_mark))
        } else {
            NodeValue::Seq(take_top(&mut self.items, items_mark))
        };
        Ok((collection(value, Span::new(at, i), true), i))
    }

    /// A plain key in a flow mapping: up to `:` and a space.
    fn flow_key(&self, at: usize) -> Read<(&'t str, Span)> {
        let end = self.line_end();
        let mut i = at;
        while i < end && class(self.bytes[i]) & (FLOW_STOP | COLON) == 0 {
            i += 1;
        }
        let key = &self.text[at..i];
        if key.is_empty()
            || self.byte(i) != Some(b':')
            || self.byte(i + 1) != Some(b' ')
            || key.ends_with(' ')
            || starts_with_indicator(key)
        {
            return Err(GiveUp);
        }
        Ok((key, Span::new(at, i)))
    }

    /// A value inside a flow collection.
    #[inline(always)]
    fn flow_item(&mut self, at: usize) -> Read<(Node, usize)> {
        match self.byte(at) {
            Some(b'[' | b'{') => self.flow(at),
            Some(b'"' | b'\'') => self.quoted(at),
            _ => {
                let end = self.line_end();
                let mut i = at;
                while i < end && class(self.bytes[i]) & (FLOW_STOP | COLON) == 0 {
                    i += 1;
                }
                let text = self.text[at..i].trim_end_matches(' ');
                if text.is_empty()
                    || starts_with_indicator(text)
                    || matches!(self.byte(i), Some(b':' | b'#' | b'"' | b'\''))
                {
                    return Err(GiveUp);
                }
                let node = self.scalar(text, at)?;
                Ok((node, at + text.len()))
            }
        }
    }
}

/// The keys of one mapping so far, to find a repeated one (the builder reports it).
#[derive(Default)]
struct Keys<'t> {
    /// Built once a mapping reaches 32 keys; before that its entries are searched (keys of
    /// other lengths are passed over in a few instructions: building the set at 8 keys cost
    /// more on the corpus, issue #38 round two).
    set: Option<FxHashSet<&'t str>>,
}

impl<'t> Keys<'t> {
    /// Adds `key` to a mapping whose entries so far are `entries` (keys of `text`, each the text
    /// at its span); `false` when it was there already.
    fn insert(&mut self, key: &'t str, entries: &[Entry], text: &'t str) -> bool {
        if let Some(set) = &mut self.set {
            return set.insert(key);
        }
        if entries.iter().any(|entry| same_key(&entry.key, key)) {
            return false;
        }
        if entries.len() >= 32 {
            let mut set: FxHashSet<&'t str> = entries
                .iter()
                .map(|e| &text[e.key_span().start..e.key_span().end])
                .collect();
            set.insert(key);
            self.set = Some(set);
        }
        true
    }
}

/// Whether two keys are the same text, compared in line: keys are short and most pairs of
/// one length differ in their first bytes, where a call to `memcmp` per pair of equal length
/// cost more than the comparison (issue #38, round two).
#[inline]
fn same_key(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).all(|(x, y)| x == y)
}

/// A flow indicator (`,[]{}`), a comment's `#` or a quote: ends a plain key or flow scalar.
const FLOW_STOP: u8 = 1;
/// `:`.
const COLON: u8 = 2;
/// `#`, `"`, `'`: the stops of a block key besides `:`.
const QUOTE_OR_COMMENT: u8 = 4;

/// The classes of every byte, looked up instead of compared one by one in the scans of keys
/// and flow scalars.
static CLASSES: [u8; 256] = {
    let mut classes = [0; 256];
    let stops = b",[]{}#\"'";
    let mut i = 0;
    while i < stops.len() {
        classes[stops[i] as usize] = FLOW_STOP;
        i += 1;
    }
    classes[b':' as usize] = COLON;
    classes[b'#' as usize] |= QUOTE_OR_COMMENT;
    classes[b'"' as usize] |= QUOTE_OR_COMMENT;
    classes[b'\'' as usize] |= QUOTE_OR_COMMENT;
    classes
};

fn class(b: u8) -> u8 {
    CLASSES[b as usize]
}

/// The values of `stack` from `mark` on, moved off it into a vector of exactly their number.
/// Both ways move them with one `memcpy` (a `drain` collected moved them one by one), and
/// neither touches the stack's own buffer: `split_off` at 0 would hand that buffer (and its
/// spare capacity) to the tree, so the outermost collection takes its values by `append`.
#[inline(always)]
fn take_top<T>(stack: &mut Vec<T>, mark: usize) -> Vec<T> {
    if mark == 0 {
        let mut top = Vec::with_capacity(stack.len());
        top.append(stack);
        top
    } else {
        stack.split_off(mark)
    }
}

/// A character that gives a plain scalar's first position another meaning.
fn starts_with_indicator(text: &str) -> bool {
    matches!(
        text.as_bytes().first(),
        Some(
            b'-' | b'?'
                | b':'
                | b','
                | b'['
                | b']'
                | b'{'
                | b'}'
                | b'#'
                | b'&'
                | b'*'
                | b'!'
                | b'|'
                | b'>'
                | b'\''
                | b'"'
                | b'%'
                | b'@'
                | b'`'
                | b' '
        )
    ) && !is_negative_number(text)
}

/// `-1`, `-0.5`: a plain scalar may start with `-` when a non-space follows.
fn is_negative_number(text: &str) -> bool {
    text.len() > 1 && text.starts_with('-') && text.as_bytes()[1].is_ascii_digit()
}

fn scalar(value: NodeValue, span: Span, style: ScalarStyle) -> Node {
    Node::new(value, span, Some(style), false)
}

fn collection(value: NodeValue, span: Span, flow: bool) -> Node {
    Node::new(value, span, None, flow)
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::yaml::builder::build_from_events;

    /// The fast reader's tree for `yaml`, and the builder's (with its problems).
    fn both(yaml: &str) -> (Option<Node>, Option<Node>, usize) {
        let file = format!("---\n{yaml}---\n");
        let span = Span::new(4, 4 + yaml.len());
        let index = LineIndex::new(&file);
        let fast = read(&Arc::from(file.as_str()), &index, span, Limits::DEFAULT);
        let built = build_from_events(&Arc::from(file.as_str()), &index, span, Limits::DEFAULT);
        (fast, built.root, built.problems.len())
    }

    #[test]
    fn reads_the_shapes_logic_md_is_written_in() {
        let yaml = "spec_version: \"1.0\"\nname: x # note\nsteps:\n  a:\n    needs: [b, 'c''d', {k: -1.5}]\n    instructions: |\n      one\n\n        two  \n    list:\n    - p: 1\n      q: {}\n    - \"s\\n\"\n  b:\n    text: |-\n      kept\n";
        let (fast, built, problems) = both(yaml);
        assert_eq!(problems, 0);
        assert!(fast.is_some(), "the reader gave up");
        assert_eq!(fast, built);
    }

    #[test]
    fn a_repeated_key_goes_to_the_builder_in_a_mapping_of_any_size() {
        for size in [1, 2, 8, 9, 31, 32, 33, 100] {
            let keys: String = (0..size).map(|i| format!("k{i}: v\n")).collect();
            let (fast, built, problems) = both(&keys);
            assert_eq!(problems, 0);
            assert_eq!(fast, built, "{size} keys");
            for repeated in [0, size / 2, size - 1] {
                let (fast, _, problems) = both(&format!("{keys}k{repeated}: w\n"));
                assert!(fast.is_none(), "k{repeated} of {size} keys");
                assert_eq!(problems, 1, "k{repeated} of {size} keys");
            }
        }
    }

    #[test]
    fn gives_up_on_what_it_does_not_read() {
        for yaml in [
            "a: &x 1\nb: *x\n",
            "a: !!str 1\n",
            "a:\n",
            "a: >\n  folded\n",
            "a: b\n  continued\n",
            "a: 1\na: 2\n",
            "a: [1,\n  2]\n",
            "? a\n: b\n",
            "a: \"\\u00e9\"\n",
            "a:\tb\n",
            "a: .inf\n",
            "- a\n- b\n...\n",
            "a: 1\n...: 2\n",
            "a: 1\n---b: 2\n",
        ] {
            assert_eq!(both(yaml).0, None, "{yaml:?}");
        }
    }

    fn line() -> impl Strategy<Value = String> {
        let indent = prop_oneof![
            Just(""),
            Just("  "),
            Just("    "),
            Just("- "),
            Just("  - "),
            Just(" ")
        ];
        let key = prop_oneof![
            Just("a"),
            Just("b"),
            Just("needs"),
            Just("x y"),
            Just("k:"),
            Just("-k"),
            Just("\"q\""),
            Just("g[0].s"),
            Just("a,b"),
            Just("m{x}]"),
            Just("[a]"),
            Just("{b"),
            Just(",c"),
            Just("a #b"),
            Just("a#b")
        ];
        let value = prop_oneof![
            Just(""),
            Just(" 1"),
            Just(" -2.5"),
            Just(" text here"),
            Just(" a: b"),
            Just(" [a, b]"),
            Just(" {a: 1, b: [c]}"),
            Just(" [a, {b: c}, \"d\"]"),
            Just(" \"x\\\"y\""),
            Just(" 'it''s'"),
            Just(" |"),
            Just(" |-"),
            Just(" >"),
            Just(" # c"),
            Just(" [a,"),
            Just(" {a: }"),
            Just(" []"),
            Just(" x #y"),
            Just(" ~"),
            Just(" true"),
            Just(" é😀"),
            Just(" &a v"),
            Just(" *a"),
            Just(" \"unterminated"),
            Just(" [a b, c]"),
            Just(" {a: 1, a: 2}"),
            Just(" 0x1F"),
        ];
        prop_oneof![
            4 => (indent.clone(), key, value).prop_map(|(i, k, v)| format!("{i}{k}:{v}\n")),
            1 => indent.clone().prop_map(|i| format!("{i}text line\n")),
            1 => Just("\n".to_owned()),
            1 => Just("# comment\n".to_owned()),
            1 => indent.prop_map(|i| format!("{i}- item\n")),
        ]
    }

    proptest! {
        /// The spaces counted eight at a time are the spaces before the first other byte.
        #[test]
        fn leading_spaces_are_counted_as_one_by_one(
            spaces in 0..40usize,
            rest in "[ a\u{e9}#-]{0,12}",
        ) {
            let line = format!("{}{rest}", " ".repeat(spaces));
            let one_by_one = line.bytes().position(|b| b != b' ').unwrap_or(line.len());
            prop_assert_eq!(super::leading_spaces(line.as_bytes()), one_by_one);
        }

        /// The byte search finds the characters a decoding of every character finds: those
        /// characters, their neighbours, and characters that share their first bytes.
        #[test]
        fn the_subtle_characters_are_found_by_their_bytes(
            text in "[a\u{7f}\u{80}\u{9f}\u{a0}\u{bf}\u{feff}\u{fefe}\u{fffe}\u{ffff}\u{fffd}\u{ff00}\u{2028}\u{2029}\u{2027}\u{202a}\u{2014}\u{e8}\u{10000}]{0,12}",
        ) {
            let decoded = text.chars().any(|c| {
                matches!(
                    c,
                    '\u{80}'..='\u{9f}' | '\u{feff}' | '\u{fffe}' | '\u{ffff}' | '\u{2028}' | '\u{2029}'
                )
            });
            prop_assert_eq!(super::has_subtle_character(text.as_bytes()), decoded);
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]

        /// Whenever the reader reads, it reads what the builder builds, and the builder found no problem.
        #[test]
        fn reads_exactly_what_the_builder_builds(lines in prop::collection::vec(line(), 1..12)) {
            let yaml: String = lines.concat();
            let (fast, built, problems) = both(&yaml);
            if let Some(fast) = fast {
                prop_assert_eq!(problems, 0, "{:?}", yaml);
                prop_assert_eq!(Some(fast), built, "{:?}", yaml);
            }
        }
    }

    /// `work`'s result, done on a new thread: one whose reads start with no kept vectors.
    // The test starts threads to get fresh thread-local vectors; core itself never does.
    #[allow(clippy::disallowed_methods)]
    fn on_new_thread<T: Send + 'static>(work: impl FnOnce() -> T + Send + 'static) -> T {
        std::thread::spawn(work)
            .join()
            .expect("the reads do not panic")
    }

    /// The fast reader's tree for `yaml` on a new thread: read with vectors no read used before.
    fn read_fresh(yaml: String) -> Option<Node> {
        on_new_thread(move || both(&yaml).0)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        /// Reading with the thread's kept vectors ([`Scratch`]) reads what a first read does,
        /// after any reads before: ones that gave up with entries on the stacks, and long ones
        /// whose vectors are not kept.
        #[test]
        fn kept_vectors_read_what_new_ones_read(
            documents in prop::collection::vec(
                prop_oneof![
                    8 => prop::collection::vec(line(), 1..12).prop_map(|lines| lines.concat()),
                    1 => (1..3usize).prop_map(|n| {
                        (0..n * STACK_LINES).map(|i| format!("k{i}: [v]\n")).collect()
                    }),
                    1 => (1..3usize).prop_map(|n| "- k: v\n".repeat(n * STACK_LINES)),
                ],
                1..6,
            ),
        ) {
            let fresh: Vec<Option<Node>> = documents.iter().cloned().map(read_fresh).collect();
            let in_turn = on_new_thread(move || {
                documents.iter().map(|yaml| both(yaml).0).collect::<Vec<_>>()
            });
            prop_assert_eq!(in_turn, fresh);
        }
    }
}
