//! Places in the source pane: the caret as a byte offset of the document, a document range as
//! the textarea's UTF-16 offsets (it holds a window of the lines), a byte offset as line and
//! column for placing a popup, and a mouse point as a byte offset.

use leptos::prelude::*;
use logicmd::source::{LineIndex, Span};

use crate::source::pane::{SourcePane, PAD};
use crate::source::window::utf16_to_byte;
use crate::source::LINE_HEIGHT;

/// A place to draw at: 0-based document line and column in characters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Place {
    pub line: usize,
    pub column: usize,
}

impl Place {
    /// The place of byte `offset` of `text`.
    pub fn of(text: &str, index: &LineIndex, offset: usize) -> Place {
        let line = index.line_of(offset);
        let start = index.line_start(line).unwrap_or(0).min(offset);
        let column = text.get(start..offset).map_or(0, |s| s.chars().count());
        Place { line, column }
    }

    /// The style of an anchor for a box at most `widest` pixels wide at this place: under its
    /// line (`below`) or at its top, in the sizer's coordinates; as wide as the view leaves
    /// right of the place, or moved left to fit when that is too narrow.
    pub fn style(&self, pane: SourcePane, below: bool, widest: f64) -> String {
        let line = self.line + usize::from(below);
        let top = PAD + line as f64 * LINE_HEIGHT;
        let (view_left, view_width) = pane
            .scroller
            .get_untracked()
            .map_or((0.0, widest + 2.0 * PAD), |s| {
                (f64::from(s.scroll_left()), f64::from(s.client_width()))
            });
        let at = PAD + self.column as f64 * pane.ch();
        let room = view_left + view_width - PAD - at;
        let width = widest.min(view_width - 2.0 * PAD).max(0.0);
        let (left, width) = if room >= width.min(MIN_ROOM) {
            (at, room.min(widest))
        } else {
            (
                (view_left + view_width - PAD - width).max(view_left + PAD),
                width,
            )
        };
        format!("top: {top}px; left: {left}px; width: {width}px")
    }
}

/// The narrowest a box is drawn before it is moved left instead.
const MIN_ROOM: f64 = 320.0;

/// The document byte offset of the textarea's caret (the selection's end).
pub fn caret(pane: SourcePane, text: &str) -> Option<usize> {
    let area = pane.textarea.get_untracked()?;
    let units = area.selection_end().ok()?? as usize;
    let w = pane.window();
    Some(w.start + utf16_to_byte(w.text(text), units))
}

/// The textarea's UTF-16 offset of document byte `offset`, when it lies in its window.
pub fn in_window(pane: SourcePane, text: &str, offset: usize) -> Option<u32> {
    let w = pane.window();
    let relative = offset.checked_sub(w.start)?;
    let held = w.text(text);
    let before = held.get(..relative)?;
    Some(before.encode_utf16().count() as u32)
}

/// Selects document range `span` in the textarea when it lies in its window; whether it did.
pub fn select(pane: SourcePane, text: &str, span: Span) -> bool {
    let (Some(start), Some(end), Some(area)) = (
        in_window(pane, text, span.start),
        in_window(pane, text, span.end),
        pane.textarea.get_untracked(),
    ) else {
        return false;
    };
    let _ = area.focus();
    area.set_selection_range(start, end).is_ok()
}

/// The document byte offset under the point (`x`, `y`) of the viewport, given the width of
/// one character; `None` past a line's end or below the text.
pub fn at_point(
    pane: SourcePane,
    text: &str,
    index: &LineIndex,
    x: f64,
    y: f64,
    ch: f64,
) -> Option<usize> {
    let sizer = pane.sizer.get_untracked()?;
    let area = pane.textarea.get_untracked()?;
    let top = sizer.get_bounding_client_rect().top();
    let left = area.get_bounding_client_rect().left() - f64::from(area.scroll_left());
    let line = ((y - top - PAD) / LINE_HEIGHT).floor();
    let column = ((x - left) / ch).floor();
    if line < 0.0 || column < 0.0 || ch <= 0.0 {
        return None;
    }
    let (line, column) = (line as usize, column as usize);
    if line >= index.line_count() {
        return None;
    }
    let start = index.line_start(line)?;
    let line_text = index.line_text(text, line);
    let (at, _) = line_text.char_indices().nth(column)?;
    Some(start + at)
}
