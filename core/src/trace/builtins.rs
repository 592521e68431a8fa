//! The five built-in obligations (formal-multimodal-logic-spec: TEL phase sequencing, JL
//! evidence, SDL obligations; DRTL §7 runtime contract), checked on a trace and its plan.
//!
//! | rule | how | why |
//! |---|---|---|
//! | `needs-before-start` | dedicated | the seed's `[](phase(n) -> P(phase(n-1) & verified(n-1)))` for every node and each of its needs: a quantifier over the plan's nodes, and "finished since it last started" across loops, which a propositional formula cannot bind |
//! | `verified-output` | dedicated | `[v]:pass` or `[h]` for every node on the output's path: the path is computed from the plan and what ran |
//! | `reviews-answered` | dedicated | "nothing after it runs" is the plan's closure after the reviewed node, and the answer must be for the same node |
//! | `terminates` | LTL | `<>(all_complete \| abandoned)`, written as [`TERMINATES`] |
//! | `retries-bounded` | dedicated | counting `retried` events per node against the plan's `max_attempts` |
//!
//! The dedicated checkers are one pass over the trace each, O(events) with a table per node.

use std::collections::BTreeMap;

use serde_json::Value;

use super::check::{Planned, View, Violation};
use super::ltl::Formula;
use super::plan::Plan;
use super::view::Kind;

/// What a checker found: each violation's event and message.
type Found = Vec<(usize, String)>;

/// `<>(all_complete | abandoned)`, and nothing happens after the run finished. Not checked
/// on a paused trace (a review is waiting), whose end is still to come.
pub const TERMINATES: &str = "F(run_finished(status=\"completed\") | run_finished(status=\"refused\") | run_finished(status=\"failed\")) & G(run_finished -> !X true)";

/// The five built-in obligations a run's trace is checked against; [`Builtin::description`] says
/// what each requires.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Builtin {
    /// `needs-before-start`: a node starts only after what it runs after has finished and passed.
    NeedsBeforeStart,
    /// `verified-output`: output leaves the run only after passing its blocking checks (or a
    /// review).
    VerifiedOutput,
    /// `reviews-answered`: every review requested is answered before work goes on.
    ReviewsAnswered,
    /// `terminates`: the run ends, and nothing follows its end ([`TERMINATES`]).
    Terminates,
    /// `retries-bounded`: no node is retried past its plan's `max_attempts`.
    RetriesBounded,
}

impl Builtin {
    /// Every built-in, in the order reports list them.
    pub const ALL: [Builtin; 5] = [
        Builtin::NeedsBeforeStart,
        Builtin::VerifiedOutput,
        Builtin::ReviewsAnswered,
        Builtin::Terminates,
        Builtin::RetriesBounded,
    ];

    /// The rule's name as the CLI and reports spell it (`needs-before-start`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Builtin::NeedsBeforeStart => "needs-before-start",
            Builtin::VerifiedOutput => "verified-output",
            Builtin::ReviewsAnswered => "reviews-answered",
            Builtin::Terminates => "terminates",
            Builtin::RetriesBounded => "retries-bounded",
        }
    }

    /// The built-in with this name, if one has it (the inverse of [`Builtin::name`]).
    pub fn from_name(name: &str) -> Option<Builtin> {
        Builtin::ALL.into_iter().find(|b| b.name() == name)
    }

    /// What the rule requires, in a sentence.
    pub fn description(self) -> &'static str {
        match self {
            Builtin::NeedsBeforeStart => "a node starts only after everything it runs after has finished (or was skipped) and passed its blocking checks, after something chose it when it waits for a choice, and while the node it is part of runs: [](phase(n) -> P(phase(n-1) & verified(n-1)))",
            Builtin::VerifiedOutput => "every output that leaves the run passed every blocking check on its path, or a review decided after the failure: [v]:pass or [h]",
            Builtin::ReviewsAnswered => "every review requested is answered before its node or anything after it goes on, and before the run completes",
            Builtin::Terminates => "the run ends completed, refused or failed (abandoned), and nothing follows its end: <>(all_complete | abandoned)",
            Builtin::RetriesBounded => "no node is retried more often than its plan's max_attempts allows for one output",
        }
    }

    /// The formula, for the rules written as one.
    pub fn formula(self) -> Option<&'static str> {
        (self == Builtin::Terminates).then_some(TERMINATES)
    }
}

