//! How the run ended, said first: a refusal with its unmet obligations (each linked to its
//! node), a failure with its error, a Stop with what it interrupted. And the legend of the
//! states the canvas draws.

use leptos::prelude::*;
use serde_json::Value;

use super::states::{NodeState, ALL};
use super::{Phase, RunState};
use crate::state::Studio;

/// Selects the node a trace names `name` and brings it into view (its card shows it).
pub fn show_node(studio: Studio, name: &str) {
    if let Some(id) = super::panel::node_id(studio, name) {
        studio.select_node(id.clone());
        studio.reveal_request.set(Some(id));
    }
}

#[component]
pub fn Outcome() -> impl IntoView {
    let run = expect_context::<RunState>();
    move || {
        let phase = run.phase.get();
        let finished = run.states.with(|s| s.finished.clone());
        match (phase, finished.as_deref()) {
            (_, Some("refused")) => view! { <Refusal /> }.into_any(),
            (_, Some("failed")) => {
                let error = run.events.with(|e| failure(e)).unwrap_or_default();
                view! {
                    <div class="run-outcome failed" data-testid="run-outcome" data-outcome="failed" role="status">
                        <strong>"✗ Failed"</strong> " — " {error}
                    </div>
                }
                .into_any()
            }
            (Phase::Stopped(why), _) => {
                let counts = run.states.with(|s| {
                    let count = |state| s.nodes.values().filter(|n| n.state() == Some(state)).count();
                    (count(NodeState::Interrupted), count(NodeState::Cancelled))
                });
                let said = if why == "by you" {
                    format!(
                        "by you: {} interrupted, {} cancelled (never started)",
                        counts.0, counts.1
                    )
                } else {
                    why
                };
                view! {
                    <div class="run-outcome stopped" data-testid="run-outcome" data-outcome="stopped" role="status">
                        <strong>"■ Stopped"</strong> " " {said}
                    </div>
                }
                .into_any()
            }
            (_, Some("completed")) => view! {
                <div class="run-outcome completed" data-testid="run-outcome" data-outcome="completed" role="status">
                    <strong>"✓ Completed"</strong> " — the run reached its end"
                </div>
            }
            .into_any(),
            _ => ().into_any(),
        }
    }
}

/// `run_finished`'s error, if the run failed.
fn failure(events: &[Value]) -> Option<String> {
    events
        .iter()
        .rev()
        .find(|e| e["event"] == "run_finished")
        .and_then(|e| e["error"].as_str().map(str::to_owned))
}

/// A refusal: each unmet obligation, linked to its node.
#[component]
fn Refusal() -> impl IntoView {
    let studio = expect_context::<Studio>();
    let run = expect_context::<RunState>();
    move || {
        let unmet = run.states.with(|s| s.unmet.clone());
        let count = unmet.len();
        view! {
            <div class="run-outcome run-refusal" data-testid="run-refusal" data-outcome="refused" role="alert">
                <p><strong>{format!("⊗ Refused: {count} obligation{} unmet", if count == 1 { "" } else { "s" })}</strong>
                    " — the run will not pass on output that failed them"</p>
                <ul>
                    {unmet.into_iter().map(|(node, rule, reason)| {
                        let target = node.clone();
                        view! {
                            <li data-testid="unmet" data-node=node.clone() data-rule=rule.clone()>
                                <button class="link" on:click=move |_| show_node(studio, &target)>{node.clone()}</button>
                                " · " <code>{rule.clone()}</code> " — " {reason}
                            </li>
                        }
                    }).collect_view()}
                </ul>
            </div>
        }
    }
}

/// What each state drawn on the canvas means; the states of this run first.
#[component]
pub fn Legend() -> impl IntoView {
    let run = expect_context::<RunState>();
    let present = Memo::new(move |_| run.states.with(|s| s.present()));
    view! {
        <details class="run-legend" data-testid="run-legend">
            <summary>"What the states mean"</summary>
            <ul>
                {ALL.into_iter().map(|state| view! {
                    <li data-state=state.name() class:present=move || present.with(|p| p.contains(&state))>
                        <span class="legend-pill" data-run-state=state.name()>{format!("{} {}", state.icon(), state.words())}</span>
                        " " {state.meaning()}
                    </li>
                }).collect_view()}
            </ul>
        </details>
    }
}
