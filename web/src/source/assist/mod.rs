//! What the source pane offers beyond typing, each answered by the `ide` layer (the chunk
//! `source::ide`): the completion popup, the hover card, quick fixes (from the problems list,
//! the gutter's marker and Ctrl+.), go to definition (F12, Ctrl+click: the node is selected on
//! the canvas too) and rename (F2). Each change is one undoable replacement of the text.

mod card;
pub(crate) mod caret;
mod fixes;
mod keys;
mod list;
mod markdown;
mod rename_box;

use leptos::prelude::*;
use logicmd::source::{LineIndex, Span};

use super::ide::{self, Completion, Ide, QuickFix};
use super::pane::SourcePane;
use crate::state::Studio;
use caret::Place;

pub use card::HoverCardView;
pub use fixes::{FixButtons, GutterMarkers};
pub use list::{CompletionPopup, FixMenuView, COMPLETION_ID, FIXES_ID};
pub use rename_box::RenameBox;

/// The completion popup: the items, the one chosen, and where it is drawn.
#[derive(Debug, Clone, PartialEq)]
pub struct Popup {
    pub items: Vec<Completion>,
    pub active: usize,
    pub place: Place,
}

/// The quick-fix menu of a line (Ctrl+. or the gutter's marker).
#[derive(Debug, Clone, PartialEq)]
pub struct FixMenu {
    pub fixes: Vec<QuickFix>,
    pub active: usize,
    pub place: Place,
}

/// The hover card: what the text under the pointer (or the caret) is.
#[derive(Debug, Clone, PartialEq)]
pub struct Card {
    pub markdown: String,
    pub place: Place,
}

/// The rename box over a name (F2).
#[derive(Debug, Clone, PartialEq)]
pub struct Renaming {
    /// Where the name is: a byte inside it.
    pub offset: usize,
    pub name: String,
    pub place: Place,
    pub refused: Option<String>,
}

/// The source pane's editor assistance: what is shown. One per page, made by the chunk on
/// first use ([`floating`]) and kept for the page's life.
#[derive(Clone, Copy)]
pub struct Assist {
    pub popup: RwSignal<Option<Popup>>,
    pub fix_menu: RwSignal<Option<FixMenu>>,
    pub card: RwSignal<Option<Card>>,
    pub renaming: RwSignal<Option<Renaming>>,
    /// Every quick fix of the document as it was last checked.
    pub fixable: RwSignal<Vec<QuickFix>>,
    /// Ctrl+K was pressed: Ctrl+I next shows the hover card at the caret.
    chord: StoredValue<bool>,
}

thread_local! {
    static FLOATING: Assist = Assist::new();
}

/// The page's assistance state.
pub fn floating() -> Assist {
    FLOATING.with(|assist| *assist)
}

/// Documents larger than this get no list of every quick fix (each fix is a whole text): the
/// fixes of a line are still offered on Ctrl+. (docs/decisions.md).
const FIXABLE_BYTES: usize = 256 * 1024;

impl Assist {
    fn new() -> Self {
        Assist {
            popup: RwSignal::new(None),
            fix_menu: RwSignal::new(None),
            card: RwSignal::new(None),
            renaming: RwSignal::new(None),
            fixable: RwSignal::new(Vec::new()),
            chord: StoredValue::new(false),
        }
    }

