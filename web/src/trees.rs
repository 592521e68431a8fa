//! Decision trees on the canvas, as IF/Switch-like nodes: a decision node (a condition and its
//! branches) and a terminal (an action and a message) are added from the palette, wired by
//! dragging from a decision node (a wire is a branch: its `next`), and deleted with their
//! references. Every change is a list of core edits (`Set`, `Insert`, `Remove`) planned here from
//! the document's JSON, applied as one undoable change.

use logicmd::edit::Edit;
use logicmd::graph::GraphNode;
use logicmd::json::pointer_push;
use serde_json::{json, Map, Value};

use crate::defaults::free;
use crate::state::Studio;

/// The decision tree and member name of a tree node id (`tree:T/N` or `terminal:T/N`).
pub fn member(id: &str) -> Option<(&str, &str)> {
    id.strip_prefix("tree:")
        .or_else(|| id.strip_prefix("terminal:"))?
        .split_once('/')
}

fn tree_pointer(tree: &str) -> String {
    pointer_push("/decision_trees", tree)
}

/// The edits that delete `node` with what refers to it: a step (`RemoveStep`), a DRTL node
/// (`RemoveNode`), a tree's node or terminal (the branches that lead to it go too; a root is
/// handed to the next node; a tree left empty goes). Workflow nodes are deleted in the text.
pub fn removal(studio: Studio, node: &GraphNode) -> Result<Vec<Edit>, String> {
    match node.kind.as_str() {
        "step" => Ok(vec![Edit::RemoveStep {
            name: node.name.clone(),
        }]),
        _ if node.id.starts_with("drtl:") => Ok(vec![Edit::RemoveNode {
            id: node.name.clone(),
        }]),
        "decision" | "terminal" => {
            let (tree, name) =
                member(&node.id).ok_or_else(|| format!("`{}` is not in a tree", node.id))?;
            let trees = trees_of(studio);
            Ok(remove_member(&trees, tree, name))
        }
        kind => Err(format!(
            "a {kind} node is removed in the text (select it there)"
        )),
    }
}

/// Removing member `name` of tree `tree` (of the document's `trees`).
pub fn remove_member(trees: &Value, tree: &str, name: &str) -> Vec<Edit> {
    let base = tree_pointer(tree);
    let json = &trees[tree];
    let nodes = json.get("nodes").and_then(Value::as_object);
    let terminals = json.get("terminals").and_then(Value::as_object);
    let remaining = nodes.map_or(0, |n| n.len() - usize::from(n.contains_key(name)))
        + terminals.map_or(0, |t| t.len() - usize::from(t.contains_key(name)));
    let only_terminals = nodes.is_none_or(|n| n.keys().all(|k| k == name));
    if remaining == 0 || only_terminals {
        // Nothing (or no decision node) would be left: the tree goes, and with the last tree
        // the document's `decision_trees`.
        let last = trees.as_object().is_some_and(|t| t.len() == 1);
        let path = if last {
            "/decision_trees".to_owned()
        } else {
            base
        };
        return vec![Edit::Remove { path }];
    }
    let mut edits = Vec::new();
    // Branches that lead to it, last first so the earlier indices stay right.
    for (node, definition) in nodes.into_iter().flatten() {
        let branches = definition.get("branches").and_then(Value::as_array);
        let branches: Vec<&Value> = branches.into_iter().flatten().collect();
        for (index, branch) in branches.into_iter().enumerate().rev() {
            if branch.get("next").and_then(Value::as_str) == Some(name) {
                let at = pointer_push(
                    &pointer_push(&pointer_push(&base, "nodes"), node),
                    "branches",
                );
                edits.push(Edit::Remove {
                    path: pointer_push(&at, &index.to_string()),
                });
            }
        }
    }
    if json.get("root").and_then(Value::as_str) == Some(name) {
        let next = nodes
            .into_iter()
            .flat_map(Map::keys)
            .find(|k| *k != name)
            .cloned()
            .unwrap_or_default();
        edits.push(Edit::Set {
            path: pointer_push(&base, "root"),
            value: json!(next),
        });
    }
    let group = if terminals.is_some_and(|t| t.contains_key(name)) {
        "terminals"
    } else {
        "nodes"
    };
    edits.push(Edit::Remove {
        path: pointer_push(&pointer_push(&base, group), name),
    });
    edits
}

/// The palette's Decision: a decision node in the tree of the selected tree node, wired from it;
/// else a new tree whose root it is. Returns the edits and the new node's id.
pub fn add_decision(trees: &Value, selected: Option<&str>) -> (Vec<Edit>, String) {
    add_member(
        trees,
        selected,
        "decide",
        "nodes",
        json!({
            "condition": "{{ input.kind }}",
            "branches": [],
        }),
    )
}

