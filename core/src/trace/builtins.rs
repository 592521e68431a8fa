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

use serde_json::Value;

use super::check::{View, Violation};
use super::ltl::Formula;
use super::plan::Plan;

/// `<>(all_complete | abandoned)`, and nothing happens after the run finished. Not checked
/// on a paused trace (a review is waiting), whose end is still to come.
pub const TERMINATES: &str = "F(run_finished(status=\"completed\") | run_finished(status=\"refused\") | run_finished(status=\"failed\")) & G(run_finished -> !X true)";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Builtin {
    NeedsBeforeStart,
    VerifiedOutput,
    ReviewsAnswered,
    Terminates,
    RetriesBounded,
}

impl Builtin {
    pub const ALL: [Builtin; 5] = [
        Builtin::NeedsBeforeStart,
        Builtin::VerifiedOutput,
        Builtin::ReviewsAnswered,
        Builtin::Terminates,
        Builtin::RetriesBounded,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Builtin::NeedsBeforeStart => "needs-before-start",
            Builtin::VerifiedOutput => "verified-output",
            Builtin::ReviewsAnswered => "reviews-answered",
            Builtin::Terminates => "terminates",
            Builtin::RetriesBounded => "retries-bounded",
        }
    }

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

    pub(crate) fn check(self, view: &View, plan: Result<&Plan, &String>) -> Vec<Violation> {
        let found = match (self, plan) {
            (Builtin::Terminates, _) => terminates(view),
            (_, Err(missing)) => vec![(0, format!("cannot check: {missing}"))],
            (Builtin::NeedsBeforeStart, Ok(plan)) => needs_before_start(view, plan),
            (Builtin::VerifiedOutput, Ok(plan)) => verified_output(view, plan),
            (Builtin::ReviewsAnswered, Ok(plan)) => reviews_answered(view, plan),
            (Builtin::RetriesBounded, Ok(plan)) => retries_bounded(view, plan),
        };
        found
            .into_iter()
            .map(|(index, message)| Violation {
                rule: self.name().to_owned(),
                index,
                message,
            })
            .collect()
    }
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

/// A blocking check that failed on a node's current output.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Failure {
    key: String,
    at: usize,
    /// For an edge contract, the node the edge leads to: the check guards that edge only.
    edge_to: Option<String>,
}

#[derive(Debug, Clone)]
struct NodeState {
    life: Life,
    /// Something chose the node since it last started.
    chosen: bool,
    failures: Vec<Failure>,
    /// The last event that answered a review on this node.
    last_review: Option<usize>,
}

/// What a check event says: a blocking check's key, whether it passed, and the edge it guards.
struct Checked<'a> {
    key: String,
    passed: bool,
    edge_to: Option<&'a str>,
}

/// The blocking check event `i` reports, if any. Blocking: a step's `verification`, its
/// `confidence` thresholds, an edge `contract`, a quality gate of severity `error`, a DRTL
/// obligation in `block` mode. Warnings, invariants, self-verification, escalations and
/// degradations do not block.
fn blocking_check<'a>(view: &View<'a>, i: usize) -> Option<Checked<'a>> {
    let event = &view.events[i];
    match view.names[i] {
        "gate_evaluated" => {
            let gate = view.text(i, "gate")?;
            let blocking = match (view.text(i, "severity"), view.text(i, "kind")) {
                (_, Some("invariant")) => false,
                (Some(severity), _) => severity == "error",
                (None, _) => matches!(gate, "verification" | "confidence" | "contract"),
            };
            let passed = event.get("passed")?.as_bool()?;
            let edge = view.text(i, "edge");
            blocking.then(|| Checked {
                key: match (view.text(i, "kind"), edge) {
                    (_, Some(edge)) => format!("{gate} {edge}"),
                    (Some(kind), None) => format!("{gate} ({kind})"),
                    (None, None) => gate.to_owned(),
                },
                passed,
                edge_to: edge.and_then(|e| e.split(" -> ").nth(1)),
            })
        }
        "obligation_updated" if view.text(i, "mode") == Some("block") => {
            let passed = match view.text(i, "status")? {
                "satisfied" | "discharged" => true,
                "failed" => false,
                _ => return None,
            };
            let rule = view.text(i, "rule").unwrap_or("?");
            Some(Checked {
                key: match view.text(i, "target") {
                    Some(target) => format!("{rule} on `{target}`"),
                    None => rule.to_owned(),
                },
                passed,
                edge_to: None,
            })
        }
        _ => None,
    }
}

