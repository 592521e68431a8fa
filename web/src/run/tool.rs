//! A verification that needs the world (the engine's `CallTool`), answered by the person in the
//! node card: pass or fail, with the evidence they saw (auto-answer off). The answer is fed to
//! the engine as the tool's verdict, so the run routes (or refuses) as it would on a tool's.

use leptos::prelude::*;

use super::RunState;

/// The pending tool check of `node`, if it waits for the person.
#[component]
pub fn ToolCheckBox(node: String) -> impl IntoView {
    let run = expect_context::<RunState>();
    let evidence = RwSignal::new(String::new());
    let mine = move || {
        run.phase
            .with(|p| p.tool().filter(|check| check.node == node).cloned())
    };
    let answer = move |passed: bool| {
        run.answer_tool(passed, evidence.get_untracked());
        evidence.set(String::new());
    };
    move || {
        mine().map(|check| {
            let arguments = serde_json::to_string_pretty(&check.arguments).unwrap_or_default();
            let tool = check.tool.clone();
            view! {
                <div class="run-tool" role="group" aria-label="Tool check" data-testid="tool-check" data-tool=tool>
                    <p><strong>"Check by hand: "</strong><code>{check.tool}</code></p>
                    <pre data-testid="tool-arguments">{arguments}</pre>
                    <label class="field">
                        <span class="field-label">"Evidence (what you saw)"</span>
                        <textarea data-testid="tool-evidence" rows="2"
                            prop:value=move || evidence.get()
                            on:input=move |ev| evidence.set(event_target_value(&ev))></textarea>
                    </label>
                    <div class="run-buttons">
                        <button data-testid="tool-pass" on:click=move |_| answer(true)>"✓ Passes"</button>
                        <button data-testid="tool-fail" on:click=move |_| answer(false)>"✗ Fails"</button>
                    </div>
                </div>
            }
        })
    }
}
