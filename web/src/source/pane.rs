//! The source textarea's window kept in step with the view, the text and the selection: it holds
//! the lines around the view (see `window`), sits at their place in a sizer as tall as the whole
//! text, and the element around it scrolls, so scroll positions mean document lines as before.

use leptos::html;
use leptos::prelude::*;
use logicmd::source::LineIndex;

use super::ide::PaneIde;
use super::window::{self, Window};
use super::LINE_HEIGHT;

/// The sizer's padding above the first line (the stylesheet's `.sizer` padding).
pub(crate) const PAD: f64 = 8.0;

/// The source pane's textarea, the element that scrolls it, and which lines it holds; shared by
/// the pane and whoever reveals a line in it (the problems list).
#[derive(Clone, Copy)]
pub struct SourcePane {
    pub textarea: NodeRef<html::Textarea>,
    pub scroller: NodeRef<html::Div>,
    pub sizer: NodeRef<html::Div>,
    /// Ten characters of the code's font, hidden: one character's width is a tenth of it.
    pub ch_probe: NodeRef<html::Span>,
    /// Completion, hover, quick fixes, definitions and rename over the text.
    pub assist: PaneIde,
    window: StoredValue<Window>,
    total: StoredValue<usize>,
    /// The scroller's position and height as last seen: read without forcing a layout.
    top: StoredValue<f64>,
    height: StoredValue<f64>,
    /// An IME composition or a mouse drag is under way: the window must not move under it.
    composing: StoredValue<bool>,
    dragging: StoredValue<bool>,
    /// The caret or selection (document units) when the view moved away from it and the window
    /// with it: the next key brings it back, as a native textarea scrolls back to its caret.
    parked: StoredValue<Option<Selection>>,
    /// The styles last set, so that an unchanged one is not set again.
    placed: StoredValue<(String, String)>,
}

/// A selection in UTF-16 units of the whole document.
#[derive(Clone, Copy, Debug)]
struct Selection {
    start: usize,
    end: usize,
    backward: bool,
}

impl Default for SourcePane {
    fn default() -> Self {
        Self::new()
    }
}

impl SourcePane {
    pub fn new() -> Self {
        SourcePane {
            textarea: NodeRef::new(),
            scroller: NodeRef::new(),
            sizer: NodeRef::new(),
            ch_probe: NodeRef::new(),
            assist: PaneIde::new(),
            window: StoredValue::new(Window::default()),
            total: StoredValue::new(0),
            top: StoredValue::new(0.0),
            height: StoredValue::new(0.0),
            composing: StoredValue::new(false),
            dragging: StoredValue::new(false),
            parked: StoredValue::new(None),
            placed: StoredValue::new(Default::default()),
        }
    }

    pub fn window(&self) -> Window {
        self.window.get_value()
    }

    /// Records the scroller's position and height (on scroll and resize).
    pub fn measured(&self, top: f64, height: f64) {
        self.top.set_value(top);
        self.height.set_value(height);
    }

    /// The width of one character of the code's font, in pixels.
    pub fn ch(&self) -> f64 {
        self.ch_probe
            .get_untracked()
            .map_or(0.0, |m| m.get_bounding_client_rect().width() / 10.0)
    }

    /// The scroller's position and height as last measured.
    pub fn view_box(&self) -> (f64, f64) {
        (self.top.get_value(), self.height.get_value())
    }

    pub fn composing(&self, on: bool) {
        self.composing.set_value(on);
    }

    pub fn dragging(&self, on: bool) {
        self.dragging.set_value(on);
    }

    /// The mouse button is up: whether a drag in the text ended.
    pub fn released(&self) -> bool {
        std::mem::replace(&mut *self.dragging.write_value(), false)
    }

    /// The document lines `[first, last)` in view.
    fn visible(&self, total: usize) -> (usize, usize) {
        let top = (self.top.get_value() - PAD).max(0.0);
        let first = ((top / LINE_HEIGHT).floor() as usize).min(total.saturating_sub(1));
        let last = ((top + self.height.get_value()) / LINE_HEIGHT).ceil() as usize;
        (first, last.clamp(first + 1, total.max(1)))
    }

