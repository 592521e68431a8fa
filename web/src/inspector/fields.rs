//! One field of a form: the control its schema type calls for, checked as it is typed, written
//! through core's edit as it is typed (see [`super::typing`]), its error inline. A field may
//! write the same place of several selected nodes at once (a shared edit).

use leptos::prelude::*;
use serde_json::{json, Map, Value};

use super::form::{Control, FormField, Targets};
use super::typing::Typed;
use super::value::{list, parse, shown_for};
use super::write::{value_at, write_all};
use crate::state::Studio;

/// Where a field writes.
#[derive(Debug, Clone, PartialEq)]
pub struct Place {
    /// The field's pointer in each node edited (one, or several for a shared edit).
    pub pointers: Vec<String>,
    /// `data-field`: the field's path inside its node (`retry.max_attempts`, `rules.0.mode`).
    pub data: String,
    /// The object the field belongs to, with its fields: written for the first time, the
    /// object gets its other required fields too. One pointer per node.
    pub group: Option<(Vec<String>, Vec<FormField>)>,
    /// The node's name, when one node is edited (a step cannot need itself).
    pub node: Option<String>,
    /// Places not shown in this form (the document's own `visual.inspector` fields, shown in
    /// their section with their limits).
    pub hidden: std::sync::Arc<[String]>,
}

impl Place {
    pub fn first(&self) -> &str {
        self.pointers.first().map_or("", String::as_str)
    }
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
        Ok(()) => {
            let mine = studio
                .field_error
                .with_untracked(|e| e.as_ref().is_some_and(|(p, _)| p == pointer));
            if mine {
                studio.field_error.set(None);
            }
        }
        Err(message) => studio.field_error.set(Some((pointer.to_owned(), message))),
    }
}

/// The field's value as shown: the common value of every place, or `None` when they differ.
fn common(studio: Studio, control: &Control, pointers: &[String]) -> Option<String> {
    let mut values = pointers
        .iter()
        .map(|p| shown_for(control, &value_at(studio, p)));
    let first = values.next().unwrap_or_default();
    values.all(|v| v == first).then_some(first)
}

/// A field with one control (not a group, rows, routes or the editors of their own).
pub fn simple_field(studio: Studio, place: Place, field: &FormField) -> AnyView {
    let FormField {
        label,
        help,
        control,
        ..
    } = field.clone();
    let pointer = place.first().to_owned();
    let error = error_at(studio, pointer.clone());
    let write_raw = {
        let (place, label, control) = (place.clone(), label.clone(), control.clone());
        move |raw: String| {
            let outcome = parse(&control, &label, &raw)
                .and_then(|value| check_references(studio, &place, &raw).map(|()| value))
                .and_then(|value| write_place(studio, &place, value));
            settle(studio, place.first(), outcome);
        }
    };
    let typed = Typed::new(write_raw.clone());
    let shown = {
        let (typed, control, pointers) = (typed.clone(), control.clone(), place.pointers.clone());
        move || {
            let document = common(studio, &control, &pointers).unwrap_or_default();
            let means = |raw: &str| {
                parse(&control, "", raw)
                    .ok()
                    .map(|v| shown_for(&control, &v.unwrap_or(Value::Null)))
                    == Some(document.clone())
            };
            typed.shown(document.clone(), means)
        }
    };
    let mixed = {
        let (control, pointers) = (control.clone(), place.pointers.clone());
        move || {
            (pointers.len() > 1 && common(studio, &control, &pointers).is_none())
                .then_some("(differs between the selected nodes)")
        }
    };
    // Checked as typed: a value that cannot be written says why at once.
    let on_input = {
        let (typed, control, label, pointer) = (
            typed.clone(),
            control.clone(),
            label.clone(),
            pointer.clone(),
        );
        move |raw: String| {
            if let Err(message) = parse(&control, &label, &raw) {
                studio.field_error.set(Some((pointer.clone(), message)));
            } else if studio
                .field_error
                .with_untracked(|e| e.as_ref().is_some_and(|(p, _)| *p == pointer))
            {
                studio.field_error.set(None);
            }
            typed.input(raw);
        }
    };
    let on_leave = {
        let typed = typed.clone();
        move || {
            typed.leave();
            studio.history.update(|h| h.end_group());
        }
    };
    let invalid = {
        let error = error.clone();
        move || error().is_some()
    };
    let aria_invalid = invalid.clone();
    let data = place.data.clone();
    let input = match control.clone() {
        Control::Lines | Control::List | Control::Json => {
            let rows = match control {
                Control::Lines => 5,
                _ => 2,
            };
            let (on_input, on_leave, flush) = (on_input.clone(), on_leave.clone(), typed.clone());
            view! {
                <textarea data-field=data.clone() data-pointer=pointer.clone() rows=rows prop:value=shown
                    placeholder=mixed aria-invalid=move || aria_invalid().to_string()
                    on:input=move |ev| on_input(event_target_value(&ev))
                    on:change=move |_| flush.flush()
                    on:blur=move |_| on_leave()></textarea>
            }
            .into_any()
        }
        // A choice of the schema's values, or of the names a target may take.
        Control::Choice(_) | Control::Target(_) => {
            let write_raw = write_raw.clone();
            let options = match control {
                Control::Choice(options) => options,
                Control::Target(targets) => target_names(studio, targets, &pointer),
                _ => Vec::new(),
            };
            view! {
                <select data-field=data.clone() data-pointer=pointer.clone() prop:value=shown
                    on:change=move |ev| write_raw(event_target_value(&ev))>
                    <option value="">"—"</option>
                    {options.into_iter().map(|o| view! { <option value=o.clone()>{o.clone()}</option> }).collect_view()}
                </select>
            }
            .into_any()
        }
        Control::Toggle => {
            let write_raw = write_raw.clone();
            view! {
                <input type="checkbox" data-field=data.clone() data-pointer=pointer.clone()
                    prop:checked=move || shown() == "true"
                    on:change=move |ev| write_raw(event_target_checked(&ev).to_string()) />
            }
            .into_any()
        }
        // Numbers are typed as text so that a wrong one reaches the check and says why
        // (a number input would hand over an empty value).
        other => {
            let list_id = matches!(other, Control::Reference)
                .then(|| format!("refs-{}", data.replace('.', "-")));
            let suggestions = list_id.clone().map(|id| {
                let names = references(studio);
                view! { <datalist id=id>{names.into_iter().map(|n| view! { <option value=n></option> }).collect_view()}</datalist> }
            });
            let mode = matches!(other, Control::Number { .. }).then_some("decimal");
            let (on_input, on_leave, flush) = (on_input.clone(), on_leave.clone(), typed.clone());
            view! {
                <input type="text" inputmode=mode data-field=data.clone() data-pointer=pointer.clone()
                    list=list_id prop:value=shown placeholder=mixed
                    aria-invalid=move || aria_invalid().to_string()
                    on:input=move |ev| on_input(event_target_value(&ev))
                    on:change=move |_| flush.flush()
                    on:blur=move |_| on_leave() />
                {suggestions}
            }
            .into_any()
        }
    };
    view! {
        <label class="field" class:invalid=invalid title=help>
            <span class="field-label">{label}</span>
            {input}
            {move || error().map(|m| view! { <span class="field-error" role="alert">{m}</span> })}
        </label>
    }
    .into_any()
}

