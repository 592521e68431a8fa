//! The Run panel under the canvas, opened when a run starts: the controls and where the run is,
//! the outcome (a refusal's unmet obligations first, each linked to its node), the selected
//! node's card, and beside it the run's setup, the states' legend and the trace.

use leptos::prelude::*;
use serde_json::Value;

use super::card::NodeCard;
use super::outcome::{Legend, Outcome};
use super::setup::{Setup, SetupFields};
use super::trace::TraceView;
use super::{Endpoint, Phase, ProviderChoice, RunState};
use crate::room::Room;
use crate::state::Studio;

/// Starts a run of the studio's text with the panel's setup, and opens the panel.
pub fn run_now(studio: Studio, run: RunState, room: Room, setup: SetupFields) {
    room.run_open.set(true);
    let value: Value = match serde_json::from_str(&run.input.get_untracked()) {
        Ok(value) => value,
        Err(e) => {
            setup
                .input_error
                .set(Some(format!("The input is not JSON: {e}")));
            return;
        }
    };
    setup.input_error.set(None);
    let choice = match setup.provider.get_untracked().as_str() {
        "scripted" => ProviderChoice::Scripted(setup.script.get_untracked()),
        "openai" => ProviderChoice::OpenAi(Endpoint {
            base_url: setup.base_url.get_untracked(),
            model: setup.model.get_untracked(),
            key: Some(setup.key.get_untracked()).filter(|k| !k.is_empty()),
        }),
        _ => ProviderChoice::Synthetic,
    };
    studio
        .text
        .with_untracked(|text| run.start(text, value, &choice));
}

#[component]
pub fn RunPanel() -> impl IntoView {
    let run = expect_context::<RunState>();
    // Hidden rather than removed, so a run, its input and its endpoint survive hiding the panel.
    let room = expect_context::<Room>();
    super::input::follow_declared_inputs(expect_context::<Studio>(), run.input);
    // The panel's body (outcome, node card, setup, legend, trace) is run mode's code, in its
    // lazily loaded chunk: it is asked for once the panel is first opened (a run opens it), so a
    // first visit downloads none of it. Once made it stays, hidden with the panel.
    let opened = Memo::new(move |before: Option<&bool>| {
        before.copied().unwrap_or(false) || room.run_open.get()
    });
    let body = move || {
        opened
            .get()
            .then(|| run.mode_now().map(|mode| mode.panel()))
            .flatten()
    };
    view! {
        <section class="run-panel" id="run-panel" data-testid="run-panel" aria-label="Run"
            hidden=move || !room.run_open.get()>
            <RunBar />
            {body}
        </section>
        {move || run.phase.with(Phase::active).then(|| view! { <RevealPause /> })}
    }
}

/// The panel's body: run mode's chunk calls this (see [`super::engine::RunMode::panel`]).
pub fn body() -> AnyView {
    view! {
        <Outcome />
        <div class="run-body">
            <NodeCard />
            <div class="run-side">
                <Setup />
                <Legend />
                <TraceView />
            </div>
        </div>
    }
    .into_any()
}

/// Pause, Continue, Step and Stop, and where the run is.
#[component]
fn RunBar() -> impl IntoView {
    let run = expect_context::<RunState>();
    let room = expect_context::<Room>();
    let running = move || run.phase.get() == Phase::Running;
    let may_go_on = move || run.phase.with(Phase::may_go_on);
    let active = move || run.phase.with(Phase::active);
    let loading = move || run.starting.get();
    view! {
        <div class="run-bar">
            <h2>"Run"</h2>
            <div class="run-buttons" role="toolbar" aria-label="Run controls">
                <button data-testid="run-pause" on:click=move |_| run.pause() disabled=move || !running()>"‖ Pause"</button>
                <button data-testid="run-continue" on:click=move |_| run.resume() disabled=move || !may_go_on()>"▶ Continue"</button>
                <button data-testid="run-step" on:click=move |_| run.step() disabled=move || !may_go_on()>"↦ Step"</button>
                <button data-testid="run-stop" on:click=move |_| run.stop() disabled=move || !active()>"■ Stop"</button>
            </div>
            <p class="run-status" data-testid="run-status" data-phase=move || run.phase.get().label()
                data-changes=move || run.states.with(|s| s.changes())
                data-engine-ms=move || run.frame_ms.with(|f| engine_summary(f)) role="status">
                {move || if loading() { "loading run mode…".to_owned() } else { run.phase.get().label() }}
                " · "
                {move || run.events.with(Vec::len)} " events"
            </p>
            <button class="run-close" aria-label="Hide the Run panel" title="Hide the Run panel"
                on:click=move |_| room.run_open.set(false)>"×"</button>
        </div>
    }
}

/// While the run waits for the person at a node (a review, an escalation, a tool check, a
/// breakpoint), that node is selected and brought into view, so its card shows the form.
#[component]
fn RevealPause() -> impl IntoView {
    let studio = expect_context::<Studio>();
    let run = expect_context::<RunState>();
    let room = expect_context::<Room>();
    let waiting = Memo::new(move |_| {
        run.phase.with(|p| match p {
            Phase::Paused(super::Pause::Review(r)) => Some(r.node.clone()),
            Phase::Paused(super::Pause::Tool(t)) => Some(t.node.clone()),
            Phase::Paused(super::Pause::Breakpoint(node)) => Some(node.clone()),
            _ => None,
        })
    });
    Effect::new(move |_| {
        let Some(name) = waiting.get() else {
            return;
        };
        room.run_open.set(true);
        if let Some(id) = node_id(studio, &name) {
            studio.select_node(id.clone());
            studio.reveal_request.set(Some(id));
        }
        request_animation_frame(|| crate::browser::scroll_into_view(".run-card .card-asks"));
    });
}

/// The graph id of the node a trace names `name`.
pub fn node_id(studio: Studio, name: &str) -> Option<String> {
    studio.graph.with_untracked(|g| {
        g.as_ref()?
            .nodes
            .iter()
            .find(|n| n.name == name)
            .map(|n| n.id.clone())
    })
}

/// The engine's milliseconds per frame of the run: `frames median max` (for the measurements).
fn engine_summary(frames: &[f64]) -> String {
    let mut sorted = frames.to_vec();
    sorted.sort_by(f64::total_cmp);
    let median = sorted.get(sorted.len() / 2).copied().unwrap_or(0.0);
    let max = sorted.last().copied().unwrap_or(0.0);
    format!("{} {median:.2} {max:.2}", sorted.len())
}
