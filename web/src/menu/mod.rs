//! The context menu of the canvas: on a node (rename, duplicate, connect from here, delete),
//! on a wire (delete), on the empty canvas (add a step here, paste, fit). Opened by a right
//! click, Shift+F10 or the ContextMenu key; `role="menu"` with `menuitem`s, arrows move
//! (wrapping), Home/End, Enter picks, Escape or Tab closes and gives the canvas the keyboard.

mod actions;

use leptos::html;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::geometry::{NODE_HEIGHT, NODE_WIDTH};
use crate::state::Studio;
pub use actions::Action;

/// What the menu was opened on.
#[derive(Debug, Clone, PartialEq)]
pub enum Target {
    Node(String),
    Wire(String, String),
    Canvas,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Open {
    pub target: Target,
    /// Where it opened, in window pixels.
    pub client: (f64, f64),
    /// The same place in graph coordinates (where "Add step here" puts the step).
    pub graph: (f64, f64),
}

#[derive(Clone, Copy)]
pub struct Menu(pub RwSignal<Option<Open>>);

impl Default for Menu {
    fn default() -> Self {
        Menu(RwSignal::new(None))
    }
}

/// A right click on the canvas at `client` (`graph` in graph coordinates): selects what is
/// under the pointer (keeping a selection it belongs to) and opens its menu.
pub fn open_at(
    studio: Studio,
    menu: Menu,
    ev: &web_sys::MouseEvent,
    client: (f64, f64),
    graph: (f64, f64),
) {
    ev.prevent_default();
    let element = ev
        .target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok());
    let closest = |selector: &str| {
        element
            .as_ref()
            .and_then(|e| e.closest(selector).ok().flatten())
    };
    let target =
        if let Some(id) = closest("[data-node-id]").and_then(|n| n.get_attribute("data-node-id")) {
            studio.selection.update(|s| *s = s.pressed(&id));
            Target::Node(id)
        } else if let Some(ends) = closest("[data-edge-from]").and_then(|w| {
            Some((
                w.get_attribute("data-edge-from")?,
                w.get_attribute("data-edge-to")?,
            ))
        }) {
            studio.select(crate::selection::Selection::wire(ends.clone()));
            Target::Wire(ends.0, ends.1)
        } else {
            Target::Canvas
        };
    menu.0.set(Some(Open {
        target,
        client,
        graph,
    }));
}

/// Shift+F10 or the ContextMenu key: the menu of the selected node, at the node; else the
/// canvas's menu in the middle of the canvas.
fn open_from_keyboard(studio: Studio, menu: Menu) {
    let Some(canvas) = crate::browser::window()
        .and_then(|w| w.document())
        .and_then(|d| d.query_selector(".canvas").ok().flatten())
    else {
        return;
    };
    let rect = canvas.get_bounding_client_rect();
    let view = studio.viewport.get_untracked();
    let to_client = |(x, y): (f64, f64)| {
        (
            rect.left() + view.x + x * view.scale,
            rect.top() + view.y + y * view.scale,
        )
    };
    let selected = studio.selected_untracked();
    let node = selected.and_then(|id| {
        studio.graph.with_untracked(|g| {
            let n = g.as_ref()?.node(&id)?;
            Some((id, (n.x + NODE_WIDTH / 2.0, n.y + NODE_HEIGHT / 2.0)))
        })
    });
    let open = match node {
        Some((id, centre)) => Open {
            target: Target::Node(id),
            client: to_client(centre),
            graph: centre,
        },
        None => {
            let client = (
                rect.left() + rect.width() / 2.0,
                rect.top() + rect.height() / 2.0,
            );
            let graph = (
                (client.0 - rect.left() - view.x) / view.scale,
                (client.1 - rect.top() - view.y) / view.scale,
            );
            Open {
                target: Target::Canvas,
                client,
                graph,
            }
        }
    };
    menu.0.set(Some(open));
}