    /// The textarea's selection in document units.
    fn selection(&self) -> Option<Selection> {
        let area = self.textarea.get_untracked()?;
        let start = area.selection_start().ok()?? as usize;
        let end = area.selection_end().ok()?? as usize;
        let backward = area.selection_direction().ok().flatten().as_deref() == Some("backward");
        let offset = self.window().start_utf16;
        Some(Selection {
            start: start + offset,
            end: end + offset,
            backward,
        })
    }

    /// The document lines (inclusive) a non-collapsed selection spans; it lies in the window.
    fn selection_lines(&self, text: &str, selection: Option<Selection>) -> Option<(usize, usize)> {
        let selection = selection.filter(|s| s.start != s.end)?;
        Some((
            self.line_of(text, selection.start),
            self.line_of(text, selection.end),
        ))
    }

    /// The document line of `at` (document UTF-16 units, inside the window).
    fn line_of(&self, text: &str, at: usize) -> usize {
        let w = self.window();
        w.first + window::line_of_utf16(w.text(text), at.saturating_sub(w.start_utf16))
    }

    /// Puts lines `[first, last)` of `text` in the textarea, with `selection` (document units)
    /// mapped into it.
    fn show(
        &self,
        text: &str,
        index: &LineIndex,
        lines: (usize, usize),
        selection: Option<Selection>,
    ) {
        let Some(area) = self.textarea.get_untracked() else {
            return;
        };
        let w = Window::of(text, index, lines.0, lines.1);
        let held = w.text(text);
        if area.value() != held {
            area.set_value(held);
        }
        self.window.set_value(w);
        self.total.set_value(index.line_count());
        self.place(held);
        let length = held.encode_utf16().count();
        let outside = |s: &Selection| s.start < w.start_utf16 || s.end > w.start_utf16 + length;
        self.parked.set_value(selection.filter(outside));
        if let Some(s) = selection {
            let map = |at: usize| at.saturating_sub(w.start_utf16).min(length) as u32;
            let direction = if s.backward { "backward" } else { "forward" };
            let _ = area.set_selection_range_with_direction(map(s.start), map(s.end), direction);
        } else {
            // Setting the value left the caret at the window's end, below the view: focusing
            // the textarea would scroll there and move the window away from the view. The caret
            // goes to the first line in view instead.
            let line = self
                .visible(index.line_count())
                .0
                .clamp(w.first, w.last - 1);
            let at = index.line_start(line).unwrap_or(w.start).max(w.start) - w.start;
            let units = held.get(..at).map_or(0, |s| s.encode_utf16().count()) as u32;
            let _ = area.set_selection_range(units, units);
        }
    }

    /// Sets the textarea's place and size and the sizer's (only what changed).
    fn place(&self, held: &str) {
        let w = self.window();
        let total = self.total.get_value();
        // The last window reaches the sizer's bottom, so a click below the text lands in it.
        let bottom = if w.last >= total {
            format!("bottom: {PAD}px")
        } else {
            format!("height: {}px", w.lines() as f64 * LINE_HEIGHT)
        };
        let area_style = format!("top: {}px; {bottom}", PAD + w.first as f64 * LINE_HEIGHT);
        let longest = held.lines().map(|l| l.chars().count()).max().unwrap_or(0);
        let sizer_style = format!(
            "height: {}px; width: calc({longest}ch + {}px)",
            total as f64 * LINE_HEIGHT + 2.0 * PAD,
            4.0 * PAD
        );
        let (old_area, old_sizer) = self.placed.get_value();
        if old_area != area_style {
            if let Some(area) = self.textarea.get_untracked() {
                let _ = area.set_attribute("style", &area_style);
                let _ = area.set_attribute("data-window", &format!("{} {}", w.first, w.last));
            }
        }
        if old_sizer != sizer_style {
            if let Some(sizer) = self.sizer.get_untracked() {
                let _ = sizer.set_attribute("style", &sizer_style);
            }
        }
        self.placed.set_value((area_style, sizer_style));
    }

    /// Typing changed the window's text to `value`: the whole document, prefix + value + suffix.
    pub fn typed(&self, text: &str, value: &str) -> String {
        let old = self.window();
        let new = old.typed(value);
        self.window.set_value(new);
        self.total
            .update_value(|t| *t = (*t + new.last).saturating_sub(old.last));
        self.place(value);
        old.splice(text, value)
    }

