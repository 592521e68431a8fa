//! The studio-wide keys of selection work (outside text fields): Ctrl/Cmd+C copies the
//! selected steps, Ctrl/Cmd+V pastes, Ctrl/Cmd+D duplicates, Delete removes several nodes.

use crate::clipboard;
use crate::state::{Severity, Studio};

/// Handles `ev` when it is one of these keys; `true` when it did.
pub fn on_key(studio: Studio, ev: &web_sys::KeyboardEvent) -> bool {
    let modifier = ev.ctrl_key() || ev.meta_key();
    let key = ev.key().to_ascii_lowercase();
    let chosen = super::ids(studio);
    match key.as_str() {
        "c" if modifier && !chosen.is_empty() => clipboard::copy(studio),
        "v" if modifier => clipboard::paste(studio, None),
        "d" if modifier && !chosen.is_empty() => clipboard::duplicate(studio),
        "delete" | "backspace" if chosen.len() > 1 => {
            if let Err(message) = super::delete_selected(studio) {
                studio.notify(Severity::Error, message);
            }
        }
        _ => return false,
    }
    ev.prevent_default();
    true
}
