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

/// The id of the node at `index` (a JSON Pointer token).
pub(super) fn id_at(session: &Session, index: &str) -> Option<String> {
    let index: usize = index.parse().ok()?;
    nodes(session)
        .get(index)?
        .get("id")?
        .as_str()
        .map(str::to_owned)
}

/// Removes a node and what only points at it: the edges that touch it, gate routes to it
/// (`on_pass`/`on_fail`), and review actions routed to it (they end the run instead), each
/// reported in a note. Refused when another node reads its output (`input`, a `{{ }}`
/// template, an `inject`).
pub(super) fn remove_node(session: &mut Session, id: &str) -> Result<(), Diagnostic> {
    let index = index_of(session, id)?;
    let readers: Vec<String> = readers_of(session.json(), id)
        .into_iter()
        .map(|pointer| session.place(&pointer))
        .collect();
    if !readers.is_empty() {
        return Err(refused(format!(
            "node `{id}` is not removed: its output is read at {}; change those first",
            readers.join(" and ")
        )));
    }
    let edges = session
        .json()
        .get("edges")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let mut notes = Vec::new();
    for (i, edge) in edges.iter().enumerate().rev() {
        let end = |end: &str| edge.get(end).and_then(Value::as_str).unwrap_or_default();
        if end("from") == id || end("to") == id {
            session.remove(&format!("/edges/{i}"))?;
            notes.push(format!(
                "the edge from `{}` to `{}` was removed",
                end("from"),
                end("to")
            ));
        }
    }
    notes.reverse();
    for (position, other) in nodes(session).iter().enumerate() {
        let name = other.get("id").and_then(Value::as_str).unwrap_or_default();
        if name == id {
            continue;
        }
        for field in ["on_pass", "on_fail"] {
            if route_target(other.get(field)) == Some(id) {
                session.remove(&format!("/nodes/{position}/{field}"))?;
                notes.push(format!(
                    "gate `{name}` no longer routes `{field}` to `{id}`"
                ));
            }
        }
        let actions = other.get("actions").and_then(Value::as_array);
        for (i, action) in actions.into_iter().flatten().enumerate() {
            let Some(map) = action.as_object() else {
                continue;
            };
            for (label, route) in map {
                if route_target(Some(route)) == Some(id) {
                    session.set(&format!("/nodes/{position}/actions/{i}"), &json!(label))?;
                    notes.push(format!(
                        "review `{name}`'s action `{label}` now ends the run"
                    ));
                }
            }
        }
    }
    let index = index_of(session, id).unwrap_or(index);
    session.remove(&format!("/nodes/{index}"))?;
    let position = format!(
        "/metadata/logicmd/positions/{}",
        crate::json::escape_token(id)
    );
    if session.json().pointer(&position).is_some() {
        session.remove(&position)?;
    }
    for note in notes {
        session.note(note);
    }
    Ok(())
}

/// The node a route goes to: `next_node` or `{next: next_node, inject: ...}`.
fn route_target(route: Option<&Value>) -> Option<&str> {
    match route? {
        Value::String(target) => Some(target),
        route => route.get("next").and_then(Value::as_str),
    }
}

/// The pointers of the values that read node `id`'s output: other nodes' `input` (a `node.key`
/// string or `{{node.key}}` templates, as the checks read them) and routes' `inject`.
fn readers_of(json: &Value, id: &str) -> Vec<String> {
    let mut found = Vec::new();
    let all = json.get("nodes").and_then(Value::as_array);
    for (index, node) in all.into_iter().flatten().enumerate() {
        if node.get("id").and_then(Value::as_str) == Some(id) {
            continue;
        }
        let at = format!("/nodes/{index}");
        for field in ["on_pass", "on_fail"] {
            if let Some(inject) = node.get(field).and_then(|r| r.get("inject")) {
                references(inject, &format!("{at}/{field}/inject"), id, &mut found);
            }
        }
        if let Some(input) = node.get("input") {
            references(input, &format!("{at}/input"), id, &mut found);
        }
    }
    found
}

/// Adds `pointer` (or the pointers inside `value`) to `out` where a reference names node `id`.
fn references(value: &Value, pointer: &str, id: &str, out: &mut Vec<String>) {
    let names = |reference: &str| reference.trim().split('.').next() == Some(id);
    match value {
        Value::String(text) if text.contains("{{") => {
            let mut rest = text.as_str();
            let mut reads = false;
            while let Some(open) = rest.find("{{") {
                let after = &rest[open + 2..];
                let Some(close) = after.find("}}") else { break };
                reads |= names(&after[..close]);
                rest = &after[close + 2..];
            }
            if reads {
                out.push(pointer.to_owned());
            }
        }
        Value::String(text) if !text.contains(' ') && names(text) => out.push(pointer.to_owned()),
        Value::Object(map) => {
            for (key, item) in map {
                let at = format!("{pointer}/{}", crate::json::escape_token(key));
                references(item, &at, id, out);
            }
        }
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                references(item, &format!("{pointer}/{i}"), id, out);
            }
        }
        _ => {}
    }
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
