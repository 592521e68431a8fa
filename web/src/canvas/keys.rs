//! The canvas from the keyboard: arrows move the selection along wires (down to what a node
//! feeds, up to what it needs, left and right to its neighbours in its row), Enter opens the
//! inspector, C starts a connection from the selected node and Enter on another node makes it
//! (Escape cancels), A adds a step after the selected one. Delete and F2 are the studio's
//! global keys.

use leptos::prelude::*;
use logicmd::graph::{Graph, GraphNode};
use wasm_bindgen::JsCast;

use crate::a11y::Announcer;
use crate::state::{Severity, Studio};

/// The node an arrow key leads to from `from` (or the first node when nothing is selected).
pub fn next_node(graph: &Graph, from: Option<&str>, key: &str) -> Option<String> {
    let Some(current) = from.and_then(|id| graph.node(id)) else {
        return graph.nodes.first().map(|n| n.id.clone());
    };
    let by_place = |a: &&GraphNode, b: &&GraphNode| {
        (a.x, a.y)
            .partial_cmp(&(b.x, b.y))
            .unwrap_or(std::cmp::Ordering::Equal)
    };
    let linked = |down: bool| {
        let mut found: Vec<&GraphNode> = graph
            .edges
            .iter()
            .filter_map(|e| match down {
                true if e.source == current.id => graph.node(&e.target),
                false if e.target == current.id => graph.node(&e.source),
                _ => None,
            })
            .collect();
        found.sort_by(by_place);
        found.first().map(|n| n.id.clone())
    };
    let beside = |right: bool| {
        let row = graph
            .nodes
            .iter()
            .filter(|n| (n.y - current.y).abs() < 1.0 && n.id != current.id);
        let side = row.filter(|n| {
            if right {
                n.x > current.x
            } else {
                n.x < current.x
            }
        });
        let nearest =
            side.min_by(|a, b| (a.x - current.x).abs().total_cmp(&(b.x - current.x).abs()));
        nearest.map(|n| n.id.clone())
    };
    match key {
        "ArrowDown" => linked(true),
        "ArrowUp" => linked(false),
        "ArrowRight" => beside(true),
        "ArrowLeft" => beside(false),
        _ => None,
    }
}

/// The keydown handler of the canvas; `connecting` holds the source of a keyboard connection.
pub fn on_canvas_key(
    studio: Studio,
    connecting: RwSignal<Option<String>>,
    ev: &web_sys::KeyboardEvent,
) {
    let announcer = expect_context::<Announcer>();
    let key = ev.key();
    let name_of = |id: &str| {
        studio
            .graph
            .with_untracked(|g| g.as_ref()?.node(id).map(|n| n.name.clone()))
    };
    match key.as_str() {
        "ArrowDown" | "ArrowUp" | "ArrowLeft" | "ArrowRight" => {
            ev.prevent_default();
            let selected = studio.selected_untracked();
            let next = studio.graph.with_untracked(|g| {
                g.as_ref()
                    .and_then(|g| next_node(g, selected.as_deref(), &key))
            });
            if let Some(id) = next {
                studio.select_node(id.clone());
                studio.reveal_request.set(Some(id.clone()));
                focus_node(&id);
                if let Some(name) = name_of(&id) {
                    announcer.say(format!("{name} selected"));
                }
            }
        }
        "Enter" => {
            ev.prevent_default();
            let Some(target) = studio.selected_untracked() else {
                return;
            };
            match connecting.get_untracked() {
                Some(source) => {
                    connecting.set(None);
                    let (Some(from), Some(to)) = (name_of(&source), name_of(&target)) else {
                        return;
                    };
                    let ends = |id: &str, port: &str| (id.to_owned(), port.to_owned());
                    let outcome = super::commands::connect(
                        studio,
                        &ends(&source, &first_port(studio, &source, false)),
                        &ends(&target, &first_port(studio, &target, true)),
                    );
                    match outcome {
                        Ok(()) => announcer.say(format!("Connected {from} to {to}")),
                        Err(reason) => {
                            studio.notify(Severity::Error, format!("Not connected: {reason}"))
                        }
                    }
                }
                None => focus_inspector(),
            }
        }
        "c" | "C" if !ev.ctrl_key() && !ev.meta_key() => {
            if let Some(source) = studio.selected_untracked() {
                ev.prevent_default();
                let name = name_of(&source).unwrap_or_default();
                connecting.set(Some(source));
                announcer.say(format!("Connecting from {name}: move to the target with the arrows and press Enter; Escape cancels"));
            }
        }
        "a" | "A" if !ev.ctrl_key() && !ev.meta_key() => {
            ev.prevent_default();
            let node_type = match studio.analysis.with_untracked(|a| a.kind) {
                crate::analysis::Kind::Logic => "step",
                crate::analysis::Kind::Drtl => "generate",
            };
            crate::panels::add_node_from_palette(studio, node_type);
            if let Some(id) = studio.selected_untracked() {
                announcer.say(format!(
                    "Added {}",
                    id.split_once(':').map_or(id.as_str(), |(_, n)| n)
                ));
            }
        }
        "Escape" => {
            if connecting.get_untracked().is_some() {
                // Cancels the connection only; the selection stays.
                ev.stop_propagation();
                connecting.set(None);
                announcer.say("Connection cancelled");
            } else {
                studio.select(crate::selection::Selection::none());
            }
        }
        _ => {}
    }
}

