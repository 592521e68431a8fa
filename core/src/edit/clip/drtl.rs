//! Copy and paste of DRTL nodes as DRTL topology text: a copy is a whole topology holding the
//! chosen nodes and the edges between them, so it pastes into any topology (or saves as a
//! file); pasting adds the nodes under ids the target does not use yet, and every reference
//! among the pasted nodes (edges, routes, `input`, `inject`, `{{ }}` templates) follows.

use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value};

use super::{fresh_names, Pasted};
use crate::diagnostic::Diagnostic;
use crate::edit::{apply, refused, Edit};

/// The nodes of topology `text` whose ids are in `ids` (in the topology's order), with the
/// edges between them, as a DRTL topology named like the source. Routes and inputs naming
/// nodes outside the copy are kept (as step copies keep branches); the target's checks show
/// any that dangle.
pub fn copy_nodes(text: &str, ids: &[String]) -> Result<String, Diagnostic> {
    let json = topology_json(text, "copy from")?;
    let chosen: HashSet<&str> = ids.iter().map(String::as_str).collect();
    let nodes: Vec<Value> = list(&json, "nodes")
        .filter(|n| id_of(n).is_some_and(|id| chosen.contains(id)))
        .cloned()
        .collect();
    if nodes.is_empty() {
        return Err(refused("no DRTL nodes to copy"));
    }
    let edges: Vec<Value> = list(&json, "edges")
        .filter(|e| ends(e).is_some_and(|(f, t)| chosen.contains(f) && chosen.contains(t)))
        .cloned()
        .collect();
    let mut copy = Map::new();
    let name = json.get("name").cloned().unwrap_or("copied-nodes".into());
    copy.insert("name".to_owned(), name);
    copy.insert("nodes".to_owned(), Value::Array(nodes));
    copy.insert("edges".to_owned(), Value::Array(edges));
    Ok(format!(
        "{}\n",
        crate::edit::render::block(&Value::Object(copy), 0)
    ))
}

/// Adds the nodes of the DRTL text `clip` to topology `text` after node `after` (at the end
/// when absent), then the clip's edges between them. A taken id becomes `id_2`, `id_3`…
pub fn paste_nodes(text: &str, clip: &str, after: Option<&str>) -> Result<Pasted, Diagnostic> {
    let target = topology_json(text, "paste into")?;
    let source = crate::drtl::parse(clip)
        .0
        .map(|t| t.json().clone())
        .filter(|j| list(j, "nodes").next().is_some())
        .ok_or_else(|| refused("the clipboard holds no DRTL nodes"))?;
    let renames = fresh_ids(&target, &source);
    let mut out = text.to_owned();
    let mut previous = after.map(str::to_owned);
    let mut names = Vec::new();
    for node in list(&source, "nodes") {
        let node = renamed_node(node, &renames);
        let id = id_of(&node).unwrap_or_default().to_owned();
        let edit = Edit::AddNode {
            node,
            after: previous.take(),
        };
        out = apply(&out, &edit)?.text;
        previous = Some(id.clone());
        names.push(id);
    }
    for edge in list(&source, "edges") {
        let Some((from, to)) = ends(edge) else {
            continue;
        };
        let (Some(from), Some(to)) = (renames.get(from), renames.get(to)) else {
            continue;
        };
        let mut edge = edge.clone();
        edge["from"] = from.as_str().into();
        edge["to"] = to.as_str().into();
        let edit = Edit::Insert {
            path: "/edges".to_owned(),
            index: None,
            value: edge,
        };
        out = apply(&out, &edit)?.text;
    }
    Ok(Pasted { text: out, names })
}

/// Each clip node's id in the target: its own, or the first free `id_n` when the target (or
/// an earlier pasted node) has it.
fn fresh_ids(target: &Value, source: &Value) -> HashMap<String, String> {
    let ids = |json| list(json, "nodes").filter_map(id_of).map(str::to_owned);
    let existing: HashSet<String> = ids(target).collect();
    let clip: Vec<String> = ids(source).collect();
    fresh_names(&existing, &clip).into_iter().collect()
}

