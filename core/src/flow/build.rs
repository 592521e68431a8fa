//! Building a [`Flow`] and scheduling it into levels.

use petgraph::algo::tarjan_scc;
use petgraph::graph::{DiGraph, NodeIndex};
use petgraph::Direction;
use rustc_hash::FxHashMap;

use super::{Cycle, EdgeKind, Flow, FlowEdge, Unit, UnitKind};
use crate::dag::StepDag;
use crate::expr::Template;
use crate::model::Spec;

/// Units and candidate edges before scheduling.
struct Draft {
    units: Vec<Unit>,
    index: FxHashMap<(UnitKind, String), usize>,
    edges: Vec<FlowEdge>,
    /// The edges already added (scanning `edges` made building quadratic in the steps).
    added: rustc_hash::FxHashSet<(usize, usize, EdgeKind)>,
    loops: Vec<FlowEdge>,
}

impl Draft {
    fn new() -> Draft {
        Draft {
            units: Vec::new(),
            index: FxHashMap::default(),
            edges: Vec::new(),
            added: Default::default(),
            loops: Vec::new(),
        }
    }

    fn unit(&mut self, name: &str, kind: UnitKind) {
        let key = (kind, name.to_owned());
        if !self.index.contains_key(&key) {
            self.index.insert(key, self.units.len());
            self.units.push(Unit {
                name: name.to_owned(),
                kind,
            });
        }
    }

    fn find(&self, name: &str, kind: UnitKind) -> Option<usize> {
        self.index.get(&(kind, name.to_owned())).copied()
    }

    /// Adds `from → to` when both exist; a unit routed to itself is a loop.
    fn edge(&mut self, from: Option<usize>, to: Option<usize>, kind: EdgeKind) {
        let (Some(from), Some(to)) = (from, to) else {
            return;
        };
        let edge = FlowEdge { from, to, kind };
        if from == to {
            self.loops.push(edge);
        } else if self.added.insert((from, to, kind)) {
            self.edges.push(edge);
        }
    }
}

pub(super) fn of_steps(spec: &Spec) -> Result<Flow, Vec<Cycle>> {
    let dag = StepDag::new(
        spec.steps
            .iter()
            .map(|s| (s.name.as_str(), needs_and_members(s))),
    );
    let cycles = dag.cycles();
    if !cycles.is_empty() {
        return Err(cycles);
    }
    let mut draft = Draft::new();
    for step in &spec.steps {
        draft.unit(&step.name, UnitKind::Step);
    }
    for tree in &spec.decision_trees {
        draft.unit(&tree.name, UnitKind::Tree);
    }
    for step in &spec.steps {
        let this = draft.find(&step.name, UnitKind::Step);
        for need in &step.needs {
            let need = draft.find(need, UnitKind::Step);
            draft.edge(need, this, EdgeKind::Needs);
        }
        if step.is_parallel() {
            for member in &step.parallel_steps {
                let member = draft.find(member, UnitKind::Step);
                draft.edge(member, this, EdgeKind::Parallel);
            }
        }
    }
    for step in &spec.steps {
        let this = draft.find(&step.name, UnitKind::Step);
        for target in step.branch_targets() {
            let target = draft.find(target, UnitKind::Step);
            draft.edge(this, target, EdgeKind::Branch);
        }
    }
    for tree in &spec.decision_trees {
        let this = draft.find(&tree.name, UnitKind::Tree);
        for step in read_steps(tree.nodes.iter().map(|n| n.condition.as_str())) {
            let step = draft.find(&step, UnitKind::Step);
            draft.edge(step, this, EdgeKind::Reads);
        }
        for target in tree.step_targets() {
            let target = draft.find(target, UnitKind::Step);
            draft.edge(this, target, EdgeKind::Tree);
        }
    }
    Ok(schedule(draft))
}

