//! Lists of objects as rows of fields: a verify node's rules, participants, a transform's
//! operations, a decision node's branches, gates and escalation levels. Each row is the item's
//! fields; rows are added (with what the item requires filled in) and removed in place, each
//! change one core edit.

use leptos::prelude::*;
use logicmd::json::pointer_push;
use serde_json::{json, Map, Value};

use super::fields::{error_at, simple_field, Place};
use super::form::{Control, FormField};
use super::write::value_at;
use crate::state::Studio;

/// The rows of the list at `pointer`.
pub fn rows_editor(
    studio: Studio,
    pointer: String,
    label: String,
    data: String,
    fields: Vec<FormField>,
) -> impl IntoView {
    let count = super::list::length(studio, pointer.clone());
    let item = singular(&label);
    let rows = {
        let (pointer, data, fields, item) =
            (pointer.clone(), data.clone(), fields.clone(), item.clone());
        move || {
            (0..count.get())
                .map(|i| row(studio, &pointer, &data, &fields, &item, i))
                .collect_view()
        }
    };
    let add = {
        let (pointer, fields) = (pointer.clone(), fields.clone());
        move |_| super::list::append(studio, &pointer, new_item(studio, &pointer, &fields))
    };
    let error = error_at(studio, pointer.clone());
    view! {
        <fieldset class="field-group rows" data-group=data.clone()>
            <legend>{label.clone()}</legend>
            {rows}
            <button type="button" data-action=format!("add-{data}") on:click=add>{format!("Add {item}")}</button>
            {move || error().map(|m| view! { <span class="field-error" role="alert">{m}</span> })}
        </fieldset>
    }
}

fn row(
    studio: Studio,
    list: &str,
    data: &str,
    fields: &[FormField],
    item: &str,
    index: usize,
) -> impl IntoView {
    let pointer = pointer_push(list, &index.to_string());
    let label = format!("{} {}", capitalised(item), index + 1);
    let inner = fields
        .iter()
        .map(|field| {
            let place = Place {
                pointers: vec![pointer_push(&pointer, &field.key)],
                data: format!("{data}.{index}.{}", field.key),
                group: None,
                node: None,
                hidden: std::sync::Arc::from([]),
            };
            match &field.control {
                Control::Group(_) | Control::Rows(_) | Control::Schema | Control::Branches => {
                    super::node_form::field_row(studio, place, field.clone())
                }
                _ => simple_field(studio, place, field),
            }
        })
        .collect_view();
    let remove = {
        let pointer = pointer.clone();
        move |_| super::list::remove(studio, &pointer)
    };
    view! {
        <div class="row-item" role="group" aria-label=label.clone() data-row=index>
            {inner}
            <button type="button" class="link" aria-label=format!("Remove {label}") on:click=remove>"Remove"</button>
        </div>
    }
}

/// A new item: what it requires, filled with a value that is valid where one can be chosen
/// (a choice's first option, a number's minimum, a name to edit, another node to route to).
fn new_item(studio: Studio, list: &str, fields: &[FormField]) -> Value {
    let count = value_at(studio, list).as_array().map_or(0, Vec::len);
    let mut item = Map::new();
    for field in fields.iter().filter(|f| f.required || f.key == "next") {
        let value = match &field.control {
            Control::Choice(options) if !options.is_empty() => json!(options[0]),
            Control::Number { min, .. } => json!(min.unwrap_or(1.0) as i64),
            Control::Toggle => json!(false),
            Control::Expression => json!("{{ output }}"),
            Control::Any => json!(true),
            Control::Target(_) => json!(first_target(studio, list)),
            _ => json!(format!("{}_{}", field.key, count + 1)),
        };
        item.insert(field.key.clone(), value);
    }
    Value::Object(item)
}

/// Where a new decision branch goes: the first step, else nothing chosen yet.
fn first_target(studio: Studio, _list: &str) -> String {
    super::fields::step_names(studio)
        .into_iter()
        .next()
        .unwrap_or_default()
}

/// `Rules` → `rule`, `Participants` → `participant`, `Branches` → `branch`.
fn singular(label: &str) -> String {
    let lower = label.to_lowercase();
    let word = lower
        .strip_suffix("es")
        .filter(|w| w.ends_with("ch") || w.ends_with("sh"))
        .or_else(|| lower.strip_suffix('s'))
        .unwrap_or(&lower);
    word.to_owned()
}

fn capitalised(word: &str) -> String {
    super::form::label_of(word)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_list_names_its_items() {
        assert_eq!(singular("Rules"), "rule");
        assert_eq!(singular("Branches"), "branch");
        assert_eq!(singular("Participants"), "participant");
        assert_eq!(singular("Escalation"), "escalation");
    }
}
