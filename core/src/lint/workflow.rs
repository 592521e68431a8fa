//! Rules about multi-agent workflows (spec §9): node references, the node graph, `logic_ref`
//! loading, overrides, and contract compatibility along edges (§16.3) and `needs` wires (the
//! judgement the graph's `compatible` shows, `contract::wire_mismatches`).

use std::collections::BTreeMap;

use rustc_hash::FxHashMap;
use serde_json::Value;

use super::context::{did_you_mean, entries, field, items, object, At, LintContext, V};
use super::rules;
use crate::contract::{type_fits, wire_mismatches, WireEnd};
use crate::dag::StepDag;
use crate::json::escape_token;
use crate::loader::Loader;
use crate::workflow::{load_node, NodeProblemKind};

pub fn check(cx: &mut LintContext<'_>, id: &str, loader: &dyn Loader) {
    let own = cx.own();
    let known: Vec<&str> = object(field(cx.resolved, "nodes"))
        .map(|n| n.keys().collect())
        .unwrap_or_default();
    // `itself`: the node whose reference this is, never suggested (that would be a cycle).
    let unknown = |cx: &mut LintContext<'_>, at: &str, name: &str, role: &str, itself: &str| {
        if !known.contains(&name) {
            cx.report(
                rules::UNKNOWN_NODE,
                at,
                format!("{role} `{name}`, which is not a node of this workflow"),
            );
            let others = known.iter().copied().filter(|known| *known != itself);
            if let Some(help) = did_you_mean(name, others) {
                cx.help(help);
            }
        }
    };
    for (pointer, node_name, node) in entries(own, &At::ROOT, "nodes") {
        for (at, dependency) in items(node, &pointer, "depends_on") {
            if let Some(name) = dependency.as_str() {
                unknown(cx, &at.pointer(), name, "`depends_on` names", node_name);
            }
        }
    }
    for (at, edge) in items(own, &At::ROOT, "edges") {
        {
            for (end, other) in [("from", "to"), ("to", "from")] {
                if let Some(name) = field(edge, end).and_then(V::as_str) {
                    // An edge from a node to itself is no suggestion either.
                    let other = field(edge, other).and_then(V::as_str).unwrap_or("");
                    unknown(
                        cx,
                        &format!("{at}/{end}"),
                        name,
                        &format!("edge `{end}` names"),
                        other,
                    );
                }
            }
        }
    }
    node_cycles(cx);
    let loaded = load_nodes(cx, id, loader);
    contracts(cx, &loaded);
    needs_wires(cx);
}

fn node_cycles(cx: &mut LintContext<'_>) {
    let nodes: Vec<(&str, V<'_>)> = object(field(cx.resolved, "nodes"))
        .map(|n| n.iter().collect())
        .unwrap_or_default();
    let edges: Vec<(&str, &str)> = field(cx.resolved, "edges")
        .and_then(V::as_array)
        .map(|e| {
            e.iter()
                .filter_map(|e| Some((field(e, "from")?.as_str()?, field(e, "to")?.as_str()?)))
                .collect()
        })
        .unwrap_or_default();
    let dag = StepDag::new(nodes.iter().map(|(name, node)| {
        let mut needs: Vec<&str> = field(*node, "depends_on")
            .and_then(V::as_array)
            .map(|d| d.iter().filter_map(V::as_str).collect())
            .unwrap_or_default();
        needs.extend(
            edges
                .iter()
                .filter(|(_, to)| to == name)
                .map(|(from, _)| *from),
        );
        (*name, needs)
    }));
    for cycle in dag.cycles() {
        let first = cycle.0.first().cloned().unwrap_or_default();
        cx.report_key(
            rules::NODE_CYCLE,
            &format!("/nodes/{}", escape_token(&first)),
            format!("nodes depend on each other in a cycle: {}", cycle.display()),
        );
    }
}

/// Loads every node of this file that has a `logic_ref`, reporting what fails.
fn load_nodes(cx: &mut LintContext<'_>, id: &str, loader: &dyn Loader) -> BTreeMap<String, Value> {
    let mut loaded = BTreeMap::new();
    for (pointer, name, node) in entries(cx.own(), &At::ROOT, "nodes") {
        if field(node, "logic_ref").is_none() {
            continue;
        }
        match load_node(&node.json(), id, loader) {
            Ok(value) => {
                loaded.insert(name.to_owned(), value);
            }
            Err(problems) => {
                for problem in problems {
                    let rule = match problem.kind {
                        NodeProblemKind::Unresolved => rules::UNRESOLVED_REFERENCE,
                        NodeProblemKind::Override => rules::INVALID_OVERRIDE,
                    };
                    let at = format!("{pointer}{}", problem.at);
                    if problem.at.starts_with("/overrides/") {
                        cx.report_key(rule, &at, problem.message);
                    } else {
                        cx.report(rule, &at, problem.message);
                    }
                }
            }
        }
    }
    loaded
}

fn contracts(cx: &mut LintContext<'_>, loaded: &BTreeMap<String, Value>) {
    let Some(edges) = field(cx.own(), "edges").and_then(V::as_array) else {
        return;
    };
    for (index, edge) in edges.iter().enumerate() {
        let at = format!("/edges/{index}");
        let (Some(from), Some(to)) = (
            field(edge, "from").and_then(V::as_str),
            field(edge, "to").and_then(V::as_str),
        ) else {
            continue;
        };
        let problems = wire_mismatches(
            &WireEnd::agent(from, loaded.get(from), true),
            &WireEnd::agent(to, loaded.get(to), false),
            field(edge, "contract").map(V::json).as_deref(),
        );
        let place = if field(edge, "contract").is_some() {
            format!("{at}/contract")
        } else {
            at.clone()
        };
        for problem in problems {
            cx.report(
                rules::CONTRACT_MISMATCH,
                &place,
                format!("edge {from} -> {to}: {}", problem.0),
            );
        }
    }
}

/// A `needs` wire carries the needed step's output into the step: their schema types must fit,
/// as the graph draws them.
fn needs_wires(cx: &mut LintContext<'_>) {
    let own = cx.own();
    let Some(steps) = object(field(own, "steps")) else {
        return;
    };
    // Looked up for every `needs` entry: a tree's mapping is a list, not a hash map.
    let steps: FxHashMap<&str, V<'_>> = steps.iter().collect();
    for (pointer, name, step) in entries(own, &At::ROOT, "steps") {
        for (at, need) in items(step, &pointer, "needs") {
            let Some(producer) = need.as_str().and_then(|n| Some((n, *steps.get(n)?))) else {
                continue;
            };
            // The verdict alone is cheap; the ends are named only for a wire that does not fit.
            if steps_fit(producer.1, step) {
                continue;
            }
            let problems = wire_mismatches(
                &WireEnd::step(producer.0, &producer.1.json(), true),
                &WireEnd::step(name, &step.json(), false),
                None,
            );
            for problem in problems {
                cx.report(
                    rules::CONTRACT_MISMATCH,
                    &at.pointer(),
                    format!("needs {} -> {name}: {}", producer.0, problem.0),
                );
            }
        }
    }
}

/// [`crate::contract::steps_fit`] of two steps as lint reads them.
fn steps_fit(producer: V<'_>, consumer: V<'_>) -> bool {
    type_fits(
        field(producer, "output_schema").and_then(schema_type),
        field(consumer, "input_schema").and_then(schema_type),
    )
}

/// A schema's `type`, `None` when it has none or it is `any`.
fn schema_type(schema: V<'_>) -> Option<&str> {
    field(schema, "type")
        .and_then(V::as_str)
        .filter(|kind| *kind != "any")
}
