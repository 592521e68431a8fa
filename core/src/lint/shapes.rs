//! Entries the canonical schema accepts without the parts they need to work: a branch without a
//! target or a condition, a decision tree without nodes, a node without branches, a workflow
//! node without a `logic_ref`, and repeated dependencies.

use std::collections::BTreeSet;

use super::context::{entries, items, places, At, LintContext, Obj, V};
use super::rules;
use crate::json::pointer_push_index;

pub fn check(cx: &mut LintContext<'_>) {
    step_branches(cx);
    tree_parts(cx);
    workflow_nodes(cx);
    duplicates(cx, "/steps/*/needs", "needs");
    duplicates(cx, "/nodes/*/depends_on", "depends_on");
}

fn step_branches(cx: &mut LintContext<'_>) {
    for (at, branch) in places(cx.own(), "/steps/*/branches/*").iter() {
        let Some(branch) = branch.as_object() else {
            continue;
        };
        if !branch.contains_key("then") {
            cx.report(
                rules::BRANCH_WITHOUT_TARGET,
                &at.pointer(),
                "this branch has no `then`: it must name the step it goes to",
            );
        }
        if !branch.contains_key("if") && !is_default(branch) {
            cx.report(
                rules::BRANCH_WITHOUT_CONDITION,
                &at.pointer(),
                without_condition("if", branch),
            );
        }
    }
}

/// Whether a branch says `default: true` (`default: false` is no default).
pub(super) fn is_default(branch: Obj<'_>) -> bool {
    branch.get("default").and_then(V::as_bool) == Some(true)
}

/// Why a branch without its condition (`if` or `value`) is never chosen.
fn without_condition(condition: &str, branch: Obj<'_>) -> String {
    if branch.contains_key("default") {
        format!("this branch has no `{condition}`, and `default: false` is no default, so it is never chosen")
    } else {
        format!("this branch has neither `{condition}` nor `default`, so it is never chosen")
    }
}

fn tree_parts(cx: &mut LintContext<'_>) {
    for (at, name, tree) in entries(cx.own(), &At::ROOT, "decision_trees") {
        if let Some(nodes) = tree.get("nodes").and_then(V::as_object) {
            if nodes.is_empty() {
                let start = match tree.get("root").and_then(V::as_str) {
                    Some(root) => format!(", so it cannot start at `{root}`"),
                    None => String::new(),
                };
                cx.report(
                    rules::TREE_WITHOUT_NODES,
                    &at.push("nodes"),
                    format!("decision tree `{name}` has no nodes{start}"),
                );
            }
        }
        for (node_at, node_name, node) in entries(tree, &at, "nodes") {
            if node
                .get("branches")
                .and_then(V::as_array)
                .is_some_and(|branches| branches.is_empty())
            {
                cx.report(
                    rules::NODE_WITHOUT_BRANCHES,
                    &node_at.push("branches"),
                    format!("node `{node_name}` has no branches: evaluation would stop there without an outcome"),
                );
            }
            for (branch_at, branch) in items(node, &node_at, "branches") {
                let Some(branch) = branch.as_object() else {
                    continue;
                };
                if !branch.contains_key("value") && !is_default(branch) {
                    cx.report(
                        rules::BRANCH_WITHOUT_CONDITION,
                        &branch_at.pointer(),
                        without_condition("value", branch),
                    );
                }
            }
        }
    }
}

fn workflow_nodes(cx: &mut LintContext<'_>) {
    for (at, name, node) in entries(cx.own(), &At::ROOT, "nodes") {
        if node.is_object() && node.get("logic_ref").is_none() {
            cx.report(
                rules::MISSING_LOGIC_REF,
                &at.pointer(),
                format!(
                    "workflow node `{name}` has no `logic_ref`: it has no LOGIC.md file to run"
                ),
            );
        }
    }
}

/// Up to this many items, [`duplicates`] looks for a name among the items before it.
const SHORT_LIST: usize = 16;

/// Reports each name repeated in the lists at `pattern` once, at its first repeat, with how
/// often it is named.
fn duplicates(cx: &mut LintContext<'_>, pattern: &str, field: &str) {
    for (at, list) in places(cx.own(), pattern).iter() {
        let Some(list) = list.as_array() else {
            continue;
        };
        // name → (times named, index of the first repeat), in order of first repeat.
        let mut counts: Vec<(&str, usize, usize)> = Vec::new();
        // A short list (most `needs` name one to three steps) is searched, not put in a set.
        let mut seen = (list.len() > SHORT_LIST).then(BTreeSet::new);
        for (index, name) in list
            .iter()
            .enumerate()
            .filter_map(|(i, item)| Some((i, item.as_str()?)))
        {
            let first = match seen.as_mut() {
                Some(seen) => seen.insert(name),
                None => !list
                    .iter()
                    .take(index)
                    .any(|item| item.as_str() == Some(name)),
            };
            if first {
                continue;
            }
            match counts.iter_mut().find(|(n, _, _)| *n == name) {
                Some(entry) => entry.1 += 1,
                None => counts.push((name, 2, index)),
            }
        }
        for (name, times, first_repeat) in counts {
            let how_often = if times == 2 {
                "twice".to_owned()
            } else {
                format!("{times} times")
            };
            cx.report(
                rules::DUPLICATE_DEPENDENCY,
                &pointer_push_index(&at.pointer(), first_repeat),
                format!("`{field}` names `{name}` {how_often}"),
            );
        }
    }
}
