//! The palette (add nodes), the problems list (the document's and what a run needs, each
//! leading to the field that fixes it) and the status bar.

use leptos::prelude::*;
use leptos::task::spawn_local;

use crate::analysis::{node_at_line, Kind};
use crate::browser;
use crate::canvas::glyph;
use crate::defaults::{palette_edits, DRTL_TYPES};
use crate::source::{reveal_line, SourcePane};
use crate::state::{Severity, Studio};
use crate::templates::{EMPTY_TOPOLOGY, EMPTY_WORKFLOW};

/// Links longer than this are cut by some chat apps and mail clients.
pub const SHARE_WARN_LENGTH: usize = 8000;

/// What a palette button (or the canvas's A key) does: adds a node of `node_type` after the
/// selected one and wired from it; a cleared text starts a new document first. Decision-tree
/// nodes go into the selected node's tree (wired from it), else into a new tree.
pub fn add_node_from_palette(studio: Studio, node_type: &'static str) {
    if matches!(node_type, "decision" | "terminal") {
        return add_tree_node(studio, node_type);
    }
    let after = move || {
        let selected = studio.selected_untracked()?;
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
    let reads = selected
        .as_deref()
        .and_then(|name| output_reference(studio, name));
    let (edits, id) = studio.graph.with_untracked(|g| {
        let graph = if blank { None } else { g.as_deref() };
        palette_edits(graph, node_type, selected, reads)
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
        Ok(()) => {
            studio.select_node(id.clone());
            // A new step is named at once: its name box opens, typed into as the node appears.
            if node_type == "step" {
                studio.renaming.set(Some(id));
            }
        }
        Err(message) => studio.notify(Severity::Error, message),
    }
}

/// What a DRTL node added after `name` reads: `name.output_key` when it has one.
fn output_reference(studio: Studio, name: &str) -> Option<String> {
    let nodes = crate::inspector::value_at(studio, "/nodes");
    let key = nodes
        .as_array()?
        .iter()
        .find(|n| n.get("id").and_then(|i| i.as_str()) == Some(name))?
        .get("output_key")?
        .as_str()?
        .to_owned();
    Some(format!("{name}.{key}"))
}

fn add_tree_node(studio: Studio, kind: &str) {
    if studio.analysis.with_untracked(|a| a.kind) == Kind::Drtl {
        return studio.notify(
            Severity::Error,
            "Decision trees belong to LOGIC.md documents; a DRTL topology routes with gates",
        );
    }
    let blank = studio.text.with_untracked(|t| t.trim().is_empty());
    let trees = crate::trees::trees_of(studio);
    let selected = studio.selected_untracked();
    let (edits, id) = if kind == "decision" {
        crate::trees::add_decision(&trees, selected.as_deref())
    } else {
        crate::trees::add_terminal(&trees, selected.as_deref())
    };
    match studio.apply_all(blank.then_some(EMPTY_WORKFLOW), &edits) {
        Ok(()) => studio.select_node(id),
        Err(message) => studio.notify(Severity::Error, message),
    }
}

/// What the LOGIC.md palette offers: steps, and decision trees' nodes.
const LOGIC_TYPES: &[(&str, &str)] = &[
    ("step", "Step"),
    ("decision", "Decision"),
    ("terminal", "Terminal"),
];

#[component]
pub fn Palette() -> impl IntoView {
    let studio = expect_context::<Studio>();
    let kind = Memo::new(move |_| studio.analysis.with(|a| a.kind));
    let add = move |node_type: &'static str| add_node_from_palette(studio, node_type);
    let button = move |node_type: &'static str, label: String| {
        let title = format!("Add a {label} after the selected node");
        view! {
            <button data-add=node_type class=format!("kind-{node_type}") title=title
                on:click=move |_| add(node_type)>
                <span class="glyph" aria-hidden="true">{glyph(node_type)}</span>
                <span class="palette-label">{label}</span>
            </button>
        }
    };
    view! {
        <nav class="palette" aria-label="Node palette">
            <h2>"Add"</h2>
            {move || match kind.get() {
                Kind::Logic => LOGIC_TYPES.iter().map(|&(t, label)| button(t, label.to_owned())).collect_view().into_any(),
                Kind::Drtl => DRTL_TYPES.iter().map(|&t| button(t, t.replace('_', " "))).collect_view().into_any(),
            }}
            <p class="hint">"Drag from a port to another node to connect (from an input, backwards). Del removes the selection."</p>
        </nav>
    }
}

/// Problems listed at most; the rest are counted (the first ones are the ones to fix first).
const LISTED_PROBLEMS: usize = 500;

#[component]
pub fn Diagnostics(source: SourcePane) -> impl IntoView {
    let studio = expect_context::<Studio>();
    let jump = move |line: u32, path: String| {
        let text = studio.text.get_untracked();
        let node = studio
            .graph
            .with_untracked(|g| g.as_ref().and_then(|g| node_at_line(g, &text, line)));
        if let Some(node) = node {
            studio.select_node(node.clone());
            studio.reveal_request.set(Some(node));
        }
        // The line in the text, and the field that fixes it when the inspector shows one (it
        // then takes the keyboard).
        reveal_line(source, &text, line);
        crate::inspector::focus_field(&path);
    };
    let item = move |d: &logicmd::diagnostic::Diagnostic, class: &'static str| {
        let (line, path) = (d.line, d.path.clone());
        let severity = d.severity.as_str();
        let place = if line > 0 {
            format!("{}:{}", d.line, d.column)
        } else {
            String::new()
        };
        view! {
            <li class=format!("{class} {severity}") data-line=line data-path=d.path.clone() data-code=d.code.clone()>
                <button class="diagnostic-go" on:click=move |_| jump(line, path.clone())>
                    <span class="where">{place}</span>
                    <span class="code">{d.code.clone()}</span>
                    <span class="message">{d.message.clone()}</span>
                    {d.help.clone().map(|h| view! { <span class="help">{h}</span> })}
                </button>
                {let d = d.clone(); move || source.assist.ready.get().then(crate::source::ide::loaded).flatten().map(|ide| ide.fix_buttons(d.clone(), source))}
            </li>
        }
    };
    view! {
        <section class="diagnostics" data-testid="diagnostics" aria-label="Problems"
            on:pointerenter=move |_| source.assist.wake() on:focusin=move |_| source.assist.wake()>
            <h2>{move || {
                let count = studio.diagnostics.with(Vec::len);
                let checking = if studio.checking.get() { " · checking…" } else { "" };
                let needs = studio.run_needs.with(Vec::len);
                let run = if needs > 0 { format!(" · {needs} before a run") } else { String::new() };
                if count == 0 { format!("No problems{run}{checking}") } else { format!("Problems ({count}){run}{checking}") }
            }}</h2>
            {move || (!studio.run_needs.with(Vec::is_empty)).then(|| view! {
                <h3 class="run-needs-heading">"Before a run: what it needs"</h3>
                <ul class="run-needs" data-testid="run-needs">
                    {studio.run_needs.with(|needs| needs.iter().map(|d| item(d, "run-need")).collect_view())}
                </ul>
            })}
            <ul>
                {move || studio.diagnostics.with(|all| all.iter().take(LISTED_PROBLEMS).map(|d| item(d, "diagnostic")).collect_view())}
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
