//! Carries out the canvas controller's [`Command`]s on the studio: selection, the view, moves,
//! connections and re-attached wires (each a core edit), refusals said next to the pointer.

use std::sync::Arc;

use leptos::prelude::*;
use logicmd::edit::Edit;
use logicmd::graph::Graph;

use super::control::Command;
use super::reattach;
use crate::connect::{connection, End};
use crate::state::{Severity, Studio};

/// Why the last wire was not connected (or moved), shown where it was let go (canvas pixels).
pub type Refusal = RwSignal<Option<((f64, f64), String)>>;

pub fn run(studio: Studio, commands: Vec<Command>, refusal: Refusal) {
    for command in commands {
        if command == Command::Clear {
            refusal.set(None);
        }
        if let Err((at, reason)) = carry_out(studio, command) {
            studio.notify(Severity::Error, reason.clone());
            refusal.set(Some((at, reason)));
        }
    }
}

fn carry_out(studio: Studio, command: Command) -> Result<(), ((f64, f64), String)> {
    match command {
        Command::Clear => studio.field_error.set(None),
        Command::Select(selection) => studio.select(selection),
        Command::Toggle(id) => crate::select::toggle(studio, &id),
        Command::Move {
            pressed,
            ids,
            by,
            free,
        } => move_nodes(studio, &pressed, &ids, by, free),
        Command::Connect { from, to, at } => connect(studio, &from, &to)
            .map_err(|reason| (at, format!("Not connected: {reason}")))?,
        Command::Reattach {
            ends,
            moving,
            onto,
            at,
        } => reattach::reattach(studio, &ends, moving, &onto)
            .map_err(|reason| (at, format!("Not moved: {reason}")))?,
        Command::SelectBox(a, b) => {
            let hits = studio.graph.with_untracked(|g| {
                g.as_ref()
                    .map_or_else(Vec::new, |g| crate::select::in_box(g, a, b))
            });
            crate::select::select_many(studio, hits);
        }
        Command::Refuse(at, reason) => return Err((at, reason)),
    }
    Ok(())
}

/// The nodes `ids` moved by `pressed`'s drag, snapped: one node is one `SetPosition`, a group one
/// change of several.
fn move_nodes(studio: Studio, pressed: &str, ids: &[String], by: (f64, f64), free: bool) {
    let at = studio
        .graph
        .with_untracked(|g| g.as_ref()?.node(pressed).map(|n| (n.x, n.y)));
    let Some(at) = at else {
        return;
    };
    let (dx, dy) = crate::snap::snapped_move(at, by, free);
    if let Err(message) = crate::select::move_nodes(studio, ids, dx, dy) {
        studio.notify(Severity::Error, message);
    }
}

/// Asks core to connect the wire's ends; a refusal is core's reason.
pub fn connect(
    studio: Studio,
    from: &(String, String),
    to: &(String, String),
) -> Result<(), String> {
    let graph: Option<Arc<Graph>> = studio.graph.get_untracked();
    // A wire from a decision node is a branch of its tree.
    let branch = graph.as_deref().and_then(|g| {
        let (source, target) = (g.node(&from.0)?, g.node(&to.0)?);
        crate::trees::connection(&crate::trees::trees_of(studio), source, target)
    });
    if let Some(edits) = branch {
        studio.apply_all(None, &edits?)?;
        studio.notice.set(None);
        return Ok(());
    }
    let edit: Edit = graph
        .as_deref()
        .ok_or_else(|| "the document has no graph yet".to_owned())
        .and_then(|graph| {
            connection(
                graph,
                End {
                    node: &from.0,
                    port: &from.1,
                },
                End {
                    node: &to.0,
                    port: &to.1,
                },
            )
        })?;
    studio.apply(&edit)?;
    studio.notice.set(None);
    Ok(())
}
