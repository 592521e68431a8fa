//! Obligation rules on DRTL topologies.

use std::collections::{BTreeSet, HashMap, VecDeque};

use serde_json::Value;

use super::Finding;
use crate::drtl::{DrtlNode, RouteKind, Topology};

struct Net<'t> {
    nodes: &'t [DrtlNode],
    json: &'t Value,
    index: HashMap<&'t str, usize>,
}

impl<'t> Net<'t> {
    fn successors(&self, node: usize) -> Vec<(usize, RouteKind)> {
        self.nodes[node]
            .routes
            .iter()
            .filter_map(|r| {
                self.index
                    .get(r.target.as_str())
                    .map(|&t| (t, r.kind_for(self.nodes[node].kind.as_str())))
            })
            .collect()
    }

    fn definition(&self, node: usize) -> &'t Value {
        self.json
            .pointer(&self.nodes[node].pointer)
            .unwrap_or(&Value::Null)
    }

    fn reachable_from(&self, start: usize) -> BTreeSet<usize> {
        let mut seen = BTreeSet::from([start]);
        let mut pending = vec![start];
        while let Some(n) = pending.pop() {
            for (next, _) in self.successors(n) {
                if seen.insert(next) {
                    pending.push(next);
                }
            }
        }
        seen
    }

    fn name(&self, node: usize) -> String {
        self.nodes[node].id.clone()
    }
}

trait RouteKindFor {
    fn kind_for(&self, node_kind: &str) -> RouteKind;
}

impl RouteKindFor for crate::drtl::Route {
    /// An edge out of a gate labelled like a failure counts as the fail branch.
    fn kind_for(&self, node_kind: &str) -> RouteKind {
        if self.kind == RouteKind::Edge && node_kind == "gate" {
            let label = self.label.as_deref().unwrap_or_default().to_lowercase();
            if label.contains("fail") || label.contains("reject") || label.contains("exceed") {
                return RouteKind::Fail;
            }
            if !label.is_empty() {
                return RouteKind::Pass;
            }
        }
        self.kind
    }
}

/// Runs the DRTL obligation rules.
pub fn check_topology(topology: &Topology) -> Vec<Finding> {
    let nodes = topology.nodes();
    let index = nodes
        .iter()
        .enumerate()
        .map(|(i, n)| (n.id.as_str(), i))
        .collect();
    let net = Net {
        nodes: &nodes,
        json: topology.json(),
        index,
    };
    let mut findings = Vec::new();
    gates(&net, &mut findings);
    let sinks: Vec<usize> = (0..nodes.len())
        .filter(|&n| net.successors(n).is_empty())
        .collect();
    reachability(&net, &sinks, &mut findings);
    cycles(&net, &mut findings);
    unverified(&net, &sinks, &mut findings);
    findings
}

fn gates(net: &Net<'_>, findings: &mut Vec<Finding>) {
    for (i, node) in net.nodes.iter().enumerate() {
        if node.kind != "gate" {
            continue;
        }
        let kinds: Vec<RouteKind> = net.successors(i).into_iter().map(|(_, k)| k).collect();
        for (needed, branch) in [(RouteKind::Pass, "pass"), (RouteKind::Fail, "fail")] {
            if !kinds.contains(&needed) {
                findings.push(Finding::error(
                    "gate-branch-missing",
                    format!("gate `{}` has no {branch} branch: where the run goes when the condition is {} is undeclared", node.id, if branch == "pass" { "true" } else { "false" }),
                    vec![node.id.clone()],
                ));
            }
        }
    }
}

/// Every node is reachable from an entry and can reach an end.
fn reachability(net: &Net<'_>, sinks: &[usize], findings: &mut Vec<Finding>) {
    let count = net.nodes.len();
    let mut incoming = vec![0; count];
    for n in 0..count {
        for (t, _) in net.successors(n) {
            incoming[t] += 1;
        }
    }
    let mut entries: Vec<usize> = (0..count).filter(|&n| incoming[n] == 0).collect();
    if entries.is_empty() && count > 0 {
        entries.push(0);
    }
    let reached: BTreeSet<usize> = entries
        .iter()
        .flat_map(|&e| net.reachable_from(e))
        .collect();
    for n in 0..count {
        if !reached.contains(&n) {
            findings.push(Finding::error(
                "unreachable",
                format!("`{}` cannot be reached from an entry node", net.name(n)),
                vec![net.name(n)],
            ));
        } else if !sinks.iter().any(|s| net.reachable_from(n).contains(s)) {
            findings.push(Finding::error(
                "cannot-terminate",
                format!("from `{}` no path leads to an end: the run can neither complete nor be abandoned", net.name(n)),
                vec![net.name(n)],
            ));
        }
    }
}

/// Strongly connected components with more than one node or a self loop.
fn components(net: &Net<'_>) -> Vec<Vec<usize>> {
    let mut graph = petgraph::graph::DiGraph::<usize, ()>::new();
    let ids: Vec<_> = (0..net.nodes.len()).map(|i| graph.add_node(i)).collect();
    for n in 0..net.nodes.len() {
        for (t, _) in net.successors(n) {
            graph.add_edge(ids[n], ids[t], ());
        }
    }
    petgraph::algo::tarjan_scc(&graph)
        .into_iter()
        .map(|c| {
            let mut members: Vec<usize> = c.into_iter().map(|n| graph[n]).collect();
            members.sort_unstable();
            members
        })
        .filter(|c| {
            c.len() > 1
                || c.first()
                    .is_some_and(|&n| net.successors(n).iter().any(|(t, _)| *t == n))
        })
        .collect()
}