/// The first output (or input) port of node `id`: `out`/`in` for a node without declared ports.
fn first_port(studio: Studio, id: &str, input: bool) -> String {
    studio
        .graph
        .with_untracked(|g| {
            let node = g.as_ref()?.node(id)?;
            let ports = if input { &node.inputs } else { &node.outputs };
            ports.first().map(|p| p.name.clone())
        })
        .unwrap_or_else(|| if input { "in" } else { "out" }.to_owned())
}

/// Focuses the node's element; far out (or off the drawn window) the element is made only when
/// the selection has been drawn, so a missing one is tried again on the next frame.
pub fn focus_node(id: &str) {
    if !try_focus_node(id) {
        let id = id.to_owned();
        request_animation_frame(move || {
            try_focus_node(&id);
        });
    }
}

fn try_focus_node(id: &str) -> bool {
    let selector = format!("[data-node-id=\"{}\"]", id.replace('"', "\\\""));
    let element = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.query_selector(&selector).ok().flatten())
        .and_then(|e| e.dyn_into::<web_sys::SvgElement>().ok());
    element.is_some_and(|element| element.focus().is_ok())
}

fn focus_inspector() {
    let field = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| {
            d.query_selector(".inspector input, .inspector select, .inspector textarea")
                .ok()
                .flatten()
        })
        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok());
    if let Some(field) = field {
        let _ = field.focus();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arrows_follow_the_wires_and_the_rows() {
        let doc = "---\nspec_version: \"1.0\"\nname: t\nsteps:\n  a: {}\n  b: {needs: [a]}\n  c: {needs: [a]}\n---\n";
        let mut graph =
            logicmd::graph::from_document(&logicmd::Document::parse(doc).document.unwrap());
        logicmd::graph::layout(&mut graph, logicmd::graph::LayoutOptions::default());
        let step = |from: Option<&str>, key| next_node(&graph, from, key);
        assert_eq!(step(None, "ArrowDown").as_deref(), Some("step:a"));
        let first_child = step(Some("step:a"), "ArrowDown").unwrap();
        assert!(first_child == "step:b" || first_child == "step:c");
        let other = step(Some(&first_child), "ArrowRight")
            .or_else(|| step(Some(&first_child), "ArrowLeft"));
        assert!(other.is_some() && other.as_deref() != Some(first_child.as_str()));
        assert_eq!(step(Some("step:b"), "ArrowUp").as_deref(), Some("step:a"));
        assert_eq!(step(Some("step:a"), "ArrowUp"), None);
    }
}
