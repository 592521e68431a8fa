//! History with diff: every state the autosave writes is kept in the browser (bounded,
//! [`store`]); the History dialog compares the current text with any of them, or with a file
//! dropped on it, side by side and as a graph (nodes and wires added, removed, changed), and
//! restores one as a single undoable change.

mod diff;
mod lazy;
mod store;

use std::sync::Arc;

use leptos::prelude::*;
use logicmd::graph::Graph;
use serde_json::Value;

use crate::analysis::{analyze, CoreParsed};
use crate::browser;
use crate::settled::Settled;
use crate::state::{Severity, Studio};
use diff::{Change, GraphDiff};
use store::Version;

const KEY: &str = "logicmd.studio.versions";

fn storage() -> Option<web_sys::Storage> {
    browser::window().and_then(|w| w.local_storage().ok().flatten())
}

fn epoch_ms() -> f64 {
    js_sys::Date::now()
}

/// Keeps every state the text settles in; returns the kept list.
fn keep_states(studio: Studio) -> RwSignal<Vec<Version>> {
    let saved = storage()
        .and_then(|s| s.get_item(KEY).ok().flatten())
        .unwrap_or_default();
    let versions = RwSignal::new(store::parse(&saved));
    expect_context::<Settled>().on_settle(move || {
        let text = studio.text.get_untracked();
        let changed = versions
            .try_update(|v| store::record(v, &text, epoch_ms()))
            .unwrap_or(false);
        if changed {
            if let Some(storage) = storage() {
                let _ = storage.set_item(KEY, &versions.with_untracked(|v| store::format(v)));
            }
        }
    });
    versions
}

/// Keeps the states the text settles in, and shows the History dialog while `open`. The dialog
/// and its diffs are a chunk of their own ([`lazy`]), fetched when it is first opened.
#[component]
pub fn History(open: RwSignal<bool>) -> impl IntoView {
    let studio = expect_context::<Studio>();
    let versions = keep_states(studio);
    let ready = RwSignal::new(lazy::loaded().is_some());
    Effect::new(move |_| {
        if open.get() && !ready.get_untracked() {
            leptos::task::spawn_local(async move {
                match lazy::load().await {
                    Ok(dialog) => {
                        lazy::keep(dialog);
                        ready.set(true);
                    }
                    Err(_) => {
                        open.set(false);
                        studio.notify(
                            Severity::Error,
                            "History could not be loaded (is the network down?)",
                        );
                    }
                }
            });
        }
    });
    move || {
        (open.get() && ready.get())
            .then(|| lazy::loaded().map(|dialog| dialog.view(open, versions)))
            .flatten()
    }
}

/// The dialog, as the History chunk builds it.
pub(crate) fn dialog(open: RwSignal<bool>, versions: RwSignal<Vec<Version>>) -> AnyView {
    view! { <HistoryDialog open=open versions=versions /> }.into_any()
}

/// `hh:mm:ss` of a saved state, in the browser's time zone.
fn clock(saved: f64) -> String {
    let date = js_sys::Date::new(&wasm_bindgen::JsValue::from_f64(saved));
    format!(
        "{:02}:{:02}:{:02}",
        date.get_hours(),
        date.get_minutes(),
        date.get_seconds()
    )
}

#[component]
fn HistoryDialog(open: RwSignal<bool>, versions: RwSignal<Vec<Version>>) -> impl IntoView {
    let studio = expect_context::<Studio>();
    // The earlier text compared with the current one, and what it is called.
    let compared = RwSignal::new(None::<(String, String)>);
    let close = move || open.set(false);
    let pick_file = move |file: web_sys::File| {
        let name = file.name();
        leptos::task::spawn_local(async move {
            match browser::read_file(file).await {
                Ok(text) => compared.set(Some((name, text))),
                Err(message) => studio.notify(Severity::Error, message),
            }
        });
    };
    let on_drop = move |ev: leptos::ev::DragEvent| {
        ev.prevent_default();
        ev.stop_propagation();
        if let Some(file) = browser::dropped_file(&ev) {
            pick_file(file);
        }
    };
    let on_file = move |ev: leptos::ev::Event| {
        if let Some(file) = browser::chosen_file(&ev) {
            pick_file(file);
        }
    };
    let restore = move |_| {
        if let Some((name, text)) = compared.get_untracked() {
            studio.replace_text(text);
            studio.notify(
                Severity::Info,
                format!("Restored {name} (Undo brings back the text before)."),
            );
            close();
        }
    };
    view! {
        <div class="dialog-backdrop" on:click=move |_| close()>
            <div class="dialog history-dialog" role="dialog" aria-modal="true" aria-labelledby="history-title"
                data-testid="history-dialog"
                on:click=|ev| ev.stop_propagation()
                on:dragover=|ev: leptos::ev::DragEvent| { ev.prevent_default(); ev.stop_propagation(); }
                on:drop=on_drop
                on:keydown=move |ev: leptos::ev::KeyboardEvent| if ev.key() == "Escape" { close() }>
                <h2 id="history-title">"History"</h2>
                <div class="history-body">
                    <nav class="history-list" aria-label="Saved states">
                        <ol reversed=true>
                            {move || versions.get().into_iter().rev().enumerate().map(|(age, v)| {
                                let label = format!("{} · {} lines", clock(v.saved), v.text.lines().count());
                                let chosen = compared.with(|c| c.as_ref().is_some_and(|(_, t)| *t == v.text));
                                let name = format!("the state of {}", clock(v.saved));
                                view! {
                                    <li><button data-version=age aria-pressed=chosen.to_string()
                                        on:click=move |_| compared.set(Some((name.clone(), v.text.clone())))>{label}</button></li>
                                }
                            }).collect_view()}
                        </ol>
                        <label class="history-file">"Compare with a file (or drop one here) "
                            <input type="file" data-testid="history-file" accept=".md,.yaml,.yml,text/*" on:change=on_file />
                        </label>
                    </nav>
                    <div class="history-compare">
                        {move || match compared.get() {
                            None => view! { <p class="muted">"Pick a saved state or a file to compare with the current text."</p> }.into_any(),
                            Some((name, text)) => {
                                let current = studio.text.get();
                                view! {
                                    <p class="history-what">"Comparing "<strong>{name}</strong>" (left) with the current text (right)."</p>
                                    {graph_view(&text, &current)}
                                    {text_view(&text, &current)}
                                }.into_any()
                            }
                        }}
                    </div>
                </div>
                <div class="dialog-actions">
                    <button data-testid="history-restore" disabled=move || compared.with(Option::is_none) on:click=restore>"Restore this state"</button>
                    <button class="dialog-close" on:click=move |_| close()>"Close"</button>
                </div>
            </div>
        </div>
    }
}

