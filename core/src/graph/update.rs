//! The graph after an edit inside one value, patched from the graph before it instead of built
//! again: typing in a step's description must redraw a 5,000-step graph within a frame, and
//! building and laying out the whole graph takes longer than that (issue #17).

use std::sync::Arc;

use super::from_logic::rebuilt_step;
use super::{source_span, Graph, GraphNode, SourceSpan};
use crate::document::{Document, ScalarEdit};
use crate::source::Span;

/// The fields of a step that decide more than its own node: its edges, their contract verdict
/// (`contract::steps_fit` reads the schemas), its ports and its parallel group. An edit in any
/// other field of a step changes only that step's node (its label and inspector).
const WIRING: &[&str] = &[
    "needs",
    "branches",
    "parallel_steps",
    "input_schema",
    "output_schema",
];

/// The graph of `document` (with the positions of `previous`, a laid-out graph of the document
/// before `edit`), or `None` when the edit may change more than one step's node: then the graph
/// is built and laid out again. Equal to `from_document` + `layout` where it answers (property
/// test in `graph/tests.rs`).
pub fn update(previous: &Graph, document: &Document, edit: &ScalarEdit) -> Option<Graph> {
    let [top, name, field, ..] = edit.path.as_slice() else {
        return None;
    };
    if top != "steps" || WIRING.contains(&field.as_str()) {
        return None;
    }
    let id = ["step:", name.as_str()].concat();
    let at = previous.nodes.iter().position(|n| n.id == id)?;
    let edit_line = source_span(document, edit.range).line;
    let shift = |span: SourceSpan| shifted(document, span, edit, edit_line);
    let old = &previous.nodes[at];
    let mut node = rebuilt_step(document, name, old.span.map(shift))?;
    (node.x, node.y, node.pinned) = (old.x, old.y, old.pinned);
    // One pass: each node copied with its span moved (the rebuilt one copied too, then replaced).
    let mut nodes: Vec<GraphNode> = previous
        .nodes
        .iter()
        .map(|other| GraphNode {
            span: other.span.map(shift),
            ..other.clone()
        })
        .collect();
    nodes[at] = node;
    Some(Graph {
        nodes,
        edges: Arc::clone(&previous.edges),
        groups: previous.groups.clone(),
    })
}

/// `span` of the old text where it is in `document` (the new text): moved or stretched by the
/// edit. An edit of the reparse shortcut stays within line `edit_line`, so a span starting on a
/// later line keeps its line and column; only one starting after the edit on that same line is
/// looked up again.
fn shifted(document: &Document, span: SourceSpan, edit: &ScalarEdit, edit_line: u32) -> SourceSpan {
    let moved = edit.moved(Span::new(span.start, span.end));
    if moved.start == span.start || span.line > edit_line {
        SourceSpan {
            start: moved.start,
            end: moved.end,
            ..span
        }
    } else {
        source_span(document, moved)
    }
}

#[cfg(test)]
mod tests;
