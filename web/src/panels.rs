//! The palette (add nodes), the diagnostics list, and the toolbar (examples, files, share,
//! undo/redo, layout).

use leptos::html;
use leptos::prelude::*;
use leptos::task::spawn_local;
use logicmd::graph::Direction;
use wasm_bindgen::JsCast;

use crate::analysis::{node_at_line, Kind};
use crate::browser;
use crate::canvas::{auto_layout, glyph};
use crate::defaults::{palette_edits, DRTL_TYPES};
use crate::examples::{by_id, EXAMPLES};
use crate::source::{reveal_line, SourcePane};
use crate::state::{Severity, Studio};
use crate::templates::{templates, EMPTY_TOPOLOGY, EMPTY_WORKFLOW};

/// Links longer than this are cut by some chat apps and mail clients.
pub const SHARE_WARN_LENGTH: usize = 8000;

/// What a palette button (or the canvas's A key) does: adds a node of `node_type` after the
/// selected one and wired from it; a cleared text starts a new document first.
pub fn add_node_from_palette(studio: Studio, node_type: &'static str) {
    let after = move || {
        let selected = studio.selected.get_untracked()?;
        studio
            .graph
            .with_untracked(|g| g.as_ref()?.node(&selected).map(|n| n.name.clone()))
    };
    let blank = studio.text.with_untracked(|t| t.trim().is_empty());
    let base = blank.then_some(if node_type == "step" {
        EMPTY_WORKFLOW
    } else {
        EMPTY_TOPOLOGY
    });
    let selected = if blank { None } else { after() };
    let (edits, id) = studio.graph.with_untracked(|g| {
        let graph = if blank { None } else { g.as_deref() };
        palette_edits(graph, node_type, selected)
    });
    let added = match studio.apply_all(base, &edits) {
        Ok(()) => Ok(()),
        // The wire from the selection was refused (ports that do not fit): add the node alone
        // and say why it is not connected.
        Err(reason) if edits.len() > 1 => studio.apply_all(base, &edits[..1]).map(|()| {
            studio.notify(Severity::Warning, format!("Added, not connected: {reason}"));
        }),
        Err(reason) => Err(reason),
    };
    match added {
        Ok(()) => studio.selected.set(Some(id)),
        Err(message) => studio.notify(Severity::Error, message),
    }
}

#[component]
pub fn Palette() -> impl IntoView {
    let studio = expect_context::<Studio>();
    let kind = Memo::new(move |_| studio.analysis.with(|a| a.kind));
    let add = move |node_type: &'static str| add_node_from_palette(studio, node_type);
    view! {
        <nav class="palette" aria-label="Node palette">
            <h2>"Add"</h2>
            {move || match kind.get() {
                Kind::Logic => view! {
                    <button data-add="step" on:click=move |_| add("step")>
                        <span class="glyph">{glyph("step")}</span>" Step"
                    </button>
                }.into_any(),
                Kind::Drtl => DRTL_TYPES.iter().map(|&t| view! {
                    <button data-add=t class=format!("kind-{t}") on:click=move |_| add(t)>
                        <span class="glyph">{glyph(t)}</span>" "{t.replace('_', " ")}
                    </button>
                }).collect_view().into_any(),
            }}
            <p class="hint">"Drag from an output port (bottom, or right in left-right) to an input port (top, or left) to connect. Del removes the selection."</p>
        </nav>
    }
}

/// Problems listed at most; the rest are counted (the first ones are the ones to fix first).
const LISTED_PROBLEMS: usize = 500;

#[component]
pub fn Diagnostics(source: SourcePane) -> impl IntoView {
    let studio = expect_context::<Studio>();
    let jump = move |line: u32| {
        let text = studio.text.get_untracked();
        reveal_line(source, &text, line);
        let node = studio
            .graph
            .with_untracked(|g| g.as_ref().and_then(|g| node_at_line(g, &text, line)));
        if node.is_some() {
            studio.selected.set(node.clone());
            studio.reveal_request.set(node);
        }
    };
    view! {
        <section class="diagnostics" data-testid="diagnostics" aria-label="Problems">
            <h2>{move || {
                let count = studio.diagnostics.with(Vec::len);
                let checking = if studio.checking.get() { " · checking…" } else { "" };
                if count == 0 { format!("No problems{checking}") } else { format!("Problems ({count}){checking}") }
            }}</h2>
            <ul>
                {move || studio.diagnostics.with(|all| all.iter().take(LISTED_PROBLEMS).map(|d| {
                    let line = d.line;
                    let severity = d.severity.as_str();
                    let place = if line > 0 { format!("{}:{}", d.line, d.column) } else { String::new() };
                    view! {
                        <li class=format!("diagnostic {severity}") data-line=line
                            on:click=move |_| jump(line)>
                            <span class="where">{place}</span>
                            <span class="code">{d.code.clone()}</span>
                            <span class="message">{d.message.clone()}</span>
                            {d.help.clone().map(|h| view! { <span class="help">{h}</span> })}
                        </li>
                    }
                }).collect_view())}
                {move || {
                    let hidden = studio.diagnostics.with(Vec::len).saturating_sub(LISTED_PROBLEMS);
                    (hidden > 0).then(|| view! {
                        <li class="more">{format!("… and {hidden} more")}</li>
                    })
                }}
            </ul>
        </section>
    }
}

