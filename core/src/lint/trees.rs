//! Rules about decision trees (spec §7): the root, every `next`, reachability, defaults.

use std::collections::BTreeSet;

use super::context::V;
use super::context::{did_you_mean, entries, items, object, At, LintContext};
use super::rules;

pub fn check(cx: &mut LintContext<'_>) {
    let own = cx.own();
    for (pointer, name, tree) in entries(own, &At::ROOT, "decision_trees") {
        if tree.get("description").is_none() {
            cx.report_key(
                rules::MISSING_DESCRIPTION,
                &pointer.pointer(),
                format!("decision tree `{name}` has no description"),
            );
        }
        let nodes: Vec<&str> = object(tree.get("nodes"))
            .map(|m| m.keys().collect())
            .unwrap_or_default();
        let terminals: Vec<&str> = object(tree.get("terminals"))
            .map(|m| m.keys().collect())
            .unwrap_or_default();
        let root = tree.get("root").and_then(V::as_str);
        // A tree without nodes is `tree-without-nodes` (or the schema's, when `nodes` is missing).
        if let Some(root) = root.filter(|_| !nodes.is_empty()) {
            if !nodes.contains(&root) {
                cx.report(
                    rules::UNKNOWN_TREE_ROOT,
                    &pointer.push("root"),
                    format!("root `{root}` is not a node of decision tree `{name}`"),
                );
                if let Some(help) = did_you_mean(root, nodes.iter().copied()) {
                    cx.help(help);
                }
            }
        }
        for (node_pointer, node_name, node) in entries(tree, &pointer, "nodes") {
            let branches: Vec<_> = items(node, &node_pointer, "branches").collect();
            for (at, branch) in &branches {
                let Some(next) = branch.get("next").and_then(V::as_str) else {
                    continue;
                };
                if !nodes.contains(&next) && !terminals.contains(&next) && !cx.has_step(next) {
                    cx.report(
                        rules::UNKNOWN_TREE_TARGET,
                        &format!("{at}/next"),
                        format!("`next: {next}` is not a node or terminal of `{name}`, nor a step"),
                    );
                    let candidates = nodes
                        .iter()
                        .chain(&terminals)
                        .copied()
                        .chain(cx.step_names());
                    if let Some(help) = did_you_mean(next, candidates.collect::<Vec<_>>()) {
                        cx.help(help);
                    }
                }
            }
            let has_default = branches
                .iter()
                .any(|(_, b)| b.get("default").and_then(V::as_bool) == Some(true));
            if !branches.is_empty() && !has_default && !covers_both_booleans(&branches) {
                cx.report_key(
                    rules::MISSING_DEFAULT_BRANCH,
                    &node_pointer.pointer(),
                    format!("node `{node_name}` has no `default: true` branch; an unmatched value stops the tree"),
                );
            }
        }
        if let Some(root) = root.filter(|r| nodes.contains(r)) {
            unreachable(cx, &pointer, tree, root);
        }
        cycles(cx, &pointer, tree, &nodes);
    }
}

fn covers_both_booleans(branches: &[(At<'_>, V<'_>)]) -> bool {
    let values = || {
        branches
            .iter()
            .filter_map(|(_, b)| b.get("value").and_then(V::as_bool))
    };
    values().any(|value| value) && values().any(|value| !value)
}

fn unreachable(cx: &mut LintContext<'_>, pointer: &At<'_>, tree: V<'_>, root: &str) {
    let mut reached = BTreeSet::from([root.to_owned()]);
    let mut pending = vec![root.to_owned()];
    while let Some(node) = pending.pop() {
        let nexts: Vec<String> = tree
            .get("nodes")
            .and_then(|n| n.get(&node))
            .and_then(|n| n.get("branches"))
            .and_then(V::as_array)
            .map(|b| {
                b.iter()
                    .filter_map(|b| b.get("next").and_then(V::as_str).map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default();
        for next in nexts {
            if reached.insert(next.clone()) {
                pending.push(next);
            }
        }
    }
    for field in ["nodes", "terminals"] {
        for (at, name, _) in entries(tree, pointer, field) {
            if !reached.contains(name) {
                let kind = if field == "nodes" { "node" } else { "terminal" };
                cx.report_key(
                    rules::UNREACHABLE_TREE_NODE,
                    &at.pointer(),
                    format!("{kind} `{name}` cannot be reached from the root `{root}`"),
                );
            }
        }
    }
}

/// The nodes' `next`s that stay among the nodes, by node, with each branch's place.
fn node_routes<'t>(
    tree: V<'t>,
    pointer: &'t At<'t>,
    nodes: &[&str],
) -> Vec<(&'t str, Vec<(String, String)>)> {
    entries(tree, pointer, "nodes")
        .map(|(node_at, name, node)| {
            let nexts = items(node, &node_at, "branches")
                .filter_map(|(at, branch)| {
                    let next = branch.get("next").and_then(V::as_str)?;
                    nodes
                        .contains(&next)
                        .then(|| (format!("{at}/next"), next.to_owned()))
                })
                .collect();
            (name, nexts)
        })
        .collect()
}

/// Each cycle among the nodes, reported once at the branch that closes it: conditions read the
/// same input at every node, so a walk that enters a cycle never ends (`eval-tree` stops it).
fn cycles(cx: &mut LintContext<'_>, pointer: &At<'_>, tree: V<'_>, nodes: &[&str]) {
    let routes = node_routes(tree, pointer, nodes);
    let index = |name: &str| routes.iter().position(|(n, _)| *n == name);
    // 0: not seen, 1: on the current path, 2: done.
    let mut state = vec![0u8; routes.len()];
    for start in 0..routes.len() {
        if state[start] != 0 {
            continue;
        }
        // An explicit stack of (node, next branch to follow): trees are bounded, the stack too.
        let mut stack: Vec<(usize, usize)> = vec![(start, 0)];
        state[start] = 1;
        while let Some(&mut (node, ref mut branch)) = stack.last_mut() {
            let Some((at, next)) = routes[node].1.get(*branch) else {
                state[node] = 2;
                stack.pop();
                continue;
            };
            *branch += 1;
            let Some(to) = index(next) else { continue };
            match state[to] {
                0 => {
                    state[to] = 1;
                    stack.push((to, 0));
                }
                1 => {
                    let from = stack.iter().position(|(n, _)| *n == to).unwrap_or(0);
                    let mut path: Vec<&str> =
                        stack[from..].iter().map(|(n, _)| routes[*n].0).collect();
                    path.push(next.as_str());
                    cx.report(
                        rules::TREE_CYCLE,
                        at,
                        format!(
                            "decision-tree nodes route in a cycle, {}: every node reads the same input, so a walk that enters it never ends",
                            path.join(" -> ")
                        ),
                    );
                    cx.help("route one of these branches to a terminal or a step");
                }
                _ => {}
            }
        }
    }
}
