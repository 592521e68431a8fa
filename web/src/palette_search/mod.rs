//! The command palette (Ctrl/Cmd+K): one search over the graph's nodes (picking one selects
//! it and centres it), the studio's commands and the examples. A modal `dialog` with a
//! `combobox` and its `listbox`: arrows move the active option (wrapping), Enter picks,
//! Escape closes and gives the keyboard back.

mod entries;

use leptos::html;
use leptos::prelude::*;

use crate::state::Studio;
use entries::{search, Command, Entry};

/// Formats the text with core's formatter, as one undoable change (or says why not); the
/// formatter loads with the source pane's editor queries (`source::ide`).
pub fn format_text(studio: Studio) {
    crate::source::ide::format_text(studio);
}

#[component]
pub fn CommandPalette() -> impl IntoView {
    let studio = expect_context::<Studio>();
    let open = expect_context::<crate::toolbar::Dialogs>().palette;
    let to = Reach {
        studio,
        replace: expect_context(),
        room: expect_context(),
    };
    let keys = window_event_listener(leptos::ev::keydown, move |ev| {
        if (ev.ctrl_key() || ev.meta_key()) && ev.key().eq_ignore_ascii_case("k") {
            ev.prevent_default();
            open.set(true);
        }
    });
    on_cleanup(move || keys.remove());
    move || open.get().then(|| view! { <Dialog open=open to=to /> })
}

/// What a picked entry may act on (captured: a key handler has no reactive owner to ask).
#[derive(Clone, Copy)]
struct Reach {
    studio: Studio,
    replace: crate::replace::Replace,
    room: crate::room::Room,
}

#[component]
fn Dialog(open: RwSignal<bool>, to: Reach) -> impl IntoView {
    let studio = to.studio;
    let query = RwSignal::new(String::new());
    let active = RwSignal::new(0usize);
    let found = Memo::new(move |_| {
        let query = query.get();
        studio.graph.with(|g| search(g.as_deref(), &query))
    });
    let input = NodeRef::<html::Input>::new();
    Effect::new(move |_| {
        if let Some(input) = input.get() {
            let _ = input.focus();
        }
    });
    let close = move || {
        open.set(false);
        crate::menu::focus_canvas();
    };
    let pick = move |index: usize| {
        let Some(entry) = found.with_untracked(|f| f.get(index).cloned()) else {
            return;
        };
        close();
        run(to, entry);
    };
    let on_key = move |ev: web_sys::KeyboardEvent| {
        let count = found.with_untracked(Vec::len);
        match ev.key().as_str() {
            "ArrowDown" | "ArrowUp" if count > 0 => {
                ev.prevent_default();
                let down = ev.key() == "ArrowDown";
                active.update(|i| {
                    *i = if down {
                        (*i + 1) % count
                    } else {
                        (*i + count - 1) % count
                    }
                });
            }
            "Enter" => {
                ev.prevent_default();
                pick(active.get_untracked());
            }
            "Escape" => {
                ev.prevent_default();
                ev.stop_propagation();
                close();
            }
            _ => {}
        }
    };
    let option_id = |i: usize| format!("palette-option-{i}");
    view! {
        <div class="dialog-backdrop" on:click=move |_| close()>
            <div class="dialog command-palette" role="dialog" aria-modal="true" aria-label="Command palette"
                on:click=|ev| ev.stop_propagation()>
                <input node_ref=input type="text" role="combobox" aria-expanded="true"
                    aria-controls="palette-list" aria-autocomplete="list"
                    aria-label="Search nodes, commands and examples" placeholder="Search nodes, commands, examples…"
                    aria-activedescendant=move || (!found.with(Vec::is_empty)).then(|| option_id(active.get()))
                    prop:value=move || query.get()
                    on:input=move |ev| { query.set(event_target_value(&ev)); active.set(0); }
                    on:keydown=on_key />
                <ul id="palette-list" role="listbox" aria-label="Matches">
                    {move || found.get().into_iter().enumerate().map(|(i, entry)| view! {
                        <li id=option_id(i) role="option" class=format!("palette-entry palette-{}", entry.kind())
                            aria-selected=move || (active.get() == i).to_string()
                            on:pointerdown=|ev| ev.prevent_default()
                            on:click=move |_| pick(i)>{entry.label()}</li>
                    }).collect_view()}
                </ul>
                {move || found.with(Vec::is_empty).then(|| view! { <p class="palette-none">"Nothing matches."</p> })}
            </div>
        </div>
    }
}

fn run(to: Reach, entry: Entry) {
    let studio = to.studio;
    match entry {
        Entry::Node { id, .. } => {
            crate::select::select_many(studio, vec![id.clone()]);
            studio.reveal_request.set(Some(id));
        }
        Entry::Example { id, .. } => {
            if let Some(example) = crate::examples::by_id(id) {
                to.replace
                    .open(studio, example.title, example.text.to_owned());
            }
        }
        Entry::Command(command) => run_command(to, command),
    }
}

fn run_command(to: Reach, command: Command) {
    let studio = to.studio;
    match command {
        Command::New => click("[data-testid=new]"),
        Command::Fit => studio.fit_request.update(|n| *n += 1),
        Command::AutoLayout => crate::canvas::auto_layout(studio),
        Command::Format => format_text(studio),
        Command::Undo => studio.undo(),
        Command::Redo => studio.redo(),
        Command::Share => crate::panels::share(studio),
        Command::ToggleSource => to.room.toggle(crate::room::Side::Source),
    }
}

/// Presses a toolbar button (the New button opens its own dialog).
fn click(selector: &str) {
    use wasm_bindgen::JsCast;
    let button = crate::browser::window()
        .and_then(|w| w.document())
        .and_then(|d| d.query_selector(selector).ok().flatten())
        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok());
    if let Some(button) = button {
        button.click();
    }
}
