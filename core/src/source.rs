//! Positions in a source text: byte offsets ↔ 1-based line and character column, and UTF-16
//! offsets for browser editors.

use serde::Serialize;

/// A half-open byte range `[start, end)` in the original file text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize)]
pub struct Span {
    /// Byte offset of the first byte.
    pub start: usize,
    /// Byte offset just past the last byte.
    pub end: usize,
}

impl Span {
    /// The bytes `start..end`.
    pub fn new(start: usize, end: usize) -> Self {
        Span { start, end }
    }

    /// An empty span at `at`: a position, such as where something is missing.
    pub fn empty(at: usize) -> Self {
        Span { start: at, end: at }
    }

    /// Length in bytes (0 for a reversed span).
    pub fn len(&self) -> usize {
        self.end.saturating_sub(self.start)
    }

    /// Whether the span covers no byte.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The smallest span covering both.
    pub fn cover(self, other: Span) -> Span {
        Span::new(self.start.min(other.start), self.end.max(other.end))
    }
}

/// A 1-based line and column; the column counts characters (Unicode scalar values).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct LineCol {
    /// 1-based line.
    pub line: u32,
    /// 1-based column, in characters.
    pub column: u32,
}

/// Line starts of a text, for turning byte offsets into line/column.
#[derive(Debug, Clone, PartialEq)]
pub struct LineIndex {
    line_starts: Vec<usize>,
    len: usize,
}

impl LineIndex {
    /// A byte-order mark is not part of the first line: editors do not count it as a column.
    pub fn new(text: &str) -> Self {
        let first = if text.starts_with('\u{feff}') { 3 } else { 0 };
        // Counted first (a loop that vectorises), so the table is allocated once at its size:
        // growing it was a reallocation or two per small document (issue #38), and the spare
        // capacity stayed in every kept document.
        let breaks = memchr::memchr_iter(b'\n', text.as_bytes()).count();
        let mut line_starts = Vec::with_capacity(breaks + 1);
        line_starts.push(first);
        line_starts.extend(memchr::memchr_iter(b'\n', text.as_bytes()).map(|i| i + 1));
        LineIndex {
            line_starts,
            len: text.len(),
        }
    }

    /// The index of the text after bytes `edit` were replaced by ones `delta` bytes longer, neither
    /// holding a line break: the lines after the edit start `delta` bytes later (what
    /// [`LineIndex::new`] of the new text gives, without scanning it).
    pub fn edited(&mut self, edit: Span, delta: isize) {
        let by = |at: usize| (at as isize + delta) as usize;
        let after = self
            .line_starts
            .partition_point(|&start| start <= edit.start);
        for start in &mut self.line_starts[after..] {
            *start = by(*start);
        }
        self.len = by(self.len);
    }

    /// Number of lines (a text ending in a line break has an empty last line).
    pub fn line_count(&self) -> usize {
        self.line_starts.len()
    }

    /// Where every line starts, in order (the first after a byte-order mark).
    pub(crate) fn line_starts(&self) -> &[usize] {
        &self.line_starts
    }

    /// Byte offset where the 0-based line `line` starts.
    pub fn line_start(&self, line: usize) -> Option<usize> {
        self.line_starts.get(line).copied()
    }

    /// 0-based line containing byte `offset`.
    pub fn line_of(&self, offset: usize) -> usize {
        match self.line_starts.binary_search(&offset) {
            Ok(line) => line,
            Err(next) => next.saturating_sub(1),
        }
    }

    /// 1-based line and character column of byte `offset` in `text` (the text this index was built from).
    pub fn line_col(&self, text: &str, offset: usize) -> LineCol {
        let offset = clamp_to_char_boundary(text, offset.min(self.len));
        let line = self.line_of(offset);
        let start = self.line_starts[line].min(offset);
        let column = text[start..offset].chars().count() + 1;
        LineCol {
            line: line as u32 + 1,
            column: column as u32,
        }
    }

    /// The text of 0-based line `line`, without its line break.
    pub fn line_text<'t>(&self, text: &'t str, line: usize) -> &'t str {
        let Some(start) = self.line_start(line) else {
            return "";
        };
        let end = self.line_start(line + 1).unwrap_or(text.len());
        text[start..end].trim_end_matches(['\n', '\r'])
    }
}

/// `text` with every lone `\r` (classic Mac line endings) read as the line break it is in YAML
/// (§5.4): replaced by `\n`, one byte for one, so every offset into the result is the same
/// offset into `text`. Borrowed when there is none.
pub fn lone_cr_as_lf(text: &str) -> std::borrow::Cow<'_, str> {
    let bytes = text.as_bytes();
    let lone = |i: usize| bytes.get(i + 1) != Some(&b'\n');
    if !memchr::memchr_iter(b'\r', bytes).any(lone) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = bytes.to_vec();
    for i in memchr::memchr_iter(b'\r', bytes).filter(|&i| lone(i)) {
        out[i] = b'\n';
    }
    // Only ASCII bytes were replaced by ASCII bytes: still UTF-8.
    std::borrow::Cow::Owned(String::from_utf8(out).unwrap_or_else(|_| text.to_owned()))
}

