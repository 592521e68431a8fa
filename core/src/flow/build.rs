//! Building a [`Flow`] and scheduling it into levels.

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
    loops: Vec<FlowEdge>,
}

impl Draft {
    fn new() -> Draft {
        Draft {
            units: Vec::new(),
            index: FxHashMap::default(),
            edges: Vec::new(),
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
        } else if !self.edges.contains(&edge) {
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

/// Kahn's algorithm in declaration order; when stuck, the earliest declared unit whose
/// remaining waits are all choices (branches) is taken, and those waits become loops.
fn schedule(draft: Draft) -> Flow {
    let Draft {
        units,
        edges: candidates,
        mut loops,
        ..
    } = draft;
    let count = units.len();
    let mut incoming: Vec<Vec<usize>> = vec![Vec::new(); count];
    let mut outgoing: Vec<Vec<usize>> = vec![Vec::new(); count];
    for (i, edge) in candidates.iter().enumerate() {
        incoming[edge.to].push(i);
        outgoing[edge.from].push(i);
    }
    let mut waiting: Vec<usize> = incoming.iter().map(Vec::len).collect();
    let mut done = vec![false; count];
    let mut is_loop = vec![false; candidates.len()];
    let mut level_of = vec![0usize; count];
    let mut ready: std::collections::BTreeSet<usize> =
        (0..count).filter(|&u| waiting[u] == 0).collect();
    let mut scheduled = 0;
    while scheduled < count {
        let unit = match ready.pop_first() {
            Some(unit) => unit,
            None => {
                // Every unit left waits on another: break at the earliest that waits only on
                // choices. One exists, since `needs` alone are acyclic.
                let Some(unit) = (0..count).find(|&u| {
                    !done[u]
                        && incoming[u].iter().all(|&e| {
                            done[candidates[e].from] || candidates[e].kind.is_choice()
                        })
                }) else {
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
        scheduled += 1;
        level_of[unit] = incoming[unit]
            .iter()
            .filter(|&&e| !is_loop[e])
            .map(|&e| level_of[candidates[e].from] + 1)
            .max()
            .unwrap_or(0);
        for &e in &outgoing[unit] {
            let next = candidates[e].to;
            if done[next] {
                // An edge into a unit already scheduled goes back: a loop.
                is_loop[e] = true;
                continue;
            }
            waiting[next] -= 1;
            if waiting[next] == 0 {
                ready.insert(next);
            }
        }
        // A unit taken to break a cycle may still be in `ready`'s future: remove stale waits.
        ready.retain(|&u| !done[u]);
    }
    let mut edges = Vec::with_capacity(candidates.len());
    for (edge, looped) in candidates.into_iter().zip(is_loop) {
        if looped {
            loops.push(edge);
        } else {
            edges.push(edge);
        }
    }
    let depth = level_of.iter().max().map_or(0, |d| d + 1);
    let mut levels = vec![Vec::new(); if count == 0 { 0 } else { depth }];
    for (unit, &level) in level_of.iter().enumerate() {
        levels[level].push(unit);
    }
    Flow {
        units,
        edges,
        loops,
        levels,
    }
}
