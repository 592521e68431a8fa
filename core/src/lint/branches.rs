//! The order of branches (spec §4.1, §7): a step's branches are tried in order and the first
//! that matches is taken, a default always matching; a tree node's branch whose `value` equals
//! the condition's is taken, else its default. What can never be taken is reported.

use super::context::{entries, items, shown, At, LintContext, V};
use super::rules;
use super::shapes::is_default;

pub fn check(cx: &mut LintContext<'_>) {
    let own = cx.own();
    for (pointer, name, step) in entries(own, &At::ROOT, "steps") {
        step_branches(cx, &pointer, name, step);
    }
    for (tree_at, _, tree) in entries(own, &At::ROOT, "decision_trees") {
        for (node_at, node_name, node) in entries(tree, &tree_at, "nodes") {
            tree_branches(cx, &node_at, node_name, node);
        }
    }
}

fn step_branches(cx: &mut LintContext<'_>, pointer: &At<'_>, name: &str, step: V<'_>) {
    let mut default: Option<usize> = None;
    for (index, (at, branch)) in items(step, pointer, "branches").enumerate() {
        let Some(branch) = branch.as_object() else {
            continue;
        };
        let conditional = branch.contains_key("if");
        if conditional && is_default(branch) {
            cx.report(
                rules::BRANCH_IF_AND_DEFAULT,
                &format!("{at}/default"),
                "this branch has an `if`, so `default: true` is ignored: it is taken only when its condition holds",
            );
            cx.help("make the default a branch of its own, without `if`, at the end");
            continue;
        }
        match default {
            Some(first) if is_default(branch) => {
                cx.report(
                    rules::DUPLICATE_DEFAULT,
                    &format!("{at}/default"),
                    format!("step `{name}` already has a default branch (branch {}): this one is never taken", first + 1),
                );
            }
            // A branch with neither `if` nor default is `branch-without-condition`.
            Some(first) if conditional => {
                cx.report(
                    rules::BRANCH_AFTER_DEFAULT,
                    &at.pointer(),
                    format!("this branch comes after the default branch (branch {}), which always matches: it is never taken", first + 1),
                );
                cx.help("move the default branch to the end");
            }
            Some(_) => {}
            None if is_default(branch) => default = Some(index),
            None => {}
        }
    }
}

fn tree_branches(cx: &mut LintContext<'_>, pointer: &At<'_>, name: &str, node: V<'_>) {
    let mut default: Option<usize> = None;
    let mut values: Vec<(usize, V<'_>)> = Vec::new();
    for (index, (at, branch)) in items(node, pointer, "branches").enumerate() {
        let Some(branch) = branch.as_object() else {
            continue;
        };
        if let Some(value) = branch.get("value") {
            let same = |v: &V<'_>| crate::trees::same(&v.json(), &value.json());
            if let Some((first, _)) = values.iter().find(|(_, v)| same(v)) {
                cx.report(
                    rules::DUPLICATE_BRANCH_VALUE,
                    &format!("{at}/value"),
                    format!(
                        "node `{name}` already routes the value {} (branch {}): this branch is never taken",
                        shown(value),
                        first + 1
                    ),
                );
            } else {
                values.push((index, value));
            }
        } else if is_default(branch) {
            match default {
                Some(first) => cx.report(
                    rules::DUPLICATE_DEFAULT,
                    &format!("{at}/default"),
                    format!("node `{name}` already has a default branch (branch {}): this one is never taken", first + 1),
                ),
                None => default = Some(index),
            }
        }
    }
}
