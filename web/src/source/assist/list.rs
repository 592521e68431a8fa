//! The completion popup and the quick-fix menu: listboxes under (or above, near the view's
//! bottom) the place they speak about, their chosen option the textarea's active descendant,
//! so the keyboard stays in the text. A click picks an option without taking the focus.

use leptos::prelude::*;

use super::caret::Place;
use super::markdown::render;
use super::Assist;
use crate::source::pane::SourcePane;
use crate::source::LINE_HEIGHT;
use crate::state::Studio;

/// The popup's id; its options are `{COMPLETION_ID}-{index}`.
pub const COMPLETION_ID: &str = "source-completion";
/// The fix menu's id; its options are `{FIXES_ID}-{index}`.
pub const FIXES_ID: &str = "source-fixes";
/// How tall a list may be drawn (the stylesheet's `max-height` of `.assist-list`), to decide
/// whether it fits under its line.
const LIST_HEIGHT: f64 = 260.0;
/// How wide a list is drawn at most (it is narrower where the view leaves less room).
const LIST_WIDTH: f64 = 460.0;

/// The anchor's style and class: under the line, or above it when it would not fit.
fn anchor(pane: SourcePane, place: Place) -> (String, &'static str) {
    let (top, height) = pane.view_box();
    let line_bottom = (place.line + 1) as f64 * LINE_HEIGHT - top;
    let fits_below = line_bottom + LIST_HEIGHT <= height || line_bottom < height / 2.0;
    if fits_below {
        (place.style(pane, true, LIST_WIDTH), "assist-anchor below")
    } else {
        (place.style(pane, false, LIST_WIDTH), "assist-anchor above")
    }
}

/// Brings the chosen option into the list's view.
fn show_chosen(id: String) {
    request_animation_frame(move || {
        if let Some(option) = document().query_selector(&format!("#{id}")).ok().flatten() {
            let options = web_sys::ScrollIntoViewOptions::new();
            options.set_block(web_sys::ScrollLogicalPosition::Nearest);
            option.scroll_into_view_with_scroll_into_view_options(&options);
        }
    });
}

#[component]
pub fn CompletionPopup(assist: Assist, pane: SourcePane) -> impl IntoView {
    let studio = expect_context::<Studio>();
    Effect::new(move |_| {
        if let Some(active) = assist.popup.with(|p| p.as_ref().map(|p| p.active)) {
            show_chosen(format!("{COMPLETION_ID}-{active}"));
        }
    });
    move || {
        let popup = assist.popup.get()?;
        let (style, class) = anchor(pane, popup.place);
        let chosen = popup.items.get(popup.active).cloned();
        let options = popup
            .items
            .iter()
            .enumerate()
            .map(|(i, item)| {
                let active = i == popup.active;
                let pick = move |_| {
                    assist.popup.update(|p| {
                        if let Some(p) = p {
                            p.active = i;
                        }
                    });
                    assist.accept(studio, pane);
                };
                view! {
                    <li id=format!("{COMPLETION_ID}-{i}") role="option" aria-selected=active.to_string()
                        class="assist-option" class:active=active data-kind=item.kind
                        on:mousedown=|ev| ev.prevent_default() on:click=pick>
                        <span class="kind" aria-hidden="true">{kind_mark(item.kind)}</span>
                        <span class="label">{item.label.clone()}</span>
                        {item.detail.clone().map(|d| view! { <span class="detail">{d}</span> })}
                    </li>
                }
            })
            .collect_view();
        let empty = popup.items.is_empty();
        let doc = chosen.and_then(|c| c.documentation).map(|d| {
            view! { <div class="assist-doc" data-testid="completion-doc">{render(&d)}</div> }
        });
        Some(view! {
            <div class=class style=style>
                <div class="assist-popup" data-testid="completion" on:mousedown=|ev| ev.prevent_default()>
                    {empty.then(|| view! { <p class="assist-empty" role="status">"No completions here"</p> })}
                    <ul id=COMPLETION_ID role="listbox" aria-label="Completions" class="assist-list"
                        tabindex="0" class:empty=empty>{options}</ul>
                    {doc}
                </div>
            </div>
        })
    }
}

#[component]
pub fn FixMenuView(assist: Assist, pane: SourcePane) -> impl IntoView {
    let studio = expect_context::<Studio>();
    move || {
        let menu = assist.fix_menu.get()?;
        let (style, class) = anchor(pane, menu.place);
        let options = menu
            .fixes
            .iter()
            .enumerate()
            .map(|(i, fix)| {
                let active = i == menu.active;
                let chosen = fix.clone();
                view! {
                    <li id=format!("{FIXES_ID}-{i}") role="option" aria-selected=active.to_string()
                        class="assist-option" class:active=active
                        on:mousedown=|ev| ev.prevent_default()
                        on:click=move |_| assist.apply_fix(studio, pane, &chosen)>
                        <span class="kind" aria-hidden="true">{super::fixes::bulb()}</span>
                        <span class="label">{fix.title.clone()}</span>
                    </li>
                }
            })
            .collect_view();
        Some(view! {
            <div class=class style=style>
                <div class="assist-popup" data-testid="fix-menu" on:mousedown=|ev| ev.prevent_default()>
                    <ul id=FIXES_ID role="listbox" aria-label="Quick fixes" class="assist-list" tabindex="0">{options}</ul>
                </div>
            </div>
        })
    }
}

/// A one-letter mark of what an item is (its kind is also its `data-kind`).
fn kind_mark(kind: &str) -> &'static str {
    match kind {
        "property" => "K",
        "value" => "V",
        "reference" => "S",
        "variable" => "x",
        "field" => "F",
        "method" => "M",
        "operator" => "±",
        "file" => "f",
        "folder" => "D",
        _ => "R",
    }
}
