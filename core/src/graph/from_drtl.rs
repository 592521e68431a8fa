//! The graph of a DRTL topology.

use serde_json::Value;

use super::{span_of, Graph, GraphEdge, GraphNode, Port};
use crate::drtl::{RouteKind, Topology};

fn port(name: &str, kind: &str) -> Port {
    Port {
        name: name.to_owned(),
        kind: kind.to_owned(),
        required: false,
    }
}

/// Builds the graph of a topology: one node per DRTL node, edges for every route.
pub fn from_topology(topology: &Topology) -> Graph {
    let mut graph = Graph::default();
    let nodes = topology.nodes();
    let json = topology.json();
    for node in &nodes {
        let definition = json.pointer(&node.pointer).cloned().unwrap_or(Value::Null);
        let output_type = if node.output_format.as_deref() == Some("json") {
            "object"
        } else {
            "string"
        };
        let (inputs, outputs) = match node.kind.as_str() {
            "generate" => (
                vec![port("input", "any")],
                vec![port(
                    node.output_key.as_deref().unwrap_or("output"),
                    output_type,
                )],
            ),
            "fan_out" => (
                vec![port("input", "any")],
                vec![port(
                    node.output_key.as_deref().unwrap_or("outputs"),
                    "array",
                )],
            ),
            "aggregate" => (
                vec![port("inputs", "array")],
                vec![port(node.output_key.as_deref().unwrap_or("output"), "any")],
            ),
            "verify" => (
                vec![port("claims", "object")],
                vec![port(
                    node.output_key.as_deref().unwrap_or("report"),
                    "object",
                )],
            ),
            "gate" => (
                vec![port("input", "any")],
                vec![port("pass", "any"), port("fail", "any")],
            ),
            "review" => {
                let mut outs: Vec<Port> = node
                    .routes
                    .iter()
                    .filter(|r| r.kind == RouteKind::Action)
                    .filter_map(|r| r.label.as_deref())
                    .map(|l| port(l, "any"))
                    .collect();
                outs.extend(node.terminal_actions.iter().map(|l| port(l, "any")));
                (vec![port("input", "object")], outs)
            }
            _ => (
                vec![port("input", "any")],
                vec![port(
                    node.output_key.as_deref().unwrap_or("output"),
                    "object",
                )],
            ),
        };
        let label = definition
            .get("description")
            .and_then(Value::as_str)
            .map_or_else(
                || format!("{} ({})", node.id, node.kind),
                |d| format!("{}: {d}", node.id),
            );
        let builtin: &[(&str, &str, &str)] = match node.kind.as_str() {
            "generate" => &[
                ("model", "Model", "text"),
                ("prompt", "Prompt", "text"),
                ("output_key", "Output key", "text"),
            ],
            "gate" => &[("condition", "Condition", "text")],
            "debate" => &[
                ("max_rounds", "Max rounds", "number"),
                ("protocol_ref", "Protocol", "text"),
            ],
            "aggregate" => &[
                ("strategy", "Strategy", "select"),
                ("output_key", "Output key", "text"),
            ],
            "review" => &[("actor", "Actor", "select"), ("message", "Message", "text")],
            _ => &[("output_key", "Output key", "text")],
        };
        let mut inspector = vec![];
        inspector.extend(super::builtin_fields(
            Some(&definition),
            &node.pointer,
            &[("description", "Description", "text")],
        ));
        inspector.extend(super::builtin_fields(
            Some(&definition),
            &node.pointer,
            builtin,
        ));
        graph.nodes.push(GraphNode {
            id: format!("drtl:{}", node.id),
            kind: node.kind.clone(),
            label,
            name: node.id.clone(),
            pointer: node.pointer.clone(),
            span: span_of(topology, &node.pointer),
            inputs,
            outputs,
            inspector: inspector.into(),
            color: None,
            icon: None,
            x: 0.0,
            y: 0.0,
            pinned: false,
        });
    }
    for node in &nodes {
        for route in &node.routes {
            if !nodes.iter().any(|n| n.id == route.target) {
                continue;
            }
            let kind = match route.kind {
                RouteKind::Edge => "flow",
                RouteKind::Pass => "pass",
                RouteKind::Fail => "fail",
                RouteKind::Action => "action",
            };
            let source_port = match route.kind {
                RouteKind::Pass => Some("pass".to_owned()),
                RouteKind::Fail => Some("fail".to_owned()),
                RouteKind::Action => route.label.clone(),
                RouteKind::Edge => graph
                    .node(&format!("drtl:{}", node.id))
                    .and_then(|n| n.outputs.first())
                    .map(|p| p.name.clone()),
            };
            let place = graph.edges.len();
            std::sync::Arc::make_mut(&mut graph.edges).push(GraphEdge {
                id: format!("{kind}:{}->{}:{place}", node.id, route.target),
                kind: kind.to_owned(),
                source: format!("drtl:{}", node.id),
                target: format!("drtl:{}", route.target),
                source_port,
                target_port: Some("input".to_owned()),
                label: route.label.clone(),
                compatible: true,
                back: false,
            });
        }
    }
    super::from_logic::positions_from(json, &mut graph);
    graph
}
