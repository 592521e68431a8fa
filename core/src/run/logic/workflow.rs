//! Running a multi-agent workflow (spec §9): its nodes in edge order, each node's own document
//! run as a nested [`StepsProgram`] on what its sources handed over, every edge's contract checked
//! on the real data with `on_contract_violation` (retry_source | skip | abort), `global.fail_fast`.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{json, Map, Value};

use super::budget::Budget;
use super::{Outcome, StepsProgram};
use crate::flow::{Flow, UnitKind};
use crate::model::Spec;
use crate::run::action::Observation;
use crate::run::kernel::{Ending, Kernel, Waiter};
use crate::run::{Program, RunError, RunOptions};
use crate::trace::{Event, Gate, NodeFinished, NodeStatus, Speaker};

/// How often a node is run again because its output broke an edge contract (`retry_source`).
pub(super) const CONTRACT_RETRIES: u32 = 2;

enum NodeState {
    Pending,
    Running(Box<StepsProgram>),
    Done(Value),
    /// Skipped, for this reason.
    Skipped(String),
    Failed(String),
}

impl NodeState {
    fn settled(&self) -> bool {
        !matches!(self, NodeState::Pending | NodeState::Running(_))
    }
}

pub(crate) struct WorkflowProgram {
    spec: Spec,
    flow: Flow,
    documents: BTreeMap<String, Value>,
    input: Value,
    options: RunOptions,
    states: Vec<NodeState>,
    contract_retries: Vec<u32>,
    /// Waiter units are numbered per node run, from here on.
    next_base: usize,
    fail_fast: bool,
    budget: Budget,
}

impl WorkflowProgram {
    pub fn new(
        spec: &Value,
        documents: &BTreeMap<String, Value>,
        input: &Value,
        options: &RunOptions,
    ) -> Result<WorkflowProgram, RunError> {
        let typed = Spec::read(spec);
        let flow = Flow::of_workflow(&typed).map_err(|cycles| {
            RunError::new(format!(
                "the workflow's nodes depend on each other in a cycle: {}",
                cycles
                    .iter()
                    .map(|c| c.display())
                    .collect::<Vec<_>>()
                    .join("; ")
            ))
        })?;
        if let Some(missing) = typed
            .nodes
            .iter()
            .find(|n| !documents.contains_key(&n.name))
        {
            return Err(RunError::new(format!(
                "node `{}` has no document to run (prepare the workflow with its loader)",
                missing.name
            )));
        }
        Ok(WorkflowProgram {
            states: (0..flow.units.len()).map(|_| NodeState::Pending).collect(),
            contract_retries: vec![0; flow.units.len()],
            fail_fast: typed.global.fail_fast.unwrap_or(true),
            budget: Budget::of(&typed.global),
            spec: typed,
            flow,
            documents: documents.clone(),
            input: input.clone(),
            options: options.clone(),
            next_base: 0,
        })
    }

    fn name(&self, unit: usize) -> &str {
        &self.flow.units[unit].name
    }

    /// What a node receives: the workflow input at an entry, else its source's output (one
    /// source) or the outputs by source name (several).
    fn node_input(&self, unit: usize) -> Value {
        let sources: Vec<(String, Value)> = self
            .flow
            .incoming(unit)
            .filter_map(|e| match &self.states[e.from] {
                NodeState::Done(output) => Some((self.name(e.from).to_owned(), output.clone())),
                _ => None,
            })
            .collect();
        match sources.len() {
            0 if self.flow.incoming(unit).next().is_none() => self.input.clone(),
            1 => sources
                .into_iter()
                .next()
                .map(|(_, v)| v)
                .unwrap_or_default(),
            _ => Value::Object(sources.into_iter().collect::<Map<_, _>>()),
        }
    }

