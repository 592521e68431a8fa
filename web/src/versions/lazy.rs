//! The History dialog (its line and graph diffs included) is a wasm chunk of its own, like run
//! mode (`run::engine`): a first visit does not download it; opening History fetches it. The
//! rest of the studio reaches it only through [`Dialog`]; naming `HistoryDialog` or `diff`
//! outside this split point would pull them back into the first download.

use std::cell::Cell;

use leptos::prelude::*;

use super::store::Version;

/// What the chunk gives the studio.
pub trait Dialog {
    fn view(&self, open: RwSignal<bool>, versions: RwSignal<Vec<Version>>) -> AnyView;
}

/// The chunk could not be fetched or instantiated.
pub struct LoadFailed;

impl From<leptos::wasm_split::SplitLoaderError> for LoadFailed {
    fn from(_: leptos::wasm_split::SplitLoaderError) -> Self {
        LoadFailed
    }
}

/// The split point: fetches the History chunk on the first call.
#[leptos::wasm_split::wasm_split(history, wasm_split_path = ::leptos::wasm_split, fallible)]
pub fn load() -> Result<&'static dyn Dialog, LoadFailed> {
    Ok(&Chunk)
}

struct Chunk;

impl Dialog for Chunk {
    fn view(&self, open: RwSignal<bool>, versions: RwSignal<Vec<Version>>) -> AnyView {
        super::dialog(open, versions)
    }
}

thread_local! {
    static LOADED: Cell<Option<&'static dyn Dialog>> = const { Cell::new(None) };
}

/// The dialog's chunk, if it is loaded.
pub fn loaded() -> Option<&'static dyn Dialog> {
    LOADED.with(Cell::get)
}

/// Keeps the loaded chunk for the next openings.
pub fn keep(dialog: &'static dyn Dialog) {
    LOADED.with(|l| l.set(Some(dialog)));
}
