//! A small editor for an inline JSON Schema (`output_schema`, `input_schema`): its properties
//! with their name, type and whether they are required. Other keywords are kept as written.

use leptos::prelude::*;
use logicmd::edit::Edit;
use logicmd::json::pointer_push;
use serde_json::{json, Value};

use super::fields::{error_at, settle};
use super::write::{edits, value_at, write};
use crate::state::Studio;

/// The types a property may take.
const TYPES: [&str; 6] = ["string", "number", "integer", "boolean", "object", "array"];

pub fn schema_editor(
    studio: Studio,
    pointer: String,
    label: String,
    data: String,
) -> impl IntoView {
    let properties = {
        let pointer = pointer.clone();
        Memo::new(move |_| {
            value_at(studio, &pointer_push(&pointer, "properties"))
                .as_object()
                .map(|p| p.keys().cloned().collect::<Vec<_>>())
                .unwrap_or_default()
        })
    };
    let rows = {
        let pointer = pointer.clone();
        move || {
            properties
                .get()
                .into_iter()
                .map(|name| property_row(studio, &pointer, name))
                .collect_view()
        }
    };
    let draft = RwSignal::new(String::new());
    let add = {
        let pointer = pointer.clone();
        move || {
            let name = draft.get_untracked().trim().to_owned();
            let outcome = add_property(studio, &pointer, &name, &properties.get_untracked());
            if outcome.is_ok() {
                draft.set(String::new());
            }
            settle(studio, &pointer, outcome);
        }
    };
    let add_on_enter = add.clone();
    let error = error_at(studio, pointer.clone());
    view! {
        <fieldset class="field-group schema-editor" data-group=data>
            <legend>{label.clone()}</legend>
            {rows}
            <div class="schema-add">
                <input type="text" aria-label=format!("New property of {label}") placeholder="property name"
                    data-action="schema-name" prop:value=move || draft.get()
                    on:input=move |ev| draft.set(event_target_value(&ev))
                    on:keydown=move |ev| if ev.key() == "Enter" { ev.prevent_default(); add_on_enter(); } />
                <button type="button" data-action="schema-add" on:click=move |_| add()>"Add property"</button>
            </div>
            {move || error().map(|m| view! { <span class="field-error" role="alert">{m}</span> })}
        </fieldset>
    }
}

fn add_property(
    studio: Studio,
    pointer: &str,
    name: &str,
    existing: &[String],
) -> Result<(), String> {
    if name.is_empty() {
        return Err("Name the property first".to_owned());
    }
    if existing.iter().any(|e| e == name) {
        return Err(format!("`{name}` is already a property"));
    }
    if value_at(studio, pointer).is_null() {
        let mut properties = serde_json::Map::new();
        properties.insert(name.to_owned(), json!({ "type": "string" }));
        return write(
            studio,
            pointer,
            Some(json!({ "type": "object", "properties": properties })),
        );
    }
    let at = pointer_push(&pointer_push(pointer, "properties"), name);
    write(studio, &at, Some(json!({ "type": "string" })))
}

/// The `required` list of the schema at `pointer` with `name` in or out of it.
fn required_with(studio: Studio, pointer: &str, name: &str, on: bool) -> Vec<String> {
    let mut required: Vec<String> = value_at(studio, &pointer_push(pointer, "required"))
        .as_array()
        .map(|r| {
            r.iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default();
    required.retain(|r| r != name);
    if on {
        required.push(name.to_owned());
    }
    required
}

fn property_row(studio: Studio, schema: &str, name: String) -> impl IntoView {
    let property = pointer_push(&pointer_push(schema, "properties"), &name);
    let type_at = pointer_push(&property, "type");
    let required_at = pointer_push(schema, "required");
    let kind = {
        let type_at = type_at.clone();
        move || {
            value_at(studio, &type_at)
                .as_str()
                .unwrap_or_default()
                .to_owned()
        }
    };
    let is_required = {
        let (required_at, name) = (required_at.clone(), name.clone());
        move || {
            value_at(studio, &required_at)
                .as_array()
                .is_some_and(|r| r.iter().any(|v| v == name.as_str()))
        }
    };
    let set_type = {
        let type_at = type_at.clone();
        move |raw: String| settle(studio, &type_at, write(studio, &type_at, Some(json!(raw))))
    };
    let set_required = {
        let (schema, name, required_at) = (schema.to_owned(), name.clone(), required_at.clone());
        move |on: bool| {
            let required = required_with(studio, &schema, &name, on);
            let value = (!required.is_empty()).then(|| json!(required));
            settle(studio, &required_at, write(studio, &required_at, value));
        }
    };
    let remove = {
        let (schema, name, property) = (schema.to_owned(), name.clone(), property.clone());
        move |_| {
            let mut steps = vec![Edit::Remove {
                path: property.clone(),
            }];
            let required = required_with(studio, &schema, &name, false);
            let required_at = pointer_push(&schema, "required");
            if !value_at(studio, &required_at).is_null() {
                steps.push(if required.is_empty() {
                    Edit::Remove { path: required_at }
                } else {
                    Edit::Set {
                        path: required_at,
                        value: json!(required),
                    }
                });
            }
            settle(studio, &property, edits(studio, &property, &steps));
        }
    };
    let error = error_at(studio, type_at);
    view! {
        <div class="schema-property" role="group" aria-label=format!("Property {name}") data-property=name.clone()>
            <span class="property-name">{name.clone()}</span>
            <select aria-label=format!("Type of {name}") data-field=format!("property.{name}.type") prop:value=kind
                on:change=move |ev| set_type(event_target_value(&ev))>
                {TYPES.iter().map(|t| view! { <option value=*t>{*t}</option> }).collect_view()}
            </select>
            <label class="field inline">
                <input type="checkbox" data-field=format!("property.{name}.required") prop:checked=is_required
                    on:change=move |ev| set_required(event_target_checked(&ev)) />
                <span class="field-label">"required"</span>
            </label>
            <button type="button" class="link" aria-label=format!("Remove property {name}") on:click=remove>"Remove"</button>
            {move || error().map(|m| view! { <span class="field-error" role="alert">{m}</span> })}
        </div>
    }
}
