//! The lines of the document the source textarea holds: a window of whole lines around the view,
//! so that the browser edits and lays out a few hundred lines, not the whole text. Pure arithmetic:
//! which lines, their byte and UTF-16 offsets, and putting the document back together.

use logicmd::source::{utf16_offset, LineIndex};

/// A document of at most this many lines is held whole (every example and test document).
pub const WHOLE_LINES: usize = 2_000;
/// Lines kept above and below the visible ones: one and a half pages of a tall pane, so
/// scrolling re-windows about every page. Every key typed costs the browser an edit and a layout
/// of the whole window (issue #38: ~4.6 ms a key with 400 lines each side; with 120, a key's
/// edit, layout and paint took ~1 ms more than with 60), so the margin is kept small.
pub const MARGIN: usize = 60;
/// Window edges fall on multiples of this, so nearby views want the same window.
pub const CHUNK: usize = 20;
/// The view re-windows when it comes this close (in lines, half a page of a tall pane) to an
/// edge of the window that is not the document's.
pub const NEAR: usize = 20;

/// Lines `[first, last)` of the document held in the textarea. Its text is `text[start..end]`:
/// the lines without the line break after the last one (that break belongs to the suffix), so the
/// textarea shows exactly `last - first` lines. `start_utf16` is `start` in UTF-16 code units,
/// what the textarea's selection counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Window {
    pub first: usize,
    pub last: usize,
    pub start: usize,
    pub end: usize,
    pub start_utf16: usize,
}

impl Window {
    /// The window of lines `[first, last)` (clamped to the document) of `text`.
    pub fn of(text: &str, index: &LineIndex, first: usize, last: usize) -> Window {
        let (first, last, start, end) = bounds(text, index, first, last);
        Window {
            first,
            last,
            start,
            end,
            start_utf16: utf16_offset(text, start),
        }
    }

    /// Whether this window is still lines `[first, last)` of `text` at the same offsets (it is
    /// not after a change made elsewhere moved or broke its lines).
    pub fn fits(&self, text: &str, index: &LineIndex) -> bool {
        bounds(text, index, self.first, self.last) == (self.first, self.last, self.start, self.end)
    }

    /// The window's text.
    pub fn text<'t>(&self, text: &'t str) -> &'t str {
        text.get(self.start..self.end).unwrap_or("")
    }

    /// The document once the window's text became `value`: prefix + value + suffix.
    pub fn splice(&self, text: &str, value: &str) -> String {
        let (prefix, suffix) = (&text[..self.start], &text[self.end..]);
        let mut out = String::with_capacity(prefix.len() + value.len() + suffix.len());
        out.push_str(prefix);
        out.push_str(value);
        out.push_str(suffix);
        out
    }

    /// The window once its text became `value` (typing): same first line and prefix.
    pub fn typed(self, value: &str) -> Window {
        let breaks = value.bytes().filter(|&b| b == b'\n').count();
        Window {
            last: self.first + breaks + 1,
            end: self.start + value.len(),
            ..self
        }
    }

    pub fn lines(&self) -> usize {
        self.last - self.first
    }
}

/// Lines `[first, last)` clamped to the document (never empty) and their byte range.
fn bounds(
    text: &str,
    index: &LineIndex,
    first: usize,
    last: usize,
) -> (usize, usize, usize, usize) {
    let total = index.line_count();
    let first = first.min(total - 1);
    let last = last.clamp(first + 1, total);
    // A byte-order mark stays in the first line's text (the index starts that line after it).
    let start = if first == 0 {
        0
    } else {
        index.line_start(first).unwrap_or(text.len())
    };
    let end = index
        .line_start(last)
        .map_or(text.len(), |next| next.saturating_sub(1).max(start));
    (first, last, start, end)
}

/// The window wanted for visible lines `[visible.0, visible.1)` of `total`, which must also hold
/// lines `keep` (inclusive: the selection's) when there is one.
pub fn wanted(
    visible: (usize, usize),
    keep: Option<(usize, usize)>,
    total: usize,
) -> (usize, usize) {
    if total <= WHOLE_LINES {
        return (0, total);
    }
    let mut first = visible.0.saturating_sub(MARGIN) / CHUNK * CHUNK;
    let mut last = (visible.1 + MARGIN).div_ceil(CHUNK) * CHUNK;
    if let Some((a, b)) = keep {
        first = first.min(a);
        last = last.max(b + 1);
    }
    (
        first.min(total - 1),
        last.min(total).max(first.min(total - 1) + 1),
    )
}

/// The lines the window should move to, if it should: when the view is near one of its edges
/// (that is not the document's), or when it is much larger than needed (after a paste, or a
/// select-all that ended) — never smaller than the selection `keep`.
pub fn rewindow(
    window: (usize, usize),
    visible: (usize, usize),
    keep: Option<(usize, usize)>,
    total: usize,
) -> Option<(usize, usize)> {
    let want = wanted(visible, keep, total);
    let near_top = window.0 > 0 && visible.0 < window.0 + NEAR;
    let near_bottom = window.1 < total && visible.1 + NEAR > window.1;
    let oversized = window.1 - window.0 > 2 * (want.1 - want.0);
    let short =
        window.0 > want.0.min(visible.0) || window.1 < want.1.min(total).max(visible.1.min(total));
    let needed = near_top || near_bottom || oversized || (total <= WHOLE_LINES && short);
    (needed && want != window).then_some(want)
}

/// The byte offset in `text` of UTF-16 offset `units` (clamped to the text).
pub fn utf16_to_byte(text: &str, units: usize) -> usize {
    let mut counted = 0;
    for (at, c) in text.char_indices() {
        if counted >= units {
            return at;
        }
        counted += c.len_utf16();
    }
    text.len()
}

