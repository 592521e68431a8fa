//! Removing a selected wire: a `needs` entry (LOGIC.md) or an edge (DRTL) goes through core's
//! `Disconnect`; wires drawn from other fields (branches, decision routes) say where to edit.

use leptos::prelude::*;
use logicmd::edit::Edit;

use crate::state::Studio;

/// Removes the wire from node id `ends.0` to node id `ends.1`.
pub fn remove_wire(studio: Studio, ends: &(String, String)) -> Result<(), String> {
    let found = studio.graph.with_untracked(|g| {
        let g = g.as_ref()?;
        let edge = g
            .edges
            .iter()
            .find(|e| e.source == ends.0 && e.target == ends.1)?;
        Some((
            edge.kind.clone(),
            g.node(&edge.source)?.name.clone(),
            g.node(&edge.target)?.name.clone(),
        ))
    });
    let Some((kind, from, to)) = found else {
        return Err("that wire is gone".to_owned());
    };
    let drtl = ends.0.starts_with("drtl:");
    if matches!(kind.as_str(), "decision" | "route") {
        let target = studio
            .graph
            .with_untracked(|g| g.as_ref()?.node(&ends.1).cloned());
        let edits = target.and_then(|t| {
            crate::trees::disconnection(&crate::trees::trees_of(studio), &ends.0, &t)
        });
        return match edits {
            Some(edits) => studio.apply_all(None, &edits),
            None => Err(format!("{}: edit it there", drawn_from(&kind))),
        };
    }
    if kind != "needs" && !drtl {
        return Err(format!("{}: edit it there", drawn_from(&kind)));
    }
    studio.apply(&Edit::Disconnect { from, to }).map(|_| ())
}

/// Where a wire that is not a `needs` entry (or a DRTL edge) is written, for the messages that
/// say why it cannot be removed or moved as a wire.
pub fn drawn_from(kind: &str) -> String {
    match kind {
        "branch" => "a branch wire is the step's `branches` entry (its `then`), in the inspector or the text".to_owned(),
        "parallel" => "a parallel wire is the step's `parallel_steps` entry, in the text".to_owned(),
        "decision" | "route" => {
            "a decision route is the tree node's `branches` entry (its `next`), in the text".to_owned()
        }
        "action" => "an action wire is the terminal's `action` (a step's name), in the text".to_owned(),
        "depends_on" => "a workflow wire is the workflow node's `depends_on` entry, in the text".to_owned(),
        other => format!("this {other} wire is written in the text"),
    }
}

#[cfg(test)]
mod tests {
    use super::drawn_from;

    #[test]
    fn every_wire_that_is_not_a_needs_entry_says_where_it_is_written() {
        let said: Vec<String> = [
            "branch",
            "parallel",
            "decision",
            "route",
            "action",
            "depends_on",
            "edge",
        ]
        .iter()
        .map(|kind| format!("{kind}: {}", drawn_from(kind)))
        .collect();
        assert_eq!(
            said,
            [
                "branch: a branch wire is the step's `branches` entry (its `then`), in the inspector or the text",
                "parallel: a parallel wire is the step's `parallel_steps` entry, in the text",
                "decision: a decision route is the tree node's `branches` entry (its `next`), in the text",
                "route: a decision route is the tree node's `branches` entry (its `next`), in the text",
                "action: an action wire is the terminal's `action` (a step's name), in the text",
                "depends_on: a workflow wire is the workflow node's `depends_on` entry, in the text",
                "edge: this edge wire is written in the text",
            ]
        );
    }
}
