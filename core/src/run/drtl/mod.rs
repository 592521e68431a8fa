//! Running a DRTL topology (drtl-spec §3–§9): the scheduler. Nodes run "as declared" (§7.1):
//! the entries (nodes nothing routes to, else the first) start the run; a finished node fires its
//! routes — every plain edge, the gate branch its condition chose, the route of the review's
//! decision — and signals the routes it did not take as dead, so a node waits for every route
//! that can still reach it and runs when one fired (dead-path elimination, as BPMN engines and
//! Airflow's skip propagation do); when none fired it is skipped, and the skip propagates. A
//! route back to a node on the way (a loop) runs that part again, bounded by its guard and by
//! `RunOptions::default_max_iterations` rounds. A route to `terminate`, or a review decision
//! that routes nowhere, ends the run.
//!
//! Obligations (§3.4, §7.1.2, §9.3): a failed `block` rule is open until a new verification
//! passes or a review decides on it. While it is open, nothing downstream of its verify may run
//! except gates (they route on it), reviews (they decide on it) and nodes that lead back to the
//! verify (a retry); anything else, or the run ending with the obligation open, is a refusal
//! naming every open obligation.

mod aggregate;
mod call;
mod debate;
mod gate;
mod generate;
mod graph;
mod node;
mod obligations;
mod review;
mod rules;
mod state;
mod stdlib;
mod transform;
mod verify;

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{json, Value};

use graph::{Graph, Target, Trigger};
use node::{Ctx, Progress, Route, Running, Started, Units};
use state::{Local, Store};

use crate::drtl::{ReviewDecision, TERMINATE};
use crate::run::action::{Observation, Unmet};
use crate::run::kernel::{Ending, Kernel, Waiter};
use crate::run::{Program, RunError, RunOptions};
use crate::trace::{Event, NodeFinished, NodeStatus};

pub(crate) use debate::TRANSCRIPT_EMPTY;

/// What every node run reads: the topology, its files, the options, the state.
struct World {
    graph: Graph,
    topology: Value,
    files: BTreeMap<String, String>,
    options: RunOptions,
    store: Store,
    units: Units,
}

impl World {
    fn ctx(&mut self) -> Ctx<'_> {
        Ctx {
            graph: &self.graph,
            topology: &self.topology,
            store: &mut self.store,
            files: &self.files,
            options: &self.options,
            units: &mut self.units,
        }
    }
}

enum NodeState {
    Pending,
    Running(Box<Running>),
    Done,
    Skipped,
}

pub(crate) struct DrtlProgram {
    world: World,
    nodes: Vec<NodeState>,
    /// Per link: not yet known, fired, or dead (for the current round of its source).
    signals: Vec<Option<bool>>,
    /// Started without waiting for routes: an entry, or the target of a loop.
    activated: Vec<bool>,
    /// The loop link that activated a node, when one did.
    looped_in: Vec<Option<usize>>,
    /// How often each loop link went round.
    rounds: Vec<u64>,
    started_at: Vec<u64>,
    runs: u64,
}

impl DrtlProgram {
    pub fn new(
        topology: &Value,
        files: &BTreeMap<String, String>,
        input: &Value,
        options: &RunOptions,
    ) -> Result<DrtlProgram, RunError> {
        let graph = Graph::new(topology)?;
        let count = graph.nodes.len();
        let links = graph.links.len();
        Ok(DrtlProgram {
            world: World {
                store: Store::new(topology, count, input),
                graph,
                topology: topology.clone(),
                files: files.clone(),
                options: options.clone(),
                units: Units::default(),
            },
            nodes: (0..count).map(|_| NodeState::Pending).collect(),
            signals: vec![None; links],
            activated: vec![false; count],
            looped_in: vec![None; count],
            rounds: vec![0; links],
            started_at: vec![0; count],
            runs: 0,
        })
    }

    fn id(&self, node: usize) -> &str {
        &self.world.graph.nodes[node].id
    }

    /// Starts or skips every node in `candidates` (and what that unblocks) that can go now;
    /// ends the run when nothing is left to do.
    fn pump(&mut self, kernel: &mut Kernel, mut candidates: BTreeSet<usize>) {
        while let Some(node) = candidates.pop_first() {
            if kernel.ending.is_some() {
                return;
            }
            if !matches!(self.nodes[node], NodeState::Pending) {
                continue;
            }
            match self.readiness(node) {
                Some(true) => self.start_node(kernel, node, &mut candidates),
                Some(false) => self.skip(
                    kernel,
                    node,
                    "no route to it fired (a branch not taken upstream)",
                    &mut candidates,
                ),
                None => {}
            }
        }
        self.finish_if_quiet(kernel);
    }