/// The violations of each of `builtins` (each checked once; the two that replay the nodes'
/// lifecycles share one pass).
pub(crate) fn check_all(
    view: &View,
    planned: Result<&Planned, &String>,
    builtins: &[Builtin],
) -> BTreeMap<Builtin, Vec<Violation>> {
    let wants = |b: Builtin| builtins.contains(&b);
    let mut found: BTreeMap<Builtin, Found> = BTreeMap::new();
    if wants(Builtin::Terminates) {
        found.insert(Builtin::Terminates, terminates(view));
    }
    match planned {
        Err(missing) => {
            for builtin in builtins.iter().filter(|b| **b != Builtin::Terminates) {
                found.insert(*builtin, vec![(0, format!("cannot check: {missing}"))]);
            }
        }
        Ok(planned) => {
            let (needs, verified) = (
                wants(Builtin::NeedsBeforeStart),
                wants(Builtin::VerifiedOutput),
            );
            if needs || verified {
                let (starts, outputs) = lifecycles(view, planned, needs, verified);
                if needs {
                    found.insert(Builtin::NeedsBeforeStart, starts);
                }
                if verified {
                    found.insert(Builtin::VerifiedOutput, outputs);
                }
            }
            if wants(Builtin::ReviewsAnswered) {
                found.insert(Builtin::ReviewsAnswered, reviews_answered(view, planned));
            }
            if wants(Builtin::RetriesBounded) {
                found.insert(Builtin::RetriesBounded, retries_bounded(view, planned));
            }
        }
    }
    found
        .into_iter()
        .map(|(builtin, found)| {
            let violations = found
                .into_iter()
                .map(|(index, message)| Violation {
                    rule: builtin.name().to_owned(),
                    index,
                    message,
                })
                .collect();
            (builtin, violations)
        })
        .collect()
}

/// Where a node is, as far as the trace has told.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Life {
    /// Not started (or reset by a loop that went back before it).
    Pending,
    Running,
    Succeeded,
    Failed,
    Skipped,
}

impl Life {
    fn describe(self) -> &'static str {
        match self {
            Life::Pending => "it has not run",
            Life::Running => "it is still running",
            Life::Succeeded => "it finished",
            Life::Failed => "it failed",
            Life::Skipped => "it was skipped",
        }
    }
}

/// Which blocking check an event reports on: a gate (with its kind, `pre_output`…), an edge
/// contract (with its edge), or a DRTL obligation (with its target). Borrowed from the trace.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum CheckKey<'a> {
    Gate(&'a str, Option<&'a str>),
    Edge(&'a str, &'a str),
    Obligation(&'a str, Option<&'a str>),
}

impl std::fmt::Display for CheckKey<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CheckKey::Gate(gate, None) => f.write_str(gate),
            CheckKey::Gate(gate, Some(kind)) => write!(f, "{gate} ({kind})"),
            CheckKey::Edge(gate, edge) => write!(f, "{gate} {edge}"),
            CheckKey::Obligation(rule, None) => f.write_str(rule),
            CheckKey::Obligation(rule, Some(target)) => write!(f, "{rule} on `{target}`"),
        }
    }
}

/// A blocking check that failed on a node's current output.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Failure<'a> {
    key: CheckKey<'a>,
    at: usize,
    /// For an edge contract, the node the edge leads to: the check guards that edge only.
    edge_to: Option<&'a str>,
}

#[derive(Debug, Clone)]
struct NodeState<'a> {
    life: Life,
    /// Something chose the node since it last started.
    chosen: bool,
    failures: Vec<Failure<'a>>,
    /// The last event that answered a review on this node.
    last_review: Option<usize>,
}

/// What a check event says: a blocking check's key, whether it passed, and the edge it guards.
struct Checked<'a> {
    key: CheckKey<'a>,
    passed: bool,
    edge_to: Option<&'a str>,
}

/// The fields `keys` of `event`, read in one pass over its fields.
fn fields<'a, const N: usize>(event: &'a Value, keys: [&str; N]) -> [Option<&'a Value>; N] {
    let mut found = [None; N];
    for (key, value) in event.as_object().into_iter().flatten() {
        if let Some(at) = keys.iter().position(|k| k == key) {
            found[at] = Some(value);
        }
    }
    found
}