fn file_name(studio: Studio) -> String {
    let kind = studio.analysis.with_untracked(|a| a.kind);
    let name = studio.text.with_untracked(|t| {
        t.lines()
            .find_map(|l| l.strip_prefix("name:"))
            .map(|n| n.trim().trim_matches('"').replace([' ', '/', '\\'], "-"))
            .filter(|n| !n.is_empty())
            .unwrap_or_else(|| "document".to_owned())
    });
    match kind {
        Kind::Logic => format!("{name}.logic.md"),
        Kind::Drtl => format!("{name}.drtl.yaml"),
    }
}

/// Makes a share link of the current text, copies it and reports its length.
pub fn share(studio: Studio) {
    let link = format!(
        "{}#share={}",
        browser::page_address(),
        studio.text.with_untracked(|t| logicmd::share::encode(t))
    );
    let length = link.chars().count();
    studio.share_link.set(Some(link.clone()));
    spawn_local(async move {
        let copied = browser::copy_to_clipboard(link).await;
        let (severity, text) = match (copied, length > SHARE_WARN_LENGTH) {
            (_, true) => (
                Severity::Warning,
                format!("The link is {length} characters: some apps cut links over {SHARE_WARN_LENGTH}. Consider downloading the file instead."),
            ),
            (Ok(()), false) => (Severity::Info, format!("Link copied ({length} characters). The document travels in the link; nothing is uploaded.")),
            (Err(reason), false) => (Severity::Warning, format!("{reason}; copy the link from the box.")),
        };
        studio.notify(severity, text);
    });
}

pub fn load_file(studio: Studio, file: web_sys::File) {
    spawn_local(async move {
        match browser::read_file(file).await {
            Ok(text) => studio.load(text),
            Err(message) => studio.notify(Severity::Error, message),
        }
    });
}

#[component]
pub fn Toolbar() -> impl IntoView {
    let studio = expect_context::<Studio>();
    let file_input = NodeRef::<html::Input>::new();
    let on_open = move |ev: leptos::ev::Event| {
        let input = browser::file_input(&ev);
        if let Some(file) = input.as_ref().and_then(|i| i.files()?.get(0)) {
            load_file(studio, file);
        }
        if let Some(input) = input {
            input.set_value("");
        }
    };
    let on_example = move |ev: leptos::ev::Event| {
        if let Some(example) = by_id(&event_target_value(&ev)) {
            studio.load(example.text.to_owned());
        }
    };
    let download = move |_| {
        let text = studio.text.get_untracked();
        if browser::download(&file_name(studio), &text).is_err() {
            studio.notify(Severity::Error, "The browser refused the download");
        }
    };
    let choosing = RwSignal::new(false);
    let room = expect_context::<crate::room::Room>();
    view! {
        <header class="toolbar">
            <h1 class="brand">"logicmd studio"</h1>
            <button data-testid="new" aria-haspopup="dialog" on:click=move |_| choosing.set(true)>"New"</button>
            {move || choosing.get().then(|| view! { <NewDialog choosing=choosing /> })}
            <select class="examples" data-testid="examples" on:change=on_example aria-label="Examples">
                <option value="" selected=true disabled=true>"Examples…"</option>
                {EXAMPLES.iter().map(|e| view! { <option value=e.id>{e.title}</option> }).collect_view()}
            </select>
            <button on:click=move |_| { if let Some(input) = file_input.get_untracked() { input.click(); } }>"Open"</button>
            <input type="file" class="hidden" node_ref=file_input accept=".md,.yaml,.yml,text/*" on:change=on_open />
            <button on:click=download>"Download"</button>
            <button data-testid="share" on:click=move |_| share(studio)>"Share"</button>
            <span class="separator"></span>
            <button data-testid="undo" title="Undo (Ctrl+Z)" on:click=move |_| studio.undo()
                disabled=move || !studio.history.with(|h| h.can_undo())>"Undo"</button>
            <button data-testid="redo" title="Redo (Ctrl+Shift+Z)" on:click=move |_| studio.redo()
                disabled=move || !studio.history.with(|h| h.can_redo())>"Redo"</button>
            <crate::versions::HistoryButton />
            <span class="separator"></span>
            <button data-testid="layout" on:click=move |_| auto_layout(studio)>"Auto-layout"</button>
            <DirectionChoice />
            <button data-testid="fit" on:click=move |_| studio.fit_request.update(|n| *n += 1)>"Fit"</button>
            <button data-testid="toggle-palette" title="Show or hide the palette"
                aria-pressed=move || room.palette_open.get().to_string()
                on:click=move |_| room.palette_open.update(|open| *open = !*open)>"Palette"</button>
            <button data-testid="toggle-inspector" title="Show or hide the inspector"
                aria-pressed=move || room.inspector_open.get().to_string()
                on:click=move |_| room.inspector_open.update(|open| *open = !*open)>"Inspector"</button>
            <button data-testid="toggle-source" title="Show or hide the source text"
                aria-pressed=move || studio.source_open.get().to_string()
                on:click=move |_| studio.source_open.update(|open| *open = !*open)>"Source"</button>
            <button data-testid="toggle-run-panel" title="Show or hide the Run panel" aria-controls="run-panel"
                aria-pressed=move || room.run_open.get().to_string()
                on:click=move |_| room.run_open.update(|open| *open = !*open)>"Run"</button>
            <span class="stats">{move || studio.graph.with(|g| g.as_ref().map_or_else(String::new, |g| format!("{} nodes · {} wires", g.nodes.len(), g.edges.len())))}</span>
        </header>
    }
}

