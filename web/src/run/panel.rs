//! The Run panel: input, provider, Run / Pause / Step / Stop, a review's buttons, a refusal's
//! unmet obligations, the node card and the trace.

use leptos::prelude::*;
use serde_json::Value;

use super::card::NodeCard;
use super::input::InputForm;
use super::trace::TraceView;
use super::{Endpoint, Phase, ProviderChoice, RunState};
use crate::state::Studio;

#[component]
pub fn RunPanel() -> impl IntoView {
    let studio = expect_context::<Studio>();
    let run = expect_context::<RunState>();
    // Hidden rather than removed, so a run, its input and its endpoint survive hiding the panel.
    let room = expect_context::<crate::room::Room>();
    let input = run.input;
    let input_error = RwSignal::new(None::<String>);
    let provider = RwSignal::new("synthetic".to_owned());
    let script = RwSignal::new(String::new());
    // The endpoint, the key included, lives in these signals only (memory): never autosaved,
    // shared or traced.
    let base_url = RwSignal::new("http://127.0.0.1:11434/v1".to_owned());
    let model = RwSignal::new(String::new());
    let key = RwSignal::new(String::new());

    // The first Run waits for run mode's chunk: the button stays focusable (a disabled button
    // would drop a keyboard user's focus) and says it is busy; a second click meanwhile does
    // nothing (`RunState::start`).
    let loading = move || run.starting.get();
    let on_run = move |_| {
        let value: Value = match serde_json::from_str(&input.get_untracked()) {
            Ok(value) => value,
            Err(e) => {
                input_error.set(Some(format!("The input is not JSON: {e}")));
                return;
            }
        };
        input_error.set(None);
        let choice = match provider.get_untracked().as_str() {
            "scripted" => ProviderChoice::Scripted(script.get_untracked()),
            "openai" => ProviderChoice::OpenAi(Endpoint {
                base_url: base_url.get_untracked(),
                model: model.get_untracked(),
                key: Some(key.get_untracked()).filter(|k| !k.is_empty()),
            }),
            _ => ProviderChoice::Synthetic,
        };
        studio
            .text
            .with_untracked(|text| run.start(text, value, &choice));
    };
    let running = move || run.phase.get() == Phase::Running;
    let paused = move || matches!(run.phase.get(), Phase::Paused(_));
    let review_open = move || run.review.with(Option::is_some) || run.tool.with(Option::is_some);
    let active = move || running() || paused();

    view! {
        <section class="run-panel" id="run-panel" data-testid="run-panel" aria-label="Run"
            hidden=move || !room.run_open.get()>
            <div class="run-controls">
                <h2>"Run"</h2>
                <div class="run-buttons" role="toolbar">
                    <button data-testid="run" class="primary" on:click=on_run disabled=active
                        aria-busy=move || loading().to_string()
                        on:pointerenter=move |_| run.preload() on:focus=move |_| run.preload()>
                        {move || if loading() { "… Loading run mode" } else { "▶ Run" }}
                    </button>
                    <button data-testid="run-pause" on:click=move |_| run.pause() disabled=move || !running()>"‖ Pause"</button>
                    <button data-testid="run-continue" on:click=move |_| run.resume() disabled=move || !paused() || review_open()>"▶ Continue"</button>
                    <button data-testid="run-step" on:click=move |_| run.step() disabled=move || !paused() || review_open()>"↦ Step"</button>
                    <button data-testid="run-stop" on:click=move |_| run.stop() disabled=move || !active()>"■ Stop"</button>
                </div>
                <p class="run-status" data-testid="run-status" data-phase=move || run.phase.get().label()
                    data-changes=move || run.states.with(|s| s.changes())
                    data-engine-ms=move || run.frame_ms.with(|f| engine_summary(f)) role="status">
                    {move || if loading() { "loading run mode…".to_owned() } else { run.phase.get().label() }}
                    " · "
                    {move || run.events.with(Vec::len)} " events"
                </p>
                <label class="field">
                    <span class="field-label">"Provider"</span>
                    <select data-testid="run-provider" on:change=move |ev| provider.set(event_target_value(&ev))>
                        <option value="synthetic" selected>"Synthetic (no network)"</option>
                        <option value="scripted">"Scripted (answers from a script)"</option>
                        <option value="openai">"OpenAI-compatible endpoint"</option>
                    </select>
                </label>
                {move || (provider.get() == "openai").then(|| view! {
                    <p class="muted">"The browser calls the endpoint directly: it must allow this page by CORS (a local Ollama: OLLAMA_ORIGINS). The key stays in this page's memory: never saved, shared or written to the trace."</p>
                    <label class="field">
                        <span class="field-label">"Base URL (before /chat/completions)"</span>
                        <input data-testid="run-base-url" prop:value=move || base_url.get() on:input=move |ev| base_url.set(event_target_value(&ev)) />
                    </label>
                    <label class="field">
                        <span class="field-label">"Model"</span>
                        <input data-testid="run-model" prop:value=move || model.get() on:input=move |ev| model.set(event_target_value(&ev)) />
                    </label>
                    <label class="field">
                        <span class="field-label">"API key (optional)"</span>
                        <input type="password" autocomplete="off" data-testid="run-key" prop:value=move || key.get() on:input=move |ev| key.set(event_target_value(&ev)) />
                    </label>
                })}
                {move || (provider.get() == "scripted").then(|| view! {
                    <label class="field">
                        <span class="field-label">"Script (YAML list or JSON Lines, or a trace)"</span>
                        <textarea data-testid="run-script" rows="5" spellcheck="false"
                            prop:value=move || script.get()
                            on:input=move |ev| script.set(event_target_value(&ev))></textarea>
                    </label>
                })}
                <label class="field-inline">
                    <input type="checkbox" data-testid="run-auto-answer" prop:checked=move || run.auto_answer.get()
                        on:change=move |ev| run.auto_answer.set(event_target_checked(&ev)) />
                    " Auto-answer tool checks as unverifiable (else you answer them in the node card)"
                </label>
                <InputForm input=input />
                <label class="field">
                    <span class="field-label">"Input (JSON)"</span>
                    <textarea data-testid="run-input" rows="4" spellcheck="false"
                        prop:value=move || input.get()
                        on:input=move |ev| input.set(event_target_value(&ev))></textarea>
                </label>
                {move || input_error.get().map(|m| view! { <p class="field-error" role="alert">{m}</p> })}
                <ReviewBox />
                <Refusal />
            </div>
            <NodeCard />
            <TraceView />
        </section>
    }
}

