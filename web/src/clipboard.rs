//! Copy, paste and duplicate of steps as LOGIC.md text (core's `copy_steps` / `paste_steps`)
//! and of DRTL nodes as topology text (`copy_nodes` / `paste_nodes`), through the system clipboard so a copy pastes into another tab or another application.
//! Pasted steps go beside the selection (or the middle of the view) and become the selection.

use leptos::prelude::*;
use leptos::task::spawn_local;
use wasm_bindgen_futures::JsFuture;

use crate::geometry::{NODE_HEIGHT, NODE_WIDTH};
use crate::select;
use crate::state::{Severity, Studio};

/// Copies the selected steps (LOGIC.md text) or DRTL nodes (topology text) to the clipboard.
pub fn copy(studio: Studio) {
    let copied = match copy_selection(studio) {
        Ok(copied) => copied,
        Err((severity, message)) => return studio.notify(severity, message),
    };
    spawn_local(async move {
        match crate::browser::copy_to_clipboard(copied.text).await {
            Ok(()) => studio.notify(Severity::Info, copied.message),
            Err(message) => studio.notify(Severity::Error, message),
        }
    });
}

struct Copied {
    text: String,
    message: String,
}

/// The selection as clipboard text: steps through core's `copy_steps`, DRTL nodes through
/// `copy_nodes`; other nodes (a decision tree's nodes and terminals, parts of a workflow) are
/// refused with the reason.
fn copy_selection(studio: Studio) -> Result<Copied, (Severity, String)> {
    type Copier = fn(&str, &[String]) -> Result<String, logicmd::Diagnostic>;
    let copy = |names: &[String], copier: Copier| {
        studio
            .text
            .with_untracked(|t| copier(t, names))
            .map_err(|refusal| (Severity::Error, refusal.message))
    };
    if let Some(names) = select::selected_steps(studio) {
        let text = copy(&names, logicmd::edit::copy_steps)?;
        return Ok(Copied {
            text,
            message: copied_message(names.len(), "step", "LOGIC.md"),
        });
    }
    if let Some(ids) = select::selected_drtl_nodes(studio) {
        let text = copy(&ids, logicmd::edit::copy_nodes)?;
        return Ok(Copied {
            text,
            message: copied_message(ids.len(), "node", "DRTL"),
        });
    }
    Err((Severity::Warning, NOT_COPYABLE.to_owned()))
}

/// Why a decision tree's nodes and a workflow's parts are not copied: they are parts of one
/// structure (a tree, the workflow) and mean nothing pasted alone.
const NOT_COPYABLE: &str = "Not copied: decision-tree nodes and terminals and workflow parts belong to their tree or workflow; copy the steps or DRTL nodes, or the text itself.";

fn copied_message(count: usize, noun: &str, format: &str) -> String {
    match count {
        1 => format!("Copied 1 {noun} as {format} text"),
        n => format!("Copied {n} {noun}s as {format} text"),
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

/// Copies the selection and pastes it right away, beside itself.
pub fn duplicate(studio: Studio) {
    match copy_selection(studio) {
        Ok(copied) => paste_text(studio, &copied.text, None),
        Err((severity, message)) => {
            studio.notify(severity, message.replace("copied", "duplicated"))
        }
    }
}

/// Adds the steps (into a LOGIC.md document) or DRTL nodes (into a topology) of `clip` after
/// the last selected one (the end when none) as one change.
pub fn paste_text(studio: Studio, clip: &str, at: Option<(f64, f64)>) {
    let drtl = studio
        .text
        .with_untracked(|t| logicmd::analysis::detect(t, None) == logicmd::analysis::Kind::Drtl);
    let (after, prefix) = if drtl {
        (select::selected_drtl_nodes(studio), "drtl")
    } else {
        (select::selected_steps(studio), "step")
    };
    let after = after.and_then(|names| names.last().cloned());
    let pasted = studio.text.with_untracked(|t| {
        if drtl {
            logicmd::edit::paste_nodes(t, clip, after.as_deref())
        } else {
            logicmd::edit::paste_steps(t, clip, after.as_deref())
        }
    });
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
    let ids: Vec<String> = pasted
        .names
        .iter()
        .map(|n| format!("{prefix}:{n}"))
        .collect();
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
