//! The editor queries of the source pane — completion, hover, definition, quick fixes, rename —
//! answered by the `logicmd-ide` crate, the layer `logicmd lsp` answers from (no second
//! implementation). It is a wasm chunk of its own, like run mode and History: the rest of the
//! studio reaches it only through [`Assistance`] (the pane's keys, typing, pointer and views,
//! `source::assist`, which asks [`Ide`] inside the chunk), so naming `logicmd_ide` or calling
//! `source::assist` outside the chunk would pull them back into the first download. The chunk is fetched once the first screen is up
//! ([`prefetch`]), or on the first query that needs it.

mod chunk;

use std::cell::Cell;

use leptos::prelude::*;
use leptos::task::spawn_local;
use logicmd::diagnostic::Diagnostic;
use logicmd::source::Span;
use web_sys::KeyboardEvent;

use super::pane::SourcePane;
use crate::state::Studio;

/// One completion, as the popup shows and inserts it.
#[derive(Debug, Clone, PartialEq)]
pub struct Completion {
    pub label: String,
    /// What it is, for its icon and the screen reader (`property`, `reference`, `field`...).
    pub kind: &'static str,
    pub detail: Option<String>,
    /// Markdown about the selected item.
    pub documentation: Option<String>,
    pub insert: String,
    /// The bytes of the document it replaces (the word typed so far).
    pub replace: Span,
}

/// What the text at a place is, as markdown, and the range it speaks about.
#[derive(Debug, Clone, PartialEq)]
pub struct HoverCard {
    pub markdown: String,
    pub span: Span,
}

/// A quick fix of core's list (`logicmd::fix`), as the whole text it leaves.
#[derive(Debug, Clone, PartialEq)]
pub struct QuickFix {
    pub title: String,
    /// The code of the problem it repairs, and where that problem is.
    pub code: Option<String>,
    pub diagnostic: Option<Span>,
    /// The one to apply first (the only safe fix of its problem).
    pub preferred: bool,
    /// The document once fixed.
    pub text: String,
}

/// What the chunk answers, each about the studio's one document `text` at a byte offset.
pub trait Ide {
    fn completion(&self, text: &str, offset: usize) -> Vec<Completion>;
    fn hover(&self, text: &str, offset: usize) -> Option<HoverCard>;
    /// Where the name at `offset` is defined in this document.
    fn definition(&self, text: &str, offset: usize) -> Option<Span>;
    /// The quick fixes of the problems overlapping `range`.
    fn fixes(&self, text: &str, range: Span) -> Vec<QuickFix>;
    /// The range and current name of what can be renamed at `offset`, or why nothing can.
    fn prepare_rename(&self, text: &str, offset: usize) -> Result<(Span, String), String>;
    /// The document with the thing at `offset` renamed to `to` everywhere, or why not.
    fn rename(&self, text: &str, offset: usize, to: &str) -> Result<String, String>;
}

/// The pane's side of the chunk: whether it is loaded. (The popups' state, and the textarea's
/// ARIA attributes that follow it, live in the chunk with the code that uses them.)
#[derive(Clone, Copy)]
pub struct PaneIde {
    pub ready: RwSignal<bool>,
}

impl Default for PaneIde {
    fn default() -> Self {
        PaneIde::new()
    }
}

impl PaneIde {
    pub fn new() -> Self {
        PaneIde {
            ready: RwSignal::new(loaded().is_some()),
        }
    }

    /// Fetches the chunk (on the first focus or pointer in the source or the problems list).
    pub fn wake(&self) {
        prefetch(self.ready);
    }
}

/// A command of the pane's keys (or Ctrl+click), asked for before the chunk may be loaded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Command {
    /// Ctrl+Space: the completions at the caret.
    Complete,
    /// Ctrl+.: the quick fixes of the caret's line.
    Fixes,
    /// F12, Ctrl+click: the definition of the name at the caret.
    Definition,
    /// F2: rename the name at the caret.
    Rename,
}

