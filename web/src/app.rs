//! The studio's layout and its global behaviour: start-up document, autosave, keyboard
//! shortcuts, share-link loading and file drops.
//!
//! The layout is one grid whose children are in the keyboard's order — toolbar, palette, canvas,
//! inspector, Run panel, problems, source — while the grid places the inspector and the source
//! together in the side column (as tabs, or stacked).

use leptos::prelude::*;
use logicmd::edit::Edit;

use crate::browser;
use crate::examples::EXAMPLES;
use crate::inspector::Inspector;
use crate::panels::{Diagnostics, Palette, StatusBar};
use crate::replace::{Replace, ReplaceDialog};
use crate::room::{Room, Side};
use crate::run::{RunPanel, RunState, SetupFields};
use crate::selection::Selection;
use crate::settled::Settled;
use crate::source::SourceEditor;
use crate::splitter::{Splitter, PALETTE, SIDE};
use crate::state::{Severity, Studio};
use crate::toolbar::{new_dialog::NewDialog, Dialogs, Toolbar};

/// The document to open: a share link in the address, else the autosave, else the default
/// example. A malformed link loads nothing from the link and says why. The flag says whether
/// this is a first visit (nothing saved, no link).
fn initial_document() -> (String, Option<String>, bool) {
    let saved = browser::load_autosave();
    let first_visit = saved.is_none();
    let fallback = || saved.clone().unwrap_or_else(|| EXAMPLES[0].text.to_owned());
    match browser::share_fragment() {
        Some(payload) => match logicmd::share::decode(&payload) {
            Ok(text) => (text, None, false),
            Err(reason) => (
                fallback(),
                Some(format!("This share link could not be opened: {reason}")),
                first_visit,
            ),
        },
        None => (fallback(), None, first_visit),
    }
}

#[component]
pub fn App() -> impl IntoView {
    let (text, problem, first_visit) = initial_document();
    let room = Room::remembered();
    provide_context(room);
    let studio = Studio::new(text, room.direction);
    provide_context(studio);
    provide_context(RunState::new());
    provide_context(SetupFields::new());
    provide_context(crate::a11y::Announcer(RwSignal::new(String::new())));
    let replace = Replace::new();
    provide_context(replace);
    let dialogs = Dialogs::new();
    provide_context(dialogs);
    let sizes = crate::splitter::Sizes::remembered();
    provide_context(sizes);
    provide_context(crate::welcome::Welcome::new(first_visit));
    if let Some(problem) = problem {
        studio.notify(Severity::Error, problem);
    }
    if browser::share_fragment().is_some() {
        // A link opened as it is counts as saved: it is in the address it came from.
        replace.mark_saved(studio);
    }
    browser::clear_fragment();

    let settled = Settled::watch(studio);
    provide_context(settled);
    autosave(studio, settled);
    // Fit once the canvas has a size.
    request_animation_frame(move || studio.fit_request.update(|n| *n += 1));

    let source = crate::source::SourcePane::new();
    let keydown = window_event_listener(leptos::ev::keydown, move |ev| on_key(studio, &ev));
    on_cleanup(move || keydown.remove());
    let hashchange = window_event_listener(leptos::ev::hashchange, move |_| {
        if let Some(payload) = browser::share_fragment() {
            match logicmd::share::decode(&payload) {
                Ok(text) => replace.ask("the shared document", text),
                Err(reason) => studio.notify(
                    Severity::Error,
                    format!("This share link could not be opened: {reason}"),
                ),
            }
            browser::clear_fragment();
        }
    });
    on_cleanup(move || hashchange.remove());

    let targets = crate::files::Targets::from_context();
    let on_drop = move |ev: leptos::ev::DragEvent| {
        ev.prevent_default();
        if let Some(file) = browser::dropped_file(&ev) {
            crate::files::dropped(targets, file);
        }
    };
    let side = move || match (room.side_open.get(), room.side.get()) {
        (false, _) => "side-closed",
        (true, Side::Inspector) => "side-inspector",
        (true, Side::Source) => "side-source",
        (true, Side::Both) => "side-both",
    };

    view! {
        <div class=move || format!("studio {}", side()) style=move || sizes.style()
            class:no-palette=move || !room.palette_open.get()
            on:dragover=|ev: leptos::ev::DragEvent| ev.prevent_default() on:drop=on_drop>
            <Toolbar />
            <StatusBar />
            <Show when=move || room.palette_open.get()><Palette /></Show>
            <Splitter panel=PALETTE open=Signal::derive(move || room.palette_open.get()) />
            <CanvasPane />
            <Splitter panel=SIDE open=Signal::derive(move || room.side_open.get()) />
            <SideTabs />
            <Show when=move || room.inspector_shown()><Inspector /></Show>
            <RunPanel />
            <Diagnostics source=source />
            <SourceEditor pane=source />
            <crate::a11y::LiveRegion />
            <crate::palette_search::CommandPalette />
            <NewDialog />
            <crate::versions::History open=dialogs.history />
            <ReplaceDialog />
        </div>
    }
}