/// The nodes' lifecycles, replayed event by event.
struct Tracker<'p> {
    plan: &'p Plan,
    states: Vec<NodeState>,
}

impl<'p> Tracker<'p> {
    fn new(plan: &'p Plan) -> Tracker<'p> {
        Tracker {
            plan,
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

    fn id(&self, node: usize) -> &'p str {
        &self.plan.nodes[node].id
    }

    fn node_of(&self, view: &View, i: usize) -> Option<usize> {
        self.plan.node(view.nodes[i]?)
    }

    /// The node event `i` starts: `node_started`, or a decision tree's evaluation (a tree
    /// starts and settles in its one `gate_evaluated`).
    fn starting(&self, view: &View, i: usize) -> Option<usize> {
        match view.names[i] {
            "node_started" => self.node_of(view, i),
            "gate_evaluated" if view.text(i, "gate") == Some("decision_tree") => {
                self.node_of(view, i)
            }
            _ => None,
        }
    }

    /// Updates the states with event `i`.
    fn apply(&mut self, view: &View, i: usize) {
        let Some(node) = self.node_of(view, i) else {
            return;
        };
        match view.names[i] {
            "node_started" => self.start(node),
            "node_finished" => {
                let failed = view.text(i, "status") == Some("failed");
                self.states[node].life = if failed {
                    Life::Failed
                } else {
                    Life::Succeeded
                };
                self.record_choice(view, i, node, view.events[i].pointer("/route/to"));
            }
            "node_skipped" => {
                // A skipped node hands nothing over: what failed on its output stays behind.
                let state = &mut self.states[node];
                state.life = Life::Skipped;
                state.chosen = false;
                state.failures.clear();
            }
            "gate_evaluated" if view.text(i, "gate") == Some("decision_tree") => {
                self.start(node);
                let passed = view.events[i].get("passed").and_then(Value::as_bool);
                self.states[node].life = if passed == Some(false) {
                    Life::Failed
                } else {
                    Life::Succeeded
                };
                self.record_choice(view, i, node, view.events[i].get("action"));
            }
            "output_validated" => self.states[node].failures.clear(),
            "review_answered" => {
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
                    edge_to: checked.edge_to.map(str::to_owned),
                });
            }
        }
    }

    /// A node starts; when it ran before (a loop, a `retry_source`), what comes after it is
    /// pending again: its earlier results are stale.
    fn start(&mut self, node: usize) {
        if self.states[node].life != Life::Pending {
            for (after, stale) in self.plan.after_closure(node).into_iter().enumerate() {
                if stale {
                    self.states[after].life = Life::Pending;
                    self.states[after].chosen = false;
                    self.states[after].failures.clear();
                }
            }
        }
        let state = &mut self.states[node];
        state.life = Life::Running;
        state.chosen = false;
        state.failures.clear();
    }

    /// `chooser` finished; `route` is the target it names, if its event records one. A
    /// chooser that records no route is taken to have chosen its targets (a program that does
    /// not record routes); one that names a route chose that node only.
    fn record_choice(&mut self, view: &View, i: usize, chooser: usize, route: Option<&Value>) {
        match route.and_then(Value::as_str) {
            Some(name) => {
                if let Some(target) = self.plan.sibling(chooser, name) {
                    self.states[target].chosen = true;
                }
            }
            None if view.events[i].get("route").is_none() => {
                for &target in &self.plan.nodes[chooser].dependents {
                    if self.plan.nodes[target].chosen_by.contains(&chooser) {
                        self.states[target].chosen = true;
                    }
                }
            }
            None => {}
        }
    }

