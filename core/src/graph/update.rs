//! The graph after an edit inside one value, patched from the graph before it instead of built
//! again: typing in a step's description must redraw a 5,000-step graph within a frame, and
//! building and laying out the whole graph takes longer than that (issue #17).

use super::from_logic::rebuilt_step;
use super::{source_span, Graph, SourceSpan};
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
    let span = previous.nodes[at].span.map(|s| shifted(document, s, edit));
    let mut node = rebuilt_step(document, name, span)?;
    let mut graph = previous.clone();
    for other in &mut graph.nodes {
        other.span = other.span.map(|s| shifted(document, s, edit));
    }
    let old = &graph.nodes[at];
    (node.x, node.y, node.pinned) = (old.x, old.y, old.pinned);
    graph.nodes[at] = node;
    Some(graph)
}

/// `span` of the old text where it is in `document` (the new text): moved or stretched by the
/// edit; its line and column looked up again only when its start moved.
fn shifted(document: &Document, span: SourceSpan, edit: &ScalarEdit) -> SourceSpan {
    let moved = edit.moved(Span::new(span.start, span.end));
    if moved.start == span.start {
        SourceSpan {
            end: moved.end,
            ..span
        }
    } else {
        source_span(document, moved)
    }
}

#[cfg(test)]
mod tests;
