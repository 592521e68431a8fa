//! What a run starts with: the provider (synthetic, a script, an OpenAI-compatible endpoint), the
//! tool-check choice and the input. Kept in memory only: the endpoint's key is never stored.

use leptos::prelude::*;

use super::input::InputForm;
use super::RunState;

/// The run's setup, shared by the toolbar's Run and the panel.
#[derive(Clone, Copy)]
pub struct SetupFields {
    pub provider: RwSignal<String>,
    pub script: RwSignal<String>,
    // The endpoint, the key included, lives in these signals only (memory): never autosaved,
    // shared or traced.
    pub base_url: RwSignal<String>,
    pub model: RwSignal<String>,
    pub key: RwSignal<String>,
    pub input_error: RwSignal<Option<String>>,
}

impl SetupFields {
    pub fn new() -> SetupFields {
        SetupFields {
            provider: RwSignal::new("synthetic".to_owned()),
            script: RwSignal::new(String::new()),
            base_url: RwSignal::new("http://127.0.0.1:11434/v1".to_owned()),
            model: RwSignal::new(String::new()),
            key: RwSignal::new(String::new()),
            input_error: RwSignal::new(None),
        }
    }
}

impl Default for SetupFields {
    fn default() -> Self {
        SetupFields::new()
    }
}

#[component]
pub fn Setup() -> impl IntoView {
    let run = expect_context::<RunState>();
    let setup = expect_context::<SetupFields>();
    let input = run.input;
    view! {
        <details class="run-setup" open>
            <summary>"Provider and input"</summary>
            <label class="field">
                <span class="field-label">"Provider"</span>
                <select data-testid="run-provider" prop:value=move || setup.provider.get()
                    on:change=move |ev| setup.provider.set(event_target_value(&ev))>
                    <option value="synthetic">"Synthetic (no network)"</option>
                    <option value="scripted">"Scripted (answers from a script)"</option>
                    <option value="openai">"OpenAI-compatible endpoint"</option>
                </select>
            </label>
            {move || (setup.provider.get() == "openai").then(|| view! { <Endpoint /> })}
            {move || (setup.provider.get() == "scripted").then(|| view! {
                <label class="field">
                    <span class="field-label">"Script (YAML list or JSON Lines, or a trace)"</span>
                    <textarea data-testid="run-script" rows="5" spellcheck="false"
                        prop:value=move || setup.script.get()
                        on:input=move |ev| setup.script.set(event_target_value(&ev))></textarea>
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
            {move || setup.input_error.get().map(|m| view! { <p class="field-error" role="alert">{m}</p> })}
        </details>
    }
}

/// The OpenAI-compatible endpoint: address, model and key.
#[component]
fn Endpoint() -> impl IntoView {
    let setup = expect_context::<SetupFields>();
    view! {
        <p class="muted">"The browser calls the endpoint directly: it must allow this page by CORS (a local Ollama: OLLAMA_ORIGINS). The key stays in this page's memory: never saved, shared or written to the trace."</p>
        <label class="field">
            <span class="field-label">"Base URL (before /chat/completions)"</span>
            <input data-testid="run-base-url" prop:value=move || setup.base_url.get() on:input=move |ev| setup.base_url.set(event_target_value(&ev)) />
        </label>
        <label class="field">
            <span class="field-label">"Model"</span>
            <input data-testid="run-model" prop:value=move || setup.model.get() on:input=move |ev| setup.model.set(event_target_value(&ev)) />
        </label>
        <label class="field">
            <span class="field-label">"API key (optional)"</span>
            <input type="password" autocomplete="off" data-testid="run-key" prop:value=move || setup.key.get() on:input=move |ev| setup.key.set(event_target_value(&ev)) />
        </label>
    }
}