    /// The list the textarea controls while one is open and its chosen option (none in an
    /// empty list), and whether the hover card shows (tracked).
    pub fn listed(&self) -> (Option<(&'static str, Option<usize>)>, bool) {
        let popup = self.popup.with(|p| {
            p.as_ref()
                .map(|p| (!p.items.is_empty()).then_some(p.active))
        });
        let list = match popup {
            Some(active) => Some((COMPLETION_ID, active)),
            None => self
                .fix_menu
                .with(|m| m.as_ref().map(|m| (FIXES_ID, Some(m.active)))),
        };
        (list, self.card.with(Option::is_some))
    }

    /// Writes what the textarea says of the floating views: while a list is open it is a
    /// combobox (`aria-expanded` is not allowed on a textbox) controlling it, its chosen option
    /// the active descendant; the hover card describes it while shown.
    pub fn describe(&self, pane: SourcePane) {
        let (list, card) = self.listed();
        let Some(area) = pane.textarea.get_untracked() else {
            return;
        };
        let set = |name: &str, value: Option<&str>| {
            let _ = match value {
                Some(value) => area.set_attribute(name, value),
                None => area.remove_attribute(name),
            };
        };
        let active = list.and_then(|(id, i)| Some(format!("{id}-{}", i?)));
        set("role", list.map(|_| "combobox"));
        set("aria-expanded", list.map(|_| "true"));
        set("aria-controls", list.map(|(id, _)| id));
        set("aria-activedescendant", active.as_deref());
        let described = if card {
            "source-keys source-hover"
        } else {
            "source-keys"
        };
        set("aria-describedby", Some(described));
    }

    /// Closes whatever floats over the text.
    pub fn close(&self) {
        shut(self.popup);
        shut(self.fix_menu);
        shut(self.card);
    }

    /// Lists the quick fixes of `text` once the chunk is loaded (kept in step by the pane).
    pub fn refresh_fixable(&self, text: &str) {
        let fixes = if text.len() <= FIXABLE_BYTES {
            ide::queries().fixes(text, Span::new(0, text.len()))
        } else {
            Vec::new()
        };
        if self.fixable.with_untracked(|f| *f != fixes) {
            self.fixable.set(fixes);
        }
    }

    /// Shows the completions at the caret; an empty list shows nothing (unless `explicit`, when
    /// the popup says so).
    pub fn complete(&self, studio: Studio, pane: SourcePane, explicit: bool) {
        let this = *self;
        with_ide(move |ide| {
            let found = studio.text.with_untracked(|text| {
                let at = caret::caret(pane, text)?;
                let items = ide.completion(text, at);
                let start = items.first().map_or(at, |i| i.replace.start);
                let place = Place::of(text, &LineIndex::new(text), start);
                Some((items, place))
            });
            match found {
                Some((items, place)) if !items.is_empty() || explicit => {
                    let active = this
                        .popup
                        .with_untracked(|p| p.as_ref().map(|p| p.active))
                        .unwrap_or(0)
                        .min(items.len().saturating_sub(1));
                    this.popup.set(Some(Popup {
                        items,
                        active,
                        place,
                    }));
                }
                _ => this.popup.set(None),
            }
        });
    }

    /// Replaces the popup's chosen item's range by its text, as typing would, caret after it.
    pub fn accept(&self, studio: Studio, pane: SourcePane) {
        let Some(popup) = self.popup.get_untracked() else {
            return;
        };
        self.popup.set(None);
        let Some(item) = popup.items.get(popup.active) else {
            return;
        };
        let text = studio.text.get_untracked();
        let caret_at = item.replace.start + item.insert.len();
        let mut next = text.clone();
        next.replace_range(item.replace.start..item.replace.end, &item.insert);
        type_in(studio, pane, &text, &next, caret_at);
    }

    /// Applies a quick fix: the fix made again on the text as it is now (the list may be older
    /// than the last keystroke), its result one undoable change, the caret at the change.
    pub fn apply_fix(&self, studio: Studio, pane: SourcePane, fix: &QuickFix) {
        self.close();
        let ide = ide::queries();
        let text = studio.text.get_untracked();
        let range = fix.diagnostic.unwrap_or(Span::new(0, text.len()));
        let fresh = ide
            .fixes(&text, range)
            .into_iter()
            .find(|f| f.title == fix.title && f.code == fix.code);
        let Some(fresh) = fresh else {
            studio.notify(
                crate::state::Severity::Info,
                "The problem changed since: no fix applied",
            );
            return;
        };
        let caret_at = change_start(&text, &fresh.text);
        studio.replace_text(fresh.text);
        // The pane takes the new text on its next update; the caret follows after it.
        request_animation_frame(move || {
            studio.text.with_untracked(|t| {
                let _ = caret::select(pane, t, Span::new(caret_at, caret_at));
            });
        });
    }

    /// Opens the quick-fix menu for the problems on the caret's line.
    pub fn open_fixes(&self, studio: Studio, pane: SourcePane) {
        let this = *self;
        with_ide(move |ide| {
            let found = studio.text.with_untracked(|text| {
                let at = caret::caret(pane, text)?;
                let index = LineIndex::new(text);
                let line = index.line_of(at);
                let start = index.line_start(line)?;
                let end = index.line_start(line + 1).map_or(text.len(), |n| n - 1);
                let fixes = ide.fixes(text, Span::new(start, end));
                let first = fixes
                    .iter()
                    .find_map(|f| f.diagnostic)
                    .map_or(at, |s| s.start);
                Some((fixes, Place::of(text, &index, first.max(start))))
            });
            match found {
                Some((fixes, place)) if !fixes.is_empty() => {
                    let active = fixes.iter().position(|f| f.preferred).unwrap_or(0);
                    this.fix_menu.set(Some(FixMenu {
                        fixes,
                        active,
                        place,
                    }));
                }
                _ => studio.notify(crate::state::Severity::Info, "No quick fix on this line"),
            }
        });
    }

    /// Goes to the definition of the name at the caret, and selects its node on the canvas.
    pub fn go_to_definition(&self, studio: Studio, pane: SourcePane) {
        with_ide(move |ide| {
            let text = studio.text.get_untracked();
            let Some(at) = caret::caret(pane, &text) else {
                return;
            };
            let Some(span) = ide.definition(&text, at) else {
                studio.notify(crate::state::Severity::Info, "No definition here");
                return;
            };
            studio.analyse_pending();
            let node = studio.graph.with_untracked(|g| {
                g.as_ref()
                    .and_then(|g| crate::analysis::node_at_offset(g, span.start))
            });
            if !caret::select(pane, &text, span) {
                let index = LineIndex::new(&text);
                pane.reveal(&text, &index, index.line_of(span.start) as u32 + 1);
                let _ = caret::select(pane, &text, span);
            }
            pane.scroll_to_line(LineIndex::new(&text).line_of(span.start));
            if let Some(node) = node {
                studio.select_node(node.clone());
                studio.reveal_request.set(Some(node));
            }
        });
    }

    /// Shows the hover card for byte `offset` (the pointer's or the caret's).
    pub fn hover_at(&self, studio: Studio, offset: usize) {
        let ide = ide::queries();
        let card = studio.text.with_untracked(|text| {
            let hover = ide.hover(text, offset)?;
            let place = Place::of(text, &LineIndex::new(text), hover.span.start);
            Some(Card {
                markdown: hover.markdown,
                place,
            })
        });
        if self.card.with_untracked(|c| *c != card) {
            self.card.set(card);
        }
    }

    /// Opens the rename box on the name at the caret (or says why nothing can be renamed).
    pub fn start_rename(&self, studio: Studio, pane: SourcePane) {
        let this = *self;
        with_ide(move |ide| {
            let text = studio.text.get_untracked();
            let Some(at) = caret::caret(pane, &text) else {
                return;
            };
            this.close();
            match ide.prepare_rename(&text, at) {
                Ok((span, name)) => this.renaming.set(Some(Renaming {
                    offset: span.start,
                    name,
                    place: Place::of(&text, &LineIndex::new(&text), span.start),
                    refused: None,
                })),
                Err(why) => studio.notify(crate::state::Severity::Info, why),
            }
        });
    }
}

/// Runs `then` with the queries (this code runs in the chunk: they are there).
/// Closes `what` if it is open. Setting a closed one again would wake everything that follows
/// it, on every key typed (issue #38).
fn shut<T: Send + Sync + 'static>(what: RwSignal<Option<T>>) {
    if what.with_untracked(Option::is_some) {
        what.set(None);
    }
}

