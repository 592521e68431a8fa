//! Running a LOGIC.md document's steps (spec §4–§8): units of the [`Flow`] start when what they
//! run after has settled (finished or skipped) and, for branch and decision-tree targets, when
//! something chose them; a branch back is a loop, bounded by `reasoning.max_iterations`.

mod context;
mod fallback;
mod selfcheck;
mod step;
mod tree;
mod workflow;

use std::collections::{BTreeSet, HashMap};

use serde_json::{json, Map, Value};

use crate::compile::{compile, CompiledStep};
use crate::flow::{EdgeKind, Flow, UnitKind};
use crate::model::Spec;
use crate::run::action::Observation;
use crate::run::kernel::{Ending, Kernel, Waiter};
use crate::run::{Program, RunError, RunOptions};

use context::{confidence_of, holds, steps_view};
use step::{Settled, StepRun};

pub(crate) use workflow::WorkflowProgram;

/// What the units of one document share while it runs.
pub(crate) struct Shared {
    pub spec: Spec,
    json: Value,
    pub compiled: HashMap<String, CompiledStep>,
    pub finals: Vec<String>,
    pub input: Value,
    /// The latest output of every step that produced one.
    pub outputs: Map<String, Value>,
    /// Trace node ids are `prefix` + step name (`researcher/search` inside a workflow node).
    prefix: String,
    pub tokens_used: u64,
    pub iteration: u64,
    pub max_iterations: u64,
    pub tools_disabled: BTreeSet<usize>,
}

impl Shared {
    pub fn node_id(&self, name: &str) -> String {
        format!("{}{name}", self.prefix)
    }

    /// What `{{ }}` checks of a step read (spec §4.2, and the runtime variables lint knows).
    pub fn context(&self, output: Option<&Value>, attempts: u32) -> Value {
        json!({
            "input": self.input,
            "output": output,
            "steps": steps_view(&self.outputs),
            "attempts": attempts,
            "confidence": output.and_then(confidence_of),
            "iteration": self.iteration,
            "reasoning": self.reasoning(),
            "contracts": self.json.get("contracts"),
            "metadata": self.json.get("metadata"),
        })
    }

    fn reasoning(&self) -> Value {
        let reasoning = &self.spec.reasoning;
        json!({
            "strategy": reasoning.strategy,
            "current_iteration": self.iteration,
            "max_iterations": self.max_iterations,
            "tokens_used": self.tokens_used,
            // No declared budget is no limit.
            "thinking_budget": reasoning.thinking_budget.unwrap_or(u64::MAX >> 11),
        })
    }

    /// Step `index`'s scaffold as if the document's strategy were `strategy`.
    pub fn scaffold_with_strategy(&self, index: usize, strategy: &str) -> String {
        let mut json = self.json.clone();
        json["reasoning"]["strategy"] = strategy.into();
        let name = &self.spec.steps[index].name;
        compile(&json)
            .ok()
            .and_then(|c| c.steps.into_iter().find(|s| &s.name == name))
            .map(|s| s.scaffold)
            .unwrap_or_default()
    }
}

enum UnitState {
    Pending,
    Running(Box<StepRun>),
    Done,
    Skipped,
}

