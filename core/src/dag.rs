//! The step dependency graph (`needs`, spec §4.1, §15.2): cycle detection with the cycle's path.
//! (Execution levels are the flow's: `flow::Flow`.) `needs` naming unknown steps are ignored
//! here; the linter reports them.

use std::collections::HashMap;

use petgraph::algo::tarjan_scc;
use petgraph::graph::{DiGraph, NodeIndex};
use rustc_hash::FxHashMap;

/// Steps in declaration order with their `needs`.
#[derive(Debug, Clone)]
pub(crate) struct StepDag<'a> {
    /// Borrowed: a name is copied only into a cycle found (lint builds this graph of every step
    /// on each check).
    names: Vec<&'a str>,
    /// Edge `need → step`: the need must complete first.
    graph: DiGraph<usize, ()>,
}

/// A dependency cycle, as the steps along it; the first step is repeated at the end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cycle(pub Vec<String>);

impl Cycle {
    /// The cycle as one line, the steps joined by arrows: `a -> b -> a`.
    pub fn display(&self) -> String {
        self.0.join(" -> ")
    }
}

impl<'a> StepDag<'a> {
    /// Builds the graph from `(step, needs)` pairs in declaration order.
    pub(crate) fn new(steps: impl IntoIterator<Item = (&'a str, Vec<&'a str>)>) -> StepDag<'a> {
        let steps: Vec<(&str, Vec<&str>)> = steps.into_iter().collect();
        let mut graph = DiGraph::with_capacity(steps.len(), steps.len());
        let mut index: FxHashMap<&str, NodeIndex> =
            FxHashMap::with_capacity_and_hasher(steps.len(), Default::default());
        let mut names = Vec::with_capacity(steps.len());
        for (position, (name, _)) in steps.iter().enumerate() {
            index
                .entry(name)
                .or_insert_with(|| graph.add_node(position));
            names.push(*name);
        }
        for (name, needs) in &steps {
            let Some(&step) = index.get(name) else {
                continue;
            };
            for need in needs {
                if let Some(&need) = index.get(need) {
                    if graph.find_edge(need, step).is_none() {
                        graph.add_edge(need, step, ());
                    }
                }
            }
        }
        StepDag { names, graph }
    }

    /// Every dependency cycle, one per strongly connected component, in declaration order of
    /// their first step. Self-needs are cycles of one step.
    pub(crate) fn cycles(&self) -> Vec<Cycle> {
        let mut cycles: Vec<(usize, Cycle)> = tarjan_scc(&self.graph)
            .into_iter()
            .filter(|component| {
                component.len() > 1
                    || component
                        .first()
                        .is_some_and(|&n| self.graph.find_edge(n, n).is_some())
            })
            .map(|component| {
                let start = component
                    .iter()
                    .copied()
                    .min_by_key(|&n| self.graph[n])
                    .unwrap_or(component[0]);
                (self.graph[start], self.cycle_through(start, &component))
            })
            .collect();
        crate::sorting::sort_by_key(&mut cycles, |(position, _)| *position);
        cycles.into_iter().map(|(_, cycle)| cycle).collect()
    }

    /// A simple cycle from `start` back to itself inside `component`, found by breadth-first
    /// search along `needs` (so the path is a shortest one).
    fn cycle_through(&self, start: NodeIndex, component: &[NodeIndex]) -> Cycle {
        let inside = |n: NodeIndex| component.contains(&n);
        // Walk dependencies: from a step to what it needs, which reads as the user wrote it.
        let mut previous: HashMap<NodeIndex, NodeIndex> = HashMap::new();
        let mut queue = std::collections::VecDeque::from([start]);
        let mut closing = None;
        'search: while let Some(node) = queue.pop_front() {
            let mut needs: Vec<NodeIndex> = self
                .graph
                .neighbors_directed(node, petgraph::Direction::Incoming)
                .filter(|&n| inside(n))
                .collect();
            crate::sorting::sort_by_key(&mut needs, |&n| self.graph[n]);
            for need in needs {
                if need == start {
                    closing = Some(node);
                    break 'search;
                }
                if let std::collections::hash_map::Entry::Vacant(slot) = previous.entry(need) {
                    slot.insert(node);
                    queue.push_back(need);
                }
            }
        }
        let mut path = vec![self.name(start)];
        let mut chain = Vec::new();
        let mut at = closing.unwrap_or(start);
        while at != start {
            chain.push(self.name(at));
            at = previous.get(&at).copied().unwrap_or(start);
        }
        chain.reverse();
        path.extend(chain);
        path.push(self.name(start));
        Cycle(path)
    }

    fn name(&self, node: NodeIndex) -> String {
        self.names[self.graph[node]].to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dag(steps: &[(&'static str, &[&'static str])]) -> StepDag<'static> {
        StepDag::new(steps.iter().map(|(n, needs)| (*n, needs.to_vec())))
    }

    #[test]
    fn cycles_are_reported_with_their_path() {
        let d = dag(&[("a", &["c"]), ("b", &["a"]), ("c", &["b"]), ("x", &[])]);
        let cycles = d.cycles();
        assert_eq!(cycles.len(), 1);
        assert_eq!(cycles[0].display(), "a -> c -> b -> a");
    }

    #[test]
    fn self_needs_is_a_cycle() {
        let d = dag(&[("a", &["a"]), ("b", &[])]);
        assert_eq!(d.cycles(), vec![Cycle(vec!["a".into(), "a".into()])]);
    }

    #[test]
    fn separate_cycles_are_each_reported() {
        let d = dag(&[("a", &["b"]), ("b", &["a"]), ("c", &["d"]), ("d", &["c"])]);
        let shown: Vec<String> = d.cycles().iter().map(Cycle::display).collect();
        assert_eq!(shown, ["a -> b -> a", "c -> d -> c"]);
    }

    #[test]
    fn unknown_needs_are_ignored_here() {
        let d = dag(&[("a", &["ghost"])]);
        assert!(d.cycles().is_empty());
        assert!(dag(&[]).cycles().is_empty());
    }
}