/// The graph of a text with its JSON, if it parses.
fn graph_of(text: &str) -> Option<(Arc<Graph>, Value)> {
    let analysis = analyze(text, None, || 0.0);
    let json = match analysis.parsed.as_ref().map(|p| &p.0)? {
        CoreParsed::Logic(document) => document.json().clone(),
        CoreParsed::Drtl(topology) => topology.json().clone(),
    };
    Some((analysis.graph?, json))
}

/// Box size of a node in the graph diff (graph units, the canvas's node size).
const NODE: (f64, f64) = (crate::geometry::NODE_WIDTH, crate::geometry::NODE_HEIGHT);

fn graph_view(old: &str, new: &str) -> impl IntoView {
    let diff = match (graph_of(old), graph_of(new)) {
        (Some((a, aj)), Some((b, bj))) => diff::graphs(&a, &aj, &b, &bj),
        _ => return view! { <p class="muted">"One of the texts does not parse: no graph to compare."</p> }.into_any(),
    };
    let GraphDiff { nodes, wires } = diff;
    let (mut left, mut top, mut right, mut bottom) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
    for (_, _, _, x, y) in &nodes {
        (left, top) = (left.min(*x), top.min(*y));
        (right, bottom) = (right.max(x + NODE.0), bottom.max(y + NODE.1));
    }
    if nodes.is_empty() {
        (left, top, right, bottom) = (0.0, 0.0, NODE.0, NODE.1);
    }
    let place: std::collections::HashMap<String, (f64, f64)> = nodes
        .iter()
        .map(|(id, _, _, x, y)| (id.clone(), (*x, *y)))
        .collect();
    let counts = |change: Change| nodes.iter().filter(|n| n.2 == change).count();
    let summary = format!(
        "{} added, {} removed, {} changed nodes; {} added, {} removed wires",
        counts(Change::Added),
        counts(Change::Removed),
        counts(Change::Changed),
        wires.iter().filter(|w| w.2 == Change::Added).count(),
        wires.iter().filter(|w| w.2 == Change::Removed).count(),
    );
    let view_box = format!(
        "{:.0} {:.0} {:.0} {:.0}",
        left - 20.0,
        top - 20.0,
        right - left + 40.0,
        bottom - top + 40.0
    );
    let wire_views = wires
        .into_iter()
        .filter_map(|(from, to, change)| {
            let (a, b) = (place.get(&from)?, place.get(&to)?);
            Some(view! {
                <line class=format!("diff-wire diff-{}", change.name()) data-diff=change.name()
                    data-from=from data-to=to
                    x1=a.0 + NODE.0 / 2.0 y1=a.1 + NODE.1 x2=b.0 + NODE.0 / 2.0 y2=b.1></line>
            })
        })
        .collect_view();
    let node_views = nodes.into_iter().map(|(id, name, change, x, y)| view! {
        <g class=format!("diff-node diff-{}", change.name()) data-diff=change.name() data-diff-node=id
            transform=format!("translate({x:.0},{y:.0})")>
            <rect width=NODE.0 height=NODE.1 rx="10"></rect>
            <text x="14" y="30">{name}</text>
            <text class="diff-tag" x="14" y="54">{change.name()}</text>
        </g>
    }).collect_view();
    view! {
        <figure class="history-graph">
            <svg viewBox=view_box role="img" aria-label=format!("Graph diff: {summary}") data-testid="graph-diff">
                {wire_views}
                {node_views}
            </svg>
            <figcaption>{summary}</figcaption>
        </figure>
    }
    .into_any()
}

fn text_view(old: &str, new: &str) -> impl IntoView {
    let rows = diff::lines(old, new);
    let cell = |side: Option<(usize, String)>| match side {
        Some((n, text)) => {
            view! { <td class="diff-number">{n}</td><td class="diff-text">{text}</td> }.into_any()
        }
        None => view! { <td class="diff-number"></td><td class="diff-text"></td> }.into_any(),
    };
    view! {
        <table class="history-text" data-testid="text-diff">
            <caption class="muted">"Text, earlier on the left"</caption>
            <tbody>
                {rows.into_iter().map(|row| view! {
                    <tr class=format!("diff-{}", row.change.name()) data-diff=row.change.name()>
                        {cell(row.old)}
                        {cell(row.new)}
                    </tr>
                }).collect_view()}
            </tbody>
        </table>
    }
}
