//! Pinned outputs and partial re-execution (n8n's "pin data"): a node given its output in
//! advance finishes at once with it, so a run can start again from one node and call a model
//! only for that node and what depends on it.
//!
//! Everything here reads the run's plan (`run_started`'s `plan`: each node's id, kind, what it
//! runs after and what may choose it), the one graph every document kind shares, so a
//! LOGIC.md document, a workflow (its nodes and their steps, `node/step`) and a DRTL topology
//! are treated alike.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use super::{RunError, RunOptions, Source};
use crate::trace::{NodeFinished, NodeStatus, Record};

/// Node kinds that check or route: their result is what a pin must not fake (an obligation,
/// a gate's branch, a review's decision, a decision tree's route), so they always run.
const NEVER_PINNED: [&str; 4] = ["verify", "gate", "review", "tree"];

/// One node of a plan.
struct PlanNode<'a> {
    id: &'a str,
    kind: &'a str,
    /// What it runs after or may be chosen by (loops back excluded: they are not "before").
    sources: Vec<&'a str>,
}

fn plan_nodes(plan: &Value) -> Vec<PlanNode<'_>> {
    let strings = |entry: &'_ Value, key: &str| -> Vec<String> {
        entry
            .get(key)
            .and_then(Value::as_array)
            .map(|list| {
                list.iter()
                    .filter_map(Value::as_str)
                    .map(str::to_owned)
                    .collect()
            })
            .unwrap_or_default()
    };
    let Some(nodes) = plan.get("nodes").and_then(Value::as_array) else {
        return Vec::new();
    };
    nodes
        .iter()
        .filter_map(|entry| {
            let loops = strings(entry, "loops_from");
            let sources = ["after", "chosen_by"]
                .iter()
                .filter_map(|key| entry.get(*key).and_then(Value::as_array))
                .flatten()
                .filter_map(Value::as_str)
                .filter(|from| !loops.iter().any(|l| l == from))
                .collect();
            Some(PlanNode {
                id: entry.get("id")?.as_str()?,
                kind: entry.get("kind").and_then(Value::as_str).unwrap_or(""),
                sources,
            })
        })
        .collect()
}

/// Refuses pins on nodes the plan does not have or that check or route.
pub(crate) fn check(plan: &Value, pins: &BTreeMap<String, Value>) -> Result<(), RunError> {
    let nodes = plan_nodes(plan);
    for id in pins.keys() {
        let Some(node) = nodes.iter().find(|n| n.id == id) else {
            return Err(RunError::new(format!(
                "cannot pin `{id}`: the document has no such node"
            )));
        };
        if NEVER_PINNED.contains(&node.kind) {
            return Err(RunError::new(format!(
                "cannot pin `{id}`: a {} node checks or routes, and a pinned result would fake \
                 it; it always runs",
                node.kind
            )));
        }
    }
    Ok(())
}

/// The plan of `source`, as a run of it would record it.
fn plan_of(source: &Source) -> Result<Value, RunError> {
    Ok(source
        .program(&Value::Null, &RunOptions::default())?
        .0
        .plan())
}

/// What must run again when `node` runs again: the node, everything that runs after it or may
/// be chosen by it, transitively (`needs`, parallel joins, branches, decision trees, workflow
/// edges, DRTL routes), never what came before it (a loop back is not followed). In a
/// workflow, a node that runs again runs all its steps (its input changed), while a step that
/// runs again brings in only the steps after it and its node (whose output changes).
pub fn downstream(source: &Source, node: &str) -> Result<BTreeSet<String>, RunError> {
    let plan = plan_of(source)?;
    downstream_in(&plan, node)
}

fn downstream_in(plan: &Value, from: &str) -> Result<BTreeSet<String>, RunError> {
    let nodes = plan_nodes(plan);
    if !nodes.iter().any(|n| n.id == from) {
        return Err(RunError::new(format!(
            "cannot run from `{from}`: the document has no such node"
        )));
    }
    let mut set = BTreeSet::new();
    add_with_steps(&nodes, from, &mut set);
    loop {
        let before = set.len();
        for node in &nodes {
            if set.contains(node.id) {
                continue;
            }
            let fed = node.sources.iter().any(|s| set.contains(*s));
            let holds_a_step = set.iter().any(|s| is_step_of(s, node.id));
            if fed {
                add_with_steps(&nodes, node.id, &mut set);
            } else if holds_a_step {
                set.insert(node.id.to_owned());
            }
        }
        if set.len() == before {
            return Ok(set);
        }
    }
}

/// Adds `id` and, when it is a workflow node, every step of its document.
fn add_with_steps(nodes: &[PlanNode<'_>], id: &str, set: &mut BTreeSet<String>) {
    set.insert(id.to_owned());
    for node in nodes.iter().filter(|n| is_step_of(n.id, id)) {
        set.insert(node.id.to_owned());
    }
}

/// Whether trace id `step` is a step inside workflow node `node` (`node/step`).
fn is_step_of(step: &str, node: &str) -> bool {
    step.strip_prefix(node)
        .is_some_and(|rest| rest.starts_with('/'))
}

/// The pins that run `source` again from `from`: every node the previous run finished that is
/// not [`downstream`] of `from` keeps its last output (nodes that check or route run again, on
/// the same pinned data). A workflow node pinned whole needs no pins for its steps.
pub fn rerun_pins(
    source: &Source,
    previous_trace: &[Value],
    from: &str,
) -> Result<BTreeMap<String, Value>, RunError> {
    let plan = plan_of(source)?;
    let again = downstream_in(&plan, from)?;
    let nodes = plan_nodes(&plan);
    let pinnable = |id: &str| {
        nodes
            .iter()
            .any(|n| n.id == id && !NEVER_PINNED.contains(&n.kind))
    };
    let mut pins = BTreeMap::new();
    for line in previous_trace {
        // Lines that are not the runtime's events pin nothing.
        let Some((
            Some(id),
            NodeFinished {
                status: NodeStatus::Succeeded,
                output: Some(output),
                ..
            },
        )) = Record::fields(line)
        else {
            continue;
        };
        if !again.contains(&id) && pinnable(&id) {
            pins.insert(id, output);
        }
    }
    let whole: Vec<String> = pins.keys().cloned().collect();
    pins.retain(|id, _| !whole.iter().any(|node| is_step_of(id, node)));
    Ok(pins)
}

#[cfg(test)]
mod tests;
