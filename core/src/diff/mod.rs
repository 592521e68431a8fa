//! A semantic diff of two documents of one kind: what `logicmd diff A B` prints. Not lines but
//! meaning: steps, decision-tree nodes, agents and DRTL nodes added, removed or renamed (the
//! graph model's nodes), fields changed (JSON Pointers into the new document, with the old and
//! new values), and edges of the graph added or removed. Formatting, comments and key order are
//! not changes; neither is moving a DRTL node in its list.
//!
//! A node missing from one side is a rename when the other side has a node of the same kind
//! whose definition is the same or nearly (at least half of the leaf values equal, the unique
//! best match); edges are compared with renamed nodes under their new names.

#[cfg(test)]
mod tests;

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;
use serde_json::{Map, Value};

use crate::analysis::{graph_of, Kind, Parsed};
use crate::graph::Graph;
use crate::loader::MemoryLoader;

/// One difference.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "change", rename_all = "snake_case")]
pub enum Change {
    /// A node of the new document that the old one does not have.
    Added {
        /// `step`, `decision`, `terminal`, `agent`, or the DRTL node type.
        kind: String,
        /// Its name.
        name: String,
    },
    /// A node of the old document that the new one does not have.
    Removed {
        /// Its kind.
        kind: String,
        /// Its name.
        name: String,
    },
    /// A node whose name changed (its other changes are listed as field changes).
    Renamed {
        /// Its kind.
        kind: String,
        /// The old name.
        from: String,
        /// The new name.
        to: String,
    },
    /// A value added, removed or changed.
    Changed {
        /// Where, in the new document (in the old one for a removed value); DRTL nodes are
        /// addressed by id (`/nodes/ID/...`).
        path: String,
        /// The old value; `None` when it was added.
        #[serde(skip_serializing_if = "Option::is_none")]
        before: Option<Value>,
        /// The new value; `None` when it was removed.
        #[serde(skip_serializing_if = "Option::is_none")]
        after: Option<Value>,
    },
    /// An edge of the graph the old document does not have.
    EdgeAdded {
        /// `needs`, `branch`, `route`, `edge`, ...
        kind: String,
        /// The source node's name.
        from: String,
        /// The target node's name.
        to: String,
    },
    /// An edge the new document no longer has.
    EdgeRemoved {
        /// Its kind.
        kind: String,
        /// The source node's name (old).
        from: String,
        /// The target node's name (old).
        to: String,
    },
}

/// The differences between two parsed documents, in a fixed order: renamed, removed and added
/// nodes, then changed fields (in document order of their paths), then edges. `None` when the two
/// are of different kinds.
pub fn diff(old: &Parsed, new: &Parsed) -> Option<Vec<Change>> {
    if old.kind() != new.kind() {
        return None;
    }
    let loader = MemoryLoader::new();
    let old_graph = graph_of(old, "old", &loader);
    let new_graph = graph_of(new, "new", &loader);
    let old_json = normalized(old.kind(), old.json());
    let new_json = normalized(new.kind(), new.json());
    let old_nodes = nodes(&old_graph, &old_json, old.kind());
    let new_nodes = nodes(&new_graph, &new_json, new.kind());

    let mut changes = Vec::new();
    let renames = renames(&old_nodes, &new_nodes);
    let mut covered_old: Vec<String> = Vec::new();
    let mut covered_new: Vec<String> = Vec::new();
    for (old_id, new_id) in &renames {
        let (before, after) = (&old_nodes[old_id], &new_nodes[new_id]);
        changes.push(Change::Renamed {
            kind: before.kind.clone(),
            from: before.name.clone(),
            to: after.name.clone(),
        });
        covered_old.push(before.pointer.clone());
        covered_new.push(after.pointer.clone());
    }
    let renamed_old: BTreeSet<&String> = renames.iter().map(|(o, _)| o).collect();
    let renamed_new: BTreeSet<&String> = renames.iter().map(|(_, n)| n).collect();
    for (id, node) in &old_nodes {
        if !new_nodes.contains_key(id) && !renamed_old.contains(id) {
            changes.push(Change::Removed {
                kind: node.kind.clone(),
                name: node.name.clone(),
            });
            covered_old.push(node.pointer.clone());
        }
    }
    for (id, node) in &new_nodes {
        if !old_nodes.contains_key(id) && !renamed_new.contains(id) {
            changes.push(Change::Added {
                kind: node.kind.clone(),
                name: node.name.clone(),
            });
            covered_new.push(node.pointer.clone());
        }
    }
    // Fields: the documents less what the node changes above already say, then each renamed
    // node's definition against its old one.
    let mut fields = Vec::new();
    leaves(
        &without(&old_json, &covered_old),
        &without(&new_json, &covered_new),
        String::new(),
        &mut fields,
    );
    for (old_id, new_id) in &renames {
        let (before, after) = (&old_nodes[old_id], &new_nodes[new_id]);
        leaves(
            &before.value,
            &after.value,
            after.pointer.clone(),
            &mut fields,
        );
    }
    crate::sorting::sort_by(&mut fields, |a, b| path_of(a).cmp(path_of(b)));
    changes.extend(fields);
    changes.extend(edges(&old_graph, &new_graph, &renames, &old_nodes));
    Some(changes)
}