/// The blocking check event `i` reports, if any. Blocking: a step's `verification`, its
/// `confidence` thresholds, an edge `contract`, a quality gate of severity `error`, a DRTL
/// obligation in `block` mode. Warnings, invariants, self-verification, escalations and
/// degradations do not block.
fn blocking_check<'a>(view: &View<'a>, i: usize) -> Option<Checked<'a>> {
    let event = &view.events[i];
    let text = |value: Option<&'a Value>| value.and_then(Value::as_str);
    match view.kinds[i] {
        Kind::GateEvaluated => {
            let gate = view.gates[i]?;
            let [severity, kind, passed, edge] =
                fields(event, ["severity", "kind", "passed", "edge"]);
            let (kind, edge) = (text(kind), text(edge));
            let blocking = match (text(severity), kind) {
                (_, Some("invariant")) => false,
                (Some(severity), _) => severity == "error",
                (None, _) => matches!(gate, "verification" | "confidence" | "contract"),
            };
            let passed = passed?.as_bool()?;
            blocking.then(|| Checked {
                key: match edge {
                    Some(edge) => CheckKey::Edge(gate, edge),
                    None => CheckKey::Gate(gate, kind),
                },
                passed,
                edge_to: edge.and_then(|e| e.split(" -> ").nth(1)),
            })
        }
        Kind::ObligationUpdated => {
            let [mode, rule, target] = fields(event, ["mode", "rule", "target"]);
            if text(mode) != Some("block") {
                return None;
            }
            let passed = match view.statuses[i]? {
                "satisfied" | "discharged" => true,
                "failed" => false,
                _ => return None,
            };
            Some(Checked {
                key: CheckKey::Obligation(text(rule).unwrap_or("?"), text(target)),
                passed,
                edge_to: None,
            })
        }
        _ => None,
    }
}

/// The nodes' lifecycles, replayed event by event.
struct Tracker<'a> {
    plan: &'a Plan,
    /// The plan node of each event.
    nodes: &'a [Option<usize>],
    states: Vec<NodeState<'a>>,
}

impl<'a> Tracker<'a> {
    fn new(planned: &'a Planned) -> Tracker<'a> {
        let plan = &planned.plan;
        Tracker {
            plan,
            nodes: &planned.nodes,
            states: vec![
                NodeState {
                    life: Life::Pending,
                    chosen: false,
                    failures: Vec::new(),
                    last_review: None,
                };
                plan.nodes.len()
            ],
        }
    }

    fn id(&self, node: usize) -> &'a str {
        &self.plan.nodes[node].id
    }

    fn node_of(&self, i: usize) -> Option<usize> {
        self.nodes[i]
    }

    /// The node event `i` starts: `node_started`, or a decision tree's evaluation (a tree
    /// starts and settles in its one `gate_evaluated`).
    fn starting(&self, view: &View, i: usize) -> Option<usize> {
        match view.kinds[i] {
            Kind::NodeStarted => self.node_of(i),
            Kind::GateEvaluated if view.gates[i] == Some("decision_tree") => self.node_of(i),
            _ => None,
        }
    }

    /// Updates the states with event `i`.
    fn apply(&mut self, view: &View<'a>, i: usize) {
        let Some(node) = self.node_of(i) else {
            return;
        };
        match view.kinds[i] {
            Kind::NodeStarted => self.start(node),
            Kind::NodeFinished => {
                let failed = view.statuses[i] == Some("failed");
                self.states[node].life = if failed {
                    Life::Failed
                } else {
                    Life::Succeeded
                };
                let route = view.events[i].get("route");
                self.record_choice(node, route.map(|r| r.get("to").and_then(Value::as_str)));
            }
            Kind::NodeSkipped => {
                // A skipped node hands nothing over: what failed on its output stays behind.
                let state = &mut self.states[node];
                state.life = Life::Skipped;
                state.chosen = false;
                state.failures.clear();
            }
            Kind::GateEvaluated if view.gates[i] == Some("decision_tree") => {
                self.start(node);
                let passed = view.events[i].get("passed").and_then(Value::as_bool);
                self.states[node].life = if passed == Some(false) {
                    Life::Failed
                } else {
                    Life::Succeeded
                };
                let action = view.events[i].get("action");
                self.record_choice(node, action.map(Value::as_str));
            }
            Kind::OutputValidated => self.states[node].failures.clear(),
            Kind::ReviewAnswered => {
                // A decision covers what failed before it ([h]).
                self.states[node].failures.clear();
                self.states[node].last_review = Some(i);
            }
            _ => {}
        }
        if let Some(checked) = blocking_check(view, i) {
            let failures = &mut self.states[node].failures;
            failures.retain(|f| f.key != checked.key);
            if !checked.passed {
                failures.push(Failure {
                    key: checked.key,
                    at: i,
                    edge_to: checked.edge_to,
                });
            }
        }
    }

