//! The hover card: what the name, key, expression or problem under the pointer is (or at the
//! caret, Ctrl+K Ctrl+I), from the `ide` layer's hover, drawn under its line.

use leptos::prelude::*;

use super::markdown::render;
use super::Assist;
use crate::source::pane::SourcePane;

/// The card's id (the textarea is described by it while it shows).
pub const CARD_ID: &str = "source-hover";

#[component]
pub fn HoverCardView(assist: Assist, pane: SourcePane) -> impl IntoView {
    move || {
        let card = assist.card.get()?;
        Some(view! {
            <div class="assist-anchor below" style=card.place.style(pane, true, 520.0)>
                <div id=CARD_ID class="assist-popup hover-card" role="tooltip" data-testid="hover-card">
                    {render(&card.markdown)}
                </div>
            </div>
        })
    }
}