impl UnitState {
    fn settled(&self) -> bool {
        matches!(self, UnitState::Done | UnitState::Skipped)
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
    flow: Flow,
    states: Vec<UnitState>,
    /// Ordering edges into each unit whose source has not settled (choices not counted).
    unsettled: Vec<usize>,
    /// Choice edges (branches, tree routes) into each unit whose source has not settled.
    choosers_left: Vec<usize>,
    has_choosers: Vec<bool>,
    chosen: Vec<bool>,
    step_of: Vec<Option<usize>>,
    tree_of: Vec<Option<usize>>,
    /// Waiter unit numbers of this program start here (a workflow runs several documents).
    pub unit_base: usize,
    runs: u64,
    max_runs: u64,
    pub outcome: Option<Outcome>,
}

impl StepsProgram {
    /// `prefix`: how trace node ids start (`None` for a document run on its own).
    pub fn new(
        spec: &Value,
        input: &Value,
        options: &RunOptions,
        prefix: Option<&str>,
    ) -> Result<StepsProgram, RunError> {
        let with_main;
        let spec = match whole_document_step(spec) {
            Some(with_step) => {
                with_main = with_step;
                &with_main
            }
            None => spec,
        };
        let typed = Spec::read(spec);
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
        let count = flow.units.len();
        let mut program = StepsProgram {
            shared: Shared {
                finals: compiled.final_steps.clone(),
                compiled: compiled
                    .steps
                    .into_iter()
                    .map(|s| (s.name.clone(), s))
                    .collect(),
                max_iterations: typed
                    .reasoning
                    .max_iterations
                    .filter(|&n| n >= 1)
                    .unwrap_or(options.default_max_iterations),
                spec: typed,
                json: spec.clone(),
                input: input.clone(),
                outputs: Map::new(),
                prefix: prefix.map(|p| format!("{p}/")).unwrap_or_default(),
                tokens_used: 0,
                iteration: 0,
                tools_disabled: BTreeSet::new(),
            },
            states: (0..count).map(|_| UnitState::Pending).collect(),
            unsettled: vec![0; count],
            choosers_left: vec![0; count],
            has_choosers: vec![false; count],
            chosen: vec![false; count],
            step_of: Vec::with_capacity(count),
            tree_of: Vec::with_capacity(count),
            unit_base: 0,
            runs: 0,
            max_runs: options.max_node_runs,
            outcome: None,
            flow,
        };
        for unit in &program.flow.units {
            let (step, tree) = match unit.kind {
                UnitKind::Step => (
                    program
                        .shared
                        .spec
                        .steps
                        .iter()
                        .position(|s| s.name == unit.name),
                    None,
                ),
                UnitKind::Tree => (
                    None,
                    program
                        .shared
                        .spec
                        .decision_trees
                        .iter()
                        .position(|t| t.name == unit.name),
                ),
                UnitKind::Node => (None, None),
            };
            program.step_of.push(step);
            program.tree_of.push(tree);
        }
        for edge in &program.flow.edges {
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
        self.flow.units.len()
    }

    /// The plan entries of this document's units (ids with `prefix`, see [`Program::plan`]),
    /// each step's with its retry bound and, for a parallel step that does not wait for all its
    /// members, its join.
    pub fn plan_nodes(&self) -> Vec<Value> {
        let mut nodes = plan_of(&self.flow, &self.shared.prefix);
        for (unit, entry) in nodes.iter_mut().enumerate() {
            let step = self.step_of[unit].map(|i| &self.shared.spec.steps[i]);
            if let (Some(step), Value::Object(entry)) = (step, entry) {
                entry.extend(step_plan(&self.flow, unit, step, &self.shared.prefix));
            }
        }
        nodes
    }

    pub fn begin(&mut self, kernel: &mut Kernel) {
        let all: BTreeSet<usize> = (0..self.states.len()).collect();
        self.pump(kernel, all);
    }

    /// Starts every unit in `candidates` (and what they unblock) that can start now.
    fn pump(&mut self, kernel: &mut Kernel, mut candidates: BTreeSet<usize>) {
        while let Some(unit) = candidates.pop_first() {
            if self.outcome.is_some() {
                return;
            }
            if !matches!(self.states[unit], UnitState::Pending) || !self.needs_met(unit) {
                continue;
            }
            if self.has_choosers[unit] && !self.chosen[unit] {
                if self.choosers_left[unit] == 0 {
                    self.skip(
                        kernel,
                        unit,
                        "no branch or decision tree chose it",
                        &mut candidates,
                    );
                }
                continue;
            }
            self.start(kernel, unit, &mut candidates);
        }
        self.finish_if_done(kernel);
    }

    /// Whatever the unit runs after has settled; a parallel step's join is met (§4.3).
    fn needs_met(&self, unit: usize) -> bool {
        if self.unsettled[unit] == 0 {
            return true;
        }
        let Some(step) = self.step_of[unit].map(|i| &self.shared.spec.steps[i]) else {
            return false;
        };
        let join = step.join.as_deref().unwrap_or("all");
        if join == "all" || !step.is_parallel() {
            return false;
        }
        let (mut members, mut done, mut other_unsettled) = (0usize, 0usize, false);
        for edge in self.flow.incoming(unit).filter(|e| !e.kind.is_choice()) {
            let settled = self.states[edge.from].settled();
            if edge.kind == EdgeKind::Parallel {
                members += 1;
                done += usize::from(matches!(self.states[edge.from], UnitState::Done));
            } else if !settled {
                other_unsettled = true;
            }
        }
        !other_unsettled
            && match join {
                "any" => done >= 1,
                _ => done * 2 > members,
            }
    }

    fn start(&mut self, kernel: &mut Kernel, unit: usize, candidates: &mut BTreeSet<usize>) {
        self.runs += 1;
        if self.runs > self.max_runs {
            self.fail(
                kernel,
                format!("more than {} step runs: a loop does not end", self.max_runs),
            );
            return;
        }
        if let Some(tree) = self.tree_of[unit] {
            self.run_tree(kernel, unit, tree, candidates);
            return;
        }
        let Some(index) = self.step_of[unit] else {
            self.settle(kernel, unit, UnitState::Skipped, candidates);
            return;
        };
        let step = &self.shared.spec.steps[index];
        if step.is_parallel() && step.instructions.is_none() {
            // A parallel step with nothing to say of its own joins its members' outputs.
            let node = self.shared.node_id(&step.name);
            let joined: Map<String, Value> = step
                .parallel_steps
                .iter()
                .filter_map(|m| Some((m.clone(), self.shared.outputs.get(m)?.clone())))
                .collect();
            kernel.event(
                "node_started",
                Some(&node),
                vec![("inputs", json!({ "parallel": joined }))],
            );
            self.finished(kernel, unit, index, Value::Object(joined), 0, 0, candidates);
            return;
        }
        let run = StepRun::begin(&mut self.shared, kernel, index, self.unit_base + unit);
        self.states[unit] = UnitState::Running(Box::new(run));
    }

    fn run_tree(
        &mut self,
        kernel: &mut Kernel,
        unit: usize,
        tree: usize,
        candidates: &mut BTreeSet<usize>,
    ) {
        let definition = self.shared.spec.decision_trees[tree].clone();
        let node = self.shared.node_id(&format!("tree:{}", definition.name));
        let context = self.shared.context(None, 0);
        match tree::evaluate(&definition, &context) {
            Ok(walk) => {
                kernel.event(
                    "gate_evaluated",
                    Some(&node),
                    vec![
                        ("gate", "decision_tree".into()),
                        ("path", json!(walk.path)),
                        ("reached", walk.reached.clone().into()),
                        ("action", walk.action.clone().into()),
                        ("passed", true.into()),
                    ],
                );
                if walk.action == "abort" {
                    self.fail(
                        kernel,
                        format!(
                            "decision tree `{}` reached `{}`, which aborts",
                            definition.name, walk.reached
                        ),
                    );
                    return;
                }
                if let Some(target) = self.flow.index(&walk.action, UnitKind::Step) {
                    self.chosen[target] = true;
                }
            }
            Err(error) => {
                kernel.event(
                    "gate_evaluated",
                    Some(&node),
                    vec![
                        ("gate", "decision_tree".into()),
                        ("passed", false.into()),
                        ("error", error.clone().into()),
                    ],
                );
                self.fail(
                    kernel,
                    format!("decision tree `{}`: {error}", definition.name),
                );
                return;
            }
        }
        self.settle(kernel, unit, UnitState::Done, candidates);
    }

    /// An observation for one of this program's units.
    pub fn observe(&mut self, kernel: &mut Kernel, waiter: Waiter, observation: Observation) {
        let unit = waiter.unit - self.unit_base;
        let UnitState::Running(run) = &mut self.states[unit] else {
            return;
        };
        let Some(settled) = run.observe(&mut self.shared, kernel, waiter.purpose, observation)
        else {
            return;
        };
        let (index, duration, calls) = (run.index, run.duration(kernel.now), run.calls());
        let mut candidates = BTreeSet::new();
        match settled {
            Settled::Finished(output) => self.finished(
                kernel,
                unit,
                index,
                output,
                duration,
                calls,
                &mut candidates,
            ),
            Settled::Skipped(reason) => self.skip(kernel, unit, &reason, &mut candidates),
            Settled::Failed(error) => {
                let node = self.shared.node_id(&self.shared.spec.steps[index].name);
                kernel.event(
                    "node_finished",
                    Some(&node),
                    vec![
                        ("status", "failed".into()),
                        ("error", error.clone().into()),
                        ("duration_ms", duration.into()),
                    ],
                );
                self.fail(kernel, error);
            }
        }
        self.pump(kernel, candidates);
    }

    #[allow(clippy::too_many_arguments)]
    fn finished(
        &mut self,
        kernel: &mut Kernel,
        unit: usize,
        index: usize,
        output: Value,
        duration: u64,
        calls: u32,
        candidates: &mut BTreeSet<usize>,
    ) {
        let name = self.shared.spec.steps[index].name.clone();
        self.shared.outputs.insert(name.clone(), output.clone());
        let route = self.route(kernel, unit, index, &output);
        let node = self.shared.node_id(&name);
        let mut fields = vec![
            ("status", "succeeded".into()),
            ("output", output),
            ("duration_ms", duration.into()),
            ("calls", calls.into()),
        ];
        if let Some((target, is_loop)) = &route {
            fields.push((
                "route",
                json!({"to": target, "loop": is_loop, "iteration": self.shared.iteration}),
            ));
        }
        kernel.event("node_finished", Some(&node), fields);
        self.settle(kernel, unit, UnitState::Done, candidates);
        if let Some((target, true)) = route {
            if let Some(target) = self.flow.index(&target, UnitKind::Step) {
                self.reset_from(kernel, target);
                self.chosen[target] = true;
                candidates.insert(target);
            }
        }
        if self.invariants_force_output(kernel, &name) {
            self.force_output(kernel);
        }
    }

    /// The first branch that matches (§4.1): a forward target is chosen; a target that goes back
    /// is a loop, taken while iterations remain, else passed over for the next branch.
    fn route(
        &mut self,
        kernel: &mut Kernel,
        unit: usize,
        index: usize,
        output: &Value,
    ) -> Option<(String, bool)> {
        let step = &self.shared.spec.steps[index];
        let context = self.shared.context(Some(output), 0);
        for branch in &step.branches {
            let matches = match &branch.condition {
                Some(condition) => holds(condition, &context).unwrap_or(false),
                None => branch.default,
            };
            let Some(target) = branch.then.as_deref().filter(|_| matches) else {
                continue;
            };
            let Some(to) = self.flow.index(target, UnitKind::Step) else {
                continue;
            };
            let is_loop = self.flow.loops.iter().any(|e| e.from == unit && e.to == to);
            if !is_loop {
                self.chosen[to] = true;
                return Some((target.to_owned(), false));
            }
            if self.shared.iteration < self.shared.max_iterations {
                self.shared.iteration += 1;
                return Some((target.to_owned(), true));
            }
            let node = self.shared.node_id(&step.name);
            kernel.event(
                "gate_evaluated",
                Some(&node),
                vec![
                    ("gate", "max_iterations".into()),
                    ("passed", false.into()),
                    (
                        "detail",
                        json!({"loop_to": target, "max_iterations": self.shared.max_iterations}),
                    ),
                ],
            );
        }
        None
    }

    /// A loop goes back to `target`: it and everything after it run again.
    fn reset_from(&mut self, kernel: &mut Kernel, target: usize) {
        let mut reset = BTreeSet::from([target]);
        let mut stack = vec![target];
        while let Some(unit) = stack.pop() {
            for edge in self.flow.outgoing(unit) {
                if reset.insert(edge.to) {
                    stack.push(edge.to);
                }
            }
        }
        for &unit in &reset {
            if matches!(self.states[unit], UnitState::Running(_)) {
                kernel.cancel_unit(self.unit_base + unit);
            }
            self.states[unit] = UnitState::Pending;
            self.chosen[unit] = false;
        }
        for &unit in &reset {
            let (mut unsettled, mut choosers) = (0, 0);
            for edge in self.flow.incoming(unit) {
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
        }
    }

    fn skip(
        &mut self,
        kernel: &mut Kernel,
        unit: usize,
        reason: &str,
        candidates: &mut BTreeSet<usize>,
    ) {
        let name = self.flow.units[unit].name.clone();
        self.shared.outputs.remove(&name);
        let node = self.shared.node_id(&name);
        kernel.event("node_skipped", Some(&node), vec![("reason", reason.into())]);
        self.settle(kernel, unit, UnitState::Skipped, candidates);
    }

    fn settle(
        &mut self,
        _kernel: &mut Kernel,
        unit: usize,
        state: UnitState,
        candidates: &mut BTreeSet<usize>,
    ) {
        self.states[unit] = state;
        for edge in self.flow.outgoing(unit) {
            if edge.kind.is_choice() {
                self.choosers_left[edge.to] = self.choosers_left[edge.to].saturating_sub(1);
            } else {
                self.unsettled[edge.to] = self.unsettled[edge.to].saturating_sub(1);
            }
            candidates.insert(edge.to);
        }
    }

    /// Invariants (§6.1) after each step: a breach is recorded; `force_output` or
    /// `summarize_and_conclude` ends the run with what it has.
    fn invariants_force_output(&mut self, kernel: &mut Kernel, after: &str) -> bool {
        let invariants = self.shared.spec.quality_gates.invariants.clone();
        let context = self.shared.context(self.shared.outputs.get(after), 0);
        let node = self.shared.node_id(after);
        let mut force = false;
        for invariant in &invariants {
            let held = holds(&invariant.check, &context).unwrap_or(true);
            if held {
                continue;
            }
            kernel.event(
                "gate_evaluated",
                Some(&node),
                vec![
                    ("gate", invariant.name.clone().into()),
                    ("kind", "invariant".into()),
                    ("check", invariant.check.clone().into()),
                    ("passed", false.into()),
                    ("on_breach", invariant.on_breach.clone().into()),
                ],
            );
            force |= matches!(
                invariant.on_breach.as_deref(),
                Some("force_output" | "summarize_and_conclude" | "conclude")
            );
        }
        force
    }

    fn force_output(&mut self, kernel: &mut Kernel) {
        for unit in 0..self.states.len() {
            if matches!(self.states[unit], UnitState::Running(_)) {
                kernel.cancel_unit(self.unit_base + unit);
            }
            if !self.states[unit].settled() {
                let name = self.flow.units[unit].name.clone();
                let node = self.shared.node_id(&name);
                kernel.event(
                    "node_skipped",
                    Some(&node),
                    vec![("reason", "an invariant forced the output".into())],
                );
                self.states[unit] = UnitState::Skipped;
            }
        }
        self.finish_if_done(kernel);
    }

    fn fail(&mut self, _kernel: &mut Kernel, error: String) {
        if self.outcome.is_none() {
            self.outcome = Some(Outcome::Failed(error));
        }
    }

    fn finish_if_done(&mut self, _kernel: &mut Kernel) {
        if self.outcome.is_some() || !self.states.iter().all(UnitState::settled) {
            return;
        }
        let finals: Vec<(String, Value)> = self
            .shared
            .finals
            .iter()
            .filter_map(|f| Some((f.clone(), self.shared.outputs.get(f)?.clone())))
            .collect();
        let output = match finals.len() {
            0 => Value::Null,
            1 => finals
                .into_iter()
                .next()
                .map(|(_, v)| v)
                .unwrap_or_default(),
            _ => Value::Object(finals.into_iter().collect()),
        };
        self.outcome = Some(Outcome::Completed(output));
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

/// A document's steps run on their own: the run ends when they do.
pub(crate) struct Standalone(pub StepsProgram);

impl Standalone {
    pub fn new(spec: &Value, input: &Value, options: &RunOptions) -> Result<Standalone, RunError> {
        StepsProgram::new(spec, input, options, None).map(Standalone)
    }

    fn conclude(&mut self, kernel: &mut Kernel) {
        match self.0.outcome.take() {
            Some(Outcome::Completed(output)) => kernel.end(Ending::Completed(output)),
            Some(Outcome::Failed(error)) => kernel.end(Ending::Failed(error)),
            None => {}
        }
    }
}

/// What a step's plan entry adds: `max_attempts` (model calls for one output, so a trace
/// check can bound its `retried` events) and, for a parallel step joining `any` or `majority`,
/// `join` with `join_of` (the members it may start before all of them settle, §4.3).
fn step_plan(
    flow: &Flow,
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
        let members: Vec<String> = flow
            .incoming(unit)
            .filter(|e| e.kind == EdgeKind::Parallel)
            .map(|e| format!("{prefix}{}", flow.units[e.from].name))
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
    (0..flow.units.len())
        .map(|unit| {
            let (choices, orders): (Vec<_>, Vec<_>) =
                flow.incoming(unit).partition(|e| e.kind.is_choice());
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

impl Program for Standalone {
    fn plan(&self) -> Value {
        json!({ "nodes": self.0.plan_nodes() })
    }

    fn start(&mut self, kernel: &mut Kernel) {
        self.0.begin(kernel);
        self.conclude(kernel);
    }

    fn observe(&mut self, kernel: &mut Kernel, waiter: Waiter, observation: Observation) {
        self.0.observe(kernel, waiter, observation);
        self.conclude(kernel);
    }
}