    /// A node starts; when it ran before (a loop, a `retry_source`), what comes after it is
    /// pending again: its earlier results are stale.
    fn start(&mut self, node: usize) {
        if self.states[node].life != Life::Pending {
            let closure = self.plan.after_closure(node);
            for (after, &stale) in closure.iter().enumerate() {
                if stale {
                    // A choice made by a node the loop does not run again still holds (the
                    // engine keeps earlier choices); one made inside the loop is made anew.
                    let chooser_stays = self.plan.nodes[after]
                        .chosen_by
                        .iter()
                        .any(|&c| c != node && !closure[c]);
                    let state = &mut self.states[after];
                    state.life = Life::Pending;
                    state.chosen &= chooser_stays;
                    state.failures.clear();
                }
            }
        }
        // Its own choice stays: it holds until its chooser decides again.
        let state = &mut self.states[node];
        state.life = Life::Running;
        state.failures.clear();
    }

    /// `chooser` finished. `route` is `None` when its event records no route (a program that
    /// does not record them: it is taken to have chosen its targets), else the target it
    /// names, if any: then it chose that node only.
    fn record_choice(&mut self, chooser: usize, route: Option<Option<&str>>) {
        if route.is_some() {
            // A new decision replaces the chooser's earlier one.
            for &target in &self.plan.nodes[chooser].dependents {
                if self.plan.nodes[target].chosen_by.contains(&chooser) {
                    self.states[target].chosen = false;
                }
            }
        }
        match route {
            Some(Some(name)) => {
                if let Some(target) = self.plan.sibling(chooser, name) {
                    self.states[target].chosen = true;
                }
            }
            Some(None) => {}
            None => {
                for &target in &self.plan.nodes[chooser].dependents {
                    if self.plan.nodes[target].chosen_by.contains(&chooser) {
                        self.states[target].chosen = true;
                    }
                }
            }
        }
    }

