//! Obligation rules on DRTL topologies.

use std::collections::{BTreeSet, HashMap, VecDeque};

use serde_json::Value;

use super::Finding;
use crate::drtl::{DrtlNode, Route, RouteKind, Topology};
use crate::lint::rules;

/// A route between two nodes of the topology.
struct Hop {
    to: usize,
    kind: RouteKind,
    label: Option<String>,
    /// JSON Pointer of the route's target in the file.
    pointer: String,
}

/// The topology as a graph: each node's hops, and how many of its routes end the run.
struct Net<'t> {
    nodes: &'t [DrtlNode],
    json: &'t Value,
    hops: Vec<Vec<Hop>>,
    /// The kinds of each node's routes to `terminate`.
    ends: Vec<Vec<RouteKind>>,
}

impl<'t> Net<'t> {
    fn new(nodes: &'t [DrtlNode], json: &'t Value) -> Net<'t> {
        let index: HashMap<&str, usize> = nodes
            .iter()
            .enumerate()
            .map(|(i, n)| (n.id.as_str(), i))
            .collect();
        let hops = nodes
            .iter()
            .map(|node| {
                node.routes
                    .iter()
                    .filter_map(|route| {
                        index.get(route.target.as_str()).map(|&to| Hop {
                            to,
                            kind: branch_kind(route, &node.kind),
                            label: route.label.clone(),
                            pointer: route.pointer.clone(),
                        })
                    })
                    .collect()
            })
            .collect();
        let ends = nodes
            .iter()
            .map(|node| {
                node.routes
                    .iter()
                    .filter(|r| r.ends_run)
                    .map(|r| branch_kind(r, &node.kind))
                    .collect()
            })
            .collect();
        Net {
            nodes,
            json,
            hops,
            ends,
        }
    }

    fn len(&self) -> usize {
        self.nodes.len()
    }

    fn successors(&self, node: usize) -> impl Iterator<Item = usize> + '_ {
        self.hops[node].iter().map(|h| h.to)
    }

    fn definition(&self, node: usize) -> &'t Value {
        self.json
            .pointer(&self.nodes[node].pointer)
            .unwrap_or(&Value::Null)
    }

    fn kind(&self, node: usize) -> &str {
        &self.nodes[node].kind
    }

    fn name(&self, node: usize) -> String {
        self.nodes[node].id.clone()
    }

    /// Where a finding about the node as a whole is placed: its `id`.
    fn place(&self, node: usize) -> String {
        format!("{}/id", self.nodes[node].pointer)
    }

    /// Nodes with no route to another node: where a run completes.
    fn sinks(&self) -> Vec<usize> {
        (0..self.len())
            .filter(|&n| self.hops[n].is_empty())
            .collect()
    }

    /// Every node reachable from `starts` (following routes forwards or, with `backwards`,
    /// against them), the starts included.
    fn closure(&self, starts: &[usize], backwards: bool) -> BTreeSet<usize> {
        let mut predecessors = vec![Vec::new(); self.len()];
        if backwards {
            for n in 0..self.len() {
                for next in self.successors(n) {
                    predecessors[next].push(n);
                }
            }
        }
        let mut seen = crate::sorting::set_of(starts.iter().copied());
        let mut pending: Vec<usize> = starts.to_vec();
        while let Some(n) = pending.pop() {
            let next: Vec<usize> = if backwards {
                predecessors[n].clone()
            } else {
                self.successors(n).collect()
            };
            for m in next {
                if seen.insert(m) {
                    pending.push(m);
                }
            }
        }
        seen
    }
}

/// The branch a route is: an edge out of a gate labelled like a failure counts as the fail
/// branch, any other labelled edge out of a gate as the pass branch.
pub(crate) fn branch_kind(route: &Route, node_kind: &str) -> RouteKind {
    if route.kind == RouteKind::Edge && node_kind == "gate" {
        let label = route.label.as_deref().unwrap_or_default().to_lowercase();
        if label.contains("fail") || label.contains("reject") || label.contains("exceed") {
            return RouteKind::Fail;
        }
        if !label.is_empty() {
            return RouteKind::Pass;
        }
    }
    route.kind
}

