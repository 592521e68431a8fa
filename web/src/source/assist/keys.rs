//! The keys of the source pane's assistance, read before the pane's own (Tab indents only when
//! no popup takes it): the popup's and the fix menu's (arrows, Enter/Tab, Escape), Ctrl+Space,
//! Ctrl+., F12, F2 and Ctrl+K Ctrl+I (the hover card at the caret); and what typing triggers.

use leptos::prelude::*;
use web_sys::KeyboardEvent;

use super::{caret, shut, Assist};
use crate::source::pane::SourcePane;
use crate::state::Studio;

/// Characters after which completion opens by itself: a list's start or next item (`needs: [`,
/// `, `), a member (`steps.`).
const TRIGGERS: [char; 3] = ['[', '.', ','];

/// A move through a list of `len` items from `active`: wraps around.
fn moved(active: usize, len: usize, down: bool) -> usize {
    match (down, len) {
        (_, 0) => 0,
        (true, _) => (active + 1) % len,
        (false, _) => (active + len - 1) % len,
    }
}

impl Assist {
    /// Handles `ev` when it is one of the assistance's keys; true when it did.
    pub fn on_key(&self, studio: Studio, pane: SourcePane, ev: &KeyboardEvent) -> bool {
        let key = ev.key();
        let modifier = ev.ctrl_key() || ev.meta_key();
        let plain = !modifier && !ev.alt_key() && !ev.shift_key();
        let handled = if self.chord.get_value() && !matches!(key.as_str(), "Control" | "Meta") {
            self.chord.set_value(false);
            let hover = modifier && key.eq_ignore_ascii_case("i");
            if hover {
                let at = studio.text.with_untracked(|t| caret::caret(pane, t));
                if let Some(at) = at {
                    self.hover_at(studio, at);
                }
            }
            hover
        } else if self.list_key(studio, pane, &key, plain) {
            true
        } else if modifier && key == " " {
            self.complete(studio, pane, true);
            true
        } else if modifier && key == "." {
            self.open_fixes(studio, pane);
            true
        } else if modifier && key.eq_ignore_ascii_case("k") {
            self.chord.set_value(true);
            true
        } else if key == "F12" {
            self.go_to_definition(studio, pane);
            true
        } else if key == "F2" {
            self.start_rename(studio, pane);
            true
        } else if key == "Escape" && self.card.with_untracked(Option::is_some) {
            self.card.set(None);
            true
        } else {
            if !matches!(key.as_str(), "Control" | "Shift" | "Alt" | "Meta") {
                shut(self.card);
            }
            if matches!(key.as_str(), "ArrowLeft" | "ArrowRight" | "Home" | "End") {
                shut(self.popup);
                shut(self.fix_menu);
            }
            false
        };
        if handled {
            ev.prevent_default();
            ev.stop_propagation();
        }
        handled
    }

    /// The keys of an open popup or fix menu.
    fn list_key(&self, studio: Studio, pane: SourcePane, key: &str, plain: bool) -> bool {
        let down = match key {
            "ArrowDown" => Some(true),
            "ArrowUp" => Some(false),
            _ => None,
        };
        let accept = plain && matches!(key, "Enter" | "Tab");
        if self.popup.with_untracked(Option::is_some) {
            if let Some(down) = down {
                self.popup.update(|p| {
                    if let Some(p) = p {
                        p.active = moved(p.active, p.items.len(), down);
                    }
                });
            } else if accept {
                self.accept(studio, pane);
            } else if key == "Escape" {
                self.popup.set(None);
            } else {
                return false;
            }
            return true;
        }
        let Some(menu) = self.fix_menu.get_untracked() else {
            return false;
        };
        if let Some(down) = down {
            self.fix_menu.update(|m| {
                if let Some(m) = m {
                    m.active = moved(m.active, m.fixes.len(), down);
                }
            });
        } else if accept {
            if let Some(fix) = menu.fixes.get(menu.active) {
                self.apply_fix(studio, pane, fix);
            }
        } else if key == "Escape" {
            self.fix_menu.set(None);
        } else {
            return false;
        }
        true
    }

    /// After an input event of kind `input_type` that typed `data`: completion opens after a
    /// trigger, follows the word while it is open, and closes on anything else.
    pub fn after_input(
        &self,
        studio: Studio,
        pane: SourcePane,
        input_type: Option<&str>,
        data: Option<&str>,
    ) {
        shut(self.card);
        shut(self.fix_menu);
        let open = self.popup.with_untracked(Option::is_some);
        let typed = data.and_then(|d| d.chars().last());
        let trigger = match (input_type, typed) {
            (Some(kind), Some(c)) if kind.starts_with("insert") => {
                TRIGGERS.contains(&c)
                    || (c == ' ' && self.after_list_separator(studio, pane))
                    || (open && (c.is_alphanumeric() || c == '_' || c == '-'))
            }
            (Some(kind), _) if kind.starts_with("delete") => open,
            _ => false,
        };
        if trigger {
            self.complete(studio, pane, false);
        } else if open {
            self.popup.set(None);
        }
    }

    /// Whether the caret follows `[ ` or `, ` (a space typed after a list's separator).
    fn after_list_separator(&self, studio: Studio, pane: SourcePane) -> bool {
        studio.text.with_untracked(|text| {
            caret::caret(pane, text)
                .and_then(|at| text.get(..at))
                .is_some_and(|before| before.ends_with(", ") || before.ends_with("[ "))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::moved;

    #[test]
    fn the_chosen_item_wraps_around_both_ends() {
        assert_eq!(moved(0, 3, true), 1);
        assert_eq!(moved(2, 3, true), 0);
        assert_eq!(moved(0, 3, false), 2);
        assert_eq!(moved(0, 0, true), 0);
    }
}
