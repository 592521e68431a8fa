//! The execution flow of a document: every kind of edge that orders work, not only `needs`.
//!
//! Units are steps and decision trees (a LOGIC.md document), or workflow nodes (a multi-agent
//! workflow, §9.1). Ordering edges, each meaning "the target runs after the source":
//! - `needs` (a step after what it needs) and `parallel_steps` (a parallel step joins its members
//!   after they ran);
//! - a branch's `then` (the chosen step after the step that chose it), unless it is a loop;
//! - a decision tree's routes (a step after the tree that chose it), and a tree after the steps
//!   whose outputs its conditions read;
//! - workflow `depends_on` and `edges`.
//!
//! A branch that goes back (to itself, or to a step that has to run before it) is a loop, not
//! an ordering edge: the flow lists it in [`Flow::loops`]. Which branch closes a cycle is decided
//! by scheduling: Kahn's algorithm takes ready units in declaration order; when every unit left
//! waits on another, the earliest declared unit whose remaining waits are all branches is taken,
//! and those branches become loops. A cycle of `needs` alone cannot be broken: it is an error.

mod build;

use serde::Serialize;

pub use crate::dag::Cycle;

/// What a unit of the flow is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum UnitKind {
    /// A step of a LOGIC.md document.
    Step,
    /// A decision tree of a LOGIC.md document.
    Tree,
    /// A node of a multi-agent workflow (§9.1).
    Node,
}

/// Why one unit runs after another; serialised in snake_case.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum EdgeKind {
    /// `needs`: a step after a step it needs.
    Needs,
    /// `parallel_steps`: a parallel step after each of its members.
    Parallel,
    /// A branch's `then`: the chosen step after the step that chose it.
    Branch,
    /// A decision tree's route: a step after the tree that chose it.
    Tree,
    /// A decision tree after a step whose output its conditions read.
    Reads,
    /// Workflow `depends_on`: a node after a node it depends on.
    DependsOn,
    /// Workflow `edges`: a node after the node that feeds it.
    Edge,
}

impl EdgeKind {
    /// Edges the target only follows when the source chooses it.
    pub fn is_choice(self) -> bool {
        matches!(self, EdgeKind::Branch | EdgeKind::Tree)
    }
}

/// A step, decision tree or workflow node of the flow.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Unit {
    /// Its name in the document.
    pub name: String,
    /// What it is.
    pub kind: UnitKind,
}

/// An ordering edge: `to` runs after `from`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FlowEdge {
    /// Indices into [`Flow::units`].
    pub from: usize,
    /// Index into [`Flow::units`] of the unit that runs after.
    pub to: usize,
    /// Why it runs after.
    pub kind: EdgeKind,
}

/// The units, the ordering edges between them and the loops, scheduled into levels.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Flow {
    /// The steps in declaration order, then the decision trees (or the workflow nodes); edges
    /// and levels index into it.
    pub units: Vec<Unit>,
    /// Ordering edges (loops excluded), in the order they were declared.
    pub edges: Vec<FlowEdge>,
    /// Branches that go back: they repeat work instead of ordering it.
    pub loops: Vec<FlowEdge>,
    /// Unit indices per level: a unit's level is one more than the highest level of the units
    /// it runs after; inside a level, declaration order.
    pub levels: Vec<Vec<usize>>,
}

impl Flow {
    /// The flow of a document's steps and decision trees, or the `needs` cycles that forbid one.
    pub fn of_steps(spec: &crate::model::Spec) -> Result<Flow, Vec<Cycle>> {
        build::of_steps(spec)
    }

    /// The flow of a workflow's nodes (`depends_on` and `edges`), or its cycles.
    pub fn of_workflow(spec: &crate::model::Spec) -> Result<Flow, Vec<Cycle>> {
        build::of_workflow(spec)
    }

    /// The index of the unit with this name and kind, if the flow has one.
    pub fn index(&self, name: &str, kind: UnitKind) -> Option<usize> {
        self.units
            .iter()
            .position(|u| u.name == name && u.kind == kind)
    }

    /// Unit names per level, only of one kind (e.g. steps), empty levels left out.
    pub fn level_names(&self, kind: UnitKind) -> Vec<Vec<String>> {
        self.levels
            .iter()
            .map(|level| {
                level
                    .iter()
                    .filter(|&&u| self.units[u].kind == kind)
                    .map(|&u| self.units[u].name.clone())
                    .collect::<Vec<_>>()
            })
            .filter(|level| !level.is_empty())
            .collect()
    }

    /// The level of each unit.
    pub fn level_of(&self) -> Vec<usize> {
        let mut level_of = vec![0; self.units.len()];
        for (level, units) in self.levels.iter().enumerate() {
            for &unit in units {
                level_of[unit] = level;
            }
        }
        level_of
    }

    /// Ordering edges into `unit`.
    pub fn incoming(&self, unit: usize) -> impl Iterator<Item = &FlowEdge> {
        self.edges.iter().filter(move |e| e.to == unit)
    }

    /// Ordering edges out of `unit`.
    pub fn outgoing(&self, unit: usize) -> impl Iterator<Item = &FlowEdge> {
        self.edges.iter().filter(move |e| e.from == unit)
    }

    /// Units nothing runs after: they produce what the document gives back. Only units of
    /// `kind` count (a step followed only by a decision tree is not final).
    pub fn finals(&self, kind: UnitKind) -> Vec<usize> {
        let mut has_successor = vec![false; self.units.len()];
        for edge in &self.edges {
            has_successor[edge.from] = true;
        }
        (0..self.units.len())
            .filter(|&u| self.units[u].kind == kind && !has_successor[u])
            .collect()
    }

    /// The names of [`Flow::finals`].
    pub fn final_names(&self, kind: UnitKind) -> Vec<String> {
        self.finals(kind)
            .into_iter()
            .map(|u| self.units[u].name.clone())
            .collect()
    }
}

#[cfg(test)]
mod tests;
