//! A document's [`Flow`] indexed for running it: each unit's incoming and outgoing edges, steps
//! by name, and which step or decision tree of the spec each unit is. `Flow`'s own lookups scan
//! every edge or unit, which made a run quadratic in its steps.

use std::collections::HashMap;

use crate::flow::{Flow, FlowEdge, UnitKind};
use crate::model::Spec;

pub(crate) struct Graph {
    flow: Flow,
    incoming: Vec<Vec<usize>>,
    outgoing: Vec<Vec<usize>>,
    steps: HashMap<String, usize>,
    /// The index in `spec.steps` of each step unit.
    step_of: Vec<Option<usize>>,
    /// The index in `spec.decision_trees` of each tree unit.
    tree_of: Vec<Option<usize>>,
}

impl Graph {
    /// The flow the graph indexes.
    pub fn flow(&self) -> &Flow {
        &self.flow
    }

    pub fn new(flow: Flow, spec: &Spec) -> Graph {
        let count = flow.units.len();
        let (mut incoming, mut outgoing) = (vec![Vec::new(); count], vec![Vec::new(); count]);
        for (i, edge) in flow.edges.iter().enumerate() {
            incoming[edge.to].push(i);
            outgoing[edge.from].push(i);
        }
        let step_index: HashMap<&str, usize> = spec
            .steps
            .iter()
            .enumerate()
            .map(|(i, s)| (s.name.as_str(), i))
            .collect();
        let tree_index: HashMap<&str, usize> = spec
            .decision_trees
            .iter()
            .enumerate()
            .map(|(i, t)| (t.name.as_str(), i))
            .collect();
        let mut steps = HashMap::new();
        let (mut step_of, mut tree_of) = (Vec::with_capacity(count), Vec::with_capacity(count));
        for (unit, u) in flow.units.iter().enumerate() {
            let name = u.name.as_str();
            match u.kind {
                UnitKind::Step => {
                    steps.insert(u.name.clone(), unit);
                    step_of.push(step_index.get(name).copied());
                    tree_of.push(None);
                }
                UnitKind::Tree => {
                    step_of.push(None);
                    tree_of.push(tree_index.get(name).copied());
                }
                UnitKind::Node => {
                    step_of.push(None);
                    tree_of.push(None);
                }
            }
        }
        Graph {
            flow,
            incoming,
            outgoing,
            steps,
            step_of,
            tree_of,
        }
    }

    pub fn len(&self) -> usize {
        self.flow.units.len()
    }

    pub fn name(&self, unit: usize) -> &str {
        &self.flow.units[unit].name
    }

    pub fn is_step(&self, unit: usize) -> bool {
        self.flow.units[unit].kind == UnitKind::Step
    }

    /// The unit of step `name`.
    pub fn step_unit(&self, name: &str) -> Option<usize> {
        self.steps.get(name).copied()
    }

    pub fn step_of(&self, unit: usize) -> Option<usize> {
        self.step_of[unit]
    }

    pub fn tree_of(&self, unit: usize) -> Option<usize> {
        self.tree_of[unit]
    }

    /// Ordering edges into `unit`.
    pub fn incoming(&self, unit: usize) -> impl Iterator<Item = &FlowEdge> {
        self.incoming[unit].iter().map(|&e| &self.flow.edges[e])
    }

    /// Ordering edges out of `unit`.
    pub fn outgoing(&self, unit: usize) -> impl Iterator<Item = &FlowEdge> {
        self.outgoing[unit].iter().map(|&e| &self.flow.edges[e])
    }

    /// Every ordering edge.
    pub fn edges(&self) -> &[FlowEdge] {
        &self.flow.edges
    }

    /// Whether the branch `from → to` goes back (a loop).
    pub fn is_loop(&self, from: usize, to: usize) -> bool {
        self.flow.loops.iter().any(|e| e.from == from && e.to == to)
    }
}