    /// The failures of `need` that block `node`: its own checks, and contracts on the edge to
    /// `node`.
    fn blocking_for(&self, need: usize, node: usize) -> Option<&Failure<'a>> {
        let to = self.id(node);
        self.states[need]
            .failures
            .iter()
            .find(|f| f.edge_to.is_none_or(|edge_to| edge_to == to))
    }

    /// What is wrong with `node` starting at event `i`.
    fn start_problems(&self, node: usize, i: usize) -> Vec<String> {
        let plan = &self.plan.nodes[node];
        let id = self.id(node);
        let mut problems = Vec::new();
        if let Some(parent) = plan.parent {
            if self.states[parent].life != Life::Running {
                problems.push(format!(
                    "`{id}` started at event {i} while `{}` was not running ({})",
                    self.id(parent),
                    self.states[parent].life.describe()
                ));
            }
        }
        let joined = plan.join.as_ref().map(|j| j.of.as_slice()).unwrap_or(&[]);
        let resolves = matches!(plan.kind.as_str(), "gate" | "review");
        for &need in plan.after.iter().filter(|n| !joined.contains(n)) {
            let life = self.states[need].life;
            if !matches!(life, Life::Succeeded | Life::Skipped) {
                problems.push(format!(
                    "`{id}` started at event {i} before `{}` finished ({})",
                    self.id(need),
                    life.describe()
                ));
            } else if let Some(failure) = self
                .blocking_for(need, node)
                .filter(|_| life == Life::Succeeded && !resolves)
            {
                problems.push(format!(
                    "`{id}` started at event {i} although `{}` did not pass its blocking check `{}` (failed at event {})",
                    self.id(need),
                    failure.key,
                    failure.at
                ));
            }
        }
        if let Some(join) = &plan.join {
            let done = join
                .of
                .iter()
                .filter(|&&m| self.states[m].life == Life::Succeeded)
                .count();
            let enough = if join.any {
                done >= 1
            } else {
                done * 2 > join.of.len()
            };
            if !enough {
                problems.push(format!(
                    "`{id}` joins {} of {} but started at event {i} when {done} of them had finished",
                    if join.any { "any" } else { "a majority" },
                    join.of
                        .iter()
                        .map(|&m| format!("`{}`", self.id(m)))
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            }
        }
        if !plan.chosen_by.is_empty() && !self.states[node].chosen {
            problems.push(format!(
                "`{id}` started at event {i} without being chosen: it runs only when {} chooses it",
                plan.chosen_by
                    .iter()
                    .map(|&c| format!("`{}`", self.id(c)))
                    .collect::<Vec<_>>()
                    .join(" or ")
            ));
        }
        problems
    }

    /// The nodes whose output the run's output is made of: the nodes nothing runs after that
    /// finished, everything they ran after or were chosen by that finished, and their parts.
    fn output_path(&self) -> Vec<bool> {
        let succeeded = |n: usize| self.states[n].life == Life::Succeeded;
        let mut on_path = vec![false; self.plan.nodes.len()];
        let mut stack: Vec<usize> = (0..self.plan.nodes.len())
            .filter(|&n| self.plan.nodes[n].dependents.is_empty() && succeeded(n))
            .collect();
        while let Some(node) = stack.pop() {
            if std::mem::replace(&mut on_path[node], true) {
                continue;
            }
            let plan = &self.plan.nodes[node];
            stack.extend(
                plan.after
                    .iter()
                    .chain(&plan.chosen_by)
                    .chain(&plan.children)
                    .copied()
                    .filter(|&n| succeeded(n)),
            );
        }
        on_path
    }
}

/// `needs-before-start` (at each start) and `verified-output` (when the output leaves), in one
/// replay of the nodes' lifecycles.
fn lifecycles<'a>(
    view: &View<'a>,
    planned: &'a Planned,
    needs: bool,
    verified: bool,
) -> (Found, Found) {
    let mut tracker = Tracker::new(planned);
    let (mut starts, mut outputs) = (Vec::new(), Vec::new());
    for i in 0..view.len() {
        if needs {
            if let Some(node) = tracker.starting(view, i) {
                starts.extend(tracker.start_problems(node, i).into_iter().map(|m| (i, m)));
            }
        }
        tracker.apply(view, i);
        if verified && view.kinds[i] == Kind::RunFinished && view.statuses[i] == Some("completed") {
            outputs.extend(tracker.unverified_output(i));
        }
    }
    (starts, outputs)
}

impl Tracker<'_> {
    /// What on the output's path did not pass a blocking check, when the output leaves at `i`.
    fn unverified_output(&self, i: usize) -> Vec<(usize, String)> {
        let plan = self.plan;
        let on_path = self.output_path();
        let reviewed = (0..plan.nodes.len())
            .filter(|&n| on_path[n])
            .filter_map(|n| self.states[n].last_review)
            .max();
        let mut found = Vec::new();
        for node in (0..plan.nodes.len()).filter(|&n| on_path[n]) {
            for failure in &self.states[node].failures {
                let guards_path = failure
                    .edge_to
                    .is_none_or(|to| plan.node(to).is_some_and(|to| on_path[to]));
                let decided = reviewed.is_some_and(|r| r > failure.at);
                if guards_path && !decided {
                    found.push((
                        i,
                        format!(
                            "the output left the run at event {i}, but `{}` did not pass its blocking check `{}` (failed at event {}) and no review decided after it",
                            self.id(node),
                            failure.key,
                            failure.at
                        ),
                    ));
                }
            }
        }
        found
    }
}

/// A review waiting for its answer.
struct Waiting {
    node: usize,
    /// The event that requested it.
    asked: usize,
    /// What must not go on before the answer: the plan's closure after the node, computed
    /// when an event of another node comes before the answer (rarely: the answer usually
    /// follows at once).
    holds_back: Option<Vec<bool>>,
    /// Whether something already went on (one violation per review is enough).
    reported: bool,
}