/// A node of one side: what the graph calls it, and its definition.
struct Node {
    kind: String,
    name: String,
    pointer: String,
    value: Value,
}

/// The documents' nodes that a change can name (not the frames of groups), by graph id.
fn nodes(graph: &Graph, json: &Value, kind: Kind) -> BTreeMap<String, Node> {
    graph
        .nodes
        .iter()
        .filter(|node| !matches!(node.kind.as_str(), "parallel" | "decision_tree"))
        .map(|node| {
            let pointer = match kind {
                Kind::Drtl => format!("/nodes/{}", escape(&node.name)),
                Kind::Logic => node.pointer.clone(),
            };
            let value = json.pointer(&pointer).cloned().unwrap_or(Value::Null);
            (
                node.id.clone(),
                Node {
                    kind: node.kind.clone(),
                    name: node.name.clone(),
                    pointer,
                    value,
                },
            )
        })
        .collect()
}

/// A DRTL topology with its nodes keyed by id (their order is not a change) and without its
/// `edges` (compared as the graph's edges); a LOGIC.md document as it is.
fn normalized(kind: Kind, json: &Value) -> Value {
    let mut json = json.clone();
    if kind == Kind::Drtl {
        if let Some(map) = json.as_object_mut() {
            if let Some(Value::Array(list)) = map.get("nodes") {
                let by_id: Map<String, Value> = list
                    .iter()
                    .enumerate()
                    .map(|(index, node)| {
                        let id = node
                            .get("id")
                            .and_then(Value::as_str)
                            .map_or_else(|| format!("#{index}"), str::to_owned);
                        let mut node = node.clone();
                        if let Some(fields) = node.as_object_mut() {
                            fields.remove("id");
                        }
                        (id, node)
                    })
                    .collect();
                map.insert("nodes".to_owned(), Value::Object(by_id));
            }
            map.remove("edges");
        }
    }
    json
}

/// `json` without the values at `pointers`.
fn without(json: &Value, pointers: &[String]) -> Value {
    let mut json = json.clone();
    for pointer in pointers {
        if let Some((parent, key)) = pointer.rsplit_once('/') {
            let key = unescape(key);
            match json.pointer_mut(parent) {
                Some(Value::Object(map)) => {
                    map.remove(&key);
                }
                Some(Value::Array(items)) => {
                    if let Some(item) = key.parse::<usize>().ok().and_then(|i| items.get_mut(i)) {
                        *item = Value::Null;
                    }
                }
                _ => {}
            }
        }
    }
    json
}

/// Every leaf difference between `old` and `new` under `at`: objects key by key, arrays item by
/// item (the extra items of the longer one added or removed), anything else as a whole.
fn leaves(old: &Value, new: &Value, at: String, out: &mut Vec<Change>) {
    match (old, new) {
        (Value::Object(a), Value::Object(b)) => {
            for (key, before) in a {
                let here = format!("{at}/{}", escape(key));
                match b.get(key) {
                    Some(after) => leaves(before, after, here, out),
                    None => out.push(changed(here, Some(before), None)),
                }
            }
            for (key, after) in b {
                if !a.contains_key(key) {
                    out.push(changed(format!("{at}/{}", escape(key)), None, Some(after)));
                }
            }
        }
        (Value::Array(a), Value::Array(b)) => {
            for index in 0..a.len().max(b.len()) {
                let here = format!("{at}/{index}");
                match (a.get(index), b.get(index)) {
                    (Some(before), Some(after)) => leaves(before, after, here, out),
                    (before, after) => out.push(changed(here, before, after)),
                }
            }
        }
        _ if old != new => out.push(changed(at, Some(old), Some(new))),
        _ => {}
    }
}

fn changed(path: String, before: Option<&Value>, after: Option<&Value>) -> Change {
    Change::Changed {
        path,
        before: before.cloned(),
        after: after.cloned(),
    }
}

fn path_of(change: &Change) -> &str {
    match change {
        Change::Changed { path, .. } => path,
        _ => "",
    }
}

/// The least share of equal leaf values for a rename (a step with two fields, one changed).
const RENAME_SIMILARITY: f64 = 0.5;

