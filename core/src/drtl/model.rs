//! A typed view of a topology's nodes and where each can go next.

use serde::Serialize;
use serde_json::Value;

use super::Topology;

/// The route target that ends the run (DRTL §3.8's `reject: {next: terminate}`, §9.3's "gate
/// nodes that route to review or termination"), unless a node is named so.
pub const TERMINATE: &str = "terminate";

/// What kind of way out a [`Route`] is; serialised in snake_case.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RouteKind {
    /// An entry of `edges` from the node (its label is the edge's `if`).
    Edge,
    /// A gate's `on_pass`.
    Pass,
    /// A gate's `on_fail`.
    Fail,
    /// A review action that routes to a node.
    Action,
}

/// A way out of a node.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Route {
    /// The id of the node it goes to, or [`TERMINATE`].
    pub target: String,
    /// The edge condition, the action label, or "pass"/"fail".
    pub label: Option<String>,
    /// What kind of route it is.
    pub kind: RouteKind,
    /// JSON Pointer of the route's target in the file.
    pub pointer: String,
    /// The target is [`TERMINATE`] and no node has that id: the run ends (is abandoned) here.
    pub ends_run: bool,
}

/// A DRTL node with every way out of it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DrtlNode {
    /// The node's `id`.
    pub id: String,
    /// The node's `type` (`generate`, `gate`, `review`, ...); empty when absent.
    pub kind: String,
    /// JSON Pointer of the node's entry (`/nodes/INDEX`).
    pub pointer: String,
    /// `output_key`: the state key the node's output is stored under.
    pub output_key: Option<String>,
    /// `output_format` (`text`, `json`), as written.
    pub output_format: Option<String>,
    /// Its routes: gate pass/fail first, then review actions, then edges in file order.
    pub routes: Vec<Route>,
    /// Review action labels that route nowhere (handled outside the topology).
    pub terminal_actions: Vec<String>,
}

impl Topology {
    /// The nodes with all their routes: edges, gate pass/fail, review actions.
    pub fn nodes(&self) -> Vec<DrtlNode> {
        let mut nodes = self.declared_nodes();
        if !nodes.iter().any(|n| n.id == TERMINATE) {
            for route in nodes.iter_mut().flat_map(|n| n.routes.iter_mut()) {
                route.ends_run = route.target == TERMINATE;
            }
        }
        nodes
    }

    fn declared_nodes(&self) -> Vec<DrtlNode> {
        let json = self.json();
        let nodes = json
            .get("nodes")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        let edges = json
            .get("edges")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        nodes
            .iter()
            .enumerate()
            .filter_map(|(index, node)| {
                let id = node.get("id")?.as_str()?.to_owned();
                let pointer = format!("/nodes/{index}");
                let mut routes = Vec::new();
                let mut terminal_actions = Vec::new();
                for (kind, field) in [(RouteKind::Pass, "on_pass"), (RouteKind::Fail, "on_fail")] {
                    if let Some((target, at)) =
                        route_target(node.get(field), &format!("{pointer}/{field}"))
                    {
                        routes.push(Route {
                            target,
                            label: Some(field.trim_start_matches("on_").to_owned()),
                            kind,
                            pointer: at,
                            ends_run: false,
                        });
                    }
                }
                for (i, action) in node
                    .get("actions")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                    .enumerate()
                {
                    let at = format!("{pointer}/actions/{i}");
                    match action {
                        Value::String(label) => terminal_actions.push(label.clone()),
                        Value::Object(map) => {
                            for (label, route) in map {
                                let route_at = format!("{at}/{}", crate::json::escape_token(label));
                                match route_target(Some(route), &route_at) {
                                    Some((target, pointer)) => routes.push(Route {
                                        target,
                                        label: Some(label.clone()),
                                        kind: RouteKind::Action,
                                        pointer,
                                        ends_run: false,
                                    }),
                                    None => terminal_actions.push(label.clone()),
                                }
                            }
                        }
                        _ => {}
                    }
                }
                for (i, edge) in edges.iter().enumerate() {
                    if edge.get("from").and_then(Value::as_str) == Some(id.as_str()) {
                        if let Some(target) = edge.get("to").and_then(Value::as_str) {
                            routes.push(Route {
                                target: target.to_owned(),
                                label: edge.get("if").and_then(Value::as_str).map(str::to_owned),
                                kind: RouteKind::Edge,
                                pointer: format!("/edges/{i}/to"),
                                ends_run: false,
                            });
                        }
                    }
                }
                Some(DrtlNode {
                    kind: node
                        .get("type")
                        .and_then(Value::as_str)
                        .unwrap_or_default()
                        .to_owned(),
                    output_key: node
                        .get("output_key")
                        .and_then(Value::as_str)
                        .map(str::to_owned),
                    output_format: node
                        .get("output_format")
                        .and_then(Value::as_str)
                        .map(str::to_owned),
                    id,
                    pointer,
                    routes,
                    terminal_actions,
                })
            })
            .collect()
    }
}

/// `next_node` or `{next: next_node, inject: ...}`.
fn route_target(route: Option<&Value>, pointer: &str) -> Option<(String, String)> {
    match route? {
        Value::String(target) => Some((target.clone(), pointer.to_owned())),
        Value::Object(map) => map
            .get("next")
            .and_then(Value::as_str)
            .map(|t| (t.to_owned(), format!("{pointer}/next"))),
        _ => None,
    }
}
