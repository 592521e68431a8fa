//! Opening another document never loses the current one without asking. New, Examples, Open and
//! a dropped file ask first when the current text is not saved anywhere (not downloaded, shared
//! or opened as it is, and not a shipped example or template); a dropped file always asks (a
//! drop can be an accident). Whatever is replaced stays one Undo away and in History.

use leptos::prelude::*;

use crate::browser;
use crate::examples::EXAMPLES;
use crate::state::{Severity, Studio};
use crate::templates::{EMPTY_TOPOLOGY, EMPTY_WORKFLOW};

/// A replacement waiting for the person's answer.
#[derive(Debug, Clone, PartialEq)]
pub struct Asked {
    /// What would be opened, as the question names it.
    pub what: String,
    pub text: String,
}

/// The question (one at a time), and the text last saved somewhere (memory only).
#[derive(Clone, Copy)]
pub struct Replace {
    pub asked: RwSignal<Option<Asked>>,
    pub saved: RwSignal<Option<String>>,
}

impl Replace {
    pub fn new() -> Replace {
        Replace {
            asked: RwSignal::new(None),
            saved: RwSignal::new(None),
        }
    }

    /// The current text is kept somewhere, so replacing it loses nothing.
    fn kept(self, studio: Studio) -> bool {
        studio.text.with_untracked(|text| {
            text.trim().is_empty()
                || self
                    .saved
                    .with_untracked(|s| s.as_deref() == Some(text.as_str()))
                || [EMPTY_WORKFLOW, EMPTY_TOPOLOGY].contains(&text.as_str())
                || EXAMPLES.iter().any(|e| e.text == text)
        })
    }

    /// Notes that the current text was saved (downloaded, shared, opened from a file).
    pub fn mark_saved(self, studio: Studio) {
        self.saved.set(Some(studio.text.get_untracked()));
    }

    /// Opens `text` (named `what` in the question) now if nothing would be lost, else asks.
    pub fn open(self, studio: Studio, what: &str, text: String) {
        if self.kept(studio) {
            studio.load(text);
        } else {
            self.ask(what, text);
        }
    }

    /// Asks before opening `text`, whatever the current text is.
    pub fn ask(self, what: &str, text: String) {
        self.asked.set(Some(Asked {
            what: what.to_owned(),
            text,
        }));
    }
}

impl Default for Replace {
    fn default() -> Self {
        Replace::new()
    }
}

/// The download name of the current text: `NAME.logic.md` or `NAME.drtl.yaml`.
pub fn file_name(studio: Studio) -> String {
    let kind = studio.analysis.with_untracked(|a| a.kind);
    let name = studio.text.with_untracked(|t| {
        t.lines()
            .find_map(|l| l.strip_prefix("name:"))
            .map(|n| n.trim().trim_matches('"').replace([' ', '/', '\\'], "-"))
            .filter(|n| !n.is_empty())
            .unwrap_or_else(|| "document".to_owned())
    });
    match kind {
        crate::analysis::Kind::Logic => format!("{name}.logic.md"),
        crate::analysis::Kind::Drtl => format!("{name}.drtl.yaml"),
    }
}

/// Downloads the current text as a file; it counts as saved.
pub fn download(studio: Studio) {
    let text = studio.text.get_untracked();
    if browser::download(&file_name(studio), &text).is_err() {
        studio.notify(Severity::Error, "The browser refused the download");
    } else if let Some(replace) = use_context::<Replace>() {
        replace.mark_saved(studio);
    }
}

/// The question, when one is asked.
#[component]
pub fn ReplaceDialog() -> impl IntoView {
    let studio = expect_context::<Studio>();
    let replace = expect_context::<Replace>();
    let close = move || replace.asked.set(None);
    let go = move |first_download: bool| {
        let Some(asked) = replace.asked.get_untracked() else {
            return;
        };
        if first_download {
            download(studio);
        }
        replace.asked.set(None);
        studio.load(asked.text);
        studio.notify(
            Severity::Info,
            format!(
                "Opened {}. The text before it is one Undo away (and in History).",
                asked.what
            ),
        );
    };
    Effect::new(move |_| {
        if replace.asked.with(Option::is_some) {
            request_animation_frame(|| {
                browser::focus("[data-testid=\"confirm-cancel\"]");
            });
        }
    });
    move || {
        replace.asked.get().map(|asked| {
            let current = file_name(studio);
            view! {
                <div class="dialog-backdrop" on:click=move |_| close()>
                    <div class="dialog" role="alertdialog" aria-modal="true" aria-labelledby="replace-title"
                        aria-describedby="replace-body" data-testid="replace-dialog"
                        on:click=|ev| ev.stop_propagation()
                        on:keydown=move |ev: leptos::ev::KeyboardEvent| if ev.key() == "Escape" { close() }>
                        <h2 id="replace-title">{format!("Open {} instead?", asked.what)}</h2>
                        <p id="replace-body">{format!("The current text ({current}) is not downloaded or shared. Opening replaces it on the canvas; Undo and History bring it back.")}</p>
                        <div class="dialog-actions">
                            <button data-testid="confirm-cancel" on:click=move |_| close()>"Cancel"</button>
                            <button data-testid="confirm-download" on:click=move |_| go(true)>"Download it, then open"</button>
                            <button class="primary" data-testid="confirm-replace" on:click=move |_| go(false)>"Open"</button>
                        </div>
                    </div>
                </div>
            }
        })
    }
}
