//! A node's run state, derived from trace events alone: a live run and a replayed trace fold the
//! same events through [`RunStates::apply`], so they draw the same canvas. What the trace cannot
//! hold — the studio's own pauses at a breakpoint and a Stop — are [`Mark`]s folded in at the
//! place they happened, so a scrubbed prefix shows them too.

use std::collections::BTreeMap;

use logicmd::trace::EventKind;
use serde_json::Value;

/// What a node is doing (the `data-run-state` values).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NodeState {
    Queued,
    Running,
    Retried,
    /// Paused before its first model call by a breakpoint.
    Waiting,
    /// A review (or an escalation) waits for a person.
    Review,
    Succeeded,
    /// A verify node that ran and found blocking failures: it did its job, the output failed.
    FoundFailures,
    Failed,
    Skipped,
    Refused,
    /// In progress when the person stopped the run.
    Interrupted,
    /// Never finished: the run ended (stopped, refused, failed) before it started or finished.
    Cancelled,
}

/// Every state, in the legend's order.
pub const ALL: [NodeState; 12] = [
    NodeState::Queued,
    NodeState::Running,
    NodeState::Retried,
    NodeState::Waiting,
    NodeState::Review,
    NodeState::Succeeded,
    NodeState::FoundFailures,
    NodeState::Failed,
    NodeState::Refused,
    NodeState::Skipped,
    NodeState::Interrupted,
    NodeState::Cancelled,
];

impl NodeState {
    /// The `data-run-state` attribute and CSS class suffix.
    pub fn name(self) -> &'static str {
        match self {
            NodeState::Queued => "queued",
            NodeState::Running => "running",
            NodeState::Retried => "retried",
            NodeState::Waiting => "waiting",
            NodeState::Review => "review",
            NodeState::Succeeded => "succeeded",
            NodeState::FoundFailures => "found-failures",
            NodeState::Failed => "failed",
            NodeState::Skipped => "skipped",
            NodeState::Refused => "refused",
            NodeState::Interrupted => "interrupted",
            NodeState::Cancelled => "cancelled",
        }
    }

    /// A glyph the headless fonts have, so the state is never told by colour alone.
    pub fn icon(self) -> &'static str {
        match self {
            NodeState::Queued => "…",
            NodeState::Running => "▷",
            NodeState::Retried => "↻",
            NodeState::Waiting => "◉",
            NodeState::Review => "‖",
            NodeState::Succeeded => "✓",
            NodeState::FoundFailures => "▲",
            NodeState::Failed => "✗",
            NodeState::Skipped => "↷",
            NodeState::Refused => "⊗",
            NodeState::Interrupted => "■",
            NodeState::Cancelled => "⊘",
        }
    }

    /// The state in words, as the pill says it.
    pub fn words(self) -> &'static str {
        match self {
            NodeState::Waiting => "waiting at breakpoint",
            NodeState::Review => "waiting for review",
            NodeState::FoundFailures => "found failures",
            other => other.name(),
        }
    }

    /// What the state means, for the legend.
    pub fn meaning(self) -> &'static str {
        match self {
            NodeState::Queued => "planned, not started yet",
            NodeState::Running => "started; the time since is shown",
            NodeState::Retried => "its output failed a check and it runs again",
            NodeState::Waiting => "paused by its breakpoint before calling the model",
            NodeState::Review => "waits for a person's decision",
            NodeState::Succeeded => "finished with an output that passed its checks",
            NodeState::FoundFailures => {
                "a verify node that ran and found blocking failures in what it checked"
            }
            NodeState::Failed => "ended with an error or an output that failed",
            NodeState::Refused => "holds an unmet obligation: the run refused to go on",
            NodeState::Skipped => "not on the route the run took",
            NodeState::Interrupted => "was in progress when you stopped the run",
            NodeState::Cancelled => "never finished: the run ended before it could",
        }
    }

    /// Started and not finished.
    fn in_progress(self) -> bool {
        matches!(
            self,
            NodeState::Running | NodeState::Retried | NodeState::Waiting | NodeState::Review
        )
    }
}