    /// A script set the textarea's value (an `input` event that is not the browser's editing):
    /// the value is the whole text, as it always was before the window.
    pub fn replaced(&self, value: &str) -> String {
        let new = Window::default().typed(value);
        self.window.set_value(new);
        self.total.set_value(new.last);
        self.place(value);
        value.to_owned()
    }

    /// After typing (the text is already the studio's): a window grown past a whole document's
    /// size moves — after a paste, to the caret, and the view follows it as after a native
    /// paste; after a script set the whole text, to the view.
    pub fn after_typing(&self, text: &str, index: &LineIndex, scripted: bool) {
        let w = self.window();
        if w.lines() <= window::WHOLE_LINES || self.composing.get_value() {
            return;
        }
        let total = index.line_count();
        if scripted {
            let lines = window::wanted(self.visible(total), None, total);
            self.show(text, index, lines, None);
            return;
        }
        let selection = self.selection();
        let Some(caret) = selection.map(|s| if s.backward { s.start } else { s.end }) else {
            return;
        };
        let line = self.line_of(text, caret);
        let keep = self.selection_lines(text, selection);
        let lines = window::wanted((line, line + 1), keep, total);
        self.show(text, index, lines, selection);
        self.scroll_to_line(line);
    }

    /// The text changed elsewhere (canvas, undo, a load): the window is taken again from it,
    /// unless the textarea shows it already (setting it would move the caret).
    pub fn sync(&self, text: &str, index: &LineIndex) {
        let Some(area) = self.textarea.get_untracked() else {
            return;
        };
        let w = self.window();
        if w.fits(text, index) && area.value() == w.text(text) {
            return;
        }
        let selection = self.selection();
        let total = index.line_count();
        self.show(
            text,
            index,
            window::wanted(self.visible(total), None, total),
            selection,
        );
    }

    /// After a scroll or the end of a drag or composition: moves the window if the view nears
    /// its edge; a non-collapsed selection stays inside it.
    pub fn settle(&self, text: &str, index: &LineIndex) {
        if self.composing.get_value() || self.dragging.get_value() {
            return;
        }
        let total = index.line_count();
        let w = self.window();
        let selection = self.selection();
        let keep = self.selection_lines(text, selection);
        if let Some(lines) = window::rewindow((w.first, w.last), self.visible(total), keep, total) {
            self.show(text, index, lines, selection);
        }
    }

    /// A click placed the caret anew: a parked one is forgotten.
    pub fn unpark(&self) {
        self.parked.set_value(None);
    }

    /// A key in the text while its caret is parked outside the window: the window and the view
    /// go back to the caret first, so the key acts there.
    pub fn unpark_for_key(&self, text: &str, index: &LineIndex) {
        let Some(parked) = self.parked.get_value() else {
            return;
        };
        let total = index.line_count();
        let line = index.line_of(window::utf16_to_byte(text, parked.start));
        let last = index.line_of(window::utf16_to_byte(text, parked.end));
        let keep = (parked.start != parked.end).then_some((line, last));
        self.show(
            text,
            index,
            window::wanted((line, line + 1), keep, total),
            Some(parked),
        );
        self.scroll_to_line(line);
    }

    /// Select all: the whole text in the window, for as long as the selection spans it.
    pub fn select_all(&self, text: &str, index: &LineIndex) {
        self.show(text, index, (0, index.line_count()), None);
        if let Some(area) = self.textarea.get_untracked() {
            area.select();
        }
    }

    /// Ctrl+Home / Ctrl+End over the whole text: the caret to its start or end (extending the
    /// selection with Shift), the view with it.
    pub fn jump(&self, text: &str, index: &LineIndex, to_end: bool, extend: bool) {
        let total = index.line_count();
        let selection = self.selection();
        let target = if to_end {
            text.encode_utf16().count()
        } else {
            0
        };
        let (new, keep) = match selection.filter(|_| extend) {
            Some(s) => {
                let anchor = if s.backward { s.end } else { s.start };
                let anchor_line = self.line_of(text, anchor);
                let selection = Selection {
                    start: anchor.min(target),
                    end: anchor.max(target),
                    backward: target < anchor,
                };
                let lines = if to_end {
                    (anchor_line, total - 1)
                } else {
                    (0, anchor_line)
                };
                (selection, Some(lines))
            }
            None => (
                Selection {
                    start: target,
                    end: target,
                    backward: false,
                },
                None,
            ),
        };
        let line = if to_end { total - 1 } else { 0 };
        self.show(
            text,
            index,
            window::wanted((line, line + 1), keep, total),
            Some(new),
        );
        self.scroll_to_line(line);
    }