    /// `Some(true)` when the node can run, `Some(false)` when every route to it is dead, `None`
    /// while some route to it is still undecided.
    fn readiness(&self, node: usize) -> Option<bool> {
        let incoming = &self.world.graph.incoming[node];
        if self.activated[node] {
            // A loop's target still waits for a node before it that is running.
            let before_running = incoming.iter().any(|&link| {
                let from = self.world.graph.links[link].from;
                matches!(self.nodes[from], NodeState::Running(_))
            });
            return (!before_running).then_some(true);
        }
        if incoming.is_empty() {
            return None;
        }
        let mut fired = false;
        for &link in incoming {
            fired |= self.signals[link]?;
        }
        Some(fired)
    }

    fn start_node(&mut self, kernel: &mut Kernel, node: usize, candidates: &mut BTreeSet<usize>) {
        self.runs += 1;
        if self.runs > self.world.options.max_node_runs {
            let bound = self.world.options.max_node_runs;
            kernel.end(Ending::Failed(format!(
                "more than {bound} node runs (`RunOptions::max_node_runs`): the topology does not end"
            )));
            return;
        }
        if let Some(unmet) = obligations::blocking(&self.world.graph, &self.world.store.state, node)
        {
            kernel.end(Ending::Refused(unmet));
            return;
        }
        let input = match self.input_of(node) {
            Ok(input) => input,
            Err(error) => {
                let id = self.id(node).to_owned();
                let started = Event::NodeStarted {
                    inputs: Value::Null,
                    injected: None,
                };
                kernel.event(Some(&id), started);
                self.failed(kernel, node, format!("its input cannot be read: {error}"));
                return;
            }
        };
        self.activated[node] = false;
        self.started_at[node] = kernel.now;
        self.world.store.inputs[node] = Some(input.clone());
        let id = self.id(node).to_owned();
        let injected = &self.world.store.injected[node];
        let started = Event::NodeStarted {
            inputs: input.clone(),
            injected: (!injected.is_null()).then(|| injected.clone()),
        };
        kernel.event(Some(&id), started);
        if let Some(pin) = self.world.options.pins.get(&id).cloned() {
            self.settle(kernel, node, Progress::plain(pin), candidates);
            return;
        }
        let started = node::start(&mut self.world.ctx(), kernel, node, &input);
        match started {
            Started::Waiting(running) => self.nodes[node] = NodeState::Running(running),
            Started::Settled(progress) => self.settle(kernel, node, progress, candidates),
        }
    }

    /// What the node gets as `input`: its `input` field resolved, else the outputs of the nodes
    /// whose routes activated it (one: its output; several: a map by node id), and for an entry
    /// the run's input.
    fn input_of(&self, node: usize) -> Result<Value, String> {
        let graph = &self.world.graph;
        let store = &self.world.store;
        let arrived = if graph.is_entry(node) {
            store.run_input.clone()
        } else {
            let sources: Vec<usize> = graph.incoming[node]
                .iter()
                .filter(|&&link| self.signals[link] == Some(true))
                .chain(self.looped_in[node].iter())
                .map(|&link| graph.links[link].from)
                .collect();
            match sources.as_slice() {
                [] => Value::Null,
                [one] => store.outputs[*one].clone().unwrap_or_default(),
                many => Value::Object(
                    many.iter()
                        .map(|&s| {
                            (
                                self.id(s).to_owned(),
                                store.outputs[s].clone().unwrap_or_default(),
                            )
                        })
                        .collect(),
                ),
            }
        };
        match graph.nodes[node].def.get("input") {
            Some(written) => store.resolve_references(
                graph,
                written,
                Local {
                    input: &arrived,
                    injected: &store.injected[node],
                },
            ),
            None => Ok(arrived),
        }
    }

    fn settle(
        &mut self,
        kernel: &mut Kernel,
        node: usize,
        progress: Progress,
        candidates: &mut BTreeSet<usize>,
    ) {
        match progress {
            Progress::Pending => {}
            Progress::Failed(error) => self.failed(kernel, node, error),
            Progress::Finished { output, route } => {
                self.finished(kernel, node, output, route, candidates)
            }
        }
    }

    fn failed(&mut self, kernel: &mut Kernel, node: usize, error: String) {
        let id = self.id(node).to_owned();
        self.world
            .store
            .state
            .trace
            .push(json!({"node": id, "status": "failed"}));
        let duration = self.duration(kernel, node);
        kernel.event(Some(&id), Event::node_failed(error.clone(), Some(duration)));
        kernel.end(Ending::Failed(format!("node `{id}` failed: {error}")));
    }

