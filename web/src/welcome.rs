//! The first screen orients: on a first visit (nothing saved yet) and whenever the canvas is
//! empty, a card says in two lines what LOGIC.md and DRTL are and offers the three ways in —
//! start from a template, open a file, try the example run.

use leptos::prelude::*;

use crate::browser;
use crate::examples::EXAMPLES;
use crate::replace::Replace;
use crate::room::Room;
use crate::run::{run_now, RunState, SetupFields};
use crate::state::Studio;
use crate::toolbar::Dialogs;

/// Where "welcomed" is remembered (a flag only).
const KEY: &str = "logicmd.studio.welcomed";

/// Whether the first visit's card is still to be shown.
#[derive(Clone, Copy)]
pub struct Welcome(RwSignal<bool>);

impl Welcome {
    pub fn new(first_visit: bool) -> Welcome {
        let welcomed = browser::window()
            .and_then(|w| w.local_storage().ok().flatten())
            .and_then(|s| s.get_item(KEY).ok().flatten())
            .is_some();
        Welcome(RwSignal::new(first_visit && !welcomed))
    }

    /// The card was answered or dismissed: not shown again on this browser.
    fn done(self) {
        self.0.set(false);
        if let Some(storage) = browser::window().and_then(|w| w.local_storage().ok().flatten()) {
            let _ = storage.set_item(KEY, "1");
        }
    }
}

#[component]
pub fn WelcomeCard() -> impl IntoView {
    let studio = expect_context::<Studio>();
    let welcome = expect_context::<Welcome>();
    let dialogs = expect_context::<Dialogs>();
    let replace = expect_context::<Replace>();
    let run = expect_context::<RunState>();
    let room = expect_context::<Room>();
    let setup = expect_context::<SetupFields>();
    // A first visit starts with the keyboard on the first way in.
    if welcome.0.get_untracked() {
        request_animation_frame(|| {
            browser::focus("[data-testid=\"welcome-template\"]");
        });
    }
    let empty = move || {
        studio.text.with(|t| t.trim().is_empty())
            || studio
                .graph
                .with(|g| g.as_ref().is_none_or(|g| g.nodes.is_empty()))
                && studio.analysis.with(|a| a.graph.is_some())
    };
    let template = move |_| {
        welcome.done();
        dialogs.new.set(true);
    };
    let open = move |_| {
        welcome.done();
        dialogs.open_file();
    };
    let example = move |_| {
        welcome.done();
        let example = EXAMPLES[0].text;
        if studio.text.with_untracked(|t| t != example) {
            replace.open(studio, EXAMPLES[0].title, example.to_owned());
        }
        if studio.text.with_untracked(|t| t == example) {
            run_now(studio, run, room, setup);
        }
    };
    move || {
        let first = welcome.0.get();
        (first || empty()).then(|| view! {
            <section class="welcome" data-testid="welcome" aria-labelledby="welcome-title">
                <h2 id="welcome-title">{if first { "Welcome to the logicmd studio" } else { "Nothing here yet" }}</h2>
                <p>"LOGIC.md writes how an AI agent reasons — steps, checks, decision trees — in a Markdown file's frontmatter."</p>
                <p>"DRTL wires models, verifiers, gates and reviews into a topology that refuses to go on when an obligation is unmet."</p>
                <div class="welcome-ways">
                    <button class="primary" data-testid="welcome-template" on:click=template>"Start from a template"</button>
                    <button data-testid="welcome-open" on:click=open>"Open a file"</button>
                    <button data-testid="welcome-run" on:click=example>"Try the example run"</button>
                </div>
                {first.then(|| view! {
                    <button class="welcome-close" data-testid="welcome-close" aria-label="Close the welcome"
                        on:click=move |_| welcome.done()>"×"</button>
                })}
            </section>
        })
    }
}