pub(super) fn of_workflow(spec: &Spec) -> Result<Flow, Vec<Cycle>> {
    let mut draft = Draft::new();
    for node in &spec.nodes {
        draft.unit(&node.name, UnitKind::Node);
    }
    for node in &spec.nodes {
        let this = draft.find(&node.name, UnitKind::Node);
        for dependency in &node.depends_on {
            let dependency = draft.find(dependency, UnitKind::Node);
            draft.edge(dependency, this, EdgeKind::DependsOn);
        }
    }
    for edge in &spec.edges {
        let from = draft.find(&edge.from, UnitKind::Node);
        let to = draft.find(&edge.to, UnitKind::Node);
        draft.edge(from, to, EdgeKind::Edge);
    }
    // Every workflow edge carries data: a cycle among them cannot be scheduled.
    let dag = StepDag::new(draft.units.iter().enumerate().map(|(i, unit)| {
        let before: Vec<&str> = draft
            .edges
            .iter()
            .filter(|e| e.to == i)
            .map(|e| draft.units[e.from].name.as_str())
            .collect();
        (unit.name.as_str(), before)
    }));
    let mut cycles = dag.cycles();
    cycles.extend(draft.loops.iter().map(|e| {
        let name = draft.units[e.from].name.clone();
        Cycle(vec![name.clone(), name])
    }));
    if !cycles.is_empty() {
        return Err(cycles);
    }
    Ok(schedule(draft))
}

/// A step's `needs`, and its members when it joins parallel steps.
fn needs_and_members(step: &crate::model::Step) -> Vec<&str> {
    let mut before: Vec<&str> = step.needs.iter().map(String::as_str).collect();
    if step.is_parallel() {
        before.extend(step.parallel_steps.iter().map(String::as_str));
    }
    before
}

/// Names of steps read as `steps.NAME` in `{{ }}` templates.
fn read_steps<'t>(templates: impl Iterator<Item = &'t str>) -> Vec<String> {
    let mut names = Vec::new();
    for text in templates {
        let Ok(template) = Template::parse(text) else {
            continue;
        };
        for expr in template.expressions() {
            for (path, _) in expr.paths() {
                if let [root, step, ..] = path.as_slice() {
                    if root == "steps" && !names.contains(step) {
                        names.push(step.clone());
                    }
                }
            }
        }
    }
    names
}

/// Finds the loops, puts back the ones that turn out not to close a cycle, and levels the rest.
fn schedule(draft: Draft) -> Flow {
    let Draft {
        units,
        edges: candidates,
        mut loops,
        ..
    } = draft;
    let mut is_loop = find_loops(units.len(), &candidates);
    keep_only_real_loops(units.len(), &candidates, &mut is_loop);
    let mut edges = Vec::with_capacity(candidates.len());
    for (edge, looped) in candidates.into_iter().zip(is_loop) {
        if looped {
            loops.push(edge);
        } else {
            edges.push(edge);
        }
    }
    let levels = longest_path_levels(units.len(), &edges);
    Flow {
        units,
        edges,
        loops,
        levels,
    }
}

/// Kahn's algorithm in declaration order; when stuck, [`break_point`] says which unit to take
/// next, and its remaining waits become loops.
fn find_loops(count: usize, candidates: &[FlowEdge]) -> Vec<bool> {
    let (incoming, outgoing) = adjacency(count, candidates);
    let mut waiting: Vec<usize> = incoming.iter().map(Vec::len).collect();
    let mut done = vec![false; count];
    let mut is_loop = vec![false; candidates.len()];
    let mut ready = crate::sorting::set_of((0..count).filter(|&u| waiting[u] == 0));
    for _ in 0..count {
        let unit = match ready.pop_first() {
            Some(unit) => unit,
            None => {
                let Some(unit) = break_point(candidates, &done, &is_loop) else {
                    break;
                };
                for &e in &incoming[unit] {
                    if !done[candidates[e].from] {
                        is_loop[e] = true;
                    }
                }
                unit
            }
        };
        done[unit] = true;
        for &e in &outgoing[unit] {
            let next = candidates[e].to;
            if !done[next] {
                waiting[next] -= 1;
                if waiting[next] == 0 {
                    ready.insert(next);
                }
            }
        }
    }
    is_loop
}

/// A loop whose target does not lead back to its source (an earlier break made it needless)
/// orders work after all: it is put back, in declaration order, while that keeps the graph
/// acyclic. Putting edges back only adds paths, so the loops that stay keep closing cycles.
fn keep_only_real_loops(count: usize, candidates: &[FlowEdge], is_loop: &mut [bool]) {
    let (_, outgoing) = adjacency(count, candidates);
    for e in 0..candidates.len() {
        if !is_loop[e] {
            continue;
        }
        let edge = &candidates[e];
        if !reaches(&outgoing, candidates, is_loop, edge.to, edge.from) {
            is_loop[e] = false;
        }
    }
}

