//! The fields a document declares for itself (`visual.inspector`) and a workflow node's fields
//! from the graph model: each bound to a document pointer, with the limits the document gives
//! it, shown in a section of their own.

use leptos::prelude::*;
use logicmd::edit::{apply, Edit};
use logicmd::graph::InspectorField;
use serde_json::{json, Value};

use super::Typed;
use crate::state::Studio;

/// The JSON value a raw form value stands for, or why it cannot be one.
pub fn parse_value(field: &InspectorField, raw: &str) -> Result<Option<Value>, String> {
    match field.kind.as_str() {
        "number" | "slider" => {
            let number: f64 = raw
                .trim()
                .parse()
                .map_err(|_| format!("{} must be a number", field.label))?;
            if let Some(min) = field.min.filter(|min| number < *min) {
                return Err(format!("{} must be at least {min}", field.label));
            }
            if let Some(max) = field.max.filter(|max| number > *max) {
                return Err(format!("{} must be at most {max}", field.label));
            }
            Ok(Some(if number.fract() == 0.0 && number.abs() < 1e15 {
                json!(number as i64)
            } else {
                json!(number)
            }))
        }
        "boolean" => Ok(Some(json!(raw == "true"))),
        "select" => field
            .options
            .iter()
            .flatten()
            .find(|option| display(option) == raw)
            .cloned()
            .map(Some)
            .ok_or_else(|| format!("`{raw}` is not one of the options of {}", field.label)),
        _ if raw.is_empty() => Ok(None),
        _ => Ok(Some(json!(raw))),
    }
}

pub fn display(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

/// Writes `raw` into the field's place, refusing values the schema rejects there.
pub fn commit(studio: Studio, field: &InspectorField, raw: &str) -> Result<(), String> {
    let edit = match parse_value(field, raw)? {
        Some(value) => Edit::Set {
            path: field.pointer.clone(),
            value,
        },
        None if field.value.is_null() => return Ok(()),
        None => Edit::Remove {
            path: field.pointer.clone(),
        },
    };
    let old = studio.text.get_untracked();
    let applied = apply(&old, &edit).map_err(|d| d.message)?;
    let refused = applied.diagnostics.iter().find(|d| {
        d.severity == logicmd::Severity::Error && d.path.starts_with(field.pointer.as_str())
    });
    if let Some(problem) = refused {
        return Err(problem.message.clone());
    }
    studio.replace_text(applied.text);
    Ok(())
}

/// The document's `visual.inspector` fields, in a section of their own under any selection.
pub fn document_section(studio: Studio, _selected_kind: Option<String>) -> impl IntoView {
    let fields = studio.analysis.with(|a| a.document_fields.clone());
    if fields.is_empty() {
        return ().into_any();
    }
    view! {
        <section class="inspector-section" aria-labelledby="document-fields" data-section="document">
            <h3 id="document-fields">"Document fields "<span class="muted">"(visual.inspector)"</span></h3>
            {fields.into_iter().map(|f| field_view(studio, f)).collect_view()}
        </section>
    }
    .into_any()
}

pub fn field_view(studio: Studio, field: InspectorField) -> impl IntoView {
    let current = if field.value.is_null() {
        field.default.as_ref().map(display).unwrap_or_default()
    } else {
        display(&field.value)
    };
    let pointer = field.pointer.clone();
    let error = {
        let pointer = pointer.clone();
        move || {
            studio.field_error.with(|e| {
                e.as_ref()
                    .filter(|(p, _)| *p == pointer)
                    .map(|(_, m)| m.clone())
            })
        }
    };
    let on_change = {
        let field = field.clone();
        move |raw: String| match commit(studio, &field, &raw) {
            Ok(()) => studio.field_error.set(None),
            Err(message) => studio
                .field_error
                .set(Some((field.pointer.clone(), message))),
        }
    };
    let key = field.key.clone();
    let control = match field.kind.as_str() {
        "select" => {
            let options = field.options.clone().unwrap_or_default();
            view! {
                <select data-field=key on:change=move |ev| on_change(event_target_value(&ev))>
                    {options.into_iter().map(|o| {
                        let label = display(&o);
                        let chosen = label == current;
                        view! { <option value=label.clone() selected=chosen>{label.clone()}</option> }
                    }).collect_view()}
                </select>
            }
            .into_any()
        }
        "boolean" => view! {
            <input type="checkbox" data-field=key checked=current == "true"
                on:change=move |ev| on_change(event_target_checked(&ev).to_string()) />
        }
        .into_any(),
        "number" | "slider" => {
            let input_type = if field.kind == "slider" {
                "range"
            } else {
                "number"
            };
            let shown = RwSignal::new(current.clone());
            let typed = Typed::new(on_change);
            let (on_input, on_leave) = (typed.clone(), typed);
            view! {
                <span class="field-number">
                    <input type=input_type data-field=key value=current data-pointer=field.pointer.clone()
                        min=field.min.map(|v| v.to_string()) max=field.max.map(|v| v.to_string())
                        step=field.step.map_or_else(|| "any".to_owned(), |v| v.to_string())
                        on:input=move |ev| { shown.set(event_target_value(&ev)); on_input.input(event_target_value(&ev)); }
                        on:change=move |_| on_leave.flush() />
                    <output>{move || shown.get()}</output>
                </span>
            }
            .into_any()
        }
        _ => {
            let typed = Typed::new(on_change);
            let (on_input, on_change, on_leave) = (typed.clone(), typed.clone(), typed);
            view! {
                <input type="text" data-field=key value=current data-pointer=field.pointer.clone()
                    on:input=move |ev| on_input.input(event_target_value(&ev))
                    on:change=move |_| on_change.flush()
                    on:blur=move |_| on_leave.leave() />
            }
            .into_any()
        }
    };
    let invalid = error.clone();
    view! {
        <label class="field" class:invalid=move || invalid().is_some()>
            <span class="field-label">{field.label.clone()}</span>
            {control}
            {move || error().map(|m| view! { <span class="field-error" role="alert">{m}</span> })}
        </label>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field(kind: &str) -> InspectorField {
        InspectorField {
            key: "reasoning.max_iterations".into(),
            label: "Max iterations".into(),
            kind: kind.into(),
            options: Some(vec![json!("cot"), json!("react")]),
            min: Some(1.0),
            max: Some(50.0),
            step: None,
            default: None,
            value: Value::Null,
            pointer: "/reasoning/max_iterations".into(),
        }
    }

    #[test]
    fn numbers_are_checked_against_min_and_max() {
        assert_eq!(parse_value(&field("number"), "12"), Ok(Some(json!(12))));
        assert_eq!(
            parse_value(&field("slider"), "0.5").unwrap_err(),
            "Max iterations must be at least 1"
        );
        assert_eq!(
            parse_value(&field("number"), "x").unwrap_err(),
            "Max iterations must be a number"
        );
        assert_eq!(
            parse_value(&field("number"), "51").unwrap_err(),
            "Max iterations must be at most 50"
        );
    }

    #[test]
    fn selects_take_their_options_and_text_may_be_cleared() {
        assert_eq!(
            parse_value(&field("select"), "react"),
            Ok(Some(json!("react")))
        );
        assert!(parse_value(&field("select"), "nope").is_err());
        assert_eq!(parse_value(&field("text"), ""), Ok(None));
        assert_eq!(
            parse_value(&field("boolean"), "true"),
            Ok(Some(json!(true)))
        );
    }
}
