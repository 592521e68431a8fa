//! A node's run state, derived from trace events alone: a live run and a replayed trace fold the
//! same events through [`RunStates::apply`], so they draw the same canvas.

use std::collections::BTreeMap;

use logicmd::trace::{EventKind, NodeStatus};
use serde_json::Value;

/// What a node is doing (the `data-run-state` values of issue #16).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NodeState {
    Queued,
    Running,
    Retried,
    Succeeded,
    Failed,
    Skipped,
    Refused,
    Review,
}

impl NodeState {
    /// The `data-run-state` attribute and CSS class suffix.
    pub fn name(self) -> &'static str {
        match self {
            NodeState::Queued => "queued",
            NodeState::Running => "running",
            NodeState::Retried => "retried",
            NodeState::Succeeded => "succeeded",
            NodeState::Failed => "failed",
            NodeState::Skipped => "skipped",
            NodeState::Refused => "refused",
            NodeState::Review => "review",
        }
    }

    /// A glyph the headless fonts have, so the state is never told by colour alone.
    pub fn icon(self) -> &'static str {
        match self {
            NodeState::Queued => "…",
            NodeState::Running => "▷",
            NodeState::Retried => "↻",
            NodeState::Succeeded => "✓",
            NodeState::Failed => "✗",
            NodeState::Skipped => "↷",
            NodeState::Refused => "⊗",
            NodeState::Review => "‖",
        }
    }
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
        let word = match state {
            NodeState::Review => "waiting for review",
            other => other.name(),
        };
        let mut caption = format!("{} {word}", state.icon());
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

/// The state of every node a run has mentioned, and where the run is.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RunStates {
    pub nodes: BTreeMap<String, NodeRun>,
    /// How many events were folded in.
    pub seen: usize,
    /// `run_finished`'s status once the run is over.
    pub finished: Option<String>,
    /// The unmet obligations of a refusal: (node, rule, reason).
    pub unmet: Vec<(String, String, String)>,
}

impl RunStates {
    /// The states after `events`, from nothing.
    pub fn after(events: &[Value]) -> RunStates {
        let mut states = RunStates::default();
        for event in events {
            states.apply(event);
        }
        states
    }

    /// Folds one more event in.
    pub fn apply(&mut self, event: &Value) {
        let index = self.seen;
        self.seen += 1;
        let kind = EventKind::of_value(event);
        if kind == EventKind::RunStarted {
            self.queue_plan(event);
            return;
        }
        if kind == EventKind::RunFinished {
            self.finished = event
                .get("status")
                .and_then(Value::as_str)
                .map(str::to_owned);
            return;
        }
        if kind == EventKind::Refused {
            self.refuse(event);
            return;
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
            EventKind::NodeSkipped => run.enter(NodeState::Skipped),
            EventKind::NodeFinished => {
                run.pinned = event.get("pinned").and_then(Value::as_bool) == Some(true);
                let status = event.get("status").cloned().unwrap_or_default();
                match serde_json::from_value(status) {
                    Ok(NodeStatus::Succeeded) => run.enter(NodeState::Succeeded),
                    _ => run.enter(NodeState::Failed),
                }
            }
            _ => {}
        }
    }

    fn queue_plan(&mut self, event: &Value) {
        let planned = event
            .pointer("/plan/nodes")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|n| n.get("id").and_then(Value::as_str));
        for id in planned {
            self.nodes
                .entry(id.to_owned())
                .or_default()
                .enter(NodeState::Queued);
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
}