/// Runs the DRTL obligation rules.
pub fn check_topology(topology: &Topology) -> Vec<Finding> {
    let nodes = topology.nodes();
    let net = Net::new(&nodes, topology.json());
    let mut findings = Vec::new();
    gates(&net, &mut findings);
    reachability(&net, &mut findings);
    cycles(&net, &mut findings);
    unverified(&net, &mut findings);
    findings
}

fn gates(net: &Net<'_>, findings: &mut Vec<Finding>) {
    for gate in (0..net.len()).filter(|&n| net.kind(n) == "gate") {
        let kinds: Vec<RouteKind> = net.hops[gate]
            .iter()
            .map(|h| h.kind)
            .chain(net.ends[gate].iter().copied())
            .collect();
        for (needed, branch, outcome) in [
            (RouteKind::Pass, "pass", "true"),
            (RouteKind::Fail, "fail", "false"),
        ] {
            if !kinds.contains(&needed) {
                findings.push(
                    Finding::new(
                    rules::GATE_BRANCH_MISSING,
                        format!(
                            "gate `{}` has no {branch} branch: where the run goes when the condition is {outcome} is undeclared",
                            net.name(gate)
                        ),
                        vec![net.name(gate)],
                        net.place(gate),
                    )
                    .help(&format!("add `on_{branch}`, or an edge from the gate with an `if` label")),
                );
            }
        }
    }
}

/// Every node is reachable from an entry and can reach an end: a node with no way out, or a
/// route to `terminate`.
fn reachability(net: &Net<'_>, findings: &mut Vec<Finding>) {
    let mut incoming = vec![0; net.len()];
    for n in 0..net.len() {
        for next in net.successors(n) {
            incoming[next] += 1;
        }
    }
    let mut entries: Vec<usize> = (0..net.len()).filter(|&n| incoming[n] == 0).collect();
    if entries.is_empty() && net.len() > 0 {
        entries.push(0);
    }
    let reached = net.closure(&entries, false);
    let mut ends = net.sinks();
    ends.extend((0..net.len()).filter(|&n| !net.ends[n].is_empty()));
    let terminating = net.closure(&ends, true);
    for n in 0..net.len() {
        if !reached.contains(&n) {
            findings.push(
                Finding::new(
                    rules::UNREACHABLE,
                    format!("`{}` cannot be reached from an entry node", net.name(n)),
                    vec![net.name(n)],
                    net.place(n),
                )
                .help("route to it from an upstream node, or remove it"),
            );
        } else if !terminating.contains(&n) {
            findings.push(
                Finding::new(
                    rules::CANNOT_TERMINATE,
                    format!(
                        "from `{}` no path leads to an end: the run can neither complete nor be abandoned",
                        net.name(n)
                    ),
                    vec![net.name(n)],
                    net.place(n),
                )
                .help("add a route to a node with no way out, or to `terminate`"),
            );
        }
    }
}

/// Strongly connected components with more than one node or a self loop.
fn components(net: &Net<'_>) -> Vec<Vec<usize>> {
    let mut graph = petgraph::graph::DiGraph::<usize, ()>::new();
    let ids: Vec<_> = (0..net.len()).map(|i| graph.add_node(i)).collect();
    for n in 0..net.len() {
        for next in net.successors(n) {
            graph.add_edge(ids[n], ids[next], ());
        }
    }
    petgraph::algo::tarjan_scc(&graph)
        .into_iter()
        .map(|c| {
            let mut members: Vec<usize> = c.into_iter().map(|n| graph[n]).collect();
            crate::sorting::sort(&mut members);
            members
        })
        .filter(|c| {
            c.len() > 1
                || c.first()
                    .is_some_and(|&n| net.successors(n).any(|next| next == n))
        })
        .collect()
}

