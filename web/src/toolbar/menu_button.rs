//! A toolbar menu: a button that opens a `role="menu"` list (WAI-ARIA's menu button). The first
//! item takes the keyboard, arrows move (wrapping), Home/End jump, Enter or Space picks, Escape
//! closes and gives the button the keyboard back, Tab closes and moves on.

use leptos::html;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::menu::move_focus;

/// What an item is.
#[derive(Clone)]
pub enum Kind {
    Action,
    /// A choice that is on or off (`menuitemcheckbox`).
    Check(Signal<bool>),
    /// One of a group of choices (`menuitemradio`).
    Radio(Signal<bool>),
}

/// One item of a menu.
#[derive(Clone)]
pub struct Item {
    pub testid: &'static str,
    pub label: &'static str,
    /// A key that does the same, shown beside the label.
    pub keys: &'static str,
    pub kind: Kind,
    pub enabled: Signal<bool>,
    pub run: Callback<()>,
}

impl Item {
    pub fn action(
        testid: &'static str,
        label: &'static str,
        run: impl Fn() + Send + Sync + 'static,
    ) -> Item {
        Item {
            testid,
            label,
            keys: "",
            kind: Kind::Action,
            enabled: Signal::stored(true),
            run: Callback::new(move |()| run()),
        }
    }

    pub fn keys(mut self, keys: &'static str) -> Item {
        self.keys = keys;
        self
    }

    pub fn check(mut self, on: impl Fn() -> bool + Send + Sync + 'static) -> Item {
        self.kind = Kind::Check(Signal::derive(on));
        self
    }

    pub fn radio(mut self, on: impl Fn() -> bool + Send + Sync + 'static) -> Item {
        self.kind = Kind::Radio(Signal::derive(on));
        self
    }

    pub fn enabled(mut self, on: impl Fn() -> bool + Send + Sync + 'static) -> Item {
        self.enabled = Signal::derive(on);
        self
    }
}

#[component]
pub fn MenuButton(testid: &'static str, label: &'static str, items: Vec<Item>) -> impl IntoView {
    let open = RwSignal::new(false);
    let button = NodeRef::<html::Button>::new();
    let list = NodeRef::<html::Div>::new();
    let menu_id = format!("menu-{testid}");
    let entries = move || -> Vec<web_sys::HtmlElement> {
        let Some(list) = list.get_untracked() else {
            return Vec::new();
        };
        std::iter::successors(list.first_element_child(), |e| e.next_element_sibling())
            .filter_map(|e| e.dyn_into().ok())
            .filter(|e: &web_sys::HtmlElement| {
                e.get_attribute("aria-disabled").as_deref() != Some("true")
            })
            .collect()
    };
    Effect::new(move |_| {
        if open.get() && list.get().is_some() {
            if let Some(first) = entries().first() {
                let _ = first.focus();
            }
        }
    });
    let close = move |refocus: bool| {
        open.set(false);
        if refocus {
            if let Some(button) = button.get_untracked() {
                let _ = button.focus();
            }
        }
    };
    let on_key = move |ev: web_sys::KeyboardEvent| {
        let key = ev.key();
        if key == "Escape" {
            ev.prevent_default();
            ev.stop_propagation();
            close(true);
            return;
        }
        if key == "Tab" {
            close(false);
            return;
        }
        move_focus(&entries(), &ev);
    };
    let on_button_key = move |ev: web_sys::KeyboardEvent| {
        if matches!(ev.key().as_str(), "ArrowDown" | "ArrowUp") {
            ev.prevent_default();
            open.set(true);
        }
    };
    let items = StoredValue::new(items);
    view! {
        <div class="menu-anchor">
            <button node_ref=button data-testid=testid aria-haspopup="menu" aria-controls=menu_id.clone()
                aria-expanded=move || open.get().to_string()
                on:click=move |_| open.update(|o| *o = !*o) on:keydown=on_button_key>
                {label} <span class="caret" aria-hidden="true">"▾"</span>
            </button>
            {move || open.get().then(|| {
                let menu_id = menu_id.clone();
                view! {
                    <div class="menu-backdrop" on:pointerdown=move |_| close(false)></div>
                    <div class="toolbar-menu" role="menu" id=menu_id aria-label=label node_ref=list
                        data-testid=format!("{testid}-menu") on:keydown=on_key>
                        {items.get_value().into_iter().map(|item| item_view(item, close)).collect_view()}
                    </div>
                }
            })}
        </div>
    }
}

fn item_view(item: Item, close: impl Fn(bool) + Copy + Send + Sync + 'static) -> impl IntoView {
    let (role, checked) = match &item.kind {
        Kind::Action => ("menuitem", None),
        Kind::Check(on) => ("menuitemcheckbox", Some(*on)),
        Kind::Radio(on) => ("menuitemradio", Some(*on)),
    };
    let enabled = item.enabled;
    let run = item.run;
    let mark = move || {
        checked.map(|on| {
            let glyph = match (role, on.get()) {
                (_, false) => " ",
                ("menuitemradio", true) => "●",
                _ => "✓",
            };
            view! { <span class="menu-check" aria-hidden="true">{glyph}</span> }
        })
    };
    view! {
        <button role=role tabindex="-1" data-testid=item.testid
            aria-checked=move || checked.map(|on| on.get().to_string())
            aria-disabled=move || (!enabled.get()).then_some("true")
            on:click=move |_| {
                if enabled.get_untracked() {
                    close(false);
                    run.run(());
                }
            }>
            {mark}
            <span class="menu-label">{item.label}</span>
            {(!item.keys.is_empty()).then(|| view! { <kbd aria-hidden="true">{item.keys}</kbd> })}
        </button>
    }
}
