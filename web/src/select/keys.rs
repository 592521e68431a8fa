//! The studio-wide keys of selection work (outside text fields): Ctrl/Cmd+C copies the
//! selected steps, Ctrl/Cmd+V pastes, Ctrl/Cmd+D duplicates, Ctrl/Cmd+A selects every node,
//! Delete removes several nodes.

use leptos::prelude::*;

use crate::state::{Severity, Studio};
use crate::tools;

/// Handles `ev` when it is one of these keys; `true` when it did.
pub fn on_key(studio: Studio, ev: &web_sys::KeyboardEvent) -> bool {
    let modifier = ev.ctrl_key() || ev.meta_key();
    let key = ev.key().to_ascii_lowercase();
    let chosen = super::ids(studio);
    match key.as_str() {
        "c" if modifier && !chosen.is_empty() => tools::copy(studio),
        "v" if modifier => tools::paste(studio, None),
        "d" if modifier && !chosen.is_empty() => tools::duplicate(studio),
        "a" if modifier => {
            let all = studio.graph.with_untracked(|g| {
                g.as_ref()
                    .map(|g| g.nodes.iter().map(|n| n.id.clone()).collect())
                    .unwrap_or_default()
            });
            super::select_many(studio, all);
        }
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