    /// PageUp / PageDown (with Shift, extending the selection): the caret a page of lines up or
    /// down at the same column, or to the text's start or end on its first or last page, and
    /// the view a page with it — the textarea does not scroll itself, its scroller does.
    pub fn page(&self, text: &str, index: &LineIndex, down: bool, extend: bool) {
        let Some(s) = self.selection() else {
            return;
        };
        let total = index.line_count();
        let (caret, anchor) = if s.backward {
            (s.start, s.end)
        } else {
            (s.end, s.start)
        };
        let line = self.line_of(text, caret);
        let w = self.window();
        let held = w.text(text);
        let line_start = |line: usize, held: &str, w: &Window| {
            let at = index.line_start(line).unwrap_or(0).max(w.start) - w.start;
            held[..at.min(held.len())].encode_utf16().count()
        };
        let column = caret
            .saturating_sub(w.start_utf16)
            .saturating_sub(line_start(line, held, &w));
        let rows = ((self.height.get_value() / LINE_HEIGHT).floor() as usize)
            .saturating_sub(1)
            .max(1);
        let anchor_line = self.line_of(text, anchor);
        let target_line = if down {
            (line + rows).min(total - 1)
        } else {
            line.saturating_sub(rows)
        };
        let keep = extend.then(|| (anchor_line.min(target_line), anchor_line.max(target_line)));
        self.show(
            text,
            index,
            window::wanted((target_line, target_line + 1), keep, total),
            None,
        );
        let w = self.window();
        let held = w.text(text);
        let target = if down && line + rows >= total {
            w.start_utf16 + held.encode_utf16().count()
        } else if !down && line < rows {
            0
        } else {
            let width = index.line_text(text, target_line).encode_utf16().count();
            w.start_utf16 + line_start(target_line, held, &w) + column.min(width)
        };
        let anchor = if extend { anchor } else { target };
        let selection = Selection {
            start: anchor.min(target),
            end: anchor.max(target),
            backward: target < anchor,
        };
        if let Some(area) = self.textarea.get_untracked() {
            let map = |at: usize| at.saturating_sub(w.start_utf16) as u32;
            let direction = if selection.backward {
                "backward"
            } else {
                "forward"
            };
            let _ = area.set_selection_range_with_direction(
                map(selection.start),
                map(selection.end),
                direction,
            );
        }
        if let Some(scroller) = self.scroller.get_untracked() {
            let step = (rows as f64 * LINE_HEIGHT) as i32;
            let top = scroller.scroll_top() + if down { step } else { -step };
            scroller.set_scroll_top(top.max(0));
        }
    }

    /// Selects document line `line` (1-based), scrolled into view, with the keyboard in the text.
    pub fn reveal(&self, text: &str, index: &LineIndex, line: u32) {
        let total = index.line_count();
        let line = (line.max(1) as usize - 1).min(total - 1);
        self.show(
            text,
            index,
            window::wanted((line, line + 1), None, total),
            None,
        );
        let Some(area) = self.textarea.get_untracked() else {
            return;
        };
        let w = self.window();
        let held = w.text(text);
        let start = index.line_start(line).unwrap_or(0).max(w.start) - w.start;
        let end = start
            + index
                .line_text(text, line)
                .len()
                .min(held.len().saturating_sub(start));
        let utf16 = |bytes: usize| held[..bytes].encode_utf16().count() as u32;
        let _ = area.focus();
        let _ = area.set_selection_range(utf16(start), utf16(end));
        self.scroll_to_line(line);
    }

    /// Scrolls so that 0-based `line` is in the upper third of the view, unless it is in view.
    pub fn scroll_to_line(&self, line: usize) {
        let Some(scroller) = self.scroller.get_untracked() else {
            return;
        };
        let height = f64::from(scroller.client_height());
        let line_top = PAD + line as f64 * LINE_HEIGHT;
        let top = f64::from(scroller.scroll_top());
        if line_top < top || line_top + LINE_HEIGHT > top + height {
            let to = (line_top - height / 3.0).max(0.0);
            scroller.set_scroll_top(to as i32);
            self.measured(f64::from(scroller.scroll_top()), height);
        }
    }
}
