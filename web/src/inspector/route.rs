//! DRTL routes and a review's actions as forms: a gate's `on_pass` / `on_fail` (a node id, or
//! `{next, inject}`) and a review's actions (a label, or `{label: route}`), each target chosen
//! from the topology's nodes. Every change is one core edit of the route's value.

use leptos::prelude::*;
use logicmd::edit::Edit;
use logicmd::json::pointer_push;
use serde_json::{json, Value};

use super::fields::{drtl_ids, error_at, settle};
use super::write::{edits, value_at, write};
use crate::state::Studio;

/// A route's target and what it injects.
fn parts(route: &Value) -> (String, String) {
    match route {
        Value::String(next) => (next.clone(), String::new()),
        Value::Object(map) => (
            map.get("next")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned(),
            map.get("inject")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned(),
        ),
        _ => (String::new(), String::new()),
    }
}

/// The route written from its parts: a bare id when nothing is injected (as people write it).
pub fn route_value(next: &str, inject: &str) -> Option<Value> {
    match (next.trim(), inject.trim()) {
        ("", _) => None,
        (next, "") => Some(json!(next)),
        (next, inject) => Some(json!({ "next": next, "inject": inject })),
    }
}

/// Options of a select of the topology's nodes, `—` first.
fn node_options(studio: Studio, except: Option<String>) -> impl IntoView {
    let ids = drtl_ids(studio);
    view! {
        <option value="">"—"</option>
        {ids.into_iter().filter(|id| Some(id) != except.as_ref()).map(|id| view! { <option value=id.clone()>{id.clone()}</option> }).collect_view()}
    }
}

pub fn route_editor(
    studio: Studio,
    pointer: String,
    label: String,
    data: String,
    node: Option<String>,
) -> impl IntoView {
    let current = {
        let pointer = pointer.clone();
        move || parts(&value_at(studio, &pointer))
    };
    let set = {
        let pointer = pointer.clone();
        move |next: String, inject: String| {
            settle(
                studio,
                &pointer,
                write(studio, &pointer, route_value(&next, &inject)),
            );
        }
    };
    let (next_of, inject_of) = (current.clone(), current.clone());
    let (set_next, set_inject) = (set.clone(), set);
    let (keep_inject, keep_next) = (current.clone(), current);
    let error = error_at(studio, pointer.clone());
    view! {
        <fieldset class="field-group route" data-group=data.clone()>
            <legend>{label}</legend>
            <label class="field">
                <span class="field-label">"Goes to"</span>
                <select data-field=format!("{data}.next") data-pointer=pointer.clone() prop:value=move || next_of().0
                    on:change=move |ev| set_next(event_target_value(&ev), keep_inject().1)>
                    {node_options(studio, node)}
                </select>
            </label>
            <label class="field">
                <span class="field-label">"Inject (state passed along, optional)"</span>
                <input type="text" data-field=format!("{data}.inject") prop:value=move || inject_of().1
                    on:change=move |ev| set_inject(keep_next().0, event_target_value(&ev)) />
            </label>
            {move || error().map(|m| view! { <span class="field-error" role="alert">{m}</span> })}
        </fieldset>
    }
}

/// An action's label and where it goes (empty: routing is handled elsewhere).
fn action_parts(action: &Value) -> (String, String) {
    match action {
        Value::String(label) => (label.clone(), String::new()),
        Value::Object(map) => map
            .iter()
            .next()
            .map(|(label, route)| (label.clone(), parts(route).0))
            .unwrap_or_default(),
        _ => (String::new(), String::new()),
    }
}

/// An action written from its parts: a label alone, or `{label: {next: target}}`.
pub fn action_value(label: &str, next: &str) -> Value {
    match next.trim() {
        "" => json!(label.trim()),
        next => json!({ label.trim(): { "next": next } }),
    }
}