/// Every cycle has an exit and a bound: a counter a `transform` sets and a gate or edge
/// condition tests, a `max_rounds`, or a review.
fn cycles(net: &Net<'_>, findings: &mut Vec<Finding>) {
    for component in components(net) {
        let path: Vec<String> = component.iter().map(|&n| net.name(n)).collect();
        let first = component[0];
        let exits = component.iter().any(|&n| {
            !net.ends[n].is_empty() || net.successors(n).any(|next| !component.contains(&next))
        });
        if !exits {
            findings.push(
                Finding::new(
                    rules::NO_EXIT,
                    format!("the cycle {} has no way out", path.join(" -> ")),
                    path.clone(),
                    net.place(first),
                )
                .help("give a gate in the cycle a branch that leaves it"),
            );
            continue;
        }
        if !bounded(net, &component) {
            findings.push(
                Finding::new(
                    rules::UNBOUNDED_CYCLE,
                    format!("the cycle {} has no bound: no counter set by a transform is tested by a gate's condition or a `{{{{ }}}}` condition on an edge of the cycle, and no max_rounds", path.join(" -> ")),
                    path,
                    net.place(first),
                )
                .help("count the rounds in a transform (`state.variables.N`) and test the count in a gate condition, set `max_rounds`, or put a review in the cycle"),
            );
        }
    }
}

fn bounded(net: &Net<'_>, component: &[usize]) -> bool {
    let counters: Vec<String> = component
        .iter()
        .filter(|&&n| net.kind(n) == "transform")
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
    // What the run evaluates to stay in the cycle or leave it: a gate's `condition` (it routes one
    // way or the other), and an edge `if` inside the cycle written as `{{ }}` (an edge that leaves
    // does not stop the one that stays; without the braces the `if` is a label, and the edge is
    // taken whatever it says).
    let conditions: Vec<String> = component
        .iter()
        .flat_map(|&n| {
            let mut texts: Vec<String> = Vec::new();
            if net.kind(n) == "gate" {
                texts.extend(
                    net.definition(n)
                        .get("condition")
                        .and_then(Value::as_str)
                        .map(str::to_owned),
                );
            }
            texts.extend(
                net.hops[n]
                    .iter()
                    .filter(|hop| hop.kind == RouteKind::Edge && component.contains(&hop.to))
                    .filter_map(|hop| hop.label.clone())
                    .filter(|label| label.contains("{{")),
            );
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
    let reviewed = component.iter().any(|&n| net.kind(n) == "review");
    counted || rounds || reviewed
}

/// How far the output of a generator has come on a path (DRTL §9.3's three ways to refuse).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Phase {
    Unverified,
    /// Reached a `verify` with a `block` rule: discharged, as the run refuses to go on (other than
    /// to a gate, a review or back to the verify) while a blocking rule has failed.
    Verified,
    /// Left by its pass branch a gate that checks it (reads it or what was made from it, or, once
    /// verified, its verify's report) and whose fail branch cannot carry it to the same end without a
    /// blocking verify or a review (it terminates, or goes to a review): discharged.
    Gated,
}

/// One state of the search: a node, how far the output has come when it gets there, and
/// whether a review has decided on the way (a human, or policy, decision discharges what is
/// not verified and gated by then).
type State = (usize, Phase, bool);

/// The states a generator's output can reach on its way to one end, each with the state and
/// the hop it was reached from (the search is breadth-first, so these give shortest paths).
struct Search {
    previous: HashMap<State, (State, usize)>,
    /// States in the order the search found them.
    found: Vec<State>,
}

impl Search {
    fn path(&self, net: &Net<'_>, end: State) -> Vec<String> {
        self.states_to(end)
            .iter()
            .map(|&(n, _, _)| net.name(n))
            .collect()
    }

    fn states_to(&self, end: State) -> Vec<State> {
        let mut states = vec![end];
        let mut at = end;
        while let Some(&(before, _)) = self.previous.get(&at) {
            states.push(before);
            at = before;
        }
        states.reverse();
        states
    }

    /// The hop that led into `state`.
    fn hop_into<'n>(&self, net: &'n Net<'_>, state: State) -> Option<&'n Hop> {
        let &((from, _, _), hop) = self.previous.get(&state)?;
        net.hops[from].get(hop)
    }

    /// The review and the hop (its action) where the path to `end` was decided.
    fn decision<'n>(&self, net: &'n Net<'_>, end: State) -> Option<(usize, &'n Hop)> {
        let states = self.states_to(end);
        let into = states.windows(2).find(|w| !w[0].2 && w[1].2)?;
        Some((into[0].0, self.hop_into(net, into[1])?))
    }
}

