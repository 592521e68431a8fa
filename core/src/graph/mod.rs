//! One graph model for everything the studio and the npm package draw: LOGIC.md steps,
//! decision trees, multi-agent nodes, and DRTL topologies — with typed ports, inspector fields,
//! edges that know whether their types fit, and a deterministic layered layout.

mod from_drtl;
mod from_logic;
mod layout;
mod render;

use serde::Serialize;
use serde_json::Value;

pub use from_drtl::from_topology;
pub(crate) use from_logic::{declared_field, ports_of};
pub use from_logic::{from_document, from_workflow};
pub use layout::{layout, LayoutOptions};
pub use render::{to_dot, to_mermaid, to_svg};

#[derive(Debug, Clone, PartialEq, Serialize, Default)]
pub struct Graph {
    pub nodes: Vec<GraphNode>,
    pub edges: Vec<GraphEdge>,
    pub groups: Vec<Group>,
}

/// Where a node is defined in its file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct SourceSpan {
    pub start: usize,
    pub end: usize,
    pub line: u32,
    pub column: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GraphNode {
    /// Stable id: `step:NAME`, `tree:TREE/NODE`, `terminal:TREE/NAME`, `agent:NAME`, `drtl:ID`.
    pub id: String,
    /// `step`, `decision`, `terminal`, `agent`, or the DRTL node type.
    pub kind: String,
    pub label: String,
    /// The name in the document (step name, node id, ...).
    pub name: String,
    /// JSON Pointer of the node's definition.
    pub pointer: String,
    pub span: Option<SourceSpan>,
    pub inputs: Vec<Port>,
    pub outputs: Vec<Port>,
    pub inspector: Vec<InspectorField>,
    pub color: Option<String>,
    pub icon: Option<String>,
    /// Layout position (top-left), filled by [`layout`].
    pub x: f64,
    pub y: f64,
    /// The user placed this node (position stored in the document).
    pub pinned: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Port {
    pub name: String,
    #[serde(rename = "type")]
    pub kind: String,
    pub required: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct InspectorField {
    pub key: String,
    pub label: String,
    #[serde(rename = "type")]
    pub kind: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub options: Option<Vec<Value>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub step: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default: Option<Value>,
    /// The current value read from the document by `key` (relative to the node).
    pub value: Value,
    /// The JSON Pointer the field edits.
    pub pointer: String,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GraphEdge {
    pub id: String,
    /// `needs`, `branch`, `parallel`, `decision`, `route`, `depends_on`, `flow`, `pass`, `fail`,
    /// `action`, `edge`.
    pub kind: String,
    pub source: String,
    pub target: String,
    pub source_port: Option<String>,
    pub target_port: Option<String>,
    pub label: Option<String>,
    /// Whether the source port's type fits the target port's.
    pub compatible: bool,
    /// Drawn against the flow (a loop back), as decided by the layout.
    pub back: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Group {
    pub id: String,
    pub kind: String,
    pub label: String,
    pub members: Vec<String>,
}

impl Graph {
    pub fn node(&self, id: &str) -> Option<&GraphNode> {
        self.nodes.iter().find(|n| n.id == id)
    }
}

pub(crate) fn span_of(source: &dyn crate::schema::Source, pointer: &str) -> Option<SourceSpan> {
    let entry = crate::json::entry_at(source.root(), pointer);
    let node = crate::json::node_at(source.root(), pointer)?;
    let span = entry.map_or(node.span, |e| e.key_span.cover(node.span));
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
            let span = e.key_span.cover(e.value.span);
            (e.key.as_str(), source_span(source, span))
        })
        .collect()
}

/// Whether a value of type `from` fits a port of type `to` (`any` fits everything).
pub fn types_fit(from: &str, to: &str) -> bool {
    crate::contract::type_fits(
        Some(from).filter(|t| *t != "any"),
        Some(to).filter(|t| *t != "any"),
    )
}

#[cfg(test)]
mod tests;

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