pub fn actions_editor(
    studio: Studio,
    pointer: String,
    label: String,
    data: String,
) -> impl IntoView {
    let count = super::list::length(studio, pointer.clone());
    let rows = {
        let (pointer, data) = (pointer.clone(), data.clone());
        move || {
            (0..count.get())
                .map(|i| action_row(studio, &pointer, &data, i))
                .collect_view()
        }
    };
    let add = {
        let pointer = pointer.clone();
        move |_| {
            let name = format!("action_{}", count.get_untracked() + 1);
            let outcome = if count.get_untracked() == 0 {
                write(studio, &pointer, Some(json!([name])))
            } else {
                edits(
                    studio,
                    &pointer,
                    &[Edit::Insert {
                        path: pointer.clone(),
                        index: None,
                        value: json!(name),
                    }],
                )
            };
            settle(studio, &pointer, outcome);
        }
    };
    let error = error_at(studio, pointer.clone());
    view! {
        <fieldset class="field-group rows actions" data-group=data>
            <legend>{label}</legend>
            {rows}
            <button type="button" data-action="add-action" on:click=add>"Add action"</button>
            {move || error().map(|m| view! { <span class="field-error" role="alert">{m}</span> })}
        </fieldset>
    }
}

fn action_row(studio: Studio, list: &str, data: &str, index: usize) -> impl IntoView {
    let pointer = pointer_push(list, &index.to_string());
    let current = {
        let pointer = pointer.clone();
        move || action_parts(&value_at(studio, &pointer))
    };
    let set = {
        let pointer = pointer.clone();
        move |label: String, next: String| {
            let outcome = if label.trim().is_empty() {
                Err("An action needs a label".to_owned())
            } else {
                write(studio, &pointer, Some(action_value(&label, &next)))
            };
            settle(studio, &pointer, outcome);
        }
    };
    let remove = {
        let pointer = pointer.clone();
        move |_| super::list::remove(studio, &pointer)
    };
    let (label_of, next_of, keep_next, keep_label) =
        (current.clone(), current.clone(), current.clone(), current);
    let (set_label, set_next) = (set.clone(), set);
    let error = error_at(studio, pointer.clone());
    let name = format!("Action {}", index + 1);
    view! {
        <div class="row-item" role="group" aria-label=name.clone() data-row=index>
            <label class="field">
                <span class="field-label">"Label"</span>
                <input type="text" data-field=format!("{data}.{index}.label") data-pointer=pointer.clone()
                    prop:value=move || label_of().0
                    on:change=move |ev| set_label(event_target_value(&ev), keep_next().1) />
            </label>
            <label class="field">
                <span class="field-label">"Goes to"</span>
                <select data-field=format!("{data}.{index}.next") prop:value=move || next_of().1
                    on:change=move |ev| set_next(keep_label().0, event_target_value(&ev))>
                    {node_options(studio, None)}
                </select>
            </label>
            <button type="button" class="link" aria-label=format!("Remove {name}") on:click=remove>"Remove"</button>
            {move || error().map(|m| view! { <span class="field-error" role="alert">{m}</span> })}
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn routes_and_actions_are_written_as_people_write_them() {
        assert_eq!(route_value("publish", ""), Some(json!("publish")));
        assert_eq!(
            route_value("editor", "check.report"),
            Some(json!({"next": "editor", "inject": "check.report"}))
        );
        assert_eq!(route_value("", "x"), None);
        assert_eq!(
            parts(&json!({"next": "editor", "inject": "r"})),
            ("editor".into(), "r".into())
        );
        assert_eq!(action_value("reject", ""), json!("reject"));
        assert_eq!(
            action_value("retry", "draft"),
            json!({"retry": {"next": "draft"}})
        );
        assert_eq!(
            action_parts(&json!({"retry": {"next": "draft"}})),
            ("retry".into(), "draft".into())
        );
        assert_eq!(
            action_parts(&json!({"go": "publish"})),
            ("go".into(), "publish".into())
        );
    }
}