/// What happened in the studio, outside the engine: folded in where it happened.
#[derive(Debug, Clone, PartialEq)]
pub enum Mark {
    /// The run paused at the breakpoint of this node (before its first model call).
    Breakpoint(String),
    /// The run went on after a pause.
    Resumed,
    /// The person stopped the run.
    Stopped,
}

/// One node's run so far.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct NodeRun {
    /// Every state the node went through, oldest first (the last is the current one).
    pub history: Vec<NodeState>,
    /// Retries announced by `retried` events.
    pub retries: u32,
    /// Model calls made for the node (attempts and self-verification).
    pub calls: u32,
    /// Indices (in the run's event list) of the events about this node.
    pub events: Vec<usize>,
    /// It last finished with a pinned output (no call made).
    pub pinned: bool,
    /// Blocking failures a verify node found.
    pub failures: u64,
    /// Skipped because the run never reached it (not a `node_skipped` of the engine).
    pub not_reached: bool,
    /// Its kind in the run's plan (`step`, or a DRTL node type).
    pub kind: Option<String>,
}

impl NodeRun {
    pub fn state(&self) -> Option<NodeState> {
        self.history.last().copied()
    }

    /// The text beside the icon: the state in words, with the retry count when there were any.
    pub fn caption(&self) -> String {
        let Some(state) = self.state() else {
            return String::new();
        };
        let words = match state {
            NodeState::FoundFailures => plural(self.failures, "blocking failure"),
            NodeState::Skipped if self.not_reached => "not reached".to_owned(),
            other => other.words().to_owned(),
        };
        let mut caption = match state {
            NodeState::FoundFailures => format!("{} found {words}", state.icon()),
            _ => format!("{} {words}", state.icon()),
        };
        if self.retries > 0 {
            caption.push_str(&format!(" · retried {}×", self.retries));
        }
        if self.pinned && state == NodeState::Succeeded {
            caption.push_str(" · ◆ pinned");
        }
        caption
    }

    fn enter(&mut self, state: NodeState) {
        if self.state() != Some(state) {
            self.history.push(state);
        }
    }
}

fn plural(count: u64, noun: &str) -> String {
    if count == 1 {
        format!("1 {noun}")
    } else {
        format!("{count} {noun}s")
    }
}

/// The state of every node a run has mentioned, and where the run is.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RunStates {
    pub nodes: BTreeMap<String, NodeRun>,
    /// How many events were folded in.
    pub seen: usize,
    /// `run_finished`'s status once the run is over.
    pub finished: Option<String>,
    /// The person stopped the run.
    pub stopped: bool,
    /// The unmet obligations of a refusal: (node, rule, reason).
    pub unmet: Vec<(String, String, String)>,
}

impl RunStates {
    /// The states after `events`, from nothing.
    pub fn after(events: &[Value]) -> RunStates {
        Self::after_marked(events, &[])
    }

    /// The states after `events` and the `marks` made among them (each at the number of
    /// events there were when it was made).
    pub fn after_marked(events: &[Value], marks: &[(usize, Mark)]) -> RunStates {
        let mut states = RunStates::default();
        let mut marks = marks.iter().peekable();
        for (index, event) in events.iter().enumerate() {
            while let Some((_, mark)) = marks.next_if(|(at, _)| *at <= index) {
                states.mark(mark);
            }
            states.apply(event);
        }
        for (_, mark) in marks.filter(|(at, _)| *at <= events.len()) {
            states.mark(mark);
        }
        states
    }

