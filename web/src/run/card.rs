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
    let id = studio.selected()?;
    studio
        .graph
        .with(|g| g.as_ref().and_then(|g| g.node(&id)).map(|n| n.name.clone()))
}

/// The node card: a large panel with a header (state, duration, attempts, error), what the node
/// waits for (a review's form, a tool check, its unmet obligations), Output | Input side by side,
/// then the request, the raw response and the checks.
#[component]
pub fn NodeCard() -> impl IntoView {
    let studio = expect_context::<Studio>();
    let run = expect_context::<RunState>();
    let name = Memo::new(move |_| selected_name(studio));
    let events = Memo::new(move |_| {
        let name = name.get()?;
        let indices = run
            .states
            .with(|s| s.nodes.get(&name).map(|n| n.events.clone()))?;
        Some(run.events.with(|all| {
            indices
                .iter()
                .filter_map(|&i| all.get(i).cloned())
                .collect::<Vec<Value>>()
        }))
    });
    let parts = Memo::new(move |_| {
        events.with(|e| {
            e.as_ref()
                .map(|e| card_parts(&e.iter().collect::<Vec<_>>()))
        })
    });
    let part = move |key: &'static str| {
        parts.with(|p| {
            p.as_ref()?
                .iter()
                .find(|(k, _)| *k == key)
                .map(|(_, v)| v.clone())
        })
    };
    view! {
        <section class="run-card" data-testid="run-card" aria-label="Node in the run">
            {move || match name.get() {
                None => view! { <p class="muted">"Select a node to see what the run gave it and what it produced."</p> }.into_any(),
                Some(node) => view! {
                    <CardHeader node=node.clone() events=events />
                    <div class="card-asks">
                        <NodeUnmet node=node.clone() />
                        <super::review::ReviewForm node=node.clone() />
                        <ToolCheckBox node=node.clone() />
                    </div>
                    <StreamedTokens node=node.clone() />
                    <div class="card-io">
                        <Column title="Output" part="output" value=Signal::derive(move || part("output")) />
                        <Column title="Input" part="inputs" value=Signal::derive(move || part("inputs")) />
                    </div>
                    {move || parts.get().map(|parts| parts.into_iter()
                        .filter(|(p, _)| !matches!(*p, "output" | "inputs"))
                        .map(|(part, value)| part_view(part, value)).collect_view())}
                    <CompiledPrompt node=node.clone() />
                    <PinEditor node=node />
                }.into_any(),
            }}
        </section>
    }
}

/// The card's header: the node, its state, and the facts of its run.
#[component]
fn CardHeader(node: String, events: Memo<Option<Vec<Value>>>) -> impl IntoView {
    let run = expect_context::<RunState>();
    let state = {
        let node = node.clone();
        Memo::new(move |_| {
            run.states.with(|s| {
                s.nodes
                    .get(&node)
                    .map(|n| (n.state().map(|s| s.name()), n.caption(), n.calls, n.retries))
            })
        })
    };
    let finished = move || {
        events.with(|e| {
            e.as_ref()?
                .iter()
                .rev()
                .find(|e| e["event"] == "node_finished")
                .cloned()
        })
    };
    let breakpoint = {
        let node = node.clone();
        move || run.breakpoints.with(|b| b.contains(&node))
    };
    // Measured on this page for a live run; a replayed trace's own figure when its clock ran
    // (the engine's clock is fixed in the studio: its 0 ms is no measurement).
    let duration = {
        let node = node.clone();
        move || {
            run.durations.with(|d| d.get(&node).copied()).or_else(|| {
                finished()
                    .and_then(|f| f["duration_ms"].as_f64())
                    .filter(|ms| *ms > 0.0)
            })
        }
    };
    view! {
        <header class="card-header">
            <h3 id="run-card-title">{node}</h3>
            {move || state.get().map(|(name, caption, ..)| view! {
                <span class="card-state" data-run-state=name data-testid="card-state">{caption}</span>
            })}
            {move || breakpoint().then(|| view! { <span class="muted">"◉ breakpoint set"</span> })}
            <dl class="card-facts">
                {move || duration().map(|ms| view! {
                    <dt>"Duration"</dt><dd data-testid="card-duration">{seconds(ms)}</dd>
                })}
                {move || state.get().filter(|(_, _, calls, _)| *calls > 0).map(|(_, _, calls, retries)| view! {
                    <dt>"Attempts"</dt><dd data-testid="card-attempts">{format!("{calls} call{} · {retries} retr{}", if calls == 1 { "" } else { "s" }, if retries == 1 { "y" } else { "ies" })}</dd>
                })}
                {move || finished().and_then(|f| f["error"].as_str().map(str::to_owned)).map(|error| view! {
                    <dt>"Error"</dt><dd class="card-error" data-testid="card-error">{error}</dd>
                })}
            </dl>
        </header>
    }
}