    fn duration(&self, kernel: &Kernel, node: usize) -> u64 {
        kernel.now.saturating_sub(self.started_at[node])
    }

    fn finished(
        &mut self,
        kernel: &mut Kernel,
        node: usize,
        output: Value,
        route: Route,
        candidates: &mut BTreeSet<usize>,
    ) {
        let id = self.id(node).to_owned();
        self.nodes[node] = NodeState::Done;
        self.world.store.record(&self.world.graph, node, &output);
        self.world
            .store
            .state
            .trace
            .push(json!({"node": id, "status": "succeeded"}));
        let fired = self.fired_links(node, &route);
        if let Route::Action(action) = &route {
            self.decide(kernel, node, action, &fired);
        }
        let next: Vec<String> = fired
            .iter()
            .map(|&link| match self.world.graph.links[link].to {
                Target::Node(to) => self.id(to).to_owned(),
                Target::Terminate => TERMINATE.to_owned(),
            })
            .collect();
        let finished = Event::NodeFinished(NodeFinished {
            status: NodeStatus::Succeeded,
            output: Some(output),
            error: None,
            duration_ms: Some(self.duration(kernel, node)),
            calls: None,
            next: Some(next),
            pinned: self.world.options.pins.contains_key(&id),
            route: None,
        });
        kernel.event(Some(&id), finished);
        self.follow(kernel, node, &route, &fired, candidates);
        self.world.store.injected[node] = Value::Null;
        self.looped_in[node] = None;
    }

    /// The links of `node` its route fires.
    fn fired_links(&self, node: usize, route: &Route) -> Vec<usize> {
        let graph = &self.world.graph;
        let outgoing = &graph.outgoing[node];
        let decided_by_action = match route {
            Route::Action(action) => outgoing
                .iter()
                .any(|&l| graph.links[l].trigger == Trigger::Action(action.clone())),
            _ => false,
        };
        outgoing
            .iter()
            .copied()
            .filter(|&link| match (&graph.links[link].trigger, route) {
                (Trigger::Always, _) => !decided_by_action,
                (Trigger::Condition(text), _) => !decided_by_action && self.holds(node, text),
                (Trigger::Pass, Route::Gate(passed)) => *passed,
                (Trigger::Fail, Route::Gate(passed)) => !*passed,
                (Trigger::Action(label), Route::Action(action)) => label == action,
                _ => false,
            })
            .collect()
    }

    /// An edge's `{{ }}` condition in its source's scope; one that cannot be evaluated is false.
    fn holds(&self, node: usize, condition: &str) -> bool {
        let store = &self.world.store;
        let input = store.inputs[node].clone().unwrap_or_default();
        let local = Local {
            input: &input,
            injected: &store.injected[node],
        };
        store
            .condition(&self.world.graph, condition, local)
            .unwrap_or(false)
    }

    /// Signals every route of `node`: fired ones start their targets (or end the run), the
    /// others are dead; loops go back last.
    fn follow(
        &mut self,
        kernel: &mut Kernel,
        node: usize,
        route: &Route,
        fired: &[usize],
        candidates: &mut BTreeSet<usize>,
    ) {
        let outgoing = self.world.graph.outgoing[node].clone();
        for &link in &outgoing {
            let (forward, target) = {
                let l = &self.world.graph.links[link];
                (l.is_forward(), l.target())
            };
            if !forward {
                continue;
            }
            let fires = fired.contains(&link);
            self.signals[link] = Some(fires);
            if let (true, Some(to)) = (fires, target) {
                self.inject(node, link, to);
            }
            candidates.extend(target);
        }
        if fired
            .iter()
            .any(|&l| self.world.graph.links[l].to == Target::Terminate)
        {
            self.terminate(kernel, node, route);
            return;
        }
        if let Route::Action(action) = route {
            if fired.is_empty() {
                match self.withholds(node, action, fired) {
                    Some(why) => {
                        let unmet = obligations::unmet(&self.world.store.state, &why);
                        kernel.end(Ending::Refused(unmet));
                    }
                    None => self.end_with_decision(kernel, node, action),
                }
                return;
            }
        }
        for &link in fired {
            let l = &self.world.graph.links[link];
            if let (true, Some(to)) = (l.back, l.target()) {
                if !self.go_round(kernel, link, to, candidates) {
                    return;
                }
            }
        }
    }