    /// The failures of `need` that block `node`: its own checks, and contracts on the edge to
    /// `node`.
    fn blocking_for(&self, need: usize, node: usize) -> Option<&Failure> {
        let to = self.id(node);
        self.states[need]
            .failures
            .iter()
            .find(|f| f.edge_to.as_deref().is_none_or(|edge_to| edge_to == to))
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

fn needs_before_start(view: &View, plan: &Plan) -> Vec<(usize, String)> {
    let mut tracker = Tracker::new(plan);
    let mut found = Vec::new();
    for i in 0..view.len() {
        if let Some(node) = tracker.starting(view, i) {
            found.extend(tracker.start_problems(node, i).into_iter().map(|m| (i, m)));
        }
        tracker.apply(view, i);
    }
    found
}

fn verified_output(view: &View, plan: &Plan) -> Vec<(usize, String)> {
    let mut tracker = Tracker::new(plan);
    let mut found = Vec::new();
    for i in 0..view.len() {
        tracker.apply(view, i);
        if view.names[i] != "run_finished" || view.text(i, "status") != Some("completed") {
            continue;
        }
        let on_path = tracker.output_path();
        let reviewed = (0..plan.nodes.len())
            .filter(|&n| on_path[n])
            .filter_map(|n| tracker.states[n].last_review)
            .max();
        for node in (0..plan.nodes.len()).filter(|&n| on_path[n]) {
            for failure in &tracker.states[node].failures {
                let guards_path = failure
                    .edge_to
                    .as_deref()
                    .is_none_or(|to| plan.node(to).is_some_and(|to| on_path[to]));
                let decided = reviewed.is_some_and(|r| r > failure.at);
                if guards_path && !decided {
                    found.push((
                        i,
                        format!(
                            "the output left the run at event {i}, but `{}` did not pass its blocking check `{}` (failed at event {}) and no review decided after it",
                            tracker.id(node),
                            failure.key,
                            failure.at
                        ),
                    ));
                }
            }
        }
    }
    found
}

/// A review waiting for its answer.
struct Waiting {
    node: usize,
    /// The event that requested it.
    asked: usize,
    /// What must not go on before the answer: the plan's closure after the node.
    holds_back: Vec<bool>,
    /// Whether something already went on (one violation per review is enough).
    reported: bool,
}

fn reviews_answered(view: &View, plan: &Plan) -> Vec<(usize, String)> {
    let mut waiting: Vec<Waiting> = Vec::new();
    let mut found = Vec::new();
    for i in 0..view.len() {
        let node = view.nodes[i].and_then(|id| plan.node(id));
        match (view.names[i], node) {
            ("review_requested", Some(node)) => {
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
                    holds_back: plan.after_closure(node),
                    reported: false,
                });
            }
            ("review_answered", Some(node)) => match waiting.iter().position(|w| w.node == node) {
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
            ("run_finished", _) if view.text(i, "status") == Some("completed") => {
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
            (name, Some(node)) => {
                for review in waiting.iter_mut().filter(|w| !w.reported) {
                    let is_container = name == "node_finished"
                        && plan.with_ancestors(review.node).skip(1).any(|a| a == node);
                    if node == review.node || review.holds_back[node] || is_container {
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
        match (view.names[i], view.nodes[i]) {
            ("run_finished", _) => return false,
            ("review_requested", Some(node)) => waiting.push(node),
            ("review_answered", Some(node)) => {
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
        Ok(formula) => formula
            .first_failure(&view.names, view.events)
            .into_iter()
            .collect(),
        Err(error) => vec![(0, format!("the rule does not parse: {error}"))],
    }
}

fn retries_bounded(view: &View, plan: &Plan) -> Vec<(usize, String)> {
    let mut retries = vec![0u64; plan.nodes.len()];
    let mut found = Vec::new();
    for i in 0..view.len() {
        let Some(node) = view.nodes[i].and_then(|id| plan.node(id)) else {
            continue;
        };
        let entry = &plan.nodes[node];
        // What gives a node a fresh budget: a new run (a workflow node's re-runs are its
        // retries, so not for those), a review's decision, an escalation or a degradation.
        let fresh = match view.names[i] {
            "node_started" => entry.kind != "node",
            "review_answered" => true,
            "gate_evaluated" => matches!(view.text(i, "gate"), Some("escalation" | "degradation")),
            _ => false,
        };
        if fresh {
            retries[node] = 0;
        }
        if view.names[i] != "retried" {
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