fn with_ide(then: impl FnOnce(&'static dyn Ide)) {
    then(ide::queries());
}

/// Where `next` starts to differ from `text` (a character boundary of `next`).
fn change_start(text: &str, next: &str) -> usize {
    text.char_indices()
        .zip(next.chars())
        .find(|((_, a), b)| a != b)
        .map_or(text.len().min(next.len()), |((at, _), _)| at)
}

/// Makes `next` the text as if typed in the textarea's window (one undoable change), with the
/// caret at byte `caret_at` of it; outside the window, as a replacement of the whole text.
fn type_in(studio: Studio, pane: SourcePane, text: &str, next: &str, caret_at: usize) {
    let w = pane.window();
    let grown = next.len() as isize - text.len() as isize;
    let end = (w.end as isize + grown) as usize;
    let same_outside = next.get(..w.start) == text.get(..w.start)
        && next.get(end..) == text.get(w.end..)
        && end >= w.start;
    let area = pane.textarea.get_untracked();
    match (area, same_outside) {
        (Some(area), true) => {
            let held = &next[w.start..end];
            area.set_value(held);
            let at = next
                .get(w.start..caret_at)
                .map_or(0, |s| s.encode_utf16().count()) as u32;
            let _ = area.set_selection_range(at, at);
            let whole = pane.typed(text, held);
            studio.replace_text(whole);
        }
        _ => studio.replace_text(next.to_owned()),
    }
}
