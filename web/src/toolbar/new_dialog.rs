//! New: start from an empty workflow, an empty DRTL topology, or an example. Picking one asks
//! first when the current text is not saved anywhere ([`crate::replace`]).

use leptos::prelude::*;

use super::Dialogs;
use crate::replace::Replace;
use crate::state::Studio;
use crate::templates::templates;

#[component]
pub fn NewDialog() -> impl IntoView {
    let studio = expect_context::<Studio>();
    let replace = expect_context::<Replace>();
    let dialogs = expect_context::<Dialogs>();
    let close = move || dialogs.new.set(false);
    let pick = move |title: &'static str, text: &'static str| {
        close();
        replace.open(studio, title, text.to_owned());
        crate::browser::focus(".canvas");
    };
    Effect::new(move |_| {
        if dialogs.new.get() {
            // The first choice takes the keyboard when the dialog opens.
            request_animation_frame(|| {
                crate::browser::focus(".templates button");
            });
        }
    });
    move || {
        dialogs.new.get().then(|| {
            let (blank, examples): (Vec<_>, Vec<_>) =
                templates().into_iter().partition(|t| t.blank);
            let list = move |items: Vec<crate::templates::Template>| {
                items
                    .into_iter()
                    .map(|t| view! {
                        <li><button data-template=t.id on:click=move |_| pick(t.title, t.text)>{t.title}</button></li>
                    })
                    .collect_view()
            };
            view! {
                <div class="dialog-backdrop" on:click=move |_| close()>
                    <div class="dialog" role="dialog" aria-modal="true" aria-labelledby="new-title"
                        data-testid="new-dialog"
                        on:click=|ev| ev.stop_propagation()
                        on:keydown=move |ev: leptos::ev::KeyboardEvent| if ev.key() == "Escape" { close() }>
                        <h2 id="new-title">"Start from"</h2>
                        <ul class="templates" aria-label="Empty">{list(blank)}</ul>
                        <h3 class="templates-heading">"Examples"</h3>
                        <ul class="templates" aria-label="Examples">{list(examples)}</ul>
                        <button class="dialog-close" on:click=move |_| close()>"Cancel"</button>
                    </div>
                </div>
            }
        })
    }
}
