//! What chooses which units run (spec §4.1 `branches`, §7): a step's first matching branch
//! chooses its target; a decision tree walked on the outputs so far chooses the step it reaches
//! (`abort` fails the run; other terminal actions choose nothing); a branch that goes back is a
//! loop, taken while `reasoning.max_iterations` allows, which runs its target and everything
//! after it again. Choices made outside what a loop re-runs stay made.

use std::collections::BTreeSet;

use serde_json::{json, Value};

use super::context::holds;
use super::{tree, StepsProgram, UnitState};
use crate::run::kernel::Kernel;
use crate::trace::{Event, Gate};

impl StepsProgram {
    /// `chooser` chose `target` (a branch, a tree's route, a loop).
    pub(super) fn choose(&mut self, chooser: usize, target: usize) {
        self.chosen[target] = true;
        if self.graph.is_step(chooser) {
            self.chooser[target] = Some(chooser);
        }
        self.choices[chooser].push(target);
    }

    /// The first branch that matches (§4.1): a forward target is chosen; a target that goes back
    /// is a loop, taken while iterations remain, else passed over for the next branch. The
    /// route taken: its target, and whether it is a loop.
    pub(super) fn route(
        &mut self,
        kernel: &mut Kernel,
        unit: usize,
        index: usize,
        output: &Value,
    ) -> Option<(String, bool)> {
        let branches = self.shared.spec.steps[index].branches.clone();
        if branches.is_empty() {
            return None;
        }
        let context = self.shared.context(Some(output), 0);
        let matched: Vec<bool> = branches
            .iter()
            .map(|branch| match &branch.condition {
                Some(condition) => holds(condition, context).unwrap_or(false),
                None => branch.default,
            })
            .collect();
        for (branch, matches) in branches.iter().zip(matched) {
            let Some(target) = branch.then.as_deref().filter(|_| matches) else {
                continue;
            };
            let Some(to) = self.graph.step_unit(target) else {
                continue;
            };
            if !self.graph.is_loop(unit, to) {
                self.choose(unit, to);
                return Some((target.to_owned(), false));
            }
            if self.shared.iteration < self.shared.max_iterations {
                self.shared.iteration += 1;
                return Some((target.to_owned(), true));
            }
            let node = self.shared.node_id(self.graph.name(unit));
            let detail = json!({"loop_to": target, "max_iterations": self.shared.max_iterations});
            let gate = Gate {
                detail: Some(detail),
                ..Gate::named("max_iterations", false)
            };
            kernel.event(Some(&node), Event::GateEvaluated(gate));
        }
        None
    }

    /// Unit `from` loops back to `target`: it and everything after it run again.
    pub(super) fn go_back(&mut self, kernel: &mut Kernel, from: usize, target: usize) {
        self.reset_from(kernel, target);
        self.choose(from, target);
    }

    /// `target` and everything after it are pending again (what is still running there is
    /// cancelled). Choices made by units outside stay made.
    fn reset_from(&mut self, kernel: &mut Kernel, target: usize) {
        let mut reset = BTreeSet::from([target]);
        let mut stack = vec![target];
        while let Some(unit) = stack.pop() {
            for edge in self.graph.outgoing(unit) {
                if reset.insert(edge.to) {
                    stack.push(edge.to);
                }
            }
        }
        let target_name = self.graph.name(target).to_owned();
        for &unit in &reset {
            if self.states[unit].is_active() {
                kernel.cancel_unit(self.unit_base + unit);
                let node = self.shared.node_id(self.graph.name(unit));
                let reason = format!("a loop went back to `{target_name}` before it finished");
                kernel.event(Some(&node), Event::skipped(reason));
            }
            self.set_state(unit, UnitState::Pending);
            self.choices[unit].clear();
            self.decisions[unit] = None;
            self.join_deadlines.remove(&unit);
        }
        for &unit in &reset {
            self.recount_waits(unit);
        }
    }

    /// Recomputes what `unit` waits for, and whether something outside chose it.
    fn recount_waits(&mut self, unit: usize) {
        let (mut unsettled, mut choosers) = (0, 0);
        let (mut chosen, mut chooser) = (false, None);
        for edge in self.graph.incoming(unit) {
            if edge.kind.is_choice() && self.choices[edge.from].contains(&unit) {
                chosen = true;
                if self.graph.is_step(edge.from) {
                    chooser = Some(edge.from);
                }
            }
            if !self.states[edge.from].settled() {
                if edge.kind.is_choice() {
                    choosers += 1;
                } else {
                    unsettled += 1;
                }
            }
        }
        self.unsettled[unit] = unsettled;
        self.choosers_left[unit] = choosers;
        self.chosen[unit] = chosen;
        self.chooser[unit] = chooser;
    }

    /// Walks decision tree `tree` (unit `unit`) on the outputs so far and chooses the step it
    /// reaches; a terminal that aborts fails the run, any other action that is not a step asks
    /// (`terminal`); a tree that cannot be walked fails the run.
    pub(super) fn run_tree(
        &mut self,
        kernel: &mut Kernel,
        unit: usize,
        tree: usize,
        candidates: &mut BTreeSet<usize>,
    ) {
        let definition = self.shared.spec.decision_trees[tree].clone();
        let node = self.shared.node_id(&format!("tree:{}", definition.name));
        let walked = tree::evaluate(&definition, self.shared.context(None, 0));
        let walk = match walked {
            Ok(walk) => walk,
            Err(error) => {
                let gate = Gate {
                    error: Some(error.clone()),
                    ..Gate::named("decision_tree", false)
                };
                kernel.event(Some(&node), Event::GateEvaluated(gate));
                self.fail(format!("decision tree `{}`: {error}", definition.name));
                return;
            }
        };
        let gate = Gate {
            path: Some(walk.path.clone()),
            reached: Some(walk.reached.clone()),
            action: Some(walk.action.clone()),
            ..Gate::named("decision_tree", true)
        };
        kernel.event(Some(&node), Event::GateEvaluated(gate));
        if walk.action == "abort" {
            self.fail(format!(
                "decision tree `{}` reached `{}`, which aborts",
                definition.name, walk.reached
            ));
            return;
        }
        match self.graph.step_unit(&walk.action) {
            Some(target) => {
                self.choose(unit, target);
                self.settle(unit, UnitState::Done, candidates);
            }
            None => self.ask_tree(kernel, unit, &definition.name, walk),
        }
    }
}