/// Milliseconds as the card says them: `240 ms`, `1.4 s`.
fn seconds(ms: f64) -> String {
    if ms < 1.0 {
        "< 1 ms".to_owned()
    } else if ms < 1000.0 {
        format!("{ms:.0} ms")
    } else {
        format!("{:.1} s", ms / 1000.0)
    }
}

/// The unmet obligations of this node when the run refused.
#[component]
fn NodeUnmet(node: String) -> impl IntoView {
    let run = expect_context::<RunState>();
    move || {
        let mine: Vec<(String, String)> = run.states.with(|s| {
            s.unmet
                .iter()
                .filter(|(n, ..)| *n == node)
                .map(|(_, rule, reason)| (rule.clone(), reason.clone()))
                .collect()
        });
        (!mine.is_empty()).then(|| view! {
            <div class="run-outcome run-refusal card-unmet" role="alert">
                <strong>"⊗ Refused here: "</strong>
                <ul>{mine.into_iter().map(|(rule, reason)| view! { <li><code>{rule}</code> " — " {reason}</li> }).collect_view()}</ul>
            </div>
        })
    }
}

/// Tokens a server streamed for this node (kept after the answer).
#[component]
fn StreamedTokens(node: String) -> impl IntoView {
    let run = expect_context::<RunState>();
    move || {
        let streamed = run.streamed.get().filter(|(n, _)| *n == node);
        streamed.map(|(_, text)| {
            view! {
                <details class="run-part" open data-part="stream">
                    <summary>"streamed tokens"</summary>
                    <pre data-testid="card-stream">{text}</pre>
                </details>
            }
        })
    }
}

/// One side of Output | Input, with Copy.
#[component]
fn Column(title: &'static str, part: &'static str, value: Signal<Option<Value>>) -> impl IntoView {
    move || {
        let text = value.get().map(|v| shown(&v));
        let copied = text.clone().unwrap_or_default();
        let copy = move |_| {
            let text = copied.clone();
            spawn_local(async move {
                let _ = browser::copy_to_clipboard(text).await;
            });
        };
        view! {
            <section class="card-column" data-part=part aria-label=title>
                <h4>{title}
                    {text.is_some().then(|| view! { <button class="copy" title=format!("Copy the {}", title.to_lowercase()) on:click=copy>"Copy"</button> })}
                </h4>
                {match text {
                    Some(text) => view! { <pre data-testid=format!("card-{part}") tabindex="0">{text}</pre> }.into_any(),
                    None => view! { <p class="muted">{if part == "output" { "No output yet." } else { "Not started yet." }}</p> }.into_any(),
                }}
            </section>
        }
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
    // The Copy button sits in the part, not in its summary (a button in a summary is an
    // interactive element inside another).
    view! {
        <details class="run-part" open=part != "inputs" data-part=part>
            <summary>{part}</summary>
            <button class="copy" title=format!("Copy the {part}") on:click=copy>"Copy"</button>
            <pre data-testid=format!("card-{part}") tabindex="0">{text}</pre>
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
