//! The studio's layout and its global behaviour: start-up document, autosave, keyboard
//! shortcuts, share-link loading and file drops.

use leptos::prelude::*;
use logicmd::edit::Edit;

use crate::browser;
use crate::canvas::Canvas;
use crate::examples::EXAMPLES;
use crate::inspector::Inspector;
use crate::panels::{load_file, Diagnostics, Palette, StatusBar, Toolbar};
use crate::run::{RunPanel, RunState};
use crate::settled::Settled;
use crate::source::SourceEditor;
use crate::splitter::{Splitter, INSPECTOR, PALETTE, SOURCE};
use crate::state::{Severity, Studio};

/// The document to open: a share link in the address, else the autosave, else the default
/// example. A malformed link loads nothing from the link and says why.
fn initial_document() -> (String, Option<String>) {
    let fallback = || browser::load_autosave().unwrap_or_else(|| EXAMPLES[0].text.to_owned());
    match browser::share_fragment() {
        Some(payload) => match logicmd::share::decode(&payload) {
            Ok(text) => (text, None),
            Err(reason) => (
                fallback(),
                Some(format!("This share link could not be opened: {reason}")),
            ),
        },
        None => (fallback(), None),
    }
}

#[component]
pub fn App() -> impl IntoView {
    let (text, problem) = initial_document();
    let room = crate::room::Room::remembered();
    provide_context(room);
    let studio = Studio::new(text, room.direction);
    provide_context(studio);
    provide_context(RunState::new());
    provide_context(crate::a11y::Announcer(RwSignal::new(String::new())));
    let sizes = crate::splitter::Sizes::remembered();
    provide_context(sizes);
    if let Some(problem) = problem {
        studio.notify(Severity::Error, problem);
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
                Ok(text) => studio.load(text),
                Err(reason) => studio.notify(
                    Severity::Error,
                    format!("This share link could not be opened: {reason}"),
                ),
            }
            browser::clear_fragment();
        }
    });
    on_cleanup(move || hashchange.remove());

    let on_drop = move |ev: leptos::ev::DragEvent| {
        ev.prevent_default();
        if let Some(file) = browser::dropped_file(&ev) {
            load_file(studio, file);
        }
    };

    view! {
        <div class="studio" on:dragover=|ev: leptos::ev::DragEvent| ev.prevent_default() on:drop=on_drop>
            <Toolbar />
            <StatusBar />
            <main class="workspace" style=move || sizes.style() class:no-source=move || !studio.source_open.get()
                class:no-palette=move || !room.palette_open.get()
                class:no-inspector=move || !room.inspector_open.get()>
                <Show when=move || room.palette_open.get()><Palette /></Show>
                <Splitter panel=PALETTE open=Signal::derive(move || room.palette_open.get()) />
                <section class="canvas-pane">
                    <Canvas />
                    {move || {
                        let blank = studio.text.with(|t| t.trim().is_empty());
                        let empty = studio.graph.with(|g| g.as_ref().is_none_or(|g| g.nodes.is_empty()));
                        if blank || (empty && studio.analysis.with(|a| a.graph.is_some())) {
                            Some(view! { <div class="empty-canvas" role="status">"Nothing here yet: add a step from the palette, or pick New."</div> }.into_any())
                        } else {
                            studio.analysis.with(|a| a.graph.is_none()).then(|| view! {
                                <div class="stale" role="status">"The text does not parse; showing the last good graph."</div>
                            }.into_any())
                        }
                    }}
                </section>
                <Splitter panel=INSPECTOR open=Signal::derive(move || room.inspector_open.get()) />
                <Show when=move || room.inspector_open.get()><Inspector /></Show>
                <Splitter panel=SOURCE open=Signal::derive(move || studio.source_open.get()) />
                <SourceEditor pane=source />
            </main>
            <RunPanel />
            <Diagnostics source=source />
            <crate::a11y::LiveRegion />
            <crate::palette_search::CommandPalette />
        </div>
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
    if key == "Escape" {
        studio.selected.set(None);
        studio.selected_wire.set(None);
        return;
    }
    if key == "F2" {
        if let Some(id) = studio.selected.get_untracked() {
            ev.prevent_default();
            studio.renaming.set(Some(id));
        }
        return;
    }
    if key != "Delete" && key != "Backspace" {
        return;
    }
    if let Some(ends) = studio.selected_wire.get_untracked() {
        ev.prevent_default();
        match crate::wires::remove_wire(studio, &ends) {
            Ok(()) => studio.selected_wire.set(None),
            Err(message) => studio.notify(Severity::Error, message),
        }
        return;
    }
    let Some(id) = studio.selected.get_untracked() else {
        return;
    };
    let target = studio.graph.with_untracked(|g| {
        g.as_ref()
            .and_then(|g| g.node(&id))
            .map(|n| (n.kind.clone(), n.name.clone()))
    });
    let edit = match target {
        Some((kind, name)) if kind == "step" => Edit::RemoveStep { name },
        Some((_, name)) if id.starts_with("drtl:") => Edit::RemoveNode { id: name },
        Some((kind, _)) => {
            studio.notify(
                Severity::Warning,
                format!("A {kind} node is removed in the text (select it there)."),
            );
            return;
        }
        None => return,
    };
    ev.prevent_default();
    match studio.apply(&edit) {
        Ok(_) => studio.selected.set(None),
        Err(message) => studio.notify(Severity::Error, message),
    }
}

fn typing_in_a_field(ev: &web_sys::KeyboardEvent) -> bool {
    use wasm_bindgen::JsCast;
    ev.target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .is_some_and(|e| matches!(e.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT"))
}
