//! F2 in the text: a box over the name, holding it selected; Enter renames the step or node
//! everywhere — a step through the canvas's own rename (core's `RenameStep`, the node keeps its
//! place and selection), anything else through the `ide` layer's — as one undoable change;
//! Escape leaves it. A refusal is said in the box, which stays open.

use leptos::html;
use leptos::prelude::*;
use logicmd::source::Span;

use super::{caret, ide, Assist};
use crate::source::pane::SourcePane;
use crate::state::Studio;

/// Renames what the box is on to `to`: the new text's caret place, or the refusal.
fn rename(studio: Studio, offset: usize, from: &str, to: &str) -> Result<usize, String> {
    let to = to.trim();
    let step = format!("step:{from}");
    studio.analyse_pending();
    let is_step = studio.graph.with_untracked(|g| {
        g.as_ref()
            .and_then(|g| g.node(&step))
            .and_then(|n| n.span)
            .is_some_and(|s| s.start <= offset && offset <= s.end)
    });
    if is_step {
        crate::rename::rename(studio, &step, to)?;
    } else {
        let ide = ide::queries();
        let text = studio.text.get_untracked();
        let renamed = ide.rename(&text, offset, to)?;
        studio.replace_text(renamed);
    }
    Ok(offset)
}

#[component]
pub fn RenameBox(assist: Assist, pane: SourcePane) -> impl IntoView {
    let studio = expect_context::<Studio>();
    let input = NodeRef::<html::Input>::new();
    Effect::new(move |_| {
        if assist.renaming.with(Option::is_some) {
            request_animation_frame(move || {
                if let Some(input) = input.get_untracked() {
                    let _ = input.focus();
                    input.select();
                }
            });
        }
    });
    let back_to_text = move |at: Option<usize>| {
        assist.renaming.set(None);
        request_animation_frame(move || {
            studio.text.with_untracked(|t| match at {
                Some(at) => {
                    let _ = caret::select(pane, t, Span::new(at, at));
                }
                None => {
                    if let Some(area) = pane.textarea.get_untracked() {
                        let _ = area.focus();
                    }
                }
            });
        });
    };
    let on_key = move |ev: web_sys::KeyboardEvent| {
        let Some(renaming) = assist.renaming.get_untracked() else {
            return;
        };
        match ev.key().as_str() {
            "Enter" => {
                ev.prevent_default();
                let to = input.get_untracked().map(|i| i.value()).unwrap_or_default();
                match rename(studio, renaming.offset, &renaming.name, &to) {
                    Ok(at) => back_to_text(Some(at)),
                    Err(why) => assist.renaming.update(|r| {
                        if let Some(r) = r {
                            r.refused = Some(why);
                        }
                    }),
                }
            }
            "Escape" => {
                ev.prevent_default();
                ev.stop_propagation();
                back_to_text(None);
            }
            _ => {}
        }
    };
    move || {
        let renaming = assist.renaming.get()?;
        Some(view! {
            <div class="assist-anchor" style=renaming.place.style(pane, false, 340.0)>
                <div class="assist-popup source-rename" data-testid="source-rename">
                    <input node_ref=input value=renaming.name.clone() aria-label=format!("Rename {}", renaming.name)
                        spellcheck="false" autocomplete="off"
                        on:keydown=on_key on:blur=move |_| assist.renaming.set(None) />
                    {renaming.refused.map(|why| view! { <p class="refused" role="alert">{why}</p> })}
                    <p class="rename-keys">"Enter renames everywhere · Esc cancels"</p>
                </div>
            </div>
        })
    }
}
