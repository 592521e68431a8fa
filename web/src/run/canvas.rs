//! What the canvas draws of a run: a node's state (colour, icon and words, never colour alone)
//! and whether a wire carried data. Both read [`RunState::states`], which changes once per frame.

use leptos::prelude::*;

use super::states::NodeState;
use super::RunState;
use crate::geometry::NODE_WIDTH;

/// The node's `data-run-state` while a run (or a replay) mentions it.
pub fn run_state_of(name: String) -> impl Fn() -> Option<&'static str> + Send + Sync + 'static {
    let run = use_context::<RunState>();
    move || {
        run?.states
            .with(|s| s.nodes.get(&name).and_then(|n| n.state()))
            .map(NodeState::name)
    }
}

/// Every node's run state (node name → `data-run-state`), tracked: the far canvas paints them
/// all at once rather than one closure per node.
pub fn run_states(
) -> impl Fn() -> rustc_hash::FxHashMap<String, &'static str> + Copy + Send + Sync + 'static {
    let run = use_context::<RunState>();
    move || {
        run.map(|run| {
            run.states.with(|s| {
                s.nodes
                    .iter()
                    .filter_map(|(name, n)| Some((name.clone(), n.state()?.name())))
                    .collect()
            })
        })
        .unwrap_or_default()
    }
}

/// The pill above a node: icon and state in words (retries counted).
pub fn node_run_view(name: String) -> impl IntoView {
    let run = use_context::<RunState>();
    move || {
        let run = run?;
        let caption = run.states.with(|s| s.nodes.get(&name).map(|n| n.caption()));
        let pin_set = run.pins.with(|p| p.contains_key(&name));
        // A pin the user set shows before any run, and after one that did not use it yet.
        let caption = match (caption, pin_set) {
            (Some(c), true) if !c.contains("pinned") => format!("{c} · ◆ pin set"),
            (None, true) => "◆ pinned".to_owned(),
            (caption, _) => caption?,
        };
        let caption = match elapsed_s(run, &name) {
            Some(seconds) => format!("{caption} · {seconds:.1} s"),
            None => caption,
        };
        Some(view! {
            <g class="node-run" transform="translate(0,-24)">
                <rect class="node-run-pill" width=NODE_WIDTH height="20" rx="10"></rect>
                <text class="node-run-caption" x="10" y="14">{caption}</text>
            </g>
        })
    }
}

/// Whether the wire from node `source` to node `target` (names in the trace) carried data: the
/// source finished and the target then started.
pub fn carried(source: String, target: String) -> impl Fn() -> bool + Send + Sync + 'static {
    let run = use_context::<RunState>();
    move || {
        run.is_some_and(|run| {
            run.states.with(|s| {
                let state = |name: &str| s.nodes.get(name).and_then(|n| n.state());
                let started = s.nodes.get(&target).is_some_and(|n| {
                    n.history
                        .iter()
                        .any(|h| !matches!(h, NodeState::Queued | NodeState::Skipped))
                });
                state(&source) == Some(NodeState::Succeeded) && started
            })
        })
    }
}

/// Seconds since the node started running, on the page clock (while it runs in a live run).
// Only a running node reads the clock and the start times: a thousand idle pills must not be
// redrawn at every tick.
fn elapsed_s(run: RunState, name: &str) -> Option<f64> {
    let state = run
        .states
        .with(|s| s.nodes.get(name).and_then(|n| n.state()));
    if state != Some(NodeState::Running) {
        return None;
    }
    let since = run.running_since.with(|r| r.get(name).copied())?;
    Some((run.clock.get() - since).max(0.0) / 1000.0)
}