/// Whether `from` leads to `to` along the edges that are not loops.
fn reaches(
    outgoing: &[Vec<usize>],
    candidates: &[FlowEdge],
    is_loop: &[bool],
    from: usize,
    to: usize,
) -> bool {
    let mut seen = vec![false; outgoing.len()];
    let mut stack = vec![from];
    while let Some(unit) = stack.pop() {
        if unit == to {
            return true;
        }
        if std::mem::replace(&mut seen[unit], true) {
            continue;
        }
        stack.extend(
            outgoing[unit]
                .iter()
                .filter(|&&e| !is_loop[e])
                .map(|&e| candidates[e].to),
        );
    }
    false
}

fn adjacency(count: usize, edges: &[FlowEdge]) -> (Vec<Vec<usize>>, Vec<Vec<usize>>) {
    let mut incoming: Vec<Vec<usize>> = vec![Vec::new(); count];
    let mut outgoing: Vec<Vec<usize>> = vec![Vec::new(); count];
    for (i, edge) in edges.iter().enumerate() {
        incoming[edge.to].push(i);
        outgoing[edge.from].push(i);
    }
    (incoming, outgoing)
}

/// Levels of an acyclic graph: one more than the highest level of the units before it.
fn longest_path_levels(count: usize, edges: &[FlowEdge]) -> Vec<Vec<usize>> {
    let (incoming, outgoing) = adjacency(count, edges);
    let mut waiting: Vec<usize> = incoming.iter().map(Vec::len).collect();
    let mut level_of = vec![0usize; count];
    let mut ready: Vec<usize> = (0..count).filter(|&u| waiting[u] == 0).collect();
    while let Some(unit) = ready.pop() {
        for &e in &outgoing[unit] {
            let next = edges[e].to;
            level_of[next] = level_of[next].max(level_of[unit] + 1);
            waiting[next] -= 1;
            if waiting[next] == 0 {
                ready.push(next);
            }
        }
    }
    let depth = level_of.iter().max().map_or(0, |d| d + 1);
    let mut levels = vec![Vec::new(); if count == 0 { 0 } else { depth }];
    for (unit, &level) in level_of.iter().enumerate() {
        levels[level].push(unit);
    }
    levels
}

/// When every unit left waits on another, the unit to take: the earliest declared one, in a
/// strongly connected component of what is left that nothing else left leads into, whose waits
/// are all choices. Its choosers are then in its component, reachable from it: the branches from
/// them really go back. Such a unit exists because `needs` alone are acyclic (a source
/// component's `needs` edges form a DAG with a unit no `needs` edge enters).
fn break_point(candidates: &[FlowEdge], done: &[bool], is_loop: &[bool]) -> Option<usize> {
    let mut graph: DiGraph<usize, usize> = DiGraph::new();
    let mut node_of: FxHashMap<usize, NodeIndex> = FxHashMap::default();
    for (unit, _) in done.iter().enumerate().filter(|(_, &d)| !d) {
        node_of.insert(unit, graph.add_node(unit));
    }
    let pending = |e: &(usize, &FlowEdge)| !is_loop[e.0] && !done[e.1.from] && !done[e.1.to];
    for (i, edge) in candidates.iter().enumerate().filter(|e| pending(e)) {
        graph.add_edge(node_of[&edge.from], node_of[&edge.to], i);
    }
    let components = tarjan_scc(&graph);
    let mut component_of = vec![0usize; graph.node_count()];
    for (c, members) in components.iter().enumerate() {
        for member in members {
            component_of[member.index()] = c;
        }
    }
    let mut entered = vec![false; components.len()];
    for edge in graph.edge_indices() {
        if let Some((a, b)) = graph.edge_endpoints(edge) {
            if component_of[a.index()] != component_of[b.index()] {
                entered[component_of[b.index()]] = true;
            }
        }
    }
    graph
        .node_indices()
        .filter(|n| !entered[component_of[n.index()]])
        .filter(|&n| {
            graph
                .edges_directed(n, Direction::Incoming)
                .all(|e| candidates[*e.weight()].kind.is_choice())
        })
        .map(|n| graph[n])
        .min()
}
