//! Running a LOGIC.md document's steps (spec §4–§8): units of the flow start when what they
//! run after has settled (finished or skipped) and, for branch and decision-tree targets, when
//! something chose them (`schedule`); branches, decision trees and loops choose (`routing`); a
//! loop is bounded by `reasoning.max_iterations`; invariants can end the run early, and the
//! final steps' outputs are what the document gives back (`finish`). One step's run is `step`;
//! a multi-agent workflow runs a document per node (`workflow`).

mod budget;
mod context;
pub(crate) mod contracts;
mod finish;
mod graph;
mod join;
mod routing;
mod schedule;
mod shared;
mod step;
mod terminal;
mod tree;
mod workflow;

use std::collections::BTreeMap;

use serde_json::{json, Map, Value};

use crate::compile::compile;
use crate::flow::{EdgeKind, Flow, FlowEdge, UnitKind};
use crate::model::Spec;
use crate::run::action::Observation;
use crate::run::kernel::{Ending, Kernel, Waiter};
use crate::run::{Program, RunError, RunOptions};

use graph::Graph;
use shared::Shared;
use step::StepRun;

pub(crate) use workflow::WorkflowProgram;

enum UnitState {
    Pending,
    Running(Box<StepRun>),
    /// A decision tree waiting for the answer to its terminal's question.
    Asking(Box<terminal::Question>),
    Done,
    /// Skipped, for this reason.
    Skipped(String),
    /// Failed, and the run goes on: only joins that tolerate it run after it.
    Failed(String),
}

impl UnitState {
    fn settled(&self) -> bool {
        matches!(
            self,
            UnitState::Done | UnitState::Skipped(_) | UnitState::Failed(_)
        )
    }

    /// It has actions outstanding (a step's calls, a tree's question).
    fn is_active(&self) -> bool {
        matches!(self, UnitState::Running(_) | UnitState::Asking(_))
    }
}

/// How a document's run ended (a workflow node's, or the whole run's).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Outcome {
    Completed(Value),
    Failed(String),
}

/// The steps and decision trees of one document, running.
pub(crate) struct StepsProgram {
    pub shared: Shared,
    graph: Graph,
    states: Vec<UnitState>,
    /// How many units have settled (finished or skipped).
    settled: usize,
    /// Ordering edges into each unit whose source has not settled (choices not counted).
    unsettled: Vec<usize>,
    /// Choice edges (branches, tree routes) into each unit whose source has not settled.
    choosers_left: Vec<usize>,
    has_choosers: Vec<bool>,
    chosen: Vec<bool>,
    /// The step whose branch chose each unit (a loop's source included): its output is an input.
    chooser: Vec<Option<usize>>,
    /// What each unit chose in its latest run (branch targets, tree routes).
    choices: Vec<Vec<usize>>,
    /// The answer to a tree's question that chose each unit, for its task.
    decisions: Vec<Option<Value>>,
    /// The step that finished last: what a forced output falls back to.
    last_finished: Option<String>,
    /// Waiter unit numbers of this program start here (a workflow runs several documents).
    pub unit_base: usize,
    runs: u64,
    max_runs: u64,
    /// Outputs given in advance, by trace node id (`RunOptions::pins`).
    pins: BTreeMap<String, Value>,
    /// The clock by which the whole run must be over (`global.max_total_time`).
    pub run_deadline: Option<u64>,
    /// The clock by which each parallel step's join must be met (`join_timeout`), once its
    /// first member started.
    join_deadlines: BTreeMap<usize, u64>,
    pub outcome: Option<Outcome>,
}