/// Every cycle has an exit and a bound: a counter a `transform` sets and a gate or edge
/// condition tests, or a `max_rounds`.
fn cycles(net: &Net<'_>, findings: &mut Vec<Finding>) {
    for component in components(net) {
        let path: Vec<String> = component.iter().map(|&n| net.name(n)).collect();
        let exits = component.iter().any(|&n| {
            net.successors(n)
                .iter()
                .any(|(t, _)| !component.contains(t))
        });
        if !exits {
            findings.push(Finding::error(
                "no-exit",
                format!("the cycle {} has no way out", path.join(" -> ")),
                path.clone(),
            ));
            continue;
        }
        let counters: Vec<String> = component
            .iter()
            .filter(|&&n| net.nodes[n].kind == "transform")
            .flat_map(|&n| {
                net.definition(n)
                    .get("operations")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                    .filter_map(|op| op.get("set").and_then(Value::as_str))
                    .filter_map(|set| set.rsplit('.').next().map(str::to_owned))
                    .collect::<Vec<_>>()
            })
            .collect();
        let conditions: Vec<String> = component
            .iter()
            .flat_map(|&n| {
                let mut texts: Vec<String> = net
                    .definition(n)
                    .get("condition")
                    .and_then(Value::as_str)
                    .map(str::to_owned)
                    .into_iter()
                    .collect();
                texts.extend(net.nodes[n].routes.iter().filter_map(|r| r.label.clone()));
                texts
            })
            .collect();
        let counted = counters
            .iter()
            .any(|c| conditions.iter().any(|t| t.contains(c.as_str())));
        let rounds = component
            .iter()
            .any(|&n| net.definition(n).get("max_rounds").is_some());
        // A review inside the cycle is a decision-maker who can always stop it.
        let reviewed = component.iter().any(|&n| net.nodes[n].kind == "review");
        if !counted && !rounds && !reviewed {
            findings.push(Finding::error(
                "unbounded-cycle",
                format!("the cycle {} has no bound: no counter set by a transform is tested by a gate or edge condition, and no max_rounds", path.join(" -> ")),
                path,
            ));
        }
    }
}

/// No path carries a `generate` output to an end without a blocking `verify` followed by a
/// `gate` passed on its pass branch whose fail branch cannot reach that end.
fn unverified(net: &Net<'_>, sinks: &[usize], findings: &mut Vec<Finding>) {
    let blocking = |n: usize| {
        net.nodes[n].kind == "verify"
            && net
                .definition(n)
                .get("rules")
                .and_then(Value::as_array)
                .is_some_and(|rules| {
                    rules
                        .iter()
                        .any(|r| r.get("mode").and_then(Value::as_str) == Some("block"))
                })
    };
    for (g, generator) in net.nodes.iter().enumerate() {
        if generator.kind != "generate" && generator.kind != "fan_out" && generator.kind != "debate"
        {
            continue;
        }
        // A review is where a run stops to ask, not an output: only other ends publish.
        for &sink in sinks.iter().filter(|&&s| net.nodes[s].kind != "review") {
            if sink == g {
                continue;
            }
            // Search states (node, phase): 0 unverified, 1 verified, 2 verified and gated.
            let mut previous: HashMap<(usize, u8), (usize, u8)> = HashMap::new();
            let mut queue = VecDeque::from([(g, 0u8)]);
            let mut seen = BTreeSet::from([(g, 0u8)]);
            let mut unsafe_end = None;
            while let Some((node, phase)) = queue.pop_front() {
                if node == sink && phase < 2 {
                    unsafe_end = Some((node, phase));
                    break;
                }
                for (next, kind) in net.successors(node) {
                    let mut next_phase = phase;
                    if net.nodes[node].kind == "gate" && phase >= 1 && kind == RouteKind::Pass {
                        // A failing branch that reaches the end only through a new blocking
                        // verify does not carry the rejected output there.
                        let fail_reaches = net
                            .successors(node)
                            .into_iter()
                            .filter(|(_, k)| *k == RouteKind::Fail)
                            .any(|(f, _)| reaches_avoiding(net, f, sink, &blocking));
                        if !fail_reaches {
                            next_phase = 2;
                        }
                    }
                    if blocking(next) && next_phase == 0 {
                        next_phase = 1;
                    }
                    if seen.insert((next, next_phase)) {
                        previous.insert((next, next_phase), (node, phase));
                        queue.push_back((next, next_phase));
                    }
                }
            }
            if let Some(end) = unsafe_end {
                let mut path = vec![net.name(end.0)];
                let mut at = end;
                while let Some(&before) = previous.get(&at) {
                    path.push(net.name(before.0));
                    at = before;
                }
                path.reverse();
                findings.push(Finding::error(
                    "unverified-output",
                    format!(
                        "the output of `{}` can reach `{}` without a blocking verify followed by a gate: {}",
                        generator.id,
                        net.name(sink),
                        path.join(" -> ")
                    ),
                    path,
                ));
            }
        }
    }
}

/// Whether `to` is reachable from `from` without entering a node for which `barrier` holds.
fn reaches_avoiding(
    net: &Net<'_>,
    from: usize,
    to: usize,
    barrier: &impl Fn(usize) -> bool,
) -> bool {
    if barrier(from) {
        return false;
    }
    let mut seen = BTreeSet::from([from]);
    let mut pending = vec![from];
    while let Some(n) = pending.pop() {
        if n == to {
            return true;
        }
        for (next, _) in net.successors(n) {
            if !barrier(next) && seen.insert(next) {
                pending.push(next);
            }
        }
    }
    false
}