/// `text` (made from one whose lone `\r`s were read as `\n`) with its line breaks written as
/// `original` writes them: `\r` when `original` uses lone carriage returns.
pub fn restore_lone_cr(text: String, original: &str) -> String {
    // Only a text whose every line break is a lone `\r` is written back so (in one that mixes
    // them, a lone `\r` stays a line feed).
    if !original.contains('\r') || original.contains('\n') {
        return text;
    }
    text.replace('\n', "\r")
}

/// The largest char boundary at or before `offset`.
pub fn clamp_to_char_boundary(text: &str, mut offset: usize) -> usize {
    offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

/// UTF-16 code-unit offset of byte `offset` (what JavaScript string indices count).
pub fn utf16_offset(text: &str, offset: usize) -> usize {
    let offset = clamp_to_char_boundary(text, offset);
    text[..offset].chars().map(char::len_utf16).sum()
}

/// Maps character indices (what the YAML scanner counts) to byte offsets.
#[derive(Debug, Clone)]
pub(crate) struct CharToByte {
    /// Byte offset of every character, plus the text length; empty when the text is ASCII.
    offsets: Vec<usize>,
}

impl CharToByte {
    pub(crate) fn new(text: &str) -> Self {
        if text.is_ascii() {
            return CharToByte {
                offsets: Vec::new(),
            };
        }
        let mut offsets: Vec<usize> = text.char_indices().map(|(i, _)| i).collect();
        offsets.push(text.len());
        CharToByte { offsets }
    }

    pub(crate) fn byte(&self, char_index: usize) -> usize {
        if self.offsets.is_empty() {
            return char_index;
        }
        self.offsets
            .get(char_index)
            .copied()
            .unwrap_or_else(|| *self.offsets.last().unwrap_or(&0))
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn a_lone_carriage_return_is_a_line_feed_and_is_written_back() {
        assert!(matches!(
            lone_cr_as_lf("a\r\nb\n"),
            std::borrow::Cow::Borrowed(_)
        ));
        assert_eq!(lone_cr_as_lf("a\rb\r\nc\r"), "a\nb\r\nc\n");
        assert_eq!(restore_lone_cr("x\ny\n".to_owned(), "p\rq\r"), "x\ry\r");
        // A text that mixes line breaks keeps the line feeds it was given.
        assert_eq!(restore_lone_cr("x\ny\n".to_owned(), "p\rq\n"), "x\ny\n");
    }

    use super::*;

    proptest::proptest! {
        /// An index moved past an edit without line breaks is the index of the edited text.
        #[test]
        fn an_edited_index_equals_the_index_of_the_edited_text(
            text in "\u{feff}?[a\né]{0,30}",
            at in proptest::sample::select(vec![0usize, 1, 3, 5, 8, 13, 21, 40]),
            removed in 0usize..5,
            inserted in "[bü]{0,5}",
        ) {
            let mut start = at.min(text.len());
            while !text.is_char_boundary(start) {
                start -= 1;
            }
            let mut end = (start + removed).min(text.len());
            while !text.is_char_boundary(end) {
                end -= 1;
            }
            proptest::prop_assume!(!text[start..end].contains('\n'));
            proptest::prop_assume!(start >= 3 || !text.starts_with('\u{feff}'));
            let after = [&text[..start], &inserted, &text[end..]].concat();
            let mut index = LineIndex::new(&text);
            index.edited(Span::new(start, end), inserted.len() as isize - (end - start) as isize);
            proptest::prop_assert_eq!(index, LineIndex::new(&after));
        }
    }

    #[test]
    fn line_col_counts_characters_not_bytes() {
        let text = "a: 1\nné: é\n";
        let index = LineIndex::new(text);
        let offset = text.find(": é").unwrap() + 2;
        assert_eq!(index.line_col(text, offset), LineCol { line: 2, column: 5 });
        assert_eq!(index.line_col(text, 0), LineCol { line: 1, column: 1 });
    }

    #[test]
    fn byte_order_mark_is_not_a_column() {
        let text = "\u{feff}---\na\n";
        let index = LineIndex::new(text);
        assert_eq!(index.line_col(text, 3), LineCol { line: 1, column: 1 });
        assert_eq!(index.line_col(text, 0), LineCol { line: 1, column: 1 });
        assert_eq!(index.line_text(text, 0), "---");
    }

    #[test]
    fn line_text_strips_crlf() {
        let text = "a\r\nbb\r\n";
        let index = LineIndex::new(text);
        assert_eq!(index.line_text(text, 1), "bb");
        assert_eq!(index.line_text(text, 5), "");
    }

    #[test]
    fn utf16_offsets_count_surrogate_pairs() {
        let text = "a😀b";
        assert_eq!(utf16_offset(text, text.find('b').unwrap()), 3);
    }

    #[test]
    fn char_to_byte_handles_multibyte_text() {
        let text = "é😀x";
        let map = CharToByte::new(text);
        assert_eq!(map.byte(0), 0);
        assert_eq!(map.byte(1), 2);
        assert_eq!(map.byte(2), 6);
        assert_eq!(map.byte(3), 7);
        assert_eq!(map.byte(99), 7);
    }
}
