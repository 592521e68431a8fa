//! Multi-select: shift/ctrl-click toggles a node, shift-drag on the empty canvas draws a box,
//! and the nodes chosen move, delete, copy and duplicate together. What is selected is one
//! [`Selection`] value (`Studio::selection`).

pub mod keys;

use leptos::prelude::*;
use logicmd::edit::Edit;
use logicmd::graph::{Graph, GraphNode};

use crate::geometry::{NODE_HEIGHT, NODE_WIDTH};
use crate::selection::Selection;
use crate::state::Studio;

/// The selected node ids, the primary last.
pub fn ids(studio: Studio) -> Vec<String> {
    studio.selection.with_untracked(|s| s.ids().to_vec())
}

/// Whether node `id` is selected (tracked: for `aria-selected`).
pub fn is_selected(studio: Studio, id: &str) -> bool {
    studio.selection.with(|s| s.contains(id))
}

/// Selects `ids` (the last one becomes the node the inspector shows); none clears.
pub fn select_many(studio: Studio, ids: Vec<String>) {
    studio.select(Selection::nodes(ids));
}

/// Shift/ctrl-click: adds `id` to the selection or takes it out.
pub fn toggle(studio: Studio, id: &str) {
    studio.selection.update(|s| *s = s.toggled(id));
}

/// Drops selected nodes and wires that the graph no longer has (a node removed in the text).
pub fn watch(studio: Studio) {
    Effect::new(move |_| {
        let kept = studio.graph.with(|g| {
            let g = g.as_ref()?;
            let current = studio.selection.get_untracked();
            let kept = current.kept(|id| g.node(id).is_some());
            (kept != current).then_some(kept)
        });
        if let Some(kept) = kept {
            studio.select(kept);
        }
    });
}

/// The nodes a box between graph points `a` and `b` touches, in the graph's order.
pub fn in_box(graph: &Graph, a: (f64, f64), b: (f64, f64)) -> Vec<String> {
    let (left, right) = (a.0.min(b.0), a.0.max(b.0));
    let (top, bottom) = (a.1.min(b.1), a.1.max(b.1));
    graph
        .nodes
        .iter()
        .filter(|n| {
            n.x < right && n.x + NODE_WIDTH > left && n.y < bottom && n.y + NODE_HEIGHT > top
        })
        .map(|n| n.id.clone())
        .collect()
}

/// The step names of the selected nodes, in the document's order; `None` when a selected
/// node is not a step (decision-tree and workflow nodes are edited in the text).
pub fn selected_steps(studio: Studio) -> Option<Vec<String>> {
    selected_names(studio, |n| n.kind == "step")
}

/// The ids of the selected DRTL nodes, in the topology's order; `None` when a selected node is
/// not one.
pub fn selected_drtl_nodes(studio: Studio) -> Option<Vec<String>> {
    selected_names(studio, |n| n.id.starts_with("drtl:"))
}

/// The names of the selected nodes, in the graph's order, when every one is of the kind `is`
/// accepts.
fn selected_names(studio: Studio, is: impl Fn(&GraphNode) -> bool) -> Option<Vec<String>> {
    let chosen = ids(studio);
    studio.graph.with_untracked(|g| {
        g.as_ref()?
            .nodes
            .iter()
            .filter(|n| chosen.contains(&n.id))
            .map(|n| is(n).then(|| n.name.clone()))
            .collect()
    })
}

/// Removes every selected node as one change (core's `remove_steps` for steps, `remove_node`
/// for DRTL nodes), with the references to them.
pub fn delete_selected(studio: Studio) -> Result<(), String> {
    let chosen = ids(studio);
    let drtl = chosen.iter().all(|id| id.starts_with("drtl:"));
    let edits: Vec<Edit> = if drtl {
        studio.graph.with_untracked(|g| {
            let g = g.as_ref();
            chosen
                .iter()
                .filter_map(|id| g?.node(id).map(|n| Edit::RemoveNode { id: n.name.clone() }))
                .collect()
        })
    } else {
        let names = selected_steps(studio)
            .ok_or("decision-tree and workflow nodes are removed in the text")?;
        vec![Edit::RemoveSteps { names }]
    };
    studio.apply_all(None, &edits)?;
    select_many(studio, Vec::new());
    Ok(())
}

/// Moves the nodes `ids` by (`dx`, `dy`) graph units, as one change.
pub fn move_nodes(studio: Studio, ids: &[String], dx: f64, dy: f64) -> Result<(), String> {
    let edits: Vec<Edit> = studio.graph.with_untracked(|g| {
        let Some(g) = g.as_ref() else {
            return Vec::new();
        };
        ids.iter()
            .filter_map(|id| g.node(id))
            .map(|n| Edit::SetPosition {
                node: n.name.clone(),
                x: (n.x + dx).round(),
                y: (n.y + dy).round(),
            })
            .collect()
    });
    studio.apply_all(None, &edits)
}

/// Where nodes added next to the selection go: right of the selected nodes, level with the
/// highest of them; `None` when nothing is selected.
pub fn beside_selection(studio: Studio) -> Option<(f64, f64)> {
    let chosen = ids(studio);
    studio.graph.with_untracked(|g| {
        let g = g.as_ref()?;
        let nodes: Vec<_> = g.nodes.iter().filter(|n| chosen.contains(&n.id)).collect();
        let right = nodes.iter().map(|n| n.x).reduce(f64::max)?;
        let top = nodes.iter().map(|n| n.y).reduce(f64::min)?;
        Some((right + NODE_WIDTH + 60.0, top))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(list: &[&str]) -> Vec<String> {
        list.iter().map(|x| (*x).to_owned()).collect()
    }

    #[test]
    fn a_box_takes_the_nodes_it_touches() {
        let doc = "---\nspec_version: \"1.0\"\nname: t\nsteps:\n  a: {}\n  b: {needs: [a]}\n  c: {needs: [b]}\n---\n";
        let mut graph =
            logicmd::graph::from_document(&logicmd::Document::parse(doc).document.unwrap());
        logicmd::graph::layout(&mut graph, logicmd::graph::LayoutOptions::default());
        let place = |id: &str| graph.node(id).map(|n| (n.x, n.y)).unwrap();
        let (a, b) = (place("step:a"), place("step:b"));
        let hits = in_box(&graph, (a.0 - 5.0, a.1 - 5.0), (b.0 + 10.0, b.1 + 10.0));
        assert_eq!(hits, s(&["step:a", "step:b"]));
        assert!(in_box(&graph, (-5000.0, -5000.0), (-4000.0, -4000.0)).is_empty());
    }
}