/// The 0-based line (of the window's text) of UTF-16 offset `units` in it.
pub fn line_of_utf16(text: &str, units: usize) -> usize {
    let at = utf16_to_byte(text, units);
    text.as_bytes()[..at]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn numbered(lines: usize) -> String {
        (0..lines).map(|i| format!("line {i}\n")).collect()
    }

    #[test]
    fn a_window_is_whole_lines_without_the_last_line_break() {
        let text = "a\nbé\nc\nd";
        let index = LineIndex::new(text);
        let w = Window::of(text, &index, 1, 3);
        assert_eq!(w.text(text), "bé\nc");
        assert_eq!((w.start, w.end, w.start_utf16), (2, 7, 2));
        assert_eq!(w.splice(text, "X"), "a\nX\nd");
        let all = Window::of(text, &index, 0, 99);
        assert_eq!((all.first, all.last, all.text(text)), (0, 4, text));
        let after_e = Window::of(text, &index, 2, 4);
        assert_eq!(after_e.start_utf16, 5, "é is one UTF-16 unit and two bytes");
    }

    #[test]
    fn typing_moves_the_windows_end_and_line_count_only() {
        let text = numbered(10);
        let index = LineIndex::new(&text);
        let w = Window::of(&text, &index, 2, 4);
        let value = "line 2\nnew\nline 3";
        let typed = w.typed(value);
        assert_eq!((typed.first, typed.last, typed.start), (2, 5, w.start));
        let document = w.splice(&text, value);
        assert!(typed.fits(&document, &LineIndex::new(&document)));
        assert_eq!(typed.text(&document), value);
    }

    #[test]
    fn a_change_before_the_window_unfits_it() {
        let text = numbered(10);
        let w = Window::of(&text, &LineIndex::new(&text), 5, 8);
        let changed = format!("x{text}");
        assert!(!w.fits(&changed, &LineIndex::new(&changed)));
        let joined = text.replacen('\n', " ", 1);
        assert!(
            !w.fits(&joined, &LineIndex::new(&joined)),
            "same length, one line fewer before it"
        );
    }

    #[test]
    fn small_documents_are_held_whole_and_large_ones_snap_to_chunks() {
        assert_eq!(wanted((500, 540), None, 1_500), (0, 1_500));
        assert_eq!(wanted((7_010, 7_050), None, 15_001), (6_940, 7_120));
        assert_eq!(wanted((0, 40), None, 15_001), (0, 100));
        assert_eq!(wanted((14_990, 15_001), None, 15_001), (14_920, 15_001));
        assert_eq!(
            wanted((7_010, 7_050), Some((100, 7_020)), 15_001),
            (100, 7_120)
        );
    }

    #[test]
    fn the_view_re_windows_only_near_an_edge_or_when_the_window_is_oversized() {
        let total = 15_001;
        assert_eq!(rewindow((6_940, 7_120), (7_010, 7_050), None, total), None);
        assert_eq!(rewindow((6_940, 7_120), (7_060, 7_100), None, total), None);
        assert_eq!(
            rewindow((6_940, 7_120), (7_070, 7_110), None, total),
            Some((7_000, 7_180))
        );
        assert_eq!(rewindow((6_940, 7_120), (6_960, 7_000), None, total), None);
        assert_eq!(
            rewindow((6_940, 7_120), (6_950, 6_990), None, total),
            Some((6_880, 7_060))
        );
        assert_eq!(
            rewindow((0, 100), (0, 40), None, total),
            None,
            "the document's edge is no edge"
        );
        assert_eq!(
            rewindow((0, total), (0, 40), None, total),
            Some((0, 100)),
            "select-all ended"
        );
        assert_eq!(
            rewindow((0, total), (0, 40), Some((0, 15_000)), total),
            None,
            "select-all holds"
        );
        assert_eq!(
            rewindow((0, 10), (0, 40), None, 1_500),
            Some((0, 1_500)),
            "a small document is whole"
        );
        assert_eq!(rewindow((0, 1_500), (0, 40), None, 1_500), None);
    }

    #[test]
    fn utf16_offsets_map_to_bytes_and_lines() {
        let text = "é\n😀b\nc";
        assert_eq!(utf16_to_byte(text, 0), 0);
        assert_eq!(utf16_to_byte(text, 1), 2);
        assert_eq!(
            utf16_to_byte(text, 4),
            7,
            "after 😀, two units and four bytes"
        );
        assert_eq!(utf16_to_byte(text, 99), text.len());
        assert_eq!(line_of_utf16(text, 1), 0);
        assert_eq!(line_of_utf16(text, 2), 1);
        assert_eq!(line_of_utf16(text, 6), 2);
    }

    proptest! {
        #[test]
        fn prefix_window_and_suffix_are_the_document(
            text in "(\u{feff})?([aé😀 :\r]{0,6}\n){0,12}[aé😀]{0,4}",
            first in 0usize..20,
            lines in 0usize..20,
        ) {
            let index = LineIndex::new(&text);
            let w = Window::of(&text, &index, first, first + lines);
            prop_assert!(w.first < w.last && w.last <= index.line_count());
            prop_assert_eq!(w.splice(&text, w.text(&text)), text.clone());
            prop_assert_eq!(w.text(&text).matches('\n').count() + 1, w.lines());
            prop_assert_eq!(w.start_utf16, text[..w.start].encode_utf16().count());
            prop_assert!(w.fits(&text, &index));
            prop_assert_eq!(w.typed(w.text(&text)), w);
        }
    }
}
