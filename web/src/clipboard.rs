//! Copy, paste and duplicate of steps as LOGIC.md text (core's `copy_steps` / `paste_steps`),
//! through the system clipboard so a copy pastes into another tab or another application.
//! Pasted steps go beside the selection (or the middle of the view) and become the selection.

use leptos::prelude::*;
use leptos::task::spawn_local;
use wasm_bindgen_futures::JsFuture;

use crate::geometry::{NODE_HEIGHT, NODE_WIDTH};
use crate::select;
use crate::state::{Severity, Studio};

/// Copies the selected steps to the clipboard.
pub fn copy(studio: Studio) {
    let Some(names) = select::selected_steps(studio) else {
        studio.notify(
            Severity::Warning,
            "Only steps are copied; decision-tree and workflow nodes are copied in the text.",
        );
        return;
    };
    let copied = studio
        .text
        .with_untracked(|t| logicmd::edit::copy_steps(t, &names));
    match copied {
        Ok(text) => spawn_local(async move {
            match crate::browser::copy_to_clipboard(text).await {
                Ok(()) => studio.notify(Severity::Info, copied_message(names.len())),
                Err(message) => studio.notify(Severity::Error, message),
            }
        }),
        Err(refusal) => studio.notify(Severity::Error, refusal.message),
    }
}

fn copied_message(count: usize) -> String {
    match count {
        1 => "Copied 1 step as LOGIC.md text".to_owned(),
        n => format!("Copied {n} steps as LOGIC.md text"),
    }
}

/// Pastes the clipboard's LOGIC.md text; its steps go to `at` (graph coordinates) or beside
/// the selection.
pub fn paste(studio: Studio, at: Option<(f64, f64)>) {
    spawn_local(async move {
        match read_clipboard().await {
            Ok(clip) => paste_text(studio, &clip, at),
            Err(message) => studio.notify(Severity::Error, message),
        }
    });
}

async fn read_clipboard() -> Result<String, String> {
    let clipboard = crate::browser::window()
        .ok_or("no window")?
        .navigator()
        .clipboard();
    JsFuture::from(clipboard.read_text())
        .await
        .ok()
        .and_then(|v| v.as_string())
        .ok_or_else(|| "the browser did not allow reading the clipboard".to_owned())
}

/// Copies the selected steps and pastes them right away, beside themselves.
pub fn duplicate(studio: Studio) {
    let Some(names) = select::selected_steps(studio) else {
        studio.notify(
            Severity::Warning,
            "Only steps are duplicated; decision-tree and workflow nodes are copied in the text.",
        );
        return;
    };
    match studio
        .text
        .with_untracked(|t| logicmd::edit::copy_steps(t, &names))
    {
        Ok(clip) => paste_text(studio, &clip, None),
        Err(refusal) => studio.notify(Severity::Error, refusal.message),
    }
}

/// Adds the steps of `clip` after the last selected step (the end when none) as one change.
pub fn paste_text(studio: Studio, clip: &str, at: Option<(f64, f64)>) {
    let after = select::selected_steps(studio).and_then(|names| names.last().cloned());
    let pasted = studio
        .text
        .with_untracked(|t| logicmd::edit::paste_steps(t, clip, after.as_deref()));
    let pasted = match pasted {
        Ok(pasted) => pasted,
        Err(refusal) => {
            studio.notify(Severity::Error, format!("Not pasted: {}", refusal.message));
            return;
        }
    };
    let anchor = at
        .or_else(|| select::beside_selection(studio))
        .or_else(|| view_centre(studio));
    studio.place_new.set_value(anchor);
    studio.replace_text(pasted.text);
    let ids: Vec<String> = pasted.names.iter().map(|n| format!("step:{n}")).collect();
    studio.notify(
        Severity::Info,
        format!("Pasted {}", pasted.names.join(", ")),
    );
    select::select_many(studio, ids);
}

/// The graph point at the middle of the canvas, less half a node (a node placed there is centred).
pub fn view_centre(studio: Studio) -> Option<(f64, f64)> {
    let canvas = crate::browser::window()?
        .document()?
        .query_selector(".canvas")
        .ok()??;
    let rect = canvas.get_bounding_client_rect();
    let view = studio.viewport.get_untracked();
    Some((
        ((rect.width() / 2.0 - view.x) / view.scale - NODE_WIDTH / 2.0).round(),
        ((rect.height() / 2.0 - view.y) / view.scale - NODE_HEIGHT / 2.0).round(),
    ))
}