/// Writes `value` at the field's place: every node's pointer, the group's required fields
/// filled when the group is written for the first time.
fn write_place(studio: Studio, place: &Place, value: Option<Value>) -> Result<(), String> {
    let group = place.first().to_owned();
    let Some((groups, fields)) = &place.group else {
        return write_all(studio, &place.pointers, value, Some(&group));
    };
    let fresh = groups.iter().all(|g| value_at(studio, g).is_null());
    let (Some(value), true) = (value.clone(), fresh) else {
        return write_all(studio, &place.pointers, value, Some(&group));
    };
    let key = last_token(place.first());
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
    write_all(studio, groups, Some(Value::Object(object)), None)
}

/// The last token of a pointer: the field's key.
pub fn last_token(pointer: &str) -> String {
    pointer.rsplit('/').next().unwrap_or_default().to_owned()
}

/// `needs` and `parallel_steps` name steps: each must be another step of the document.
fn check_references(studio: Studio, place: &Place, raw: &str) -> Result<(), String> {
    let key = last_token(place.first());
    if key != "needs" && key != "parallel_steps" {
        return Ok(());
    }
    let steps = step_names(studio);
    for name in list(raw) {
        if place.node.as_deref() == Some(name.as_str()) {
            return Err(format!("`{name}` cannot need itself"));
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

/// The ids of a topology's nodes, in order.
pub fn drtl_ids(studio: Studio) -> Vec<String> {
    value_at(studio, "/nodes")
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|n| n.get("id").and_then(Value::as_str).map(str::to_owned))
        .collect()
}

/// What a DRTL node can read: every node's `id.output_key`.
fn references(studio: Studio) -> Vec<String> {
    value_at(studio, "/nodes")
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|n| {
            Some(format!(
                "{}.{}",
                n.get("id")?.as_str()?,
                n.get("output_key")?.as_str()?
            ))
        })
        .collect()
}

/// The names a target field at `pointer` offers: a decision branch's `next` is a node or
/// terminal of its tree, or a step.
fn target_names(studio: Studio, targets: Targets, pointer: &str) -> Vec<String> {
    match targets {
        Targets::TreeOrStep => {
            let tree = pointer.split('/').take(3).collect::<Vec<_>>().join("/");
            let mut names: Vec<String> = ["nodes", "terminals"]
                .iter()
                .flat_map(|group| {
                    value_at(studio, &format!("{tree}/{group}"))
                        .as_object()
                        .map(|m| m.keys().cloned().collect::<Vec<_>>())
                        .unwrap_or_default()
                })
                .collect();
            names.extend(step_names(studio));
            names
        }
    }
}