    fn pump(&mut self, kernel: &mut Kernel) {
        loop {
            let ready: Vec<usize> = (0..self.states.len())
                .filter(|&u| matches!(self.states[u], NodeState::Pending))
                .filter(|&u| self.flow.incoming(u).all(|e| self.states[e.from].settled()))
                .collect();
            if ready.is_empty() || kernel.ending.is_some() {
                break;
            }
            for unit in ready {
                let blocked = self
                    .flow
                    .incoming(unit)
                    .any(|e| !matches!(self.states[e.from], NodeState::Done(_)));
                if blocked {
                    let node = self.name(unit).to_owned();
                    let reason = "a node it depends on did not finish";
                    kernel.event(Some(&node), Event::skipped(reason));
                    self.states[unit] = NodeState::Skipped(reason.to_owned());
                    continue;
                }
                self.start(kernel, unit);
            }
        }
        self.finish_if_done(kernel);
    }

    fn start(&mut self, kernel: &mut Kernel, unit: usize) {
        let name = self.name(unit).to_owned();
        let input = self.node_input(unit);
        let document = self.documents.get(&name).cloned().unwrap_or_default();
        let started = Event::NodeStarted {
            inputs: json!({ "input": input }),
            injected: None,
        };
        kernel.event(Some(&name), started);
        if let Some(pin) = self.options.pins.get(&name).cloned() {
            self.node_done(kernel, unit, pin);
            return;
        }
        match StepsProgram::new(&document, &input, &self.options, Some(&name), None) {
            Ok(mut program) => {
                program.unit_base = self.next_base;
                program.run_deadline = self.budget.deadline(kernel);
                self.next_base += program.units().max(1);
                program.begin(kernel);
                self.states[unit] = NodeState::Running(Box::new(program));
                self.after_progress(kernel, unit);
            }
            Err(error) => self.node_failed(kernel, unit, error.message),
        }
    }

    fn after_progress(&mut self, kernel: &mut Kernel, unit: usize) {
        let NodeState::Running(program) = &mut self.states[unit] else {
            return;
        };
        match program.outcome.take() {
            Some(Outcome::Completed(output)) => self.node_done(kernel, unit, output),
            Some(Outcome::Failed(error)) => self.node_failed(kernel, unit, error),
            None => {}
        }
    }

    fn node_done(&mut self, kernel: &mut Kernel, unit: usize, output: Value) {
        let name = self.name(unit).to_owned();
        // A pin's edges' contracts are still checked below: a pin cannot break one unseen.
        let finished = Event::NodeFinished(NodeFinished {
            status: NodeStatus::Succeeded,
            output: Some(output.clone()),
            error: None,
            duration_ms: None,
            calls: None,
            next: None,
            pinned: self.options.pins.contains_key(&name),
            route: None,
        });
        kernel.event(Some(&name), finished);
        for edge in self.spec.edges.clone().iter().filter(|e| e.from == name) {
            let Some(contract) = &edge.contract else {
                continue;
            };
            let problems = crate::run::output::problems(contract, &output);
            let gate = Gate {
                edge: Some(format!("{} -> {}", edge.from, edge.to)),
                errors: Some(problems.clone()),
                ..Gate::named("contract", problems.is_empty())
            };
            kernel.event(Some(&name), Event::GateEvaluated(gate));
            if problems.is_empty() {
                continue;
            }
            match edge.on_contract_violation.as_deref() {
                Some("retry_source") if self.contract_retries[unit] < CONTRACT_RETRIES => {
                    self.contract_retries[unit] += 1;
                    let retried = Event::Retried {
                        attempt: self.contract_retries[unit] + 1,
                        wait_ms: 0,
                        reason: format!(
                            "the output breaks the contract of the edge to `{}`",
                            edge.to
                        ),
                        feedback: None,
                        speaker: Speaker::default(),
                    };
                    kernel.event(Some(&name), retried);
                    self.start(kernel, unit);
                    return;
                }
                Some("skip") => {
                    if let Some(target) = self.flow.index(&edge.to, UnitKind::Node) {
                        let reason = format!("`{name}` broke the edge contract");
                        kernel.event(Some(&edge.to), Event::skipped(reason.clone()));
                        self.states[target] = NodeState::Skipped(reason);
                    }
                }
                _ => {
                    self.states[unit] = NodeState::Done(output);
                    kernel.end(Ending::Failed(format!(
                        "`{name}` broke the contract of its edge to `{}`: {}",
                        edge.to,
                        problems.join("; ")
                    )));
                    return;
                }
            }
        }
        self.states[unit] = NodeState::Done(output);
    }