impl Command {
    /// The command of key event `ev`, if it is one.
    pub fn of_key(ev: &KeyboardEvent) -> Option<Command> {
        let modifier = ev.ctrl_key() || ev.meta_key();
        match ev.key().as_str() {
            " " if modifier => Some(Command::Complete),
            "." if modifier => Some(Command::Fixes),
            "F12" => Some(Command::Definition),
            "F2" => Some(Command::Rename),
            _ => None,
        }
    }
}

/// The pane's assistance as the rest of the studio drives it: its keys, typing, the pointer,
/// and the views it draws (the popup, the fix menu, the hover card, the rename box, the gutter's
/// markers, the problems list's fix buttons). All of it lives in the chunk.
pub trait Assistance {
    /// Handles a key of the text; true when it did.
    fn on_key(&self, studio: Studio, pane: SourcePane, ev: &KeyboardEvent) -> bool;
    fn command(&self, studio: Studio, pane: SourcePane, command: Command);
    /// After an input event of kind `input_type` that typed `data`.
    fn after_input(
        &self,
        studio: Studio,
        pane: SourcePane,
        input_type: Option<&str>,
        data: Option<&str>,
    );
    /// The pointer moved to viewport point (`x`, `y`) over the text (`x < 0`: it left): the
    /// hover card shows what is there once it rests.
    fn pointer(&self, studio: Studio, pane: SourcePane, x: i32, y: i32);
    /// The problems changed: lists the document's quick fixes again.
    fn refresh_fixable(&self, text: &str);
    fn overlays(&self, pane: SourcePane) -> AnyView;
    fn gutter(&self, pane: SourcePane, scroll_top: RwSignal<f64>) -> AnyView;
    fn fix_buttons(&self, diagnostic: Diagnostic, pane: SourcePane) -> AnyView;
    /// The text lost the keyboard: the popup and the fix menu close.
    fn close_lists(&self);
    /// The text scrolled or the pointer left it: the hover card closes.
    fn close_card(&self);
}

/// The chunk could not be fetched or instantiated.
pub struct LoadFailed;

impl From<leptos::wasm_split::SplitLoaderError> for LoadFailed {
    fn from(_: leptos::wasm_split::SplitLoaderError) -> Self {
        LoadFailed
    }
}

/// The split point: fetches the chunk on the first call.
#[leptos::wasm_split::wasm_split(source_ide, wasm_split_path = ::leptos::wasm_split, fallible)]
fn load() -> Result<&'static dyn Assistance, LoadFailed> {
    chunk::install_styles();
    Ok(&chunk::Chunk)
}

thread_local! {
    static LOADED: Cell<Option<&'static dyn Assistance>> = const { Cell::new(None) };
    static LOADING: Cell<bool> = const { Cell::new(false) };
}

/// The queries, for the code that runs in the chunk (`source::assist`).
pub(crate) fn queries() -> &'static dyn Ide {
    &chunk::Chunk
}

/// The chunk, once loaded.
pub fn loaded() -> Option<&'static dyn Assistance> {
    LOADED.with(Cell::get)
}

/// Starts fetching the chunk unless it is loaded or on its way; `ready` is set when it is.
pub fn prefetch(ready: RwSignal<bool>) {
    if loaded().is_some() || LOADING.with(|l| l.replace(true)) {
        return;
    }
    when_loaded(Some(ready), Box::new(|_| {}));
}

/// Fetches the chunk, then runs `then` with it (nothing when it cannot be fetched: the pane
/// works as a plain text editor).
pub fn when_loaded(ready: Option<RwSignal<bool>>, then: Box<dyn FnOnce(&'static dyn Assistance)>) {
    spawn_local(async move {
        match load().await {
            Ok(ide) => {
                LOADED.with(|l| l.set(Some(ide)));
                if let Some(ready) = ready {
                    ready.set(true);
                }
                then(ide);
            }
            Err(LoadFailed) => LOADING.with(|l| l.set(false)),
        }
    });
}
