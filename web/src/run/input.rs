//! The run's input: JSON text, with a form of the document's `contracts.inputs` fields when it
//! declares any (each field edits its key of the JSON), and a placeholder of the declared type
//! for every field to start from (as `logicmd run --dry-run` does).

use leptos::prelude::*;
use serde_json::{Map, Value};

use crate::analysis::CoreParsed;
use crate::state::Studio;

/// A declared input: name and type.
#[derive(Debug, Clone, PartialEq)]
pub struct Declared {
    pub name: String,
    pub kind: String,
}

/// The fields `contracts.inputs` of a document's frontmatter declares.
pub fn declared(frontmatter: &Value) -> Vec<Declared> {
    frontmatter
        .pointer("/contracts/inputs")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|field| {
            Some(Declared {
                name: field.get("name")?.as_str()?.to_owned(),
                kind: field
                    .get("type")
                    .and_then(Value::as_str)
                    .unwrap_or("any")
                    .to_owned(),
            })
        })
        .collect()
}

/// A placeholder of its declared type for every field.
pub fn placeholder(fields: &[Declared]) -> Value {
    let object: Map<String, Value> = fields
        .iter()
        .map(|field| {
            let value = match field.kind.as_str() {
                "number" | "integer" => Value::from(1),
                "boolean" => Value::Bool(true),
                "array" => Value::Array(Vec::new()),
                "object" => Value::Object(Map::new()),
                _ => Value::String(format!("example {}", field.name)),
            };
            (field.name.clone(), value)
        })
        .collect();
    Value::Object(object)
}

/// `input` with `name` set to `raw` read as the declared type (text when it does not read).
pub fn with_field(input: &str, field: &Declared, raw: &str) -> String {
    let mut object = serde_json::from_str::<Value>(input)
        .ok()
        .and_then(|v| v.as_object().cloned())
        .unwrap_or_default();
    let value = match field.kind.as_str() {
        "string" | "any" => Value::String(raw.to_owned()),
        _ => serde_json::from_str(raw).unwrap_or_else(|_| Value::String(raw.to_owned())),
    };
    object.insert(field.name.clone(), value);
    serde_json::to_string_pretty(&Value::Object(object)).unwrap_or_default()
}

fn field_text(input: &str, name: &str) -> String {
    match serde_json::from_str::<Value>(input)
        .ok()
        .and_then(|v| v.get(name).cloned())
    {
        Some(Value::String(text)) => text,
        Some(other) => other.to_string(),
        None => String::new(),
    }
}

/// The declared inputs of the studio's document (none for a DRTL topology).
pub fn declared_inputs(studio: Studio) -> Memo<Vec<Declared>> {
    Memo::new(move |_| {
        studio
            .analysis
            .with(|a| match a.parsed.as_ref().map(|p| &p.0) {
                Some(CoreParsed::Logic(document)) => declared(document.json()),
                _ => Vec::new(),
            })
    })
}

/// Keeps the run's input a placeholder of the declared inputs: it starts again from one whenever
/// the document declares other inputs (before the Run panel's form is ever shown).
pub fn follow_declared_inputs(studio: Studio, input: RwSignal<String>) {
    let fields = declared_inputs(studio);
    Effect::new(move |_| {
        let placeholder = placeholder(&fields.get());
        input.set(serde_json::to_string_pretty(&placeholder).unwrap_or_else(|_| "{}".to_owned()));
    });
}

/// One text field per declared input.
#[component]
pub fn InputForm(input: RwSignal<String>) -> impl IntoView {
    let studio = expect_context::<Studio>();
    let fields = declared_inputs(studio);
    move || {
        fields
            .get()
            .into_iter()
            .map(|field| {
                let name = field.name.clone();
                let caption = format!("{} ({})", field.name, field.kind);
                view! {
                    <label class="field">
                        <span class="field-label">{caption}</span>
                        <input data-testid="run-input-field" data-field=name.clone()
                            prop:value=move || input.with(|i| field_text(i, &name))
                            on:change=move |ev| input.update(|i| *i = with_field(i, &field, &event_target_value(&ev))) />
                    </label>
                }
            })
            .collect_view()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_placeholder_has_a_value_of_each_declared_type_and_the_form_edits_one_key() {
        let spec = json!({"contracts": {"inputs": [
            {"name": "topic", "type": "string"}, {"name": "depth", "type": "integer"}
        ]}});
        let fields = declared(&spec);
        assert_eq!(
            placeholder(&fields),
            json!({"topic": "example topic", "depth": 1})
        );
        let edited = with_field(&placeholder(&fields).to_string(), &fields[1], "3");
        assert_eq!(
            serde_json::from_str::<Value>(&edited).unwrap(),
            json!({"topic": "example topic", "depth": 3})
        );
        assert_eq!(field_text(&edited, "topic"), "example topic");
    }
}
