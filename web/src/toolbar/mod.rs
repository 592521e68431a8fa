//! The toolbar: three menus (File, Edit, View) and the few buttons used all day (New, Undo,
//! Redo, History, Fit, Run). Grouping into menus keeps it on one line at any width the studio
//! supports: it never overflows.

mod menu_button;
pub mod new_dialog;

use leptos::html;
use leptos::prelude::*;
use logicmd::graph::Direction;

use crate::browser;
use crate::canvas::auto_layout;
use crate::replace::{download, Replace};
use crate::room::{Room, Side};
use crate::run::{run_now, RunState, SetupFields};
use crate::state::Studio;
use menu_button::{Item, MenuButton};

/// Dialogs the toolbar and the first screen open.
#[derive(Clone, Copy)]
pub struct Dialogs {
    pub new: RwSignal<bool>,
    pub history: RwSignal<bool>,
    /// The command palette (Ctrl+K).
    pub palette: RwSignal<bool>,
    /// The hidden file input Open clicks.
    pub file: NodeRef<html::Input>,
}

impl Dialogs {
    pub fn new() -> Dialogs {
        Dialogs {
            new: RwSignal::new(false),
            history: RwSignal::new(false),
            palette: RwSignal::new(false),
            file: NodeRef::new(),
        }
    }

    /// Opens the browser's file picker (Open).
    pub fn open_file(self) {
        if let Some(input) = self.file.get_untracked() {
            input.click();
        }
    }
}

impl Default for Dialogs {
    fn default() -> Self {
        Dialogs::new()
    }
}

#[component]
pub fn Toolbar() -> impl IntoView {
    let studio = expect_context::<Studio>();
    let dialogs = expect_context::<Dialogs>();
    let replace = expect_context::<Replace>();
    let run = expect_context::<RunState>();
    let room = expect_context::<Room>();
    let setup = expect_context::<SetupFields>();
    let on_open = move |ev: leptos::ev::Event| {
        let input = browser::file_input(&ev);
        if let Some(file) = input.as_ref().and_then(|i| i.files()?.get(0)) {
            crate::files::opened(studio, replace, file);
        }
        if let Some(input) = input {
            input.set_value("");
        }
    };
    let active = move || run.phase.with(crate::run::Phase::active);
    view! {
        <header class="toolbar">
            <h1 class="brand">"logicmd studio"</h1>
            <nav class="menus" aria-label="Menus">
                <MenuButton testid="file" label="File" items=file_items(studio, dialogs, replace) />
                <MenuButton testid="edit" label="Edit" items=edit_items(studio, dialogs) />
                <MenuButton testid="view" label="View" items=view_items(studio, room) />
            </nav>
            <input type="file" class="hidden" node_ref=dialogs.file accept=".md,.yaml,.yml,text/*"
                aria-label="Open a document" tabindex="-1" on:change=on_open />
            <button data-testid="new" aria-haspopup="dialog" on:click=move |_| dialogs.new.set(true)>"New"</button>
            <button data-testid="undo" title="Undo (Ctrl+Z)" on:click=move |_| studio.undo()
                disabled=move || !studio.history.with(|h| h.can_undo())>"Undo"</button>
            <button data-testid="redo" title="Redo (Ctrl+Shift+Z)" on:click=move |_| studio.redo()
                disabled=move || !studio.history.with(|h| h.can_redo())>"Redo"</button>
            <button data-testid="history" aria-haspopup="dialog" title="Earlier states: compare and restore"
                on:click=move |_| dialogs.history.set(true)>"History"</button>
            <button data-testid="fit" title="Fit the whole graph in view"
                on:click=move |_| studio.fit_request.update(|n| *n += 1)>"Fit"</button>
            <span class="stats">{move || studio.graph.with(|g| g.as_ref().map_or_else(String::new, |g| format!("{} nodes · {} wires", g.nodes.len(), g.edges.len())))}</span>
            <button class="primary run-button" data-testid="run" aria-controls="run-panel" disabled=active
                aria-busy=move || run.starting.get().to_string()
                on:pointerenter=move |_| run.preload() on:focus=move |_| run.preload()
                on:click=move |_| run_now(studio, run, room, setup)>
                {move || if run.starting.get() { "… Loading run mode" } else { "▶ Run" }}
            </button>
        </header>
    }
}

fn file_items(studio: Studio, dialogs: Dialogs, replace: Replace) -> Vec<Item> {
    vec![
        Item::action("menu-new", "New or example…", move || {
            dialogs.new.set(true)
        }),
        Item::action("open", "Open a file…", move || dialogs.open_file()),
        Item::action("download", "Download", move || download(studio)),
        Item::action("share", "Copy a share link", move || {
            crate::tools::share(studio);
            replace.mark_saved(studio);
        }),
        Item::action("menu-history", "History…", move || {
            dialogs.history.set(true)
        }),
    ]
}

fn edit_items(studio: Studio, dialogs: Dialogs) -> Vec<Item> {
    vec![
        Item::action("menu-undo", "Undo", move || studio.undo())
            .keys("Ctrl+Z")
            .enabled(move || studio.history.with(|h| h.can_undo())),
        Item::action("menu-redo", "Redo", move || studio.redo())
            .keys("Ctrl+Shift+Z")
            .enabled(move || studio.history.with(|h| h.can_redo())),
        Item::action("copy", "Copy", move || crate::tools::copy(studio)).keys("Ctrl+C"),
        Item::action("paste", "Paste", move || crate::tools::paste(studio, None)).keys("Ctrl+V"),
        Item::action("duplicate", "Duplicate", move || {
            crate::tools::duplicate(studio)
        })
        .keys("Ctrl+D"),
        Item::action("format", "Format the text", move || {
            crate::tools::format(studio)
        }),
        Item::action("command-palette", "Find a node or command…", move || {
            dialogs.palette.set(true)
        })
        .keys("Ctrl+K"),
    ]
}

fn view_items(studio: Studio, room: Room) -> Vec<Item> {
    let direction = move |d: Direction| {
        move || {
            room.direction.set(d);
            auto_layout(studio);
        }
    };
    vec![
        Item::action("layout", "Auto-layout", move || auto_layout(studio)),
        Item::action(
            "layout-down",
            "Lay out downwards ↓",
            direction(Direction::TopDown),
        )
        .radio(move || room.direction.get() == Direction::TopDown),
        Item::action(
            "layout-right",
            "Lay out to the right →",
            direction(Direction::LeftRight),
        )
        .radio(move || room.direction.get() == Direction::LeftRight),
        Item::action("toggle-palette", "Palette", move || {
            room.palette_open.update(|o| *o = !*o)
        })
        .check(move || room.palette_open.get()),
        Item::action("toggle-inspector", "Inspector", move || {
            room.toggle(Side::Inspector)
        })
        .check(move || room.inspector_shown()),
        Item::action("toggle-source", "Source text", move || {
            room.toggle(Side::Source)
        })
        .check(move || room.source_shown()),
        Item::action("toggle-run-panel", "Run panel", move || {
            room.run_open.update(|o| *o = !*o)
        })
        .check(move || room.run_open.get()),
        Item::action("menu-minimap", "Minimap", move || {
            room.minimap.update(|o| *o = !*o)
        })
        .check(move || room.minimap.get()),
    ]
}