fn blocking(net: &Net<'_>, node: usize) -> bool {
    net.kind(node) == "verify"
        && net
            .definition(node)
            .get("rules")
            .and_then(Value::as_array)
            .is_some_and(|rules| {
                rules
                    .iter()
                    .any(|r| r.get("mode").and_then(Value::as_str) == Some("block"))
            })
}

/// Searches every path of `generator`'s output towards `end`. A gate's pass branch discharges
/// the obligation only when its fail branch cannot carry the refused output to the same end
/// without meeting a new blocking verify or a review.
fn search(net: &Net<'_>, generator: usize, end: usize) -> Search {
    let mut gate_holds: HashMap<usize, bool> = HashMap::new();
    // What a gate may read to check the output: the output itself or what other nodes made from
    // it, not a verify's report (a report's counts discharge only a blocking verify's output).
    let made_from = crate::sorting::set_of(
        net.closure(&[generator], false)
            .into_iter()
            .filter(|&n| net.kind(n) != "verify"),
    );
    let start = (generator, Phase::Unverified, false);
    let mut previous = HashMap::new();
    let mut found = vec![start];
    let mut queue = VecDeque::from([start]);
    while let Some(state @ (node, phase, reviewed)) = queue.pop_front() {
        if node == end {
            continue;
        }
        for (index, hop) in net.hops[node].iter().enumerate() {
            let mut next = phase;
            if phase != Phase::Gated
                && net.kind(node) == "gate"
                && hop.kind == RouteKind::Pass
                && (phase == Phase::Verified || reads_any(net, node, &made_from))
                && *gate_holds
                    .entry(node)
                    .or_insert_with(|| !fail_branch_leaks(net, node, end))
            {
                next = Phase::Gated;
            }
            if next == Phase::Unverified && blocking(net, hop.to) {
                next = Phase::Verified;
            }
            let decided = reviewed || (phase != Phase::Gated && net.kind(node) == "review");
            let reached = (hop.to, next, decided);
            if reached != start && !previous.contains_key(&reached) {
                previous.insert(reached, (state, index));
                found.push(reached);
                queue.push_back(reached);
            }
        }
    }
    Search { previous, found }
}

/// Whether `gate` reads one of `nodes` (its `input`, or its `condition`): then it checks what
/// they made.
fn reads_any(net: &Net<'_>, gate: usize, nodes: &BTreeSet<usize>) -> bool {
    let definition = net.definition(gate);
    let mut texts = Vec::new();
    strings(definition.get("input").unwrap_or(&Value::Null), &mut texts);
    strings(
        definition.get("condition").unwrap_or(&Value::Null),
        &mut texts,
    );
    let read = |id: &str| nodes.iter().any(|&n| net.nodes[n].id == id);
    texts.iter().any(|text| {
        let expressions = if text.contains("{{") {
            crate::expr::Template::parse(text)
                .map(|t| t.expressions().into_iter().cloned().collect())
                .unwrap_or_default()
        } else {
            crate::expr::parse_expression(text, 0, crate::expr::ExprLimits::DEFAULT)
                .map(|e| vec![e])
                .unwrap_or_default()
        };
        expressions
            .iter()
            .flat_map(|e| e.roots())
            .any(|(root, _)| read(&root))
    })
}