impl StepsProgram {
    /// `prefix`: how trace node ids start (`None` for a document run on its own); `read`:
    /// `spec` already read into its typed model, when the caller has it.
    pub fn new(
        spec: &Value,
        input: &Value,
        options: &RunOptions,
        prefix: Option<&str>,
        read: Option<Spec>,
    ) -> Result<StepsProgram, RunError> {
        let with_main;
        let (spec, typed) = match whole_document_step(spec) {
            Some(with_step) => {
                with_main = with_step;
                (&with_main, Spec::read(&with_main))
            }
            None => (spec, read.unwrap_or_else(|| Spec::read(spec))),
        };
        let flow = Flow::of_steps(&typed).map_err(|cycles| {
            RunError::new(format!(
                "the steps need each other in a cycle: {}",
                cycles
                    .iter()
                    .map(|c| c.display())
                    .collect::<Vec<_>>()
                    .join("; ")
            ))
        })?;
        let compiled = compile(spec).map_err(|errors| {
            RunError::new(
                errors
                    .first()
                    .map_or_else(|| "cannot compile".to_owned(), |e| e.message.clone()),
            )
        })?;
        let graph = Graph::new(flow, &typed);
        let count = graph.len();
        let max_iterations = typed
            .reasoning
            .max_iterations
            .filter(|&n| n >= 1)
            .unwrap_or(options.default_max_iterations);
        let prefix = prefix.map(|p| format!("{p}/")).unwrap_or_default();
        let mut program = StepsProgram {
            shared: Shared::new(
                typed,
                spec.clone(),
                compiled.steps,
                compiled.final_steps,
                input.clone(),
                &prefix,
                max_iterations,
            ),
            graph,
            states: (0..count).map(|_| UnitState::Pending).collect(),
            settled: 0,
            unsettled: vec![0; count],
            choosers_left: vec![0; count],
            has_choosers: vec![false; count],
            chosen: vec![false; count],
            chooser: vec![None; count],
            choices: vec![Vec::new(); count],
            decisions: vec![None; count],
            last_finished: None,
            unit_base: 0,
            runs: 0,
            max_runs: options.max_node_runs,
            pins: options.pins.clone(),
            run_deadline: None,
            join_deadlines: BTreeMap::new(),
            outcome: None,
        };
        for edge in program.graph.edges() {
            if edge.kind.is_choice() {
                program.choosers_left[edge.to] += 1;
                program.has_choosers[edge.to] = true;
            } else {
                program.unsettled[edge.to] += 1;
            }
        }
        Ok(program)
    }

    pub fn units(&self) -> usize {
        self.graph.len()
    }

    /// The plan entries of this document's units (ids with `prefix`, see [`Program::plan`]),
    /// each step's with its retry bound and, for a parallel step that does not wait for all its
    /// members, its join.
    pub fn plan_nodes(&self) -> Vec<Value> {
        let flow = self.graph.flow();
        let mut nodes = plan_of(flow, &self.shared.prefix);
        for (unit, entry) in nodes.iter_mut().enumerate() {
            let step = self.graph.step_of(unit).map(|i| &self.shared.spec.steps[i]);
            if let (Some(step), Value::Object(entry)) = (step, entry) {
                entry.extend(step_plan(&self.graph, unit, step, &self.shared.prefix));
            }
        }
        nodes
    }

    /// Unit `unit` is now in `state`, counted among the settled ones when it is.
    fn set_state(&mut self, unit: usize, state: UnitState) {
        let was = self.states[unit].settled();
        let is = state.settled();
        self.states[unit] = state;
        match (was, is) {
            (false, true) => self.settled += 1,
            (true, false) => self.settled -= 1,
            _ => {}
        }
    }

    fn fail(&mut self, error: String) {
        if self.outcome.is_none() {
            self.outcome = Some(Outcome::Failed(error));
        }
    }
}

/// The name of the one step a document without steps runs as.
pub(crate) const WHOLE_DOCUMENT_STEP: &str = "main";

/// A document that declares no steps still reasons: it runs as one step, `main`, whose scaffold
/// is the document's (strategy, gates, the output contract).
fn whole_document_step(spec: &Value) -> Option<Value> {
    let declares_steps = spec
        .get("steps")
        .and_then(Value::as_object)
        .is_some_and(|steps| !steps.is_empty());
    if declares_steps {
        return None;
    }
    let mut spec = spec.clone();
    let description = spec
        .get("description")
        .and_then(Value::as_str)
        .unwrap_or("Carry out the task the input describes.")
        .to_owned();
    spec.as_object_mut()?.insert(
        "steps".into(),
        json!({ WHOLE_DOCUMENT_STEP: { "description": description } }),
    );
    Some(spec)
}