    fn inject(&mut self, node: usize, link: usize, to: usize) {
        let Some(written) = self.world.graph.links[link].inject.clone() else {
            return;
        };
        let store = &self.world.store;
        let input = store.inputs[node].clone().unwrap_or_default();
        let local = Local {
            input: &input,
            injected: &store.injected[node],
        };
        let value = store
            .resolve_references(&self.world.graph, &written, local)
            .unwrap_or(Value::Null);
        self.world.store.injected[to] = value;
    }

    /// A loop back to `to`: it and everything after it run again. `false` when the loop is
    /// past its bound (the run has failed).
    fn go_round(
        &mut self,
        kernel: &mut Kernel,
        link: usize,
        to: usize,
        candidates: &mut BTreeSet<usize>,
    ) -> bool {
        let from = self.world.graph.links[link].from;
        self.rounds[link] += 1;
        let bound = self.world.options.default_max_iterations;
        if self.rounds[link] > bound {
            let (from, to) = (self.id(from).to_owned(), self.id(to).to_owned());
            kernel.end(Ending::Failed(format!(
                "the loop `{from}` → `{to}` went round {bound} times, the run's bound (`RunOptions::default_max_iterations`), without its guard ending it"
            )));
            return false;
        }
        let reason = format!(
            "cancelled: the loop `{}` → `{}` went back",
            self.id(from),
            self.id(to)
        );
        let region = self.world.graph.loop_region(to);
        for &node in &region {
            if matches!(self.nodes[node], NodeState::Running(_)) {
                for unit in self.world.units.of(node).collect::<Vec<_>>() {
                    kernel.cancel_unit(unit);
                }
                let id = self.id(node).to_owned();
                kernel.event(Some(&id), Event::skipped(reason.clone()));
            }
            self.nodes[node] = NodeState::Pending;
            self.activated[node] = false;
            for &out in &self.world.graph.outgoing[node] {
                self.signals[out] = None;
            }
        }
        self.inject(from, link, to);
        self.activated[to] = true;
        self.looped_in[to] = Some(link);
        candidates.insert(to);
        true
    }

    fn skip(
        &mut self,
        kernel: &mut Kernel,
        node: usize,
        reason: &str,
        candidates: &mut BTreeSet<usize>,
    ) {
        let id = self.id(node).to_owned();
        self.nodes[node] = NodeState::Skipped;
        self.world
            .store
            .state
            .trace
            .push(json!({"node": id, "status": "skipped"}));
        kernel.event(Some(&id), Event::skipped(reason));
        for &link in &self.world.graph.outgoing[node] {
            let l = &self.world.graph.links[link];
            if l.is_forward() {
                self.signals[link] = Some(false);
                candidates.extend(l.target());
            }
        }
    }

    /// A review decided (§3.8, §9.3; it replaces its earlier decision). A route to `terminate`
    /// ends the run refused. An approval, or any other action the topology routes onward,
    /// discharges the open obligations upstream of the review. A rejection, or an action routed
    /// nowhere, is an obligation of its own ([`withheld`](obligations::withheld)): nothing
    /// downstream runs on the output, and the run is refused unless the output is verified anew
    /// or a review approves.
    fn decide(&mut self, kernel: &mut Kernel, review: usize, action: &str, fired: &[usize]) {
        self.world
            .store
            .state
            .obligations
            .retain(|o| !(o.verify == review && o.rule == obligations::REVIEW_RULE));
        let terminates = fired
            .iter()
            .any(|&l| self.world.graph.links[l].to == Target::Terminate);
        if terminates {
            return;
        }
        let withheld = self.withholds(review, action, fired);
        let note = self.note_of(review);
        let (graph, state) = (&self.world.graph, &mut self.world.store.state);
        match withheld {
            Some(why) => obligations::withheld(graph, state, kernel, review, &why),
            None => obligations::discharge(graph, state, kernel, review, action, &note),
        }
    }

    /// Why review `review`'s `action` does not let the output through, when it does not.
    fn withholds(&self, review: usize, action: &str, fired: &[usize]) -> Option<String> {
        let id = self.id(review);
        match ReviewDecision::of(action) {
            ReviewDecision::Approve => None,
            ReviewDecision::Reject => Some(format!("review `{id}` chose `{action}`")),
            ReviewDecision::Other if fired.is_empty() => Some(format!(
                "review `{id}` chose `{action}`, which the topology routes nowhere: nothing was done"
            )),
            ReviewDecision::Other => None,
        }
    }

    /// The note a review's decision came with.
    fn note_of(&self, review: usize) -> Value {
        self.world.store.outputs[review]
            .as_ref()
            .and_then(|o| o.get("note"))
            .cloned()
            .unwrap_or(Value::Null)
    }

