//! The studio's shared state: the text is the single source of truth; everything drawn is
//! derived from it, and every change (canvas, inspector, typing) goes through `apply` or
//! `replace_text` so that undo sees it.

use leptos::prelude::*;
use logicmd::edit::{apply, Edit};
use logicmd::graph::Graph;

use crate::analysis::{analyze, Analysis};
use crate::browser;
use crate::history::History;

#[derive(Debug, Clone, PartialEq)]
pub enum Severity {
    Info,
    Warning,
    Error,
}

/// A message in the status bar (share results, refused connections, unreadable files...).
#[derive(Debug, Clone, PartialEq)]
pub struct Notice {
    pub severity: Severity,
    pub text: String,
}

/// Pan (translation in screen pixels) and zoom of the canvas.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Viewport {
    pub x: f64,
    pub y: f64,
    pub scale: f64,
}

impl Default for Viewport {
    fn default() -> Self {
        Viewport {
            x: 40.0,
            y: 40.0,
            scale: 1.0,
        }
    }
}

#[derive(Clone, Copy)]
pub struct Studio {
    pub text: RwSignal<String>,
    pub analysis: Memo<Analysis>,
    /// The last graph of a text that parsed: kept while the text is broken.
    pub graph: Memo<Option<Graph>>,
    /// Milliseconds the last analysis (parse, validate, graph, layout) took.
    pub analysis_ms: RwSignal<f64>,
    pub history: RwSignal<History>,
    pub selected: RwSignal<Option<String>>,
    pub notice: RwSignal<Option<Notice>>,
    pub viewport: RwSignal<Viewport>,
    /// Bumped to ask the canvas to fit the graph into view.
    pub fit_request: RwSignal<u32>,
    /// An inline error of the inspector: (pointer, message).
    pub field_error: RwSignal<Option<(String, String)>>,
    /// The last share link made, shown for copying by hand.
    pub share_link: RwSignal<Option<String>>,
}

impl Studio {
    pub fn new(initial: String) -> Studio {
        let text = RwSignal::new(initial);
        let analysis_ms = RwSignal::new(0.0);
        let analysis = Memo::new(move |_| {
            let started = browser::now_ms();
            let result = text.with(|t| analyze(t));
            analysis_ms.set(browser::now_ms() - started);
            result
        });
        let graph = Memo::new(move |previous: Option<&Option<Graph>>| {
            analysis
                .with(|a| a.graph.clone())
                .or_else(|| previous.cloned().flatten())
        });
        Studio {
            text,
            analysis,
            graph,
            analysis_ms,
            history: RwSignal::new(History::default()),
            selected: RwSignal::new(None),
            notice: RwSignal::new(None),
            viewport: RwSignal::new(Viewport::default()),
            fit_request: RwSignal::new(0),
            field_error: RwSignal::new(None),
            share_link: RwSignal::new(None),
        }
    }

    pub fn notify(&self, severity: Severity, text: impl Into<String>) {
        self.notice.set(Some(Notice {
            severity,
            text: text.into(),
        }));
    }

    /// Replaces the whole text as one undoable change (typing, opening, examples).
    pub fn replace_text(&self, new: String) {
        let old = self.text.get_untracked();
        if old == new {
            return;
        }
        self.history.update(|h| h.record(old));
        self.text.set(new);
    }

    /// Loads a new document: one undoable change, selection cleared, view fitted.
    pub fn load(&self, new: String) {
        self.selected.set(None);
        self.field_error.set(None);
        self.replace_text(new);
        self.fit_request.update(|n| *n += 1);
    }

    /// Applies a structural edit through the core; the refusal's message is returned.
    pub fn apply(&self, edit: &Edit) -> Result<logicmd::edit::Applied, String> {
        let old = self.text.get_untracked();
        match apply(&old, edit) {
            Ok(applied) => {
                if applied.text != old {
                    self.history.update(|h| h.record(old));
                    self.text.set(applied.text.clone());
                }
                Ok(applied)
            }
            Err(refusal) => Err(refusal.message),
        }
    }

    pub fn undo(&self) {
        let current = self.text.get_untracked();
        if let Some(previous) = self.history.try_update(|h| h.undo(current)).flatten() {
            self.text.set(previous);
        }
    }

    pub fn redo(&self) {
        let current = self.text.get_untracked();
        if let Some(next) = self.history.try_update(|h| h.redo(current)).flatten() {
            self.text.set(next);
        }
    }
}