/// The palette's Terminal: a terminal in the selected node's tree (wired from a selected
/// decision node), else in a new tree with a decision node routing to it.
pub fn add_terminal(trees: &Value, selected: Option<&str>) -> (Vec<Edit>, String) {
    add_member(
        trees,
        selected,
        "done",
        "terminals",
        json!({
            "action": "escalate",
            "message": "Describe what happens here",
        }),
    )
}

fn add_member(
    trees: &Value,
    selected: Option<&str>,
    base: &str,
    group: &str,
    body: Value,
) -> (Vec<Edit>, String) {
    let kind_prefix = if group == "nodes" { "tree" } else { "terminal" };
    if let Some((tree, from)) = selected.and_then(member) {
        let json = trees.get(tree).cloned().unwrap_or(Value::Null);
        let taken = |n: &str| {
            ["nodes", "terminals"]
                .iter()
                .any(|g| json.pointer(&format!("/{g}/{n}")).is_some())
        };
        let name = free(base, taken);
        let mut edits = vec![Edit::Set {
            path: pointer_push(&pointer_push(&tree_pointer(tree), group), &name),
            value: body,
        }];
        if json.pointer(&format!("/nodes/{from}")).is_some() {
            edits.extend(branch_to(tree, &json, from, &name));
        }
        return (edits, format!("{kind_prefix}:{tree}/{name}"));
    }
    let tree = free("route", |t| trees.get(t).is_some());
    let (root, member_name) = if group == "nodes" {
        (base.to_owned(), base.to_owned())
    } else {
        ("decide".to_owned(), base.to_owned())
    };
    let mut definition = json!({
        "description": "Picks the path by a condition",
        "root": root,
        "nodes": {},
    });
    if group == "nodes" {
        definition["nodes"][&root] = body;
    } else {
        definition["nodes"][&root] = json!({
            "condition": "{{ input.kind }}",
            "branches": [{ "default": true, "next": member_name }],
        });
        definition["terminals"] = json!({ member_name.clone(): body });
    }
    let edits = vec![Edit::Set {
        path: tree_pointer(&tree),
        value: definition,
    }];
    (edits, format!("{kind_prefix}:{tree}/{member_name}"))
}

/// A branch of decision node `from` (tree `tree`, JSON `json`) leading to `next`: the first
/// matches `true`, the second is the default, later ones match a value to fill in.
pub fn branch_to(tree: &str, json: &Value, from: &str, next: &str) -> Vec<Edit> {
    let at = pointer_push(
        &pointer_push(&pointer_push(&tree_pointer(tree), "nodes"), from),
        "branches",
    );
    let existing = json
        .pointer(&format!("/nodes/{from}/branches"))
        .and_then(Value::as_array);
    let count = existing.map_or(0, Vec::len);
    let has_default = existing
        .into_iter()
        .flatten()
        .any(|b| b.get("default") == Some(&Value::Bool(true)));
    let branch = match (count, has_default) {
        (0, _) => json!({ "value": true, "next": next }),
        (_, false) => json!({ "default": true, "next": next }),
        (n, true) => json!({ "value": format!("case_{n}"), "next": next }),
    };
    vec![if count > 0 {
        Edit::Insert {
            path: at,
            index: None,
            value: branch,
        }
    } else {
        Edit::Set {
            path: at,
            value: json!([branch]),
        }
    }]
}

/// A wire dropped from a decision node onto `target` (a node of its tree, or a step): a branch.
/// `None` when the wire does not start at a decision node (core's connect judges it).
pub fn connection(
    trees: &Value,
    from: &GraphNode,
    target: &GraphNode,
) -> Option<Result<Vec<Edit>, String>> {
    if from.kind != "decision" {
        return None;
    }
    let (tree, name) = member(&from.id)?;
    let json = trees.get(tree).cloned().unwrap_or(Value::Null);
    let next = match member(&target.id) {
        Some((other, member_name)) if other == tree => member_name.to_owned(),
        Some((other, _)) => {
            return Some(Err(format!(
                "`{}` belongs to the tree `{other}`; a branch leads within its tree or to a step",
                target.name
            )))
        }
        None if target.kind == "step" => target.name.clone(),
        None => {
            return Some(Err(format!(
                "a branch leads to a node of its tree or to a step, not to a {}",
                target.kind
            )))
        }
    };
    if next == name {
        return Some(Err(format!("`{name}` cannot branch to itself")));
    }
    Some(Ok(branch_to(tree, &json, name, &next)))
}

/// The branches of tree node `from` that lead to `to`, removed (a selected decision wire
/// deleted).
pub fn disconnection(trees: &Value, from: &str, to: &GraphNode) -> Option<Vec<Edit>> {
    let (tree, name) = member(from)?;
    let json = trees.get(tree)?;
    let next = member(&to.id).map_or(to.name.as_str(), |(_, n)| n);
    let branches = json
        .pointer(&format!("/nodes/{name}/branches"))?
        .as_array()?;
    let at = pointer_push(
        &pointer_push(&pointer_push(&tree_pointer(tree), "nodes"), name),
        "branches",
    );
    let edits: Vec<Edit> = branches
        .iter()
        .enumerate()
        .rev()
        .filter(|(_, b)| b.get("next").and_then(Value::as_str) == Some(next))
        .map(|(i, _)| Edit::Remove {
            path: pointer_push(&at, &i.to_string()),
        })
        .collect();
    (!edits.is_empty()).then_some(edits)
}