fn typing_in_a_field(ev: &web_sys::KeyboardEvent) -> bool {
    ev.target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .is_some_and(|e| matches!(e.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT"))
}

/// Whether `ev` happened inside an open context menu (its keys are the menu's own).
pub fn within_menu(ev: &web_sys::KeyboardEvent) -> bool {
    ev.target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .is_some_and(|e| e.closest("[role=menu]").ok().flatten().is_some())
}

/// Gives the canvas the keyboard back (after the menu closes).
pub fn focus_canvas() {
    let canvas = crate::browser::window()
        .and_then(|w| w.document())
        .and_then(|d| d.query_selector(".canvas").ok().flatten())
        .and_then(|e| e.dyn_into::<web_sys::SvgElement>().ok());
    if let Some(canvas) = canvas {
        let _ = canvas.focus();
    }
}

/// Arrows, Home and End in a menu: the keyboard moves to the item they lead to among `items`
/// (from the one that has it); `true` when the key was one of them.
pub fn move_focus(items: &[web_sys::HtmlElement], ev: &web_sys::KeyboardEvent) -> bool {
    let active = crate::browser::window()
        .and_then(|w| w.document())
        .and_then(|d| d.active_element());
    let current = items
        .iter()
        .position(|i| active.as_ref().is_some_and(|a| a.is_same_node(Some(i))));
    let Some(next) = next_index(current, items.len(), &ev.key()) else {
        return false;
    };
    ev.prevent_default();
    ev.stop_propagation();
    let _ = items[next].focus();
    true
}

/// The index the focus moves to from `current` among `count` items on `key`.
pub fn next_index(current: Option<usize>, count: usize, key: &str) -> Option<usize> {
    if count == 0 {
        return None;
    }
    let last = count - 1;
    Some(match (key, current) {
        ("ArrowDown", Some(i)) => (i + 1) % count,
        ("ArrowDown", None) | ("Home", _) => 0,
        ("ArrowUp", Some(0)) | ("ArrowUp", None) | ("End", _) => last,
        ("ArrowUp", Some(i)) => i - 1,
        _ => return None,
    })
}

#[component]
pub fn ContextMenu(menu: Menu, connecting: RwSignal<Option<String>>) -> impl IntoView {
    let studio = expect_context::<Studio>();
    let keys = window_event_listener(leptos::ev::keydown, move |ev| {
        let wanted = ev.key() == "ContextMenu" || (ev.shift_key() && ev.key() == "F10");
        if wanted && !typing_in_a_field(&ev) {
            ev.prevent_default();
            open_from_keyboard(studio, menu);
        }
    });
    on_cleanup(move || keys.remove());
    let list = NodeRef::<html::Div>::new();
    let items = move || -> Vec<web_sys::HtmlElement> {
        let Some(list) = list.get_untracked() else {
            return Vec::new();
        };
        // The items are the list's children (no NodeList needed).
        std::iter::successors(list.first_element_child(), |e| e.next_element_sibling())
            .filter_map(|e| e.dyn_into().ok())
            .collect()
    };
    // The first item takes the keyboard when the menu opens.
    Effect::new(move |_| {
        if list.get().is_some() {
            if let Some(first) = items().first() {
                let _ = first.focus();
            }
        }
    });
    let close = move || {
        menu.0.set(None);
        focus_canvas();
    };
    let on_key = move |ev: web_sys::KeyboardEvent| {
        let key = ev.key();
        if key == "Escape" || key == "Tab" {
            ev.prevent_default();
            ev.stop_propagation();
            close();
            return;
        }
        move_focus(&items(), &ev);
    };
    move || {
        menu.0.get().map(|open| {
            let actions = Action::for_target(&open.target);
            let label = match &open.target {
                Target::Node(id) => format!("Actions on {}", id.split_once(':').map_or(id.as_str(), |(_, n)| n)),
                Target::Wire(..) => "Actions on the wire".to_owned(),
                Target::Canvas => "Canvas actions".to_owned(),
            };
            let style = format!("left: {:.0}px; top: {:.0}px", open.client.0, open.client.1);
            let open_for_items = open.clone();
            view! {
                <div class="menu-backdrop"
                    on:pointerdown=move |_| close()
                    on:contextmenu=move |ev: web_sys::MouseEvent| { ev.prevent_default(); close(); }></div>
                <div class="context-menu" role="menu" aria-label=label style=style node_ref=list
                    data-testid="context-menu" on:keydown=on_key>
                    {actions.into_iter().map(|action| {
                        let open = open_for_items.clone();
                        view! {
                            <button role="menuitem" tabindex="-1" on:click=move |_| {
                                menu.0.set(None);
                                focus_canvas();
                                action.run(studio, &open, connecting);
                            }>{action.title()}</button>
                        }
                    }).collect_view()}
                </div>
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arrows_wrap_and_home_end_jump() {
        assert_eq!(next_index(None, 3, "ArrowDown"), Some(0));
        assert_eq!(next_index(Some(2), 3, "ArrowDown"), Some(0));
        assert_eq!(next_index(Some(0), 3, "ArrowUp"), Some(2));
        assert_eq!(next_index(Some(1), 3, "ArrowUp"), Some(0));
        assert_eq!(next_index(Some(1), 3, "End"), Some(2));
        assert_eq!(next_index(Some(1), 3, "Home"), Some(0));
        assert_eq!(next_index(Some(1), 3, "x"), None);
        assert_eq!(next_index(None, 0, "ArrowDown"), None);
    }
}