/// The canvas and what lies over it: the first screen's welcome (or the empty canvas's), and
/// the banner of a text that does not parse.
#[component]
fn CanvasPane() -> impl IntoView {
    let studio = expect_context::<Studio>();
    view! {
        <main class="canvas-pane" aria-label="Canvas">
            <crate::canvas::Canvas />
            <crate::welcome::WelcomeCard />
            {move || {
                let stale = studio.analysis.with(|a| a.graph.is_none())
                    && !studio.text.with(|t| t.trim().is_empty());
                stale.then(|| view! {
                    <div class="stale" role="status">"The text does not parse; showing the last good graph."</div>
                })
            }}
        </main>
    }
}

/// The side column's tabs: Inspector, Source, or both stacked.
#[component]
fn SideTabs() -> impl IntoView {
    let room = expect_context::<Room>();
    let tab = move |side: Side, label: &'static str, testid: &'static str| {
        view! {
            <button role="tab" data-testid=testid
                aria-selected=move || (room.side_open.get() && room.side.get() == side).to_string()
                on:click=move |_| { room.side_open.set(true); room.side.set(side); }>{label}</button>
        }
    };
    view! {
        <nav class="side-tabs" aria-label="Side panels" hidden=move || !room.side_open.get()>
            <div role="tablist" aria-label="Show the inspector, the source, or both">
                {tab(Side::Inspector, "Inspector", "tab-inspector")}
                {tab(Side::Source, "Source", "tab-source")}
                {tab(Side::Both, "Both", "tab-both")}
            </div>
        </nav>
    }
}

/// Saves the text to the browser's storage once typing pauses, and when the page is hidden.
fn autosave(studio: Studio, settled: Settled) {
    settled.on_settle(move || studio.text.with_untracked(|t| browser::autosave(t)));
    let hidden = window_event_listener(leptos::ev::visibilitychange, move |_| {
        studio.text.with_untracked(|t| browser::autosave(t));
    });
    on_cleanup(move || hidden.remove());
}

fn on_key(studio: Studio, ev: &web_sys::KeyboardEvent) {
    let modifier = ev.ctrl_key() || ev.meta_key();
    let key = ev.key();
    if modifier && key.eq_ignore_ascii_case("z") {
        ev.prevent_default();
        if ev.shift_key() {
            studio.redo();
        } else {
            studio.undo();
        }
        return;
    }
    if modifier && key.eq_ignore_ascii_case("y") {
        ev.prevent_default();
        studio.redo();
        return;
    }
    // A menu's own keys (Escape, Enter, arrows) are the menu's.
    if typing_in_a_field(ev)
        || crate::menu::within_menu(ev)
        || crate::select::keys::on_key(studio, ev)
    {
        return;
    }
    match key.as_str() {
        "Escape" => studio.select(Selection::none()),
        "F2" => {
            if let Some(id) = studio.selected_untracked() {
                ev.prevent_default();
                studio.renaming.set(Some(id));
            }
        }
        "Delete" | "Backspace" => delete_selected(studio, ev),
        _ => {}
    }
}

/// Delete: the selected wire, or the selected node (decision-tree nodes too), as core edits.
fn delete_selected(studio: Studio, ev: &web_sys::KeyboardEvent) {
    if let Some(ends) = studio
        .selection
        .with_untracked(|s| s.selected_wire().cloned())
    {
        ev.prevent_default();
        match crate::wires::remove_wire(studio, &ends) {
            Ok(()) => studio.select(Selection::none()),
            Err(message) => studio.notify(Severity::Error, message),
        }
        return;
    }
    let Some(id) = studio.selected_untracked() else {
        return;
    };
    let edits = studio.graph.with_untracked(|g| {
        let node = g.as_ref()?.node(&id)?;
        Some(crate::trees::removal(studio, node))
    });
    let Some(edits) = edits else {
        return;
    };
    ev.prevent_default();
    let outcome = edits.and_then(|edits: Vec<Edit>| studio.apply_all(None, &edits));
    match outcome {
        Ok(()) => studio.select(Selection::none()),
        Err(message) => studio.notify(Severity::Error, message),
    }
}

fn typing_in_a_field(ev: &web_sys::KeyboardEvent) -> bool {
    use wasm_bindgen::JsCast;
    ev.target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .is_some_and(|e| matches!(e.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT"))
}
