//! When units start and what settling one unblocks: a unit starts once every unit it runs
//! after has settled (a parallel step with `join: any | majority` once enough members
//! finished), and a branch or tree target only when chosen; one nothing chose is skipped once
//! all its choosers have settled. A step runs even when steps it needs were skipped (their
//! outputs are absent, §4.1.1 `skip`).

use std::collections::BTreeSet;

use serde_json::{json, Map, Value};

use super::contracts::{self, Enforcement};
use super::step::{Settled, StepRun};
use super::{StepsProgram, UnitState};
use crate::run::action::Observation;
use crate::run::kernel::{Kernel, Waiter};
use crate::trace::{Event, Gate, NodeFinished, NodeStatus, Route};

impl StepsProgram {
    /// Checks the input against the input contract, then starts what can start.
    pub fn begin(&mut self, kernel: &mut Kernel) {
        if !self.input_accepted(kernel) {
            return;
        }
        let all: BTreeSet<usize> = (0..self.states.len()).collect();
        self.pump(kernel, all);
    }

    /// Records how the input fares against `contracts.inputs`; `false` when a violation
    /// rejects the run (it has failed).
    fn input_accepted(&mut self, kernel: &mut Kernel) -> bool {
        let contracts = &self.shared.spec.contracts;
        let enforcement = contracts::input_enforcement(contracts);
        if enforcement == Enforcement::Off || contracts.inputs.is_empty() {
            return true;
        }
        let problems = contracts::input_problems(contracts, &self.shared.input);
        let node = self.shared.document_node();
        let gate = Gate {
            errors: Some(problems.clone()),
            ..Gate::named("input_contract", problems.is_empty())
        };
        kernel.event(node.as_deref(), Event::GateEvaluated(gate));
        if problems.is_empty() || enforcement == Enforcement::Record {
            return true;
        }
        self.fail(format!(
            "the input breaks the input contract: {}",
            problems.join("; ")
        ));
        false
    }

    /// Starts every unit in `candidates` (and what they unblock) that can start now.
    pub(super) fn pump(&mut self, kernel: &mut Kernel, mut candidates: BTreeSet<usize>) {
        while let Some(unit) = candidates.pop_first() {
            if self.outcome.is_some() {
                return;
            }
            if !matches!(self.states[unit], UnitState::Pending) {
                continue;
            }
            if let Some(error) = self.join_lost(unit) {
                self.fail(error);
                return;
            }
            if !self.needs_met(unit) {
                continue;
            }
            if self.has_choosers[unit] && !self.chosen[unit] {
                if self.choosers_left[unit] == 0 {
                    let reason = "no branch or decision tree chose it";
                    self.skip(kernel, unit, reason, &mut candidates);
                }
                continue;
            }
            self.start(kernel, unit, &mut candidates);
        }
        self.finish_if_done(kernel);
    }

    fn start(&mut self, kernel: &mut Kernel, unit: usize, candidates: &mut BTreeSet<usize>) {
        self.runs += 1;
        if self.runs > self.max_runs {
            self.fail(format!(
                "more than {} step runs: a loop does not end",
                self.max_runs
            ));
            return;
        }
        if let Some(tree) = self.graph.tree_of(unit) {
            self.run_tree(kernel, unit, tree, candidates);
            return;
        }
        let Some(index) = self.graph.step_of(unit) else {
            let reason = "it is not a step".to_owned();
            self.settle(unit, UnitState::Skipped(reason), candidates);
            return;
        };
        let step = &self.shared.spec.steps[index];
        if let Some(pin) = self.pins.get(&self.shared.node_id(&step.name)).cloned() {
            self.pinned(kernel, unit, index, pin, candidates);
            return;
        }
        if step.is_parallel() && step.instructions.is_none() {
            self.join_members(kernel, unit, index, candidates);
            return;
        }
        let sources: Vec<(String, Option<Value>)> = self
            .sources(unit, index)
            .into_iter()
            .map(|name| {
                let output = self.shared.output(&name).cloned();
                (name, output)
            })
            .collect();
        let sources: Vec<(String, Option<&Value>)> = sources
            .iter()
            .map(|(name, output)| (name.clone(), output.as_ref()))
            .collect();
        let unit_id = self.unit_base + unit;
        let decision = self.decisions[unit].take();
        let deadline = self.deadline_of(kernel, unit);
        let run = StepRun::begin(
            &mut self.shared,
            kernel,
            (index, unit_id, deadline),
            &sources,
            decision,
        );
        self.set_state(unit, UnitState::Running(Box::new(run)));
    }

    /// A pinned step finishes at once with its pin: no call, no checks of its own; its
    /// branches route on the pin and the invariants see it, as for any output.
    fn pinned(
        &mut self,
        kernel: &mut Kernel,
        unit: usize,
        index: usize,
        pin: Value,
        candidates: &mut BTreeSet<usize>,
    ) {
        let steps: Map<String, Value> = self
            .sources(unit, index)
            .into_iter()
            .map(|name| {
                let output = self.shared.output(&name).cloned().unwrap_or(Value::Null);
                (name, output)
            })
            .collect();
        let node = self.shared.node_id(&self.shared.spec.steps[index].name);
        let started = Event::NodeStarted {
            inputs: json!({"input": self.shared.input, "steps": steps}),
            injected: None,
        };
        kernel.event(Some(&node), started);
        self.finished(kernel, unit, index, pin, (0, 0), candidates);
    }

