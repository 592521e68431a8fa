//! The name of a node edited in place on the canvas (F2 or a double-click): Enter or leaving
//! the field renames, Escape cancels; a refusal is shown and the field stays open.

use leptos::html;
use leptos::prelude::*;

use crate::geometry::NODE_WIDTH;
use crate::rename::rename;
use crate::state::{Severity, Studio};

#[component]
pub fn RenameField() -> impl IntoView {
    let studio = expect_context::<Studio>();
    move || {
        let id = studio.renaming.get()?;
        let (name, x, y) = studio
            .graph
            .with_untracked(|g| g.as_ref()?.node(&id).map(|n| (n.name.clone(), n.x, n.y)))?;
        let view = studio.viewport.get_untracked();
        let style = format!(
            "left: {:.0}px; top: {:.0}px; width: {:.0}px",
            view.x + (x + 36.0) * view.scale,
            view.y + (y + 12.0) * view.scale,
            (NODE_WIDTH - 48.0) * view.scale.max(0.6),
        );
        let input = NodeRef::<html::Input>::new();
        request_animation_frame(move || {
            if let Some(input) = input.get_untracked() {
                let _ = input.focus();
                input.select();
            }
        });
        let commit = {
            let id = id.clone();
            move |value: String| {
                if studio.renaming.get_untracked().as_deref() != Some(id.as_str()) {
                    return;
                }
                match rename(studio, &id, &value) {
                    Ok(()) => studio.renaming.set(None),
                    Err(reason) => studio.notify(Severity::Error, format!("Not renamed: {reason}")),
                }
            }
        };
        let on_blur = commit.clone();
        Some(view! {
            <input class="rename" data-testid="rename" aria-label="New name" node_ref=input
                value=name style=style
                on:keydown=move |ev: leptos::ev::KeyboardEvent| match ev.key().as_str() {
                    "Enter" => commit(event_target_value(&ev)),
                    "Escape" => studio.renaming.set(None),
                    _ => {}
                }
                on:blur=move |ev| on_blur(event_target_value(&ev)) />
        })
    }
}
