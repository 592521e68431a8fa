//! The name of a node edited in place on the canvas (F2 or a double-click). Enter renames and
//! gives the renamed node the keyboard back (so keyboard building goes on); Escape cancels;
//! leaving the box renames, or, refused, closes it and says why. A refusal on Enter keeps the
//! box open with the reason under it. The box follows its node as the view moves, and closes
//! when the document changes under it or another node is selected: it never floats over
//! another node.

use leptos::html;
use leptos::prelude::*;

use crate::geometry::NODE_WIDTH;
use crate::rename::rename;
use crate::state::{Severity, Studio};

#[component]
pub fn RenameField() -> impl IntoView {
    let studio = expect_context::<Studio>();
    let refused = RwSignal::new(None::<String>);
    // The state the box was opened in or its own renames left: other changes close it.
    let ours = StoredValue::new(None::<Seen>);
    close_when_the_document_moves_on(studio, refused, ours);
    // One box per renaming, kept while its own renames change the node's id.
    let open = Memo::new(move |_| studio.renaming.with(Option::is_some));
    move || {
        if !open.get() {
            return None;
        }
        let id = studio.renaming.get_untracked()?;
        let name = studio
            .graph
            .with_untracked(|g| g.as_ref()?.node(&id).map(|n| n.name.clone()))?;
        let place = move || {
            let id = studio.renaming.get()?;
            let (x, y) = studio
                .graph
                .with(|g| g.as_ref()?.node(&id).map(|n| (n.x, n.y)))?;
            let view = studio.viewport.get();
            Some(format!(
                "left: {:.0}px; top: {:.0}px; width: {:.0}px",
                view.x + (x + 36.0) * view.scale,
                view.y + (y + 12.0) * view.scale,
                (NODE_WIDTH - 48.0) * view.scale.max(0.6),
            ))
        };
        let input = NodeRef::<html::Input>::new();
        request_animation_frame(move || {
            if let Some(input) = input.get_untracked() {
                let _ = input.focus();
                input.select();
            }
        });
        let commit = move |value: String, how: How| {
            let Some(id) = studio.renaming.get_untracked() else {
                return;
            };
            match rename(studio, &id, &value) {
                Ok(new_id) => {
                    refused.set(None);
                    if how == How::Typing {
                        studio.renaming.set(Some(new_id.clone()));
                        ours.set_value(Some((
                            studio.text.get_untracked(),
                            studio.selected_untracked(),
                            Some(new_id),
                        )));
                        return;
                    }
                    studio.renaming.set(None);
                    if how == How::Enter {
                        give_back_the_keyboard(studio);
                    }
                }
                Err(reason) => {
                    let said = format!("Not renamed: {reason}");
                    if how == How::Leaving {
                        studio.notify(Severity::Error, said);
                        refused.set(None);
                        studio.renaming.set(None);
                    } else {
                        refused.set(Some(said));
                    }
                }
            }
        };
        let typed = crate::inspector::Typed::new(move |raw| commit(raw, How::Typing));
        let (typed_input, typed_enter, typed_leave) = (typed.clone(), typed.clone(), typed);
        let error_id = "rename-error";
        Some(view! {
            <div class="rename-box" style=place>
                <input class="rename" data-testid="rename" aria-label="New name" node_ref=input
                    value=name aria-invalid=move || refused.with(Option::is_some).to_string()
                    aria-describedby=move || refused.with(Option::is_some).then_some(error_id)
                    on:input=move |ev| { refused.set(None); typed_input.input(event_target_value(&ev)); }
                    on:keydown=move |ev: leptos::ev::KeyboardEvent| match ev.key().as_str() {
                        "Enter" => {
                            ev.prevent_default();
                            typed_enter.cancel();
                            commit(event_target_value(&ev), How::Enter);
                        }
                        "Escape" => {
                            ev.prevent_default();
                            ev.stop_propagation();
                            typed_enter.cancel();
                            refused.set(None);
                            studio.renaming.set(None);
                            give_back_the_keyboard(studio);
                        }
                        _ => {}
                    }
                    on:blur=move |ev| {
                        typed_leave.cancel();
                        commit(event_target_value(&ev), How::Leaving);
                    } />
                {move || refused.get().map(|m| view! {
                    <span class="rename-error" id=error_id role="alert" data-testid="rename-error">{m}</span>
                })}
            </div>
        })
    }
}

/// How a name is committed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum How {
    /// Typing paused: renamed, the box stays open.
    Typing,
    /// Enter: renamed, the node gets the keyboard back.
    Enter,
    /// The box lost the keyboard: renamed, or closed with the reason said.
    Leaving,
}

/// The selected node (the renamed one, under its new id) takes the keyboard back.
fn give_back_the_keyboard(studio: Studio) {
    if let Some(id) = studio.selected_untracked() {
        super::keys::focus_node(&id);
    }
}

/// The state a box was opened in, or its own last rename left: (text, selected node, the node
/// renamed).
type Seen = (String, Option<String>, Option<String>);

/// A box left open closes when the text changes by any other way than its own renames, or
/// another node is selected.
fn close_when_the_document_moves_on(
    studio: Studio,
    refused: RwSignal<Option<String>>,
    ours: StoredValue<Option<Seen>>,
) {
    Effect::new(move |_| {
        let renaming = studio.renaming.get();
        studio.text.track();
        studio.selection.track();
        if renaming.is_none() {
            ours.set_value(None);
            return;
        }
        let now = (
            studio.text.get_untracked(),
            studio.selected_untracked(),
            renaming,
        );
        match ours.get_value() {
            None => ours.set_value(Some(now)),
            Some(seen) if seen == now => {}
            Some(_) => {
                ours.set_value(None);
                refused.set(None);
                studio.renaming.set(None);
            }
        }
    });
}
