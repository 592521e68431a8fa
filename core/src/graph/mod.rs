//! One graph model for everything the studio and the npm package draw: LOGIC.md steps,
//! decision trees, multi-agent nodes, and DRTL topologies — with typed ports, inspector fields,
//! edges that know whether their types fit, and a deterministic layered layout.

mod from_drtl;
mod from_logic;
mod layout;
mod render;
mod tree_layout;
mod update;

use std::sync::Arc;

use serde::Serialize;
use serde_json::Value;

pub use from_drtl::from_topology;
pub(crate) use from_logic::{declared_field, ports_of};
pub use from_logic::{from_document, from_workflow};
pub use layout::{layout, Direction, LayoutOptions};
pub use render::{to_dot, to_mermaid, to_svg};
pub use update::update;

/// A drawable graph: nodes, the edges between them and the groups that frame some of them. Built by
/// [`from_document`], [`from_workflow`] or [`from_topology`]; positioned by [`layout`].
#[derive(Debug, Clone, PartialEq, Serialize, Default)]
pub struct Graph {
    /// The nodes, in document order.
    pub nodes: Vec<GraphNode>,
    /// The edges; `source` and `target` are node ids. Shared, not owned: the graph patched after a
    /// keystroke in a step keeps the edges of the graph before it (issue #17); change them through
    /// `Arc::make_mut`.
    pub edges: Arc<Vec<GraphEdge>>,
    /// Frames around related nodes (a parallel block, a decision tree).
    pub groups: Vec<Group>,
}

/// Where a node is defined in its file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct SourceSpan {
    /// Byte offset where the definition starts (its key).
    pub start: usize,
    /// Byte offset just past the definition's value.
    pub end: usize,
    /// 1-based line of `start`.
    pub line: u32,
    /// 1-based character column of `start`.
    pub column: u32,
}

/// One box on the canvas: a step, a decision-tree node or terminal, an agent node, or a DRTL node.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GraphNode {
    /// Stable id: `step:NAME`, `tree:TREE/NODE`, `terminal:TREE/NAME`, `agent:NAME`, `drtl:ID`.
    pub id: String,
    /// `step`, `decision`, `terminal`, `agent`, or the DRTL node type.
    pub kind: String,
    /// The text shown on the box.
    pub label: String,
    /// The name in the document (step name, node id, ...).
    pub name: String,
    /// JSON Pointer of the node's definition.
    pub pointer: String,
    /// Where the node is defined in the file; `None` for nodes without a place of their own.
    pub span: Option<SourceSpan>,
    /// The ports its inbound edges attach to, with their types.
    pub inputs: Vec<Port>,
    /// The ports its outbound edges leave from, with their types.
    pub outputs: Vec<Port>,
    /// The editable fields the studio's inspector shows for the node. Shared, not owned: the
    /// graph patched after a keystroke is a copy of the graph before it, and copying every
    /// node's fields was most of that copy (issue #17).
    pub inspector: Arc<[InspectorField]>,
    /// The colour to draw the node in, as CSS colour text (a LOGIC.md document's `visual.color`);
    /// `None` draws the kind's own colour.
    pub color: Option<String>,
    /// The document's `visual.icon`, if any.
    pub icon: Option<String>,
    /// Layout position of the left edge, filled by [`layout`].
    pub x: f64,
    /// Layout position of the top edge, filled by [`layout`] (y grows downwards).
    pub y: f64,
    /// The user placed this node (position stored in the document).
    pub pinned: bool,
}

/// A typed input or output of a node that edges attach to.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Port {
    /// The port's name, unique among the node's inputs (or outputs).
    pub name: String,
    /// The value type the port carries (`string`, `object`, ..., or `any`); serialised as `type`.
    #[serde(rename = "type")]
    pub kind: String,
    /// A value must arrive here for the node to run.
    pub required: bool,
}