/// Every string under `value`.
fn strings<'v>(value: &'v Value, out: &mut Vec<&'v str>) {
    match value {
        Value::String(text) => out.push(text),
        Value::Array(items) => items.iter().for_each(|i| strings(i, out)),
        Value::Object(map) => map.values().for_each(|v| strings(v, out)),
        _ => {}
    }
}

/// Whether the gate's fail branch reaches `end` without a blocking verify or a review on the way.
fn fail_branch_leaks(net: &Net<'_>, gate: usize, end: usize) -> bool {
    let barrier = |n: usize| blocking(net, n) || net.kind(n) == "review";
    let starts: Vec<usize> = net.hops[gate]
        .iter()
        .filter(|h| h.kind == RouteKind::Fail && !barrier(h.to))
        .map(|h| h.to)
        .collect();
    let mut seen = crate::sorting::set_of(starts.iter().copied());
    let mut pending = starts;
    while let Some(n) = pending.pop() {
        if n == end {
            return true;
        }
        for next in net.successors(n) {
            if !barrier(next) && seen.insert(next) {
                pending.push(next);
            }
        }
    }
    false
}

/// No path carries the output of a `generate`, `fan_out` or `debate` to an end (a node with no
/// way out, other than a review) unless a blocking `verify` and a gate's pass branch, or a
/// review's decision, discharge it on the way. A review's decision is reported as information.
fn unverified(net: &Net<'_>, findings: &mut Vec<Finding>) {
    // A review is where a run stops to ask, not an output: only other ends publish.
    let ends: Vec<usize> = net
        .sinks()
        .into_iter()
        .filter(|&s| net.kind(s) != "review")
        .collect();
    let mut decisions_reported = BTreeSet::new();
    for generator in
        (0..net.len()).filter(|&n| matches!(net.kind(n), "generate" | "fan_out" | "debate"))
    {
        for &end in ends.iter().filter(|&&e| e != generator) {
            let search = search(net, generator, end);
            let at_end = |reviewed: bool, unverified_only: bool| {
                search.found.iter().copied().find(|&(n, phase, r)| {
                    n == end
                        && r == reviewed
                        && if unverified_only {
                            phase == Phase::Unverified
                        } else {
                            phase != Phase::Gated
                        }
                })
            };
            if let Some(state) = at_end(false, true) {
                let path = search.path(net, state);
                let pointer = search
                    .hop_into(net, state)
                    .map_or_else(|| net.place(end), |hop| hop.pointer.clone());
                findings.push(
                    Finding::new(
                    rules::UNVERIFIED_OUTPUT,
                        format!(
                            "the output of `{}` can reach `{}` unchecked: no blocking verify, no gate that checks it and refuses on failure, no review on the way: {}",
                            net.name(generator),
                            net.name(end),
                            path.join(" -> ")
                        ),
                        path,
                        pointer,
                    )
                    .help("before this end, verify it with a `block` rule, gate on it with the fail branch to `terminate` or a review, or send it to a review (DRTL §9.3)"),
                );
                continue;
            }
            let Some(reviewed) = at_end(true, false) else {
                continue;
            };
            let Some((review, action)) = search.decision(net, reviewed) else {
                continue;
            };
            let choice = action.label.as_ref().map_or_else(
                || format!("the route to `{}`", net.name(action.to)),
                |label| format!("`{label}`"),
            );
            if !decisions_reported.insert((review, action.pointer.clone(), end)) {
                continue;
            }
            let path = search.path(net, reviewed);
            findings.push(Finding::new(
                    rules::HUMAN_OVERRIDE,
                format!(
                    "`{}` is reachable through a human override: review `{}` can choose {choice} for the output of `{}` ({})",
                    net.name(end),
                    net.name(review),
                    net.name(generator),
                    path.join(" -> ")
                ),
                path,
                action.pointer.clone(),
            ));
        }
    }
}