/// The document's `decision_trees` (an empty object when it has none).
pub fn trees_of(studio: Studio) -> Value {
    match crate::inspector::value_at(studio, "/decision_trees") {
        Value::Null => json!({}),
        trees => trees,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use logicmd::edit::apply;

    const DOC: &str =
        "---\nspec_version: \"1.0\"\nname: t\nsteps:\n  answer:\n    description: Answer\n---\n";

    fn apply_all(text: &str, edits: &[Edit]) -> String {
        edits.iter().fold(text.to_owned(), |t, e| {
            apply(&t, e)
                .unwrap_or_else(|d| panic!("{e:?}: {}", d.message))
                .text
        })
    }

    fn trees(text: &str) -> Value {
        let document = logicmd::Document::parse(text).document.unwrap();
        document
            .json()
            .get("decision_trees")
            .cloned()
            .unwrap_or_else(|| json!({}))
    }

    fn graph(text: &str) -> logicmd::graph::Graph {
        logicmd::graph::from_document(&logicmd::Document::parse(text).document.unwrap())
    }

    /// Issue #31: a decision tree is built, wired and taken apart on the canvas, every step a
    /// valid document.
    #[test]
    fn a_tree_is_added_wired_and_deleted_through_core_edits() {
        let (edits, id) = add_decision(&trees(DOC), None);
        assert_eq!(id, "tree:route/decide");
        let text = apply_all(DOC, &edits);
        assert!(logicmd::validate(&text).valid, "{text}");
        // A terminal added with the decision node selected is wired from it.
        let (edits, terminal) = add_terminal(&trees(&text), Some(&id));
        assert_eq!(terminal, "terminal:route/done");
        let text = apply_all(&text, &edits);
        assert!(logicmd::validate(&text).valid, "{text}");
        let g = graph(&text);
        assert!(g
            .edges
            .iter()
            .any(|e| e.source == id && e.target == terminal));
        // A wire from the decision node to a step is a second branch: the default.
        let (from, step) = (g.node(&id).unwrap(), g.node("step:answer").unwrap());
        let edits = connection(&trees(&text), from, step).unwrap().unwrap();
        let text = apply_all(&text, &edits);
        assert_eq!(
            trees(&text)["route"]["nodes"]["decide"]["branches"],
            json!([{"value": true, "next": "done"}, {"default": true, "next": "answer"}]),
            "{text}"
        );
        let g = graph(&text);
        assert_eq!(g.edges.iter().filter(|e| e.source == id).count(), 2);
        // Deleting the wire to the step removes that branch.
        let edits = disconnection(&trees(&text), &id, g.node("step:answer").unwrap()).unwrap();
        let text = apply_all(&text, &edits);
        assert_eq!(
            graph(&text).edges.iter().filter(|e| e.source == id).count(),
            1
        );
        // Deleting the terminal removes the branch that led to it; the tree stays valid.
        let edits = remove_member(&trees(&text), "route", "done");
        let text = apply_all(&text, &edits);
        assert!(logicmd::validate(&text).valid, "{text}");
        assert!(!text.contains("done"), "{text}");
        // Deleting its last decision node removes the tree.
        let edits = remove_member(&trees(&text), "route", "decide");
        let text = apply_all(&text, &edits);
        assert!(!text.contains("decision_trees"), "{text}");
        assert!(logicmd::validate(&text).valid, "{text}");
    }

    #[test]
    fn a_terminal_alone_comes_with_a_decision_node_routing_to_it_and_roots_move_on() {
        let (edits, id) = add_terminal(&trees(DOC), None);
        let text = apply_all(DOC, &edits);
        assert!(logicmd::validate(&text).valid, "{text}");
        assert_eq!(id, "terminal:route/done");
        // Two decision nodes; deleting the root hands the root to the other.
        let (edits, second) = add_decision(&trees(&text), Some("tree:route/decide"));
        assert_eq!(second, "tree:route/decide_2");
        let text = apply_all(&text, &edits);
        let edits = remove_member(&trees(&text), "route", "decide");
        let text = apply_all(&text, &edits);
        assert!(text.contains("root: decide_2"), "{text}");
        assert!(logicmd::validate(&text).valid, "{text}");
        // A branch across trees, or to itself, is refused with the reason.
        let g = graph(&text);
        let d2 = g.node("tree:route/decide_2").unwrap();
        assert!(connection(&trees(&text), d2, d2).unwrap().is_err());
    }
}
