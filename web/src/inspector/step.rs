//! A step's inspector: every field of `definitions.Step`, each with the control its schema type
//! calls for and its error inline. The form is built once per selected step; values follow the
//! text, so a field keeps the keyboard while others change.

use leptos::prelude::*;
use logicmd::json::pointer_push;
use serde_json::{json, Map, Value};

use super::branches::branches_editor;
use super::form::{step_fields, Control, FormField};
use super::schema_editor::schema_editor;
use super::value::{list, parse, shown};
use super::write::{value_at, write};
use crate::state::Studio;

/// The form of the step defined at `pointer` (`/steps/NAME`).
pub fn step_form(studio: Studio, name: String, pointer: String) -> impl IntoView {
    step_fields()
        .into_iter()
        .map(|field| field_row(studio, &name, &pointer, "", None, field))
        .collect_view()
}

/// The inline error of the field at `pointer`, if it has one.
pub fn error_at(studio: Studio, pointer: String) -> impl Fn() -> Option<String> + Clone {
    move || {
        studio.field_error.with(|e| {
            e.as_ref()
                .filter(|(p, _)| *p == pointer)
                .map(|(_, m)| m.clone())
        })
    }
}

/// Shows the outcome of writing the field at `pointer`.
pub fn settle(studio: Studio, pointer: &str, outcome: Result<(), String>) {
    match outcome {
        Ok(()) => studio.field_error.set(None),
        Err(message) => studio.field_error.set(Some((pointer.to_owned(), message))),
    }
}

/// The group a field belongs to: its object's pointer and fields (for the required ones).
type Group = (String, Vec<FormField>);

fn field_row(
    studio: Studio,
    step: &str,
    base: &str,
    prefix: &str,
    group: Option<Group>,
    field: FormField,
) -> AnyView {
    let pointer = pointer_push(base, &field.key);
    let data = format!("{prefix}{}", field.key);
    match field.control {
        Control::Group(fields) => {
            let inner = fields
                .clone()
                .into_iter()
                .map(|f| {
                    let group = Some((pointer.clone(), fields.clone()));
                    field_row(studio, step, &pointer, &format!("{data}."), group, f)
                })
                .collect_view();
            view! {
                <fieldset class="field-group" data-group=data title=field.help>
                    <legend>{field.label}</legend>
                    {inner}
                </fieldset>
            }
            .into_any()
        }
        Control::Schema => schema_editor(studio, pointer, field.label, data).into_any(),
        Control::Branches => {
            branches_editor(studio, step.to_owned(), pointer, field.label).into_any()
        }
        control => simple_field(
            studio,
            step,
            pointer,
            data,
            group,
            field.label,
            field.help,
            control,
        )
        .into_any(),
    }
}

#[allow(clippy::too_many_arguments)]
fn simple_field(
    studio: Studio,
    step: &str,
    pointer: String,
    data: String,
    group: Option<Group>,
    label: String,
    help: String,
    control: Control,
) -> impl IntoView {
    let current = {
        let pointer = pointer.clone();
        move || shown(&value_at(studio, &pointer))
    };
    let error = error_at(studio, pointer.clone());
    let commit = {
        let (pointer, label, control, step) = (
            pointer.clone(),
            label.clone(),
            control.clone(),
            step.to_owned(),
        );
        move |raw: String| {
            let outcome = parse(&control, &label, &raw)
                .and_then(|value| {
                    check_references(studio, &step, &data_key(&pointer), &raw).map(|()| value)
                })
                .and_then(|value| write_in_group(studio, &pointer, group.as_ref(), value));
            settle(studio, &pointer, outcome);
        }
    };
    let invalid = {
        let error = error.clone();
        move || error().is_some()
    };
    let aria_invalid = invalid.clone();
    let input = match control {
        Control::Lines | Control::List => {
            let rows = if matches!(control, Control::Lines) { 5 } else { 2 };
            view! {
                <textarea data-field=data.clone() rows=rows prop:value=current
                    aria-invalid=move || aria_invalid().to_string()
                    on:change=move |ev| commit(event_target_value(&ev))></textarea>
            }
            .into_any()
        }
        Control::Choice(options) => view! {
            <select data-field=data.clone() prop:value=current
                on:change=move |ev| commit(event_target_value(&ev))>
                <option value="">"—"</option>
                {options.into_iter().map(|o| view! { <option value=o.clone()>{o.clone()}</option> }).collect_view()}
            </select>
        }
        .into_any(),
        Control::Toggle => view! {
            <input type="checkbox" data-field=data.clone() prop:checked=move || current() == "true"
                on:change=move |ev| commit(event_target_checked(&ev).to_string()) />
        }
        .into_any(),
        // Numbers are typed as text so that a wrong one reaches the check and says why
        // (a number input would hand over an empty value).
        Control::Number { .. } => view! {
            <input type="text" inputmode="decimal" data-field=data.clone() prop:value=current
                aria-invalid=move || aria_invalid().to_string()
                on:change=move |ev| commit(event_target_value(&ev)) />
        }
        .into_any(),
        _ => view! {
            <input type="text" data-field=data.clone() prop:value=current
                aria-invalid=move || aria_invalid().to_string()
                on:change=move |ev| commit(event_target_value(&ev)) />
        }
        .into_any(),
    };
    view! {
        <label class="field" class:invalid=invalid title=help>
            <span class="field-label">{label}</span>
            {input}
            {move || error().map(|m| view! { <span class="field-error" role="alert">{m}</span> })}
        </label>
    }
}

/// The last token of a pointer: the field's key.
fn data_key(pointer: &str) -> String {
    pointer.rsplit('/').next().unwrap_or_default().to_owned()
}

/// `needs` and `parallel_steps` name steps: each must be another step of the document.
fn check_references(studio: Studio, step: &str, key: &str, raw: &str) -> Result<(), String> {
    if key != "needs" && key != "parallel_steps" {
        return Ok(());
    }
    let steps = step_names(studio);
    for name in list(raw) {
        if name == step {
            return Err(format!("`{step}` cannot need itself"));
        }
        if !steps.contains(&name) {
            return Err(format!("`{name}` is not a step of this document"));
        }
    }
    Ok(())
}

/// The names of the document's steps, in order.
pub fn step_names(studio: Studio) -> Vec<String> {
    value_at(studio, "/steps")
        .as_object()
        .map(|steps| steps.keys().cloned().collect())
        .unwrap_or_default()
}

/// Writes a field of a group; a group written for the first time gets its other required
/// fields too (a choice takes its first option), or says which one to fill first.
fn write_in_group(
    studio: Studio,
    pointer: &str,
    group: Option<&Group>,
    value: Option<Value>,
) -> Result<(), String> {
    let Some((group_pointer, fields)) = group else {
        return write(studio, pointer, value);
    };
    let (Some(value), true) = (value.clone(), value_at(studio, group_pointer).is_null()) else {
        return write(studio, pointer, value);
    };
    let key = data_key(pointer);
    let mut object = Map::new();
    object.insert(key.clone(), value);
    for other in fields.iter().filter(|f| f.required && f.key != key) {
        match &other.control {
            Control::Choice(options) if !options.is_empty() => {
                object.insert(other.key.clone(), json!(options[0]));
            }
            _ => return Err(format!("Fill {} first", other.label)),
        }
    }
    write(studio, group_pointer, Some(Value::Object(object)))
}
