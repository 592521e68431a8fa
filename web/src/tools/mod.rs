//! The editing tools a first visit does not need — the command palette, Format, copy / paste /
//! duplicate and the share link — are a wasm chunk of their own (`lazy`), like run mode and
//! History: the first use of any of them fetches it, later uses run at once. The rest of the
//! studio reaches them only through the functions here; naming `clipboard`, `format_text`,
//! `panels::share` or the palette's dialog anywhere else would pull them back into the first
//! download (scripts/test-web.sh holds that download to its budget).

mod lazy;

use leptos::prelude::*;

use crate::palette_search::{Reach, Typed};
use crate::state::{Severity, Studio};
pub use lazy::Tools;

/// Runs `use_tools` with the tools' chunk: at once when it is loaded, else once it is.
fn with_tools(studio: Studio, use_tools: impl FnOnce(&'static dyn Tools) + 'static) {
    if let Some(tools) = lazy::loaded() {
        return use_tools(tools);
    }
    leptos::task::spawn_local(async move {
        match lazy::load().await {
            Ok(tools) => {
                lazy::keep(tools);
                use_tools(tools);
            }
            Err(_) => studio.notify(
                Severity::Error,
                "The editing tools could not be loaded (is the network down?)",
            ),
        }
    });
}

/// Copies the selected steps or DRTL nodes to the clipboard.
pub fn copy(studio: Studio) {
    with_tools(studio, move |tools| tools.copy(studio));
}

/// Pastes the clipboard's text; its steps go to `at` (graph coordinates) or beside the selection.
pub fn paste(studio: Studio, at: Option<(f64, f64)>) {
    with_tools(studio, move |tools| tools.paste(studio, at));
}

/// Duplicates the selected steps or DRTL nodes.
pub fn duplicate(studio: Studio) {
    with_tools(studio, move |tools| tools.duplicate(studio));
}

/// Formats the text with core's formatter, as one undoable change.
pub fn format(studio: Studio) {
    with_tools(studio, move |tools| tools.format(studio));
}

/// Makes a share link of the current text and copies it.
pub fn share(studio: Studio) {
    with_tools(studio, move |tools| tools.share(studio));
}

/// The command palette's dialog while `open`: `shell` (a search box that keeps what is typed)
/// until the chunk is loaded (opening loads it), then the dialog, starting from what was typed.
pub fn palette<V: IntoView + 'static>(
    open: RwSignal<bool>,
    to: Reach,
    typed: Typed,
    shell: impl Fn() -> V + Send + Sync + 'static,
) -> impl IntoView {
    let ready = RwSignal::new(lazy::loaded().is_some());
    Effect::new(move |_| {
        if open.get() && !ready.get_untracked() {
            with_tools(to.studio, move |_| ready.set(true));
        }
    });
    move || match (open.get(), ready.get(), lazy::loaded()) {
        (false, _, _) => None,
        (true, true, Some(tools)) => Some(tools.palette(open, to, typed)),
        (true, _, _) => Some(shell().into_any()),
    }
}
