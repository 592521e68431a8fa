//! Renaming a node, from the canvas (F2, double-click) or the inspector: core's `RenameStep`
//! rewrites every reference; the node keeps its place and its selection.

use leptos::prelude::*;
use logicmd::edit::Edit;

use crate::state::Studio;

/// Renames node `id` to `to`; its new id, or the refusal's reason.
pub fn rename(studio: Studio, id: &str, to: &str) -> Result<String, String> {
    let to = to.trim();
    let node = studio.graph.with_untracked(|g| {
        g.as_ref()?
            .node(id)
            .map(|n| (n.kind.clone(), n.name.clone()))
    });
    let Some((kind, from)) = node else {
        return Err(format!("there is no node `{id}`"));
    };
    if from == to {
        return Ok(id.to_owned());
    }
    if kind != "step" {
        return Err(format!("a {kind} node is renamed in the text"));
    }
    let new_id = format!("step:{to}");
    // Recorded first: the graph of the new text is derived as soon as the text changes.
    studio
        .renamed
        .update_value(|r| r.push((id.to_owned(), new_id.clone())));
    let edit = Edit::RenameStep {
        from,
        to: to.to_owned(),
    };
    if let Err(reason) = studio.apply(&edit) {
        studio.renamed.update_value(Vec::clear);
        return Err(reason);
    }
    studio.selection.update(|s| *s = s.renamed(id, &new_id));
    Ok(new_id)
}