/// Pairs (old id, new id) of nodes that were renamed.
fn renames(old: &BTreeMap<String, Node>, new: &BTreeMap<String, Node>) -> Vec<(String, String)> {
    let gone: Vec<&String> = old.keys().filter(|id| !new.contains_key(*id)).collect();
    let came: Vec<&String> = new.keys().filter(|id| !old.contains_key(*id)).collect();
    let mut pairs = Vec::new();
    let mut taken: BTreeSet<&String> = BTreeSet::new();
    for old_id in gone {
        let before = &old[old_id];
        let scored: Vec<(f64, &String)> = came
            .iter()
            .filter(|id| !taken.contains(*id) && new[**id].kind == before.kind)
            .map(|id| (similarity(&before.value, &new[*id].value), *id))
            .filter(|(score, _)| *score >= RENAME_SIMILARITY)
            .collect();
        let best = scored.iter().map(|(s, _)| *s).fold(0.0, f64::max);
        let at_best: Vec<&&String> = scored
            .iter()
            .filter(|(s, _)| *s == best)
            .map(|(_, id)| id)
            .collect();
        if let [only] = at_best.as_slice() {
            taken.insert(only);
            pairs.push((old_id.clone(), (**only).clone()));
        }
    }
    pairs
}

/// The share of leaf values two definitions have in common (1.0: the same).
fn similarity(a: &Value, b: &Value) -> f64 {
    if a == b {
        return 1.0;
    }
    let mut differences = Vec::new();
    leaves(a, b, String::new(), &mut differences);
    let total = count_leaves(a).max(count_leaves(b)).max(1);
    1.0 - (differences.len().min(total) as f64 / total as f64)
}

fn count_leaves(value: &Value) -> usize {
    match value {
        Value::Object(map) => map.values().map(count_leaves).sum(),
        Value::Array(items) => items.iter().map(count_leaves).sum(),
        _ => 1,
    }
}

/// Edges added and removed, by node names, the old side's renamed nodes under their new names.
fn edges(
    old: &Graph,
    new: &Graph,
    renames: &[(String, String)],
    old_nodes: &BTreeMap<String, Node>,
) -> Vec<Change> {
    let renamed: BTreeMap<&str, &str> = renames
        .iter()
        .map(|(o, n)| (o.as_str(), n.as_str()))
        .collect();
    let name_of = |graph: &Graph, id: &str| {
        graph
            .nodes
            .iter()
            .find(|node| node.id == id)
            .map_or_else(|| id.to_owned(), |node| node.name.clone())
    };
    let as_new = |id: &str| renamed.get(id).map_or(id, |n| *n).to_owned();
    let old_set: BTreeSet<(String, String, String)> = old
        .edges
        .iter()
        .map(|e| (e.kind.clone(), as_new(&e.source), as_new(&e.target)))
        .collect();
    let new_set: BTreeSet<(String, String, String)> = new
        .edges
        .iter()
        .map(|e| (e.kind.clone(), e.source.clone(), e.target.clone()))
        .collect();
    let old_name = |id: &str| {
        let original = renamed
            .iter()
            .find(|(_, n)| **n == id)
            .map_or(id, |(o, _)| *o);
        old_nodes
            .get(original)
            .map_or_else(|| name_of(old, original), |node| node.name.clone())
    };
    let mut changes: Vec<Change> = old_set
        .difference(&new_set)
        .map(|(kind, from, to)| Change::EdgeRemoved {
            kind: kind.clone(),
            from: old_name(from),
            to: old_name(to),
        })
        .collect();
    changes.extend(
        new_set
            .difference(&old_set)
            .map(|(kind, from, to)| Change::EdgeAdded {
                kind: kind.clone(),
                from: name_of(new, from),
                to: name_of(new, to),
            }),
    );
    changes
}

fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

fn unescape(token: &str) -> String {
    token.replace("~1", "/").replace("~0", "~")
}

/// The changes as text, one a line (`renamed step gather → collect`, `changed /a/b: 1 → 2`).
pub fn to_text(changes: &[Change]) -> String {
    let value = |v: &Value| serde_json::to_string(v).unwrap_or_default();
    changes
        .iter()
        .map(|change| match change {
            Change::Added { kind, name } => format!("added {kind} `{name}`"),
            Change::Removed { kind, name } => format!("removed {kind} `{name}`"),
            Change::Renamed { kind, from, to } => format!("renamed {kind} `{from}` → `{to}`"),
            Change::Changed {
                path,
                before,
                after,
            } => match (before, after) {
                (Some(b), Some(a)) => format!("changed {path}: {} → {}", value(b), value(a)),
                (None, Some(a)) => format!("added {path}: {}", value(a)),
                (Some(b), None) => format!("removed {path}: {}", value(b)),
                (None, None) => format!("changed {path}"),
            },
            Change::EdgeAdded { kind, from, to } => format!("added edge {from} → {to} ({kind})"),
            Change::EdgeRemoved { kind, from, to } => {
                format!("removed edge {from} → {to} ({kind})")
            }
        })
        .map(|line| line + "\n")
        .collect()
}
