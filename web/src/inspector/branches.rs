//! A step's `branches`: one row per branch (condition, target step, default), added and removed
//! in place. Each change is one core edit.

use leptos::prelude::*;
use logicmd::json::pointer_push;
use serde_json::{json, Value};

use super::fields::{error_at, settle, step_names};
use super::form::Control;
use super::value::parse;
use super::write::{value_at, write};
use crate::state::Studio;

pub fn branches_editor(
    studio: Studio,
    step: String,
    pointer: String,
    label: String,
) -> impl IntoView {
    let count = super::list::length(studio, pointer.clone());
    let rows = {
        let (pointer, step) = (pointer.clone(), step.clone());
        move || {
            (0..count.get())
                .map(|i| branch_row(studio, &step, &pointer, i))
                .collect_view()
        }
    };
    let add = {
        let pointer = pointer.clone();
        move |_| super::list::append(studio, &pointer, json!({ "default": true }))
    };
    let error = error_at(studio, pointer.clone());
    view! {
        <fieldset class="field-group branches" data-group="branches">
            <legend>{label}</legend>
            {rows}
            <button type="button" data-action="add-branch" on:click=add>"Add branch"</button>
            {move || error().map(|m| view! { <span class="field-error" role="alert">{m}</span> })}
        </fieldset>
    }
}

fn branch_row(studio: Studio, step: &str, branches: &str, index: usize) -> impl IntoView {
    let pointer = pointer_push(branches, &index.to_string());
    let at = |key: &str| pointer_push(&pointer, key);
    let (if_at, then_at, default_at) = (at("if"), at("then"), at("default"));
    let targets: Vec<String> = step_names(studio)
        .into_iter()
        .filter(|s| s != step)
        .collect();
    let value = move |p: &str| value_at(studio, p);
    let condition = {
        let if_at = if_at.clone();
        move || value(&if_at).as_str().unwrap_or_default().to_owned()
    };
    let target = {
        let then_at = then_at.clone();
        move || value(&then_at).as_str().unwrap_or_default().to_owned()
    };
    let fallback = {
        let default_at = default_at.clone();
        move || value(&default_at) == Value::Bool(true)
    };
    let set_condition = {
        let if_at = if_at.clone();
        move |raw: String| {
            let outcome =
                parse(&Control::Expression, "If", &raw).and_then(|v| write(studio, &if_at, v));
            settle(studio, &if_at, outcome);
        }
    };
    let set_target = {
        let then_at = then_at.clone();
        move |raw: String| {
            let value = (!raw.is_empty()).then(|| json!(raw));
            settle(studio, &then_at, write(studio, &then_at, value));
        }
    };
    let set_default = {
        let default_at = default_at.clone();
        move |on: bool| {
            settle(
                studio,
                &default_at,
                write(studio, &default_at, on.then(|| json!(true))),
            )
        }
    };
    let remove = {
        let pointer = pointer.clone();
        move |_| super::list::remove(studio, &pointer)
    };
    let if_error = error_at(studio, if_at);
    let then_error = error_at(studio, then_at);
    let label = format!("Branch {}", index + 1);
    view! {
        <div class="branch-row" role="group" aria-label=label.clone() data-branch=index>
            <label class="field">
                <span class="field-label">"If"</span>
                <input type="text" data-field=format!("branches.{index}.if") prop:value=condition
                    placeholder="{{ output.score > 0.5 }}"
                    on:change=move |ev| set_condition(event_target_value(&ev)) />
                {move || if_error().map(|m| view! { <span class="field-error" role="alert">{m}</span> })}
            </label>
            <label class="field">
                <span class="field-label">"Then"</span>
                <select data-field=format!("branches.{index}.then") prop:value=target
                    on:change=move |ev| set_target(event_target_value(&ev))>
                    <option value="">"—"</option>
                    {targets.into_iter().map(|t| view! { <option value=t.clone()>{t.clone()}</option> }).collect_view()}
                </select>
                {move || then_error().map(|m| view! { <span class="field-error" role="alert">{m}</span> })}
            </label>
            <label class="field inline">
                <input type="checkbox" data-field=format!("branches.{index}.default") prop:checked=fallback
                    on:change=move |ev| set_default(event_target_checked(&ev)) />
                <span class="field-label">"Default"</span>
            </label>
            <button type="button" class="link" aria-label=format!("Remove {label}") on:click=remove>"Remove"</button>
        </div>
    }
}
