//! The split point of the editing tools' chunk (see the module above): a trait object handed
//! out by the chunk, kept once it is loaded.

use std::cell::Cell;

use leptos::prelude::*;

use crate::palette_search::{Reach, Typed};
use crate::state::Studio;

/// What the chunk gives the studio.
pub trait Tools {
    fn copy(&self, studio: Studio);
    fn paste(&self, studio: Studio, at: Option<(f64, f64)>);
    fn duplicate(&self, studio: Studio);
    fn format(&self, studio: Studio);
    fn share(&self, studio: Studio);
    fn palette(&self, open: RwSignal<bool>, to: Reach, typed: Typed) -> AnyView;
}

/// The chunk could not be fetched or instantiated.
pub struct LoadFailed;

impl From<leptos::wasm_split::SplitLoaderError> for LoadFailed {
    fn from(_: leptos::wasm_split::SplitLoaderError) -> Self {
        LoadFailed
    }
}

/// The split point: fetches the tools' chunk on the first call.
#[leptos::wasm_split::wasm_split(tools, wasm_split_path = ::leptos::wasm_split, fallible)]
pub fn load() -> Result<&'static dyn Tools, LoadFailed> {
    Ok(&Chunk)
}

struct Chunk;

impl Tools for Chunk {
    fn copy(&self, studio: Studio) {
        crate::clipboard::copy(studio);
    }

    fn paste(&self, studio: Studio, at: Option<(f64, f64)>) {
        crate::clipboard::paste(studio, at);
    }

    fn duplicate(&self, studio: Studio) {
        crate::clipboard::duplicate(studio);
    }

    fn format(&self, studio: Studio) {
        crate::palette_search::format_text(studio);
    }

    fn share(&self, studio: Studio) {
        crate::panels::share(studio);
    }

    fn palette(&self, open: RwSignal<bool>, to: Reach, typed: Typed) -> AnyView {
        crate::palette_search::dialog(open, to, typed)
    }
}

thread_local! {
    static LOADED: Cell<Option<&'static dyn Tools>> = const { Cell::new(None) };
}

/// The chunk, if it is loaded.
pub fn loaded() -> Option<&'static dyn Tools> {
    LOADED.with(Cell::get)
}

/// Keeps the loaded chunk for the next uses.
pub fn keep(tools: &'static dyn Tools) {
    LOADED.with(|l| l.set(Some(tools)));
}