/// An editable field of a node, as the studio's inspector shows it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct InspectorField {
    /// The key, relative to the node's value.
    pub key: String,
    /// The field's caption.
    pub label: String,
    /// The control to edit it with (`text`, `number`, `select`, ...); serialised as `type`.
    #[serde(rename = "type")]
    pub kind: String,
    /// The choices a `select` offers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub options: Option<Vec<Value>>,
    /// The smallest number allowed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min: Option<f64>,
    /// The largest number allowed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max: Option<f64>,
    /// The increment of a number control.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub step: Option<f64>,
    /// The value used when the document has none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default: Option<Value>,
    /// The current value read from the document by `key` (relative to the node).
    pub value: Value,
    /// The JSON Pointer the field edits.
    pub pointer: String,
}

/// A connection between two nodes.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GraphEdge {
    /// Stable id, unique within the graph.
    pub id: String,
    /// `needs`, `branch`, `parallel`, `decision`, `route`, `depends_on`, `flow`, `pass`, `fail`,
    /// `action`, `edge`.
    pub kind: String,
    /// The id of the node it leaves.
    pub source: String,
    /// The id of the node it enters.
    pub target: String,
    /// The source node's output port, when the edge carries a value.
    pub source_port: Option<String>,
    /// The target node's input port, when the edge carries a value.
    pub target_port: Option<String>,
    /// Text drawn on the edge (a branch condition, a route's name), if any.
    pub label: Option<String>,
    /// Whether the source port's type fits the target port's.
    pub compatible: bool,
    /// Drawn against the flow (a loop back), as decided by the layout.
    pub back: bool,
}

/// A frame around related nodes.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Group {
    /// Stable id: `parallel:STEP` or `tree:TREE`.
    pub id: String,
    /// `parallel` or `decision_tree`.
    pub kind: String,
    /// The caption drawn on the frame.
    pub label: String,
    /// The ids of the nodes inside.
    pub members: Vec<String>,
}

impl Graph {
    /// The node with this id, if the graph has one.
    pub fn node(&self, id: &str) -> Option<&GraphNode> {
        self.nodes.iter().find(|n| n.id == id)
    }
}

pub(crate) fn span_of(source: &dyn crate::schema::Source, pointer: &str) -> Option<SourceSpan> {
    let entry = crate::json::entry_at(source.root(), pointer);
    let node = crate::json::node_at(source.root(), pointer)?;
    let span = entry.map_or(node.span(), |e| e.key_span().cover(node.span()));
    Some(source_span(source, span))
}

fn source_span(source: &dyn crate::schema::Source, span: crate::source::Span) -> SourceSpan {
    let at = source.line_index().line_col(source.text(), span.start);
    SourceSpan {
        start: span.start,
        end: span.end,
        line: at.line,
        column: at.column,
    }
}

/// The spans (key through value) of every entry of the mapping at `pointer`, by key: one walk
/// instead of a linear key search per entry, which made large documents quadratic.
pub(crate) fn entry_spans<'s>(
    source: &'s dyn crate::schema::Source,
    pointer: &str,
) -> rustc_hash::FxHashMap<&'s str, SourceSpan> {
    crate::json::node_at(source.root(), pointer)
        .and_then(crate::yaml::Node::as_map)
        .into_iter()
        .flatten()
        .map(|e| {
            let span = e.key_span().cover(e.value.span());
            (e.key.as_ref(), source_span(source, span))
        })
        .collect()
}

/// Whether a value of type `from` fits a port of type `to` (`any` fits everything).
pub(crate) fn types_fit(from: &str, to: &str) -> bool {
    crate::contract::type_fits(
        Some(from).filter(|t| *t != "any"),
        Some(to).filter(|t| *t != "any"),
    )
}

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tree_tests;

/// Built-in inspector fields of a node: `(key, label, control)` read from the node's value
/// `base` (found at `pointer`).
pub(crate) fn builtin_fields(
    base: Option<&Value>,
    pointer: &str,
    fields: &[(&str, &str, &str)],
) -> Vec<InspectorField> {
    fields
        .iter()
        .map(|(key, label, kind)| {
            let field_pointer = crate::json::pointer_push(pointer, key);
            InspectorField {
                key: (*key).to_owned(),
                label: (*label).to_owned(),
                kind: (*kind).to_owned(),
                options: None,
                min: None,
                max: None,
                step: None,
                default: None,
                value: base
                    .and_then(|b| b.get(key))
                    .cloned()
                    .unwrap_or(Value::Null),
                pointer: field_pointer,
            }
        })
        .collect()
}