    fn node_failed(&mut self, kernel: &mut Kernel, unit: usize, error: String) {
        self.cancel_node(kernel, unit);
        let name = self.name(unit).to_owned();
        let finished = Event::node_failed(error.clone(), None);
        kernel.event(Some(&name), finished);
        self.states[unit] = NodeState::Failed(error.clone());
        if self.fail_fast {
            kernel.end(Ending::Failed(format!("node `{name}` failed: {error}")));
        }
    }

    /// Drops what node `unit`'s steps still wait for (a failed node's other calls).
    fn cancel_node(&mut self, kernel: &mut Kernel, unit: usize) {
        if let NodeState::Running(program) = &self.states[unit] {
            for waiter in program.unit_base..program.unit_base + program.units().max(1) {
                kernel.cancel_unit(waiter);
            }
        }
    }

    fn finish_if_done(&mut self, kernel: &mut Kernel) {
        if kernel.ending.is_some() || !self.states.iter().all(NodeState::settled) {
            return;
        }
        let failures: Vec<String> = self
            .states
            .iter()
            .enumerate()
            .filter_map(|(u, s)| match s {
                NodeState::Failed(error) => Some(format!("`{}`: {error}", self.name(u))),
                _ => None,
            })
            .collect();
        if !failures.is_empty() {
            kernel.end(Ending::Failed(format!(
                "nodes failed: {}",
                failures.join("; ")
            )));
            return;
        }
        let finals: BTreeSet<usize> = self.flow.finals(UnitKind::Node).into_iter().collect();
        let outputs: Vec<(String, Value)> = finals
            .iter()
            .filter_map(|&u| match &self.states[u] {
                NodeState::Done(output) => Some((self.name(u).to_owned(), output.clone())),
                _ => None,
            })
            .collect();
        let output = match outputs.len() {
            0 => {
                let why: Vec<String> = finals
                    .iter()
                    .map(|&u| match &self.states[u] {
                        NodeState::Skipped(reason) => {
                            format!("`{}` was skipped ({reason})", self.name(u))
                        }
                        _ => format!("`{}` gave no output", self.name(u)),
                    })
                    .collect();
                let error = format!("the workflow produced no output: {}", why.join("; "));
                kernel.end(Ending::Failed(error));
                return;
            }
            1 => outputs
                .into_iter()
                .next()
                .map(|(_, v)| v)
                .unwrap_or_default(),
            _ => Value::Object(outputs.into_iter().collect()),
        };
        kernel.end(Ending::Completed(output));
    }
}

impl Program for WorkflowProgram {
    /// The nodes, then each node's own steps (ids `node/step`), which run after the node's
    /// sources as the node does.
    fn plan(&self) -> Value {
        let mut nodes = super::plan_of(&self.flow, "");
        for unit in &self.flow.units {
            let document = self.documents.get(&unit.name).cloned().unwrap_or_default();
            if let Ok(program) = StepsProgram::new(
                &document,
                &Value::Null,
                &self.options,
                Some(&unit.name),
                None,
            ) {
                nodes.extend(program.plan_nodes());
            }
        }
        json!({ "nodes": nodes })
    }

    fn start(&mut self, kernel: &mut Kernel) {
        self.pump(kernel);
    }

    fn observe(&mut self, kernel: &mut Kernel, waiter: Waiter, observation: Observation) {
        if let Some(error) = self.budget.spend(kernel, &observation) {
            kernel.end(Ending::Failed(error));
            return;
        }
        let unit = self.states.iter().position(|state| match state {
            NodeState::Running(program) => (program.unit_base
                ..program.unit_base + program.units().max(1))
                .contains(&waiter.unit),
            _ => false,
        });
        let Some(unit) = unit else {
            return;
        };
        if let NodeState::Running(program) = &mut self.states[unit] {
            program.observe(kernel, waiter, observation);
        }
        self.after_progress(kernel, unit);
        self.pump(kernel);
    }
}
