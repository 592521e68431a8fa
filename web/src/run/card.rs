//! The node card: what the selected node received and produced in the run, read from the trace
//! events about it (so a replayed trace shows the same card), each part with a Copy button.

use leptos::prelude::*;
use leptos::task::spawn_local;
use serde_json::{json, Value};

use super::pin::PinEditor;
use super::tool::ToolCheckBox;
use super::RunState;
use crate::browser;
use crate::state::Studio;

/// The parts of a node's card, from its events (in order).
pub fn card_parts(events: &[&Value]) -> Vec<(&'static str, Value)> {
    let of = |name: &'static str| events.iter().filter(move |e| e["event"] == name);
    let last = |name: &'static str, field: &str| of(name).next_back().map(|e| e[field].clone());
    let mut parts = Vec::new();
    let mut push = |part: &'static str, value: Option<Value>| {
        if let Some(value) = value.filter(|v| !v.is_null()) {
            parts.push((part, value));
        }
    };
    push("inputs", last("node_started", "inputs"));
    push("request", last("model_requested", "request"));
    push("response", last("model_responded", "text"));
    let output = last("node_finished", "output").or_else(|| last("output_validated", "output"));
    push("output", output);
    let checks: Vec<Value> = of("gate_evaluated").map(|e| without_envelope(e)).collect();
    push("checks", (!checks.is_empty()).then(|| Value::from(checks)));
    let attempts: Vec<Value> = events
        .iter()
        .filter(|e| matches!(e["event"].as_str(), Some("retried" | "output_invalid")))
        .map(|e| without_envelope(e))
        .collect();
    push(
        "attempts",
        (!attempts.is_empty()).then(|| Value::from(attempts)),
    );
    push(
        "timing",
        of("node_finished")
            .next_back()
            .map(|e| json!({"duration_ms": e["duration_ms"], "calls": e["calls"]})),
    );
    let (mut input, mut output_tokens) = (0, 0);
    for usage in of("model_responded").map(|e| &e["usage"]) {
        input += usage["input_tokens"].as_u64().unwrap_or(0);
        output_tokens += usage["output_tokens"].as_u64().unwrap_or(0);
    }
    let responded = of("model_responded").next().is_some();
    push(
        "tokens",
        responded.then(|| json!({"input_tokens": input, "output_tokens": output_tokens})),
    );
    parts
}

/// An event without what every event has (`seq`, `event`, `t`, `node`).
fn without_envelope(event: &Value) -> Value {
    let mut event = event.clone();
    if let Some(map) = event.as_object_mut() {
        for key in ["seq", "t", "node"] {
            map.remove(key);
        }
    }
    event
}

fn shown(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        other => serde_json::to_string_pretty(other).unwrap_or_default(),
    }
}

/// The selected node's name in the trace (graph ids are `step:NAME`, `drtl:ID`...).
fn selected_name(studio: Studio) -> Option<String> {
    let id = studio.selected.get()?;
    studio
        .graph
        .with(|g| g.as_ref().and_then(|g| g.node(&id)).map(|n| n.name.clone()))
}

#[component]
pub fn NodeCard() -> impl IntoView {
    let studio = expect_context::<Studio>();
    let run = expect_context::<RunState>();
    let name = Memo::new(move |_| selected_name(studio));
    let parts = Memo::new(move |_| {
        let name = name.get()?;
        let indices = run
            .states
            .with(|s| s.nodes.get(&name).map(|n| n.events.clone()))?;
        Some(run.events.with(|all| {
            let mine: Vec<&Value> = indices.iter().filter_map(|&i| all.get(i)).collect();
            card_parts(&mine)
        }))
    });
    let toggle = move |_| {
        if let Some(name) = name.get_untracked() {
            run.breakpoints.update(|b| {
                if !b.remove(&name) {
                    b.insert(name);
                }
            });
        }
    };
    let has_breakpoint = move || {
        name.with(|n| {
            n.as_ref()
                .is_some_and(|n| run.breakpoints.with(|b| b.contains(n)))
        })
    };
    view! {
        <section class="run-card" data-testid="run-card">
            {move || match name.get() {
                None => view! { <p class="muted">"Select a node to see what the run gave it and what it produced."</p> }.into_any(),
                Some(name) => view! {
                    <h3>{name}</h3>
                    <label class="breakpoint">
                        <input type="checkbox" data-testid="breakpoint" prop:checked=has_breakpoint on:change=toggle />
                        " Pause before this node runs"
                    </label>
                }.into_any(),
            }}
            {move || {
                let streamed = run.streamed.get().filter(|(node, _)| name.with(|n| n.as_deref() == Some(node.as_str())));
                streamed.map(|(_, text)| view! {
                    <details class="run-part" open data-part="stream">
                        <summary>"streamed tokens"</summary>
                        <pre data-testid="card-stream">{text}</pre>
                    </details>
                })
            }}
            {move || name.get().map(|node| view! { <ToolCheckBox node=node /> })}
            {move || name.get().map(|node| view! { <PinEditor node=node /> })}
            {move || name.get().map(|node| view! { <CompiledPrompt node=node /> })}
            {move || parts.get().map(|parts| parts.into_iter().map(|(part, value)| part_view(part, value)).collect_view())}
        </section>
    }
}

fn part_view(part: &'static str, value: Value) -> impl IntoView {
    let text = shown(&value);
    let copied = text.clone();
    let copy = move |_| {
        let text = copied.clone();
        spawn_local(async move {
            let _ = browser::copy_to_clipboard(text).await;
        });
    };
    view! {
        <details class="run-part" open=part != "inputs" data-part=part>
            <summary>
                {part}
                <button class="copy" title=format!("Copy the {part}") on:click=copy>"Copy"</button>
            </summary>
            <pre data-testid=format!("card-{part}")>{text}</pre>
        </details>
    }
}

/// The compiled prompt of a node: the request its first model call sends with the current text
/// and input, and the raw HTTP body the OpenAI-compatible provider would send. Computed only while
/// open (a dry run of the document), again whenever the text changes.
#[component]
fn CompiledPrompt(node: String) -> impl IntoView {
    let studio = expect_context::<Studio>();
    let run = expect_context::<RunState>();
    let open = RwSignal::new(false);
    let compiled = Memo::new(move |_| {
        if !open.get() {
            return None;
        }
        // A dry run needs run mode's chunk: fetched now if need be (this redraws once it is).
        let Some(mode) = run.mode_now() else {
            return Some(("Loading run mode…".to_owned(), String::new()));
        };
        let input = serde_json::from_str(&run.input.get()).unwrap_or(Value::Null);
        let found = studio.text.with(|text| mode.compiled(text, input, &node));
        Some(match found {
            Ok(Some((request, body))) => (shown(&request), shown(&body)),
            Ok(None) => (
                "This node calls no model in a dry run of the document.".to_owned(),
                String::new(),
            ),
            Err(reason) => (reason, String::new()),
        })
    });
    view! {
        <details class="run-part" data-part="prompt" prop:open=move || open.get()
            on:toggle=move |ev| open.set(event_target::<web_sys::HtmlDetailsElement>(&ev).open())>
            <summary>"compiled prompt (what the model will be sent)"</summary>
            {move || compiled.get().map(|(request, body)| view! {
                <pre data-testid="card-prompt">{request}</pre>
                <p class="muted">"HTTP body (OpenAI-compatible, POST …/chat/completions):"</p>
                <pre data-testid="card-http-body">{body}</pre>
            })}
        </details>
    }
}