/// `node` with its id and its references to pasted nodes renamed: `input`, the gate routes
/// (`on_pass`/`on_fail`, a target or `{next, inject}`) and the review actions' routes.
fn renamed_node(node: &Value, renames: &HashMap<String, String>) -> Value {
    let mut node = node.clone();
    let Value::Object(map) = &mut node else {
        return node;
    };
    if let Some(id) = map.get("id").and_then(Value::as_str) {
        let fresh = renames.get(id).cloned().unwrap_or_else(|| id.to_owned());
        map.insert("id".to_owned(), fresh.into());
    }
    if let Some(input) = map.get_mut("input") {
        rename_references(input, renames);
    }
    for field in ["on_pass", "on_fail"] {
        match map.get_mut(field) {
            Some(Value::String(target)) => rename_target(target, renames),
            Some(Value::Object(route)) => rename_route(route, renames),
            _ => {}
        }
    }
    if let Some(Value::Array(actions)) = map.get_mut("actions") {
        for action in actions.iter_mut().filter_map(Value::as_object_mut) {
            for route in action.values_mut().filter_map(Value::as_object_mut) {
                rename_route(route, renames);
            }
        }
    }
    node
}

fn rename_route(route: &mut Map<String, Value>, renames: &HashMap<String, String>) {
    if let Some(Value::String(target)) = route.get_mut("next") {
        rename_target(target, renames);
    }
    if let Some(inject) = route.get_mut("inject") {
        rename_references(inject, renames);
    }
}

fn rename_target(target: &mut String, renames: &HashMap<String, String>) {
    if let Some(fresh) = renames.get(target.as_str()) {
        fresh.clone_into(target);
    }
}

/// Renames the node in `node.key` references and in `{{ node.key }}` templates, as the
/// checks read them (see `readers_of` in `edit::drtl`).
fn rename_references(value: &mut Value, renames: &HashMap<String, String>) {
    match value {
        Value::String(text) if text.contains("{{") => *text = rename_templates(text, renames),
        Value::String(text) if !text.contains(' ') => *text = rename_reference(text, renames),
        Value::Object(map) => map.values_mut().for_each(|v| rename_references(v, renames)),
        Value::Array(items) => items.iter_mut().for_each(|v| rename_references(v, renames)),
        _ => {}
    }
}

fn rename_templates(text: &str, renames: &HashMap<String, String>) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(open) = rest.find("{{") {
        let after = &rest[open + 2..];
        let Some(close) = after.find("}}") else { break };
        let inner = &after[..close];
        let lead = inner.len() - inner.trim_start().len();
        out.push_str(&rest[..open + 2]);
        out.push_str(&inner[..lead]);
        out.push_str(&rename_reference(&inner[lead..], renames));
        out.push_str("}}");
        rest = &after[close + 2..];
    }
    out.push_str(rest);
    out
}

/// `node.rest` with `node` renamed (the text as it is when its first part is not pasted).
fn rename_reference(reference: &str, renames: &HashMap<String, String>) -> String {
    let (head, rest) = reference
        .find('.')
        .map_or((reference, ""), |dot| reference.split_at(dot));
    match renames.get(head) {
        Some(fresh) => format!("{fresh}{rest}"),
        None => reference.to_owned(),
    }
}

fn topology_json(text: &str, doing: &str) -> Result<Value, Diagnostic> {
    if crate::analysis::detect(text, None) != crate::analysis::Kind::Drtl {
        return Err(refused(format!(
            "DRTL nodes are copied and pasted in DRTL topologies; cannot {doing} a LOGIC.md document"
        )));
    }
    crate::drtl::parse(text)
        .0
        .map(|t| t.json().clone())
        .ok_or_else(|| refused(format!("the topology does not parse; cannot {doing} it")))
}

fn list<'j>(json: &'j Value, field: &str) -> impl Iterator<Item = &'j Value> {
    json.get(field)
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
}

fn id_of(node: &Value) -> Option<&str> {
    node.get("id").and_then(Value::as_str)
}

fn ends(edge: &Value) -> Option<(&str, &str)> {
    Some((
        edge.get("from").and_then(Value::as_str)?,
        edge.get("to").and_then(Value::as_str)?,
    ))
}