    /// A route to `terminate`: the run is abandoned, which is a refusal — of the open
    /// obligations, or of the route itself when none is open.
    fn terminate(&mut self, kernel: &mut Kernel, node: usize, route: &Route) {
        let id = self.id(node).to_owned();
        let why = match route {
            Route::Action(action) => {
                format!(
                    "review `{id}` chose `{action}`, which ends the run (a route to `terminate`)"
                )
            }
            _ => format!("the run ended at `{id}` (a route to `terminate`)"),
        };
        let mut unmet = obligations::unmet(&self.world.store.state, &why);
        if unmet.is_empty() {
            unmet.push(Unmet {
                node: id,
                rule: TERMINATE.to_owned(),
                target: None,
                reason: format!("{why}: nothing is published"),
            });
        }
        kernel.end(Ending::Refused(unmet));
    }

    /// An approval with no route (§3.8: routing handled elsewhere): the run completes with the
    /// state and the decision, for whoever routes it.
    /// Obligations the review did not decide on (not upstream of it) still stop the run.
    fn end_with_decision(&mut self, kernel: &mut Kernel, review: usize, action: &str) {
        let why = format!(
            "the run ended at review `{}`'s decision `{action}`, which did not decide on it",
            self.id(review)
        );
        let unmet = obligations::unmet(&self.world.store.state, &why);
        if !unmet.is_empty() {
            kernel.end(Ending::Refused(unmet));
            return;
        }
        let mut output = self.world.store.state.to_json();
        let note = self.note_of(review);
        output["decision"] = json!({"review": self.id(review), "action": action, "note": note});
        kernel.end(Ending::Completed(output));
    }

    /// Nothing runs and nothing can start: the run has reached its ends.
    fn finish_if_quiet(&mut self, kernel: &mut Kernel) {
        if kernel.ending.is_some()
            || self
                .nodes
                .iter()
                .any(|n| matches!(n, NodeState::Running(_)))
        {
            return;
        }
        let state = &self.world.store.state;
        let unmet = obligations::unmet(
            state,
            "the run reached its end without a review deciding on it",
        );
        if unmet.is_empty() {
            kernel.end(Ending::Completed(state.to_json()));
        } else {
            kernel.end(Ending::Refused(unmet));
        }
    }
}

impl Program for DrtlProgram {
    /// Every node with the routes it waits for (`after`: forward links, each must fire or be dead
    /// first), `chosen_by` when every route into it is conditional (a gate branch, a review
    /// action, an `if` edge: one of them must fire), and the nodes that loop back to it.
    fn plan(&self) -> Value {
        let graph = &self.world.graph;
        let id = |n: usize| graph.nodes[n].id.clone();
        let nodes: Vec<Value> = (0..graph.nodes.len())
            .map(|n| {
                let into: Vec<&graph::Link> = graph.incoming[n].iter().map(|&l| &graph.links[l]).collect();
                let conditional = !into.is_empty() && into.iter().all(|l| l.trigger != graph::Trigger::Always);
                json!({
                    "id": id(n),
                    "kind": graph.nodes[n].def.get("type"),
                    "after": into.iter().map(|l| id(l.from)).collect::<Vec<_>>(),
                    "chosen_by": if conditional { into.iter().map(|l| id(l.from)).collect() } else { Vec::new() },
                    "loops_from": graph.links.iter().filter(|l| l.back && l.target() == Some(n)).map(|l| id(l.from)).collect::<Vec<_>>(),
                })
            })
            .collect();
        json!({ "nodes": nodes })
    }

    fn start(&mut self, kernel: &mut Kernel) {
        let entries = self.world.graph.entries.clone();
        for &entry in &entries {
            self.activated[entry] = true;
        }
        self.pump(kernel, entries.into_iter().collect());
    }

    fn observe(&mut self, kernel: &mut Kernel, waiter: Waiter, observation: Observation) {
        let Some(node) = self.world.units.owner(waiter.unit) else {
            return;
        };
        if !matches!(self.nodes[node], NodeState::Running(_)) {
            return;
        }
        let NodeState::Running(mut running) =
            std::mem::replace(&mut self.nodes[node], NodeState::Pending)
        else {
            return;
        };
        let progress = running.observe(&mut self.world.ctx(), kernel, waiter, observation);
        if progress == Progress::Pending {
            self.nodes[node] = NodeState::Running(running);
            return;
        }
        let mut candidates = BTreeSet::new();
        self.settle(kernel, node, progress, &mut candidates);
        self.pump(kernel, candidates);
    }
}