    /// A parallel step with nothing to say of its own joins its members' outputs.
    fn join_members(
        &mut self,
        kernel: &mut Kernel,
        unit: usize,
        index: usize,
        candidates: &mut BTreeSet<usize>,
    ) {
        let step = &self.shared.spec.steps[index];
        let node = self.shared.node_id(&step.name);
        let joined: Map<String, Value> = step
            .parallel_steps
            .iter()
            .filter_map(|m| Some((m.clone(), self.shared.output(m)?.clone())))
            .collect();
        let started = Event::NodeStarted {
            inputs: json!({ "parallel": joined }),
            injected: None,
        };
        kernel.event(Some(&node), started);
        self.finished(
            kernel,
            unit,
            index,
            Value::Object(joined),
            (0, 0),
            candidates,
        );
    }

    /// The steps whose outputs step `index` (unit `unit`) is given: what it needs, the members
    /// it joins, and the step whose branch chose it.
    fn sources(&self, unit: usize, index: usize) -> Vec<String> {
        let step = &self.shared.spec.steps[index];
        let mut names: Vec<String> = Vec::new();
        let members = step.is_parallel().then_some(&step.parallel_steps);
        let chooser = self.chooser[unit].map(|u| self.graph.name(u).to_owned());
        for name in step
            .needs
            .iter()
            .chain(members.into_iter().flatten())
            .chain(chooser.as_ref())
        {
            if !names.contains(name) && self.graph.step_unit(name).is_some() {
                names.push(name.clone());
            }
        }
        names
    }

    /// An observation for one of this program's units.
    pub fn observe(&mut self, kernel: &mut Kernel, waiter: Waiter, observation: Observation) {
        let Some(unit) = waiter.unit.checked_sub(self.unit_base) else {
            return;
        };
        if let Some(error) = self.join_timed_out(kernel) {
            self.fail(error);
            return;
        }
        if matches!(self.states.get(unit), Some(UnitState::Asking(_))) {
            let mut candidates = BTreeSet::new();
            self.tree_answered(kernel, unit, observation, &mut candidates);
            self.pump(kernel, candidates);
            return;
        }
        let Some(UnitState::Running(run)) = self.states.get_mut(unit) else {
            return;
        };
        let Some(settled) = run.observe(&mut self.shared, kernel, waiter.purpose, observation)
        else {
            return;
        };
        let (index, duration, calls) = (run.index, run.duration(kernel.now), run.calls());
        let mut candidates = BTreeSet::new();
        match settled {
            Settled::Finished(output) => {
                let timing = (duration, calls);
                self.finished(kernel, unit, index, output, timing, &mut candidates);
            }
            Settled::Skipped(reason) => self.skip(kernel, unit, &reason, &mut candidates),
            Settled::Failed(error) => {
                let node = self.shared.node_id(&self.shared.spec.steps[index].name);
                let finished = Event::node_failed(error.clone(), Some(duration));
                kernel.event(Some(&node), finished);
                if self.tolerates_failure(unit) {
                    self.settle(unit, UnitState::Failed(error), &mut candidates);
                } else {
                    self.fail(error);
                }
            }
        }
        self.pump(kernel, candidates);
    }

    /// Step `index` finished with `output` (`timing`: its duration and model calls): it is
    /// recorded, its branches route, then the invariants are checked.
    fn finished(
        &mut self,
        kernel: &mut Kernel,
        unit: usize,
        index: usize,
        output: Value,
        (duration, calls): (u64, u32),
        candidates: &mut BTreeSet<usize>,
    ) {
        let name = self.shared.spec.steps[index].name.clone();
        self.shared.record(&name, output.clone());
        self.last_finished = Some(name.clone());
        let route = self.route(kernel, unit, index, &output);
        let node = self.shared.node_id(&name);
        let finished = Event::NodeFinished(NodeFinished {
            status: NodeStatus::Succeeded,
            output: Some(output),
            error: None,
            duration_ms: Some(duration),
            calls: Some(calls),
            next: None,
            pinned: self.pins.contains_key(&node),
            route: route.as_ref().map(|(target, is_loop)| Route {
                to: target.clone(),
                is_loop: *is_loop,
                iteration: self.shared.iteration,
            }),
        });
        kernel.event(Some(&node), finished);
        self.settle(unit, UnitState::Done, candidates);
        if let Some((target, true)) = route {
            if let Some(target) = self.graph.step_unit(&target) {
                self.go_back(kernel, unit, target);
                candidates.insert(target);
            }
        }
        self.check_invariants(kernel, &name);
    }

    pub(super) fn skip(
        &mut self,
        kernel: &mut Kernel,
        unit: usize,
        reason: &str,
        candidates: &mut BTreeSet<usize>,
    ) {
        let name = self.graph.name(unit).to_owned();
        self.shared.forget(&name);
        let node = self.shared.node_id(&name);
        kernel.event(Some(&node), Event::skipped(reason));
        self.settle(unit, UnitState::Skipped(reason.to_owned()), candidates);
    }

    /// Unit `unit` settled in `state`: what runs after it has one wait less.
    pub(super) fn settle(
        &mut self,
        unit: usize,
        state: UnitState,
        candidates: &mut BTreeSet<usize>,
    ) {
        self.set_state(unit, state);
        for edge in self.graph.outgoing(unit) {
            let waits = if edge.kind.is_choice() {
                &mut self.choosers_left[edge.to]
            } else {
                &mut self.unsettled[edge.to]
            };
            *waits = waits.saturating_sub(1);
            candidates.insert(edge.to);
        }
    }
}