    /// Folds one more event in.
    pub fn apply(&mut self, event: &Value) {
        let index = self.seen;
        self.seen += 1;
        let kind = EventKind::of_value(event);
        match kind {
            EventKind::RunStarted => return self.queue_plan(event),
            EventKind::RunFinished => return self.finish(event),
            EventKind::Refused => return self.refuse(event),
            _ => {}
        }
        let Some(node) = event.get("node").and_then(Value::as_str) else {
            return;
        };
        let run = self.nodes.entry(node.to_owned()).or_default();
        run.events.push(index);
        match kind {
            EventKind::NodeStarted => run.enter(NodeState::Running),
            EventKind::ModelRequested => run.calls += 1,
            EventKind::Retried => {
                run.retries += 1;
                run.enter(NodeState::Retried);
            }
            EventKind::ReviewRequested => run.enter(NodeState::Review),
            EventKind::ReviewAnswered => run.enter(NodeState::Running),
            EventKind::NodeSkipped => run.enter(NodeState::Skipped),
            EventKind::NodeFinished => {
                run.pinned = event.get("pinned").and_then(Value::as_bool) == Some(true);
                let state = finished_state(event, run);
                run.enter(state);
            }
            _ => {}
        }
    }

    /// Folds in something the studio did.
    pub fn mark(&mut self, mark: &Mark) {
        match mark {
            Mark::Breakpoint(node) => self
                .nodes
                .entry(node.clone())
                .or_default()
                .enter(NodeState::Waiting),
            Mark::Resumed => self.each_in(&[NodeState::Waiting], NodeState::Running),
            Mark::Stopped => {
                self.stopped = true;
                self.each_in(
                    &[
                        NodeState::Running,
                        NodeState::Retried,
                        NodeState::Waiting,
                        NodeState::Review,
                    ],
                    NodeState::Interrupted,
                );
                self.each_in(&[NodeState::Queued], NodeState::Cancelled);
            }
        }
    }

    /// Every node now in one of `from` enters `to`.
    fn each_in(&mut self, from: &[NodeState], to: NodeState) {
        for run in self.nodes.values_mut() {
            if run.state().is_some_and(|s| from.contains(&s)) {
                run.enter(to);
            }
        }
    }

    fn queue_plan(&mut self, event: &Value) {
        let planned = event
            .pointer("/plan/nodes")
            .and_then(Value::as_array)
            .into_iter()
            .flatten();
        for node in planned {
            let Some(id) = node.get("id").and_then(Value::as_str) else {
                continue;
            };
            let run = self.nodes.entry(id.to_owned()).or_default();
            run.kind = node.get("kind").and_then(Value::as_str).map(str::to_owned);
            run.enter(NodeState::Queued);
        }
    }

    /// The run is over: what was still in progress never finished, and what never started was
    /// not reached (a completed run took another route) or cancelled (the run ended early).
    fn finish(&mut self, event: &Value) {
        let status = event.get("status").and_then(Value::as_str);
        self.finished = status.map(str::to_owned);
        let completed = status == Some("completed");
        for run in self.nodes.values_mut() {
            match run.state() {
                Some(state) if state.in_progress() => run.enter(NodeState::Cancelled),
                Some(NodeState::Queued) if completed => {
                    run.not_reached = true;
                    run.enter(NodeState::Skipped);
                }
                Some(NodeState::Queued) => run.enter(NodeState::Cancelled),
                _ => {}
            }
        }
    }

    fn refuse(&mut self, event: &Value) {
        let unmet = event.get("unmet").and_then(Value::as_array);
        for obligation in unmet.into_iter().flatten() {
            let text = |key: &str| {
                obligation
                    .get(key)
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_owned()
            };
            let node = text("node");
            self.nodes
                .entry(node.clone())
                .or_default()
                .enter(NodeState::Refused);
            self.unmet.push((node, text("rule"), text("reason")));
        }
    }

    /// How many state changes the nodes went through (initial queueing included).
    pub fn changes(&self) -> usize {
        self.nodes.values().map(|n| n.history.len()).sum()
    }

