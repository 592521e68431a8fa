//! Pinning a node's output and running again from a node (n8n's pin data and partial
//! re-execution), in the node card: the pin is edited as JSON, checked by the engine (nodes
//! that check or route cannot be pinned), and shown on the node; "Run from here" runs the
//! document again keeping every output the node does not depend on from the last trace.

use leptos::prelude::*;
use serde_json::Value;

use super::{Phase, RunState};
use crate::state::Studio;

/// The node's last output in the run shown, as the pin editor starts with it.
fn last_output(run: RunState, node: &str) -> Option<Value> {
    let indices = run
        .states
        .with_untracked(|s| s.nodes.get(node).map(|n| n.events.clone()))?;
    run.events.with_untracked(|all| {
        indices
            .iter()
            .rev()
            .filter_map(|&i| all.get(i))
            .find(|e| e["event"] == "node_finished" && e["status"] == "succeeded")
            .map(|e| e["output"].clone())
    })
}

fn pretty(value: &Value) -> String {
    serde_json::to_string_pretty(value).unwrap_or_default()
}

#[component]
pub fn PinEditor(node: String) -> impl IntoView {
    let studio = expect_context::<Studio>();
    let run = expect_context::<RunState>();
    let node = StoredValue::new(node);
    let pinned = move || node.with_value(|n| run.pins.with(|p| p.get(n).cloned()));
    let draft = RwSignal::new(String::new());
    let error = RwSignal::new(None::<String>);
    // The editor shows the pin, else the node's last output, whenever the node or run changes.
    Effect::new(move |_| {
        run.events.track();
        let shown = pinned().or_else(|| node.with_value(|n| last_output(run, n)));
        draft.set(shown.as_ref().map(pretty).unwrap_or_default());
    });
    let pin = move |_| {
        let value: Value = match serde_json::from_str(&draft.get_untracked()) {
            Ok(value) => value,
            Err(e) => {
                error.set(Some(format!("The pinned output is not JSON: {e}")));
                return;
            }
        };
        let name = node.get_value();
        let text = studio.text.get_untracked();
        // The engine says whether the node can be pinned: run mode's chunk, fetched if need be.
        run.with_mode(
            move |mode| match mode.check_pin(&text, &name, value.clone()) {
                Ok(()) => {
                    error.set(None);
                    run.pins.update(|p| {
                        p.insert(name, value);
                    });
                }
                Err(reason) => error.set(Some(reason)),
            },
        );
    };
    let unpin = move |_| {
        error.set(None);
        node.with_value(|n| {
            run.pins.update(|p| {
                p.remove(n);
            })
        });
    };
    let run_from = move |_| {
        let name = node.get_value();
        studio
            .text
            .with_untracked(|text| run.start_from(text, &name));
    };
    let busy = move || run.phase.with(Phase::active);
    let never_ran = move || run.events.with(Vec::is_empty);
    view! {
        <details class="run-part run-pin" data-part="pin" open>
            <summary>"pin output · run from here"</summary>
            <p class="muted" data-testid="pin-status">
                {move || if pinned().is_some() {
                    "◆ pinned: every run uses this output instead of calling the model"
                } else {
                    "Not pinned: edit the output as JSON and pin it to reuse it in the next runs."
                }}
            </p>
            <textarea data-testid="pin-editor" rows="5" spellcheck="false" aria-label="Pinned output (JSON)"
                prop:value=move || draft.get()
                on:input=move |ev| draft.set(event_target_value(&ev))></textarea>
            {move || error.get().map(|m| view! { <p class="field-error" role="alert" data-testid="pin-error">{m}</p> })}
            <div class="run-buttons">
                <button data-testid="pin" on:click=pin>"◆ Pin output"</button>
                <button data-testid="unpin" on:click=unpin disabled=move || pinned().is_none()>"Unpin"</button>
                <button data-testid="run-from" on:click=run_from disabled=move || busy() || never_ran()
                    title="Run again: this node and what depends on it call the model, the rest keeps the last run's outputs">
                    "▶ Run from here"
                </button>
            </div>
        </details>
    }
}
