//! What a screen reader hears: one polite live region, present from the start (a region added
//! with its message is not announced), fed by keyboard actions and the studio's notices.

use leptos::prelude::*;

use crate::state::Studio;

#[derive(Clone, Copy)]
pub struct Announcer(pub RwSignal<String>);

impl Announcer {
    pub fn say(self, text: impl Into<String>) {
        self.0.set(text.into());
    }
}

#[component]
pub fn LiveRegion() -> impl IntoView {
    let studio = expect_context::<Studio>();
    let announcer = expect_context::<Announcer>();
    Effect::new(move |_| {
        if let Some(notice) = studio.notice.get() {
            announcer.say(notice.text);
        }
    });
    view! {
        <div class="sr-only" aria-live="polite" data-testid="announcer">{move || announcer.0.get()}</div>
    }
}
