//! The rules a new connection must satisfy, for every caller (studio, npm, CLI): a node is not
//! wired to itself; in LOGIC.md only steps are wired (a `needs` entry); the output port's type
//! fits the input port's (`graph::types_fit`); and in LOGIC.md the new `needs` closes no cycle.
//! DRTL topologies may loop (their checks bound the loops).

use std::collections::{HashMap, VecDeque};

use serde_json::Value;

use super::{refused, Session};
use crate::diagnostic::Diagnostic;
use crate::graph::{types_fit, Graph, GraphNode, Port};

/// The two ends of a wire, as an edit names them.
pub(super) struct Wire<'e> {
    pub from: &'e str,
    pub to: &'e str,
    pub from_port: Option<&'e str>,
    pub to_port: Option<&'e str>,
}

/// Checks `wire` against the rules; `Err` says which one it breaks.
pub(super) fn check(session: &Session, wire: &Wire<'_>) -> Result<(), Diagnostic> {
    let graph = session.graph();
    let drtl = session.is_drtl();
    let source = end(&graph, wire.from, drtl)?;
    let target = end(&graph, wire.to, drtl)?;
    if source.id == target.id {
        return Err(refused(format!(
            "`{}` cannot be connected to itself",
            source.name
        )));
    }
    let from_type = port_type(source, wire.from_port, false)?;
    let to_type = port_type(target, wire.to_port, true)?;
    if !types_fit(&from_type, &to_type) {
        return Err(refused(format!(
            "a `{from_type}` output does not fit the `{to_type}` input of `{}`",
            target.name
        )));
    }
    if !drtl {
        if let Some(path) = needs_path(session.json(), &target.name, &source.name) {
            return Err(refused(format!(
                "`{}` would need `{}`, but {} already: that is a cycle",
                target.name,
                source.name,
                path.join(" → ")
            )));
        }
    }
    Ok(())
}

/// The node a wire end names: a step (LOGIC.md) or a topology node.
fn end<'g>(graph: &'g Graph, name: &str, drtl: bool) -> Result<&'g GraphNode, Diagnostic> {
    let prefix = if drtl { "drtl:" } else { "step:" };
    if let Some(node) = graph.node(&format!("{prefix}{name}")) {
        return Ok(node);
    }
    match graph.nodes.iter().find(|n| n.name == name) {
        Some(other) if !drtl => Err(refused(format!(
            "only steps can be wired in LOGIC.md (a `needs` entry); `{name}` is a {} node",
            other.kind
        ))),
        _ if drtl => Err(refused(format!("there is no node `{name}`"))),
        _ => Err(refused(format!("there is no step `{name}`"))),
    }
}

/// The type of a node's port: the one named, else the first (where the wire is drawn). A node
/// without declared ports has `in`/`out` of type `any`, so every node can be wired.
fn port_type(node: &GraphNode, port: Option<&str>, input: bool) -> Result<String, Diagnostic> {
    let (ports, default, side): (&[Port], &str, &str) = if input {
        (&node.inputs, "in", "input")
    } else {
        (&node.outputs, "out", "output")
    };
    match port {
        None => Ok(ports.first().map_or("any", |p| p.kind.as_str()).to_owned()),
        Some(name) if ports.is_empty() && name == default => Ok("any".to_owned()),
        Some(name) => ports
            .iter()
            .find(|p| p.name == name)
            .map(|p| p.kind.clone())
            .ok_or_else(|| refused(format!("`{}` has no {side} port `{name}`", node.name))),
    }
}

/// The chain of step names from `start` to `goal` along `needs` (from a step to the steps that
/// need it): a breadth-first search, linear in the size of the document.
fn needs_path(json: &Value, start: &str, goal: &str) -> Option<Vec<String>> {
    let mut dependants: HashMap<&str, Vec<&str>> = HashMap::new();
    let steps = json.get("steps").and_then(Value::as_object);
    for (name, step) in steps.into_iter().flatten() {
        let needs = step.get("needs").and_then(Value::as_array);
        for need in needs.into_iter().flatten().filter_map(Value::as_str) {
            dependants.entry(need).or_default().push(name);
        }
    }
    let mut came_from: HashMap<&str, &str> = HashMap::new();
    let mut queue = VecDeque::from([start]);
    let mut reached = start == goal;
    while let Some(name) = queue.pop_front().filter(|_| !reached) {
        for &next in dependants.get(name).into_iter().flatten() {
            if next != start && !came_from.contains_key(next) {
                came_from.insert(next, name);
                reached |= next == goal;
                queue.push_back(next);
            }
        }
    }
    if !reached {
        return None;
    }
    let mut chain = vec![goal];
    while let Some(&previous) = chain.last().and_then(|name| came_from.get(name)) {
        chain.push(previous);
    }
    Some(chain.iter().rev().map(|s| (*s).to_owned()).collect())
}
