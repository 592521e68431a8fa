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
    if kind != "needs" && !drtl {
        return Err(format!(
            "a {kind} wire comes from the step's {kind} field: edit it in the inspector or the text"
        ));
    }
    studio.apply(&Edit::Disconnect { from, to }).map(|_| ())
}
