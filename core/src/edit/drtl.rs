//! Edits of DRTL topologies: nodes, edges and routes, each made of verified primitive edits.

use serde_json::{json, Value};

use super::{refused, Session};
use crate::diagnostic::Diagnostic;

fn nodes(session: &Session) -> Vec<Value> {
    session
        .json()
        .get("nodes")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default()
}

fn index_of(session: &Session, id: &str) -> Result<usize, Diagnostic> {
    nodes(session)
        .iter()
        .position(|n| n.get("id").and_then(Value::as_str) == Some(id))
        .ok_or_else(|| refused(format!("there is no node `{id}`")))
}

pub(super) fn add_node(
    session: &mut Session,
    node: &Value,
    after: Option<&str>,
) -> Result<(), Diagnostic> {
    let Some(id) = node.get("id").and_then(Value::as_str) else {
        return Err(refused("a node needs an `id` and a `type`"));
    };
    if index_of(session, id).is_ok() {
        return Err(refused(format!("a node `{id}` already exists")));
    }
    let at = match after {
        Some(after) => Some(index_of(session, after)? + 1),
        None => None,
    };
    session.insert("/nodes", at, node)
}

pub(super) fn remove_node(session: &mut Session, id: &str) -> Result<(), Diagnostic> {
    let index = index_of(session, id)?;
    let edges = session
        .json()
        .get("edges")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    for (i, edge) in edges.iter().enumerate().rev() {
        let touches = ["from", "to"]
            .iter()
            .any(|end| edge.get(end).and_then(Value::as_str) == Some(id));
        if touches {
            session.remove(&format!("/edges/{i}"))?;
        }
    }
    for other in nodes(session) {
        let routes = ["on_pass", "on_fail"]
            .iter()
            .any(|field| match other.get(field) {
                Some(Value::String(target)) => target == id,
                Some(route) => route.get("next").and_then(Value::as_str) == Some(id),
                None => false,
            });
        if routes {
            let name = other.get("id").and_then(Value::as_str).unwrap_or_default();
            session.note(format!(
                "gate `{name}` still routes to the removed node `{id}`"
            ));
        }
    }
    session.remove(&format!("/nodes/{index}"))?;
    let position = format!(
        "/metadata/logicmd/positions/{}",
        crate::json::escape_token(id)
    );
    if session.json().pointer(&position).is_some() {
        session.remove(&position)?;
    }
    Ok(())
}

pub(super) fn set_route(
    session: &mut Session,
    node: &str,
    route: &str,
    target: &str,
) -> Result<(), Diagnostic> {
    let index = index_of(session, node)?;
    index_of(session, target)?;
    let definition = nodes(session).get(index).cloned().unwrap_or(Value::Null);
    match route {
        "on_pass" | "on_fail" => {
            // Keep the expanded form (and its `inject`) when the route is written that way.
            let pointer = match definition.get(route) {
                Some(Value::Object(_)) => format!("/nodes/{index}/{route}/next"),
                _ => format!("/nodes/{index}/{route}"),
            };
            session.set(&pointer, &json!(target))
        }
        label => {
            let actions = definition
                .get("actions")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default();
            let position = actions.iter().position(|a| match a {
                Value::String(s) => s == label,
                Value::Object(map) => map.contains_key(label),
                _ => false,
            });
            let routed = json!({ label: { "next": target } });
            match position {
                Some(i) => session.set(&format!("/nodes/{index}/actions/{i}"), &routed),
                None => Err(refused(format!(
                    "`{node}` has no route or action `{label}`"
                ))),
            }
        }
    }
}

pub(super) fn connect(session: &mut Session, from: &str, to: &str) -> Result<(), Diagnostic> {
    index_of(session, from)?;
    index_of(session, to)?;
    let exists = session
        .json()
        .get("edges")
        .and_then(Value::as_array)
        .is_some_and(|edges| {
            edges.iter().any(|e| {
                e.get("from").and_then(Value::as_str) == Some(from)
                    && e.get("to").and_then(Value::as_str) == Some(to)
            })
        });
    if exists {
        return Err(refused(format!("`{from}` is already connected to `{to}`")));
    }
    session.insert("/edges", None, &json!({ "from": from, "to": to }))
}

pub(super) fn disconnect(session: &mut Session, from: &str, to: &str) -> Result<(), Diagnostic> {
    let edges = session
        .json()
        .get("edges")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let matching: Vec<usize> = edges
        .iter()
        .enumerate()
        .filter(|(_, e)| {
            e.get("from").and_then(Value::as_str) == Some(from)
                && e.get("to").and_then(Value::as_str) == Some(to)
        })
        .map(|(i, _)| i)
        .collect();
    if matching.is_empty() {
        return Err(refused(format!("there is no edge from `{from}` to `{to}`")));
    }
    for i in matching.into_iter().rev() {
        session.remove(&format!("/edges/{i}"))?;
    }
    Ok(())
}