/// Which way Auto-layout goes; choosing one lays the graph out that way at once (as asking for
/// it and then pressing Auto-layout would).
#[component]
fn DirectionChoice() -> impl IntoView {
    let studio = expect_context::<Studio>();
    let room = expect_context::<crate::room::Room>();
    let choose = move |ev: leptos::ev::Event| {
        let direction = match event_target_value(&ev).as_str() {
            "left-right" => Direction::LeftRight,
            _ => Direction::TopDown,
        };
        room.direction.set(direction);
        auto_layout(studio);
    };
    let chosen = move |d: Direction| move || room.direction.get() == d;
    view! {
        <select class="direction" data-testid="layout-direction" aria-label="Layout direction"
            title="Which way Auto-layout goes: top-down or left-right" on:change=choose>
            <option value="top-down" selected=chosen(Direction::TopDown)>"↓ Down"</option>
            <option value="left-right" selected=chosen(Direction::LeftRight)>"→ Right"</option>
        </select>
    }
}

fn focus(selector: &str) {
    let element = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.query_selector(selector).ok().flatten());
    if let Some(element) = element {
        if let Ok(html) = element.clone().dyn_into::<web_sys::HtmlElement>() {
            let _ = html.focus();
        } else if let Ok(svg) = element.dyn_into::<web_sys::SvgElement>() {
            let _ = svg.focus();
        }
    }
}

/// The template picker: an empty workflow, an empty topology, or an example.
#[component]
fn NewDialog(choosing: RwSignal<bool>) -> impl IntoView {
    let studio = expect_context::<Studio>();
    let pick = move |text: &'static str| {
        choosing.set(false);
        studio.load(text.to_owned());
        focus(".canvas");
    };
    // The first choice takes the keyboard when the dialog opens.
    request_animation_frame(|| focus(".templates button"));
    view! {
        <div class="dialog-backdrop" on:click=move |_| choosing.set(false)>
            <div class="dialog" role="dialog" aria-modal="true" aria-labelledby="new-title"
                on:click=|ev| ev.stop_propagation()
                on:keydown=move |ev: leptos::ev::KeyboardEvent| if ev.key() == "Escape" { choosing.set(false) }>
                <h2 id="new-title">"Start from"</h2>
                <ul class="templates">
                    {templates().into_iter().map(|t| view! {
                        <li><button data-template=t.id on:click=move |_| pick(t.text)>{t.title}</button></li>
                    }).collect_view()}
                </ul>
                <button class="dialog-close" on:click=move |_| choosing.set(false)>"Cancel"</button>
            </div>
        </div>
    }
}

#[component]
pub fn StatusBar() -> impl IntoView {
    let studio = expect_context::<Studio>();
    view! {
        <div class="status" role="region" aria-label="Notices">
        {move || studio.notice.get().map(|n| {
            let class = format!("notice {}", format!("{:?}", n.severity).to_lowercase());
            view! {
                <div class=class role="status" data-testid="notice">
                    <span>{n.text}</span>
                    <button class="dismiss" aria-label="Dismiss" on:click=move |_| studio.notice.set(None)>"×"</button>
                </div>
            }
        })}
        {move || studio.share_link.get().map(|link| view! {
            <input class="share-link" data-testid="share-link" readonly=true value=link />
        })}
        </div>
    }
}