/// What a step's plan entry adds: `max_attempts` (model calls for one output, so a trace
/// check can bound its `retried` events) and, for a parallel step joining `any` or `majority`,
/// `join` with `join_of` (the members it may start before all of them settle, §4.3).
fn step_plan(
    graph: &Graph,
    unit: usize,
    step: &crate::model::Step,
    prefix: &str,
) -> Map<String, Value> {
    let mut fields = Map::new();
    let policy = crate::run::RetryPolicy::of(step.retry.as_ref());
    fields.insert("max_attempts".into(), policy.max_attempts.into());
    let join = step.join.as_deref().unwrap_or("all");
    if step.is_parallel() && join != "all" {
        // As `needs_met` reads it: `any`, and every other join is a majority.
        let mode = if join == "any" { "any" } else { "majority" };
        let members: Vec<String> = graph
            .incoming(unit)
            .filter(|e| e.kind == EdgeKind::Parallel)
            .map(|e| format!("{prefix}{}", graph.name(e.from)))
            .collect();
        fields.insert("join".into(), mode.into());
        fields.insert("join_of".into(), json!(members));
    }
    fields
}

/// The plan entries of a flow's units: trace ids (`prefix` + name; trees as `tree:NAME`), what
/// each runs after, and what may choose it; a workflow node's carries `max_attempts`, its runs
/// at most (`retry_source` runs it again when its output breaks an edge contract).
pub(crate) fn plan_of(flow: &Flow, prefix: &str) -> Vec<Value> {
    let id = |unit: usize| {
        let unit = &flow.units[unit];
        match unit.kind {
            UnitKind::Tree => format!("{prefix}tree:{}", unit.name),
            _ => format!("{prefix}{}", unit.name),
        }
    };
    // Each unit's incoming edges, in the flow's order, gathered in one pass: `Flow::incoming`
    // scans every edge, once per unit a plan quadratic in the steps.
    let mut incoming: Vec<Vec<&FlowEdge>> = vec![Vec::new(); flow.units.len()];
    for edge in &flow.edges {
        incoming[edge.to].push(edge);
    }
    (0..flow.units.len())
        .map(|unit| {
            let (choices, orders): (Vec<&FlowEdge>, Vec<&FlowEdge>) = incoming[unit]
                .iter()
                .copied()
                .partition(|e| e.kind.is_choice());
            let mut entry = json!({
                "id": id(unit),
                "kind": flow.units[unit].kind,
                "after": orders.iter().map(|e| id(e.from)).collect::<Vec<_>>(),
                "chosen_by": choices.iter().map(|e| id(e.from)).collect::<Vec<_>>(),
            });
            if flow.units[unit].kind == UnitKind::Node {
                entry["max_attempts"] = (workflow::CONTRACT_RETRIES + 1).into();
            }
            entry
        })
        .collect()
}

/// A document's steps run on their own: the run ends when they do, or when its budgets
/// (`global`) are spent.
pub(crate) struct Standalone {
    steps: StepsProgram,
    budget: budget::Budget,
}

impl Standalone {
    /// `typed`: `spec` read ([`Spec::read`]).
    pub fn new(
        spec: &Value,
        typed: Spec,
        input: &Value,
        options: &RunOptions,
    ) -> Result<Standalone, RunError> {
        let steps = StepsProgram::new(spec, input, options, None, Some(typed))?;
        let budget = budget::Budget::of(&steps.shared.spec.global);
        Ok(Standalone { steps, budget })
    }

    fn conclude(&mut self, kernel: &mut Kernel) {
        match self.steps.outcome.take() {
            Some(Outcome::Completed(output)) => kernel.end(Ending::Completed(output)),
            Some(Outcome::Failed(error)) => kernel.end(Ending::Failed(error)),
            None => {}
        }
    }
}

impl Program for Standalone {
    fn plan(&self) -> Value {
        json!({ "nodes": self.steps.plan_nodes() })
    }

    fn start(&mut self, kernel: &mut Kernel) {
        self.steps.run_deadline = self.budget.deadline(kernel);
        self.steps.begin(kernel);
        self.conclude(kernel);
    }

    fn observe(&mut self, kernel: &mut Kernel, waiter: Waiter, observation: Observation) {
        if let Some(error) = self.budget.spend(kernel, &observation) {
            kernel.end(Ending::Failed(error));
            return;
        }
        self.steps.observe(kernel, waiter, observation);
        self.conclude(kernel);
    }
}