fn reviews_answered(view: &View, planned: &Planned) -> Vec<(usize, String)> {
    let plan = &planned.plan;
    let mut waiting: Vec<Waiting> = Vec::new();
    let mut found = Vec::new();
    for i in 0..view.len() {
        let node = planned.nodes[i];
        match (view.kinds[i], node) {
            (Kind::ReviewRequested, Some(node)) => {
                if let Some(review) = waiting.iter().find(|w| w.node == node) {
                    found.push((
                        i,
                        format!(
                            "`{}` asked for a review again at event {i} before the one requested at event {} was answered",
                            plan.nodes[node].id, review.asked
                        ),
                    ));
                    continue;
                }
                waiting.push(Waiting {
                    node,
                    asked: i,
                    holds_back: None,
                    reported: false,
                });
            }
            (Kind::ReviewAnswered, Some(node)) => match waiting.iter().position(|w| w.node == node) {
                Some(at) => {
                    waiting.remove(at);
                }
                None => found.push((
                    i,
                    format!(
                        "`{}` answered a review at event {i} that was not requested (or was answered already)",
                        plan.nodes[node].id
                    ),
                )),
            },
            (Kind::RunFinished, _) if view.statuses[i] == Some("completed") => {
                for review in waiting.iter().filter(|w| !w.reported) {
                    found.push((
                        i,
                        format!(
                            "the run completed at event {i} with the review `{}` requested at event {} unanswered",
                            plan.nodes[review.node].id, review.asked
                        ),
                    ));
                }
            }
            (kind, Some(node)) => {
                let name = view.names[i];
                for review in waiting.iter_mut().filter(|w| !w.reported) {
                    let is_container = kind == Kind::NodeFinished
                        && plan.with_ancestors(review.node).skip(1).any(|a| a == node);
                    let holds_back = node != review.node
                        && review
                            .holds_back
                            .get_or_insert_with(|| plan.after_closure(review.node))[node];
                    if node == review.node || holds_back || is_container {
                        review.reported = true;
                        found.push((
                            i,
                            format!(
                                "`{name}` on `{}` at event {i} went on while the review `{}` requested at event {} was unanswered",
                                plan.nodes[node].id, plan.nodes[review.node].id, review.asked
                            ),
                        ));
                    }
                }
            }
            _ => {}
        }
    }
    found
}

/// A trace that stopped for a review: no `run_finished`, a review requested and unanswered.
pub(crate) fn paused(view: &View) -> bool {
    let mut waiting: Vec<&str> = Vec::new();
    for i in 0..view.len() {
        match (view.kinds[i], view.nodes[i]) {
            (Kind::RunFinished, _) => return false,
            (Kind::ReviewRequested, Some(node)) => waiting.push(node),
            (Kind::ReviewAnswered, Some(node)) => {
                if let Some(at) = waiting.iter().position(|n| *n == node) {
                    waiting.remove(at);
                }
            }
            _ => {}
        }
    }
    !waiting.is_empty()
}

fn terminates(view: &View) -> Vec<(usize, String)> {
    if paused(view) {
        return Vec::new();
    }
    match Formula::parse(TERMINATES) {
        Ok(formula) => formula.first_failure_in(view).into_iter().collect(),
        Err(error) => vec![(0, format!("the rule does not parse: {error}"))],
    }
}

fn retries_bounded(view: &View, planned: &Planned) -> Vec<(usize, String)> {
    let plan = &planned.plan;
    let mut retries = vec![0u64; plan.nodes.len()];
    let mut found = Vec::new();
    for i in 0..view.len() {
        let Some(node) = planned.nodes[i] else {
            continue;
        };
        let entry = &plan.nodes[node];
        // What gives a node a fresh budget: a new run (a workflow node's re-runs are its
        // retries, so not for those), a review's decision, an escalation or a degradation.
        let fresh = match view.kinds[i] {
            Kind::NodeStarted => entry.kind != "node",
            Kind::ReviewAnswered => true,
            Kind::GateEvaluated => matches!(view.gates[i], Some("escalation" | "degradation")),
            _ => false,
        };
        if fresh {
            retries[node] = 0;
        }
        if view.kinds[i] != Kind::Retried {
            continue;
        }
        retries[node] += 1;
        if let Some(max) = entry.max_attempts {
            let allowed = max.saturating_sub(1);
            if retries[node] > allowed {
                found.push((
                    i,
                    format!(
                        "`{}` was retried {} times for one output by event {i}, but its bound of {max} attempts allows {allowed}",
                        entry.id, retries[node]
                    ),
                ));
            }
        }
    }
    found
}

#[cfg(test)]
mod tests;