/// A review waiting for a person: its message, its input and one button per action.
#[component]
fn ReviewBox() -> impl IntoView {
    let run = expect_context::<RunState>();
    move || {
        run.review.get().map(|review| {
            let input = serde_json::to_string_pretty(&review.input).unwrap_or_default();
            view! {
                <div class="run-review" data-testid="run-review" role="alertdialog" aria-label="Review">
                    <p><strong>"‖ Review at " {review.node.clone()}</strong></p>
                    {review.message.clone().map(|m| view! { <p class="review-message">{m}</p> })}
                    <pre>{input}</pre>
                    <div class="run-buttons">
                        {review.actions.iter().map(|action| {
                            let choice = action.clone();
                            view! {
                                <button data-testid="review-action" data-action=action.clone()
                                    on:click=move |_| run.decide(&choice)>{action.clone()}</button>
                            }
                        }).collect_view()}
                    </div>
                </div>
            }
        })
    }
}

/// A refusal: each unmet obligation, linked to its node.
#[component]
fn Refusal() -> impl IntoView {
    let studio = expect_context::<Studio>();
    let run = expect_context::<RunState>();
    let select = move |name: &str| {
        let id = studio.graph.with_untracked(|g| {
            g.as_ref().and_then(|g| {
                g.nodes
                    .iter()
                    .find(|n| n.name == name)
                    .map(|n| n.id.clone())
            })
        });
        if let Some(id) = id {
            studio.selected.set(Some(id.clone()));
            studio.reveal_request.set(Some(id));
        }
    };
    move || {
        let unmet = run.states.with(|s| s.unmet.clone());
        (!unmet.is_empty()).then(|| view! {
            <div class="run-refusal" data-testid="run-refusal" role="alert">
                <p><strong>"⊗ Refused: obligations unmet"</strong></p>
                <ul>
                    {unmet.into_iter().map(|(node, rule, reason)| {
                        let target = node.clone();
                        view! {
                            <li data-testid="unmet" data-node=node.clone() data-rule=rule.clone()>
                                <button class="link" on:click=move |_| select(&target)>{node.clone()}</button>
                                " · " <code>{rule.clone()}</code> " — " {reason}
                            </li>
                        }
                    }).collect_view()}
                </ul>
            </div>
        })
    }
}

/// The engine's milliseconds per frame of the run: `frames median max` (for the measurements).
fn engine_summary(frames: &[f64]) -> String {
    let mut sorted = frames.to_vec();
    sorted.sort_by(f64::total_cmp);
    let median = sorted.get(sorted.len() / 2).copied().unwrap_or(0.0);
    let max = sorted.last().copied().unwrap_or(0.0);
    format!("{} {median:.2} {max:.2}", sorted.len())
}