    /// The states some node is in now, in the legend's order.
    pub fn present(&self) -> Vec<NodeState> {
        ALL.into_iter()
            .filter(|s| self.nodes.values().any(|n| n.state() == Some(*s)))
            .collect()
    }
}

/// A node's state once `node_finished` says how it ended: a verify node (by the plan) whose
/// report has blocking failures found them (it is neither crashed nor a success). A node that
/// passes such a report on (a gate) succeeded.
fn finished_state(event: &Value, run: &mut NodeRun) -> NodeState {
    if event.get("status").and_then(Value::as_str) != Some("succeeded") {
        return NodeState::Failed;
    }
    if run.kind.as_deref() != Some("verify") {
        return NodeState::Succeeded;
    }
    let failures = event
        .pointer("/output/blocking_failures")
        .and_then(Value::as_u64)
        .unwrap_or(0);
    let failed_report = event.pointer("/output/passed") == Some(&Value::Bool(false));
    if failures > 0 || (failed_report && event.pointer("/output/results").is_some()) {
        run.failures = failures;
        NodeState::FoundFailures
    } else {
        NodeState::Succeeded
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn trace() -> Vec<Value> {
        vec![
            json!({"event": "run_started", "plan": {"nodes": [{"id": "a"}, {"id": "b"}, {"id": "c"}]}}),
            json!({"event": "node_started", "node": "a"}),
            json!({"event": "model_requested", "node": "a", "attempt": 1}),
            json!({"event": "retried", "node": "a"}),
            json!({"event": "model_requested", "node": "a", "attempt": 2}),
            json!({"event": "node_finished", "node": "a", "status": "succeeded"}),
            json!({"event": "node_skipped", "node": "b"}),
            json!({"event": "node_started", "node": "p"}),
            json!({"event": "node_finished", "node": "p", "status": "succeeded", "pinned": true}),
            json!({"event": "node_started", "node": "c"}),
            json!({"event": "node_finished", "node": "c", "status": "failed"}),
            json!({"event": "refused", "unmet": [{"node": "c", "rule": "r1", "reason": "no"}]}),
            json!({"event": "run_finished", "status": "refused"}),
        ]
    }

    #[test]
    fn every_node_goes_through_the_states_its_events_name() {
        use NodeState::*;
        let states = RunStates::after(&trace());
        let history = |id: &str| states.nodes[id].history.clone();
        assert_eq!(history("a"), vec![Queued, Running, Retried, Succeeded]);
        assert_eq!(history("b"), vec![Queued, Skipped]);
        assert_eq!(history("c"), vec![Queued, Running, Failed, Refused]);
        assert_eq!(states.nodes["a"].caption(), "✓ succeeded · retried 1×");
        assert_eq!(states.nodes["a"].calls, 2);
        assert_eq!(states.nodes["p"].caption(), "✓ succeeded · ◆ pinned");
        assert_eq!(states.changes(), 12);
        assert_eq!(states.finished.as_deref(), Some("refused"));
        assert_eq!(states.unmet, vec![("c".into(), "r1".into(), "no".into())]);
    }

    #[test]
    fn folding_in_slices_equals_folding_at_once() {
        let events = trace();
        for cut in 0..=events.len() {
            let mut live = RunStates::after(&events[..cut]);
            for event in &events[cut..] {
                live.apply(event);
            }
            assert_eq!(live, RunStates::after(&events));
        }
    }

    /// Issue #31: a node in progress when a refusal ends the run does not stay "running".
    #[test]
    fn the_end_of_a_run_cancels_what_was_in_progress_or_never_started() {
        use NodeState::*;
        let events = vec![
            json!({"event": "run_started", "plan": {"nodes": [{"id": "a"}, {"id": "b"}, {"id": "c"}]}}),
            json!({"event": "node_started", "node": "a"}),
            json!({"event": "node_started", "node": "b"}),
            json!({"event": "refused", "unmet": [{"node": "a", "rule": "r", "reason": "x"}]}),
            json!({"event": "run_finished", "status": "refused"}),
        ];
        let states = RunStates::after(&events);
        assert_eq!(states.nodes["a"].state(), Some(Refused));
        assert_eq!(states.nodes["b"].state(), Some(Cancelled));
        assert_eq!(states.nodes["c"].state(), Some(Cancelled));
        // A completed run that took another route: the nodes it never reached say so.
        let completed = vec![
            json!({"event": "run_started", "plan": {"nodes": [{"id": "a"}, {"id": "b"}]}}),
            json!({"event": "node_started", "node": "a"}),
            json!({"event": "node_finished", "node": "a", "status": "succeeded"}),
            json!({"event": "run_finished", "status": "completed"}),
        ];
        let states = RunStates::after(&completed);
        assert_eq!(states.nodes["b"].state(), Some(Skipped));
        assert_eq!(states.nodes["b"].caption(), "↷ not reached");
    }

    /// Issue #31: a breakpoint shows "waiting", Stop interrupts what was in progress.
    #[test]
    fn marks_fold_in_where_they_happened() {
        use NodeState::*;
        let events = vec![
            json!({"event": "run_started", "plan": {"nodes": [{"id": "a"}, {"id": "b"}]}}),
            json!({"event": "node_started", "node": "a"}),
        ];
        let paused = RunStates::after_marked(&events, &[(2, Mark::Breakpoint("a".into()))]);
        assert_eq!(paused.nodes["a"].state(), Some(Waiting));
        assert_eq!(paused.nodes["a"].caption(), "◉ waiting at breakpoint");
        let marks = [
            (2, Mark::Breakpoint("a".into())),
            (2, Mark::Resumed),
            (2, Mark::Stopped),
        ];
        let stopped = RunStates::after_marked(&events, &marks);
        assert_eq!(
            stopped.nodes["a"].history,
            vec![Queued, Running, Waiting, Running, Interrupted]
        );
        assert_eq!(stopped.nodes["b"].state(), Some(Cancelled));
        assert!(stopped.stopped);
        // A prefix before the marks does not see them.
        assert_eq!(
            RunStates::after_marked(&events[..1], &marks).nodes["a"].state(),
            Some(Queued)
        );
    }

    /// Issue #31: a verify node that found blocking failures is neither crashed nor a success.
    #[test]
    fn a_verify_node_with_blocking_failures_found_them() {
        let report = json!({"passed": false, "blocking_failures": 2, "warnings": 0, "results": []});
        let events = vec![
            json!({"event": "run_started", "plan": {"nodes": [
                {"id": "check", "kind": "verify"}, {"id": "ok", "kind": "verify"}, {"id": "gate", "kind": "gate"}
            ]}}),
            json!({"event": "node_started", "node": "check"}),
            json!({"event": "node_finished", "node": "check", "status": "succeeded", "output": report}),
            json!({"event": "node_finished", "node": "ok", "status": "succeeded",
                "output": {"passed": true, "blocking_failures": 0, "results": []}}),
            // A gate passing the report on is not the verify node that found the failures.
            json!({"event": "node_finished", "node": "gate", "status": "succeeded", "output": report}),
        ];
        let states = RunStates::after(&events);
        assert_eq!(
            states.nodes["check"].state(),
            Some(NodeState::FoundFailures)
        );
        assert_eq!(
            states.nodes["check"].caption(),
            "▲ found 2 blocking failures"
        );
        assert_eq!(states.nodes["ok"].state(), Some(NodeState::Succeeded));
        assert_eq!(states.nodes["gate"].state(), Some(NodeState::Succeeded));
        assert_eq!(
            states.present(),
            vec![NodeState::Succeeded, NodeState::FoundFailures]
        );
        // Without a plan saying it is a verify node, a report is just an output.
        let alone = RunStates::after(&events[1..3]);
        assert_eq!(alone.nodes["check"].state(), Some(NodeState::Succeeded));
    }
}
