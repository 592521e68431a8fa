//! The run's input: JSON text, with a form of the document's `contracts.inputs` fields when it
//! declares any (each field edits its key of the JSON), and the core's example input to start
//! from (`logicmd::run::session::example_input`, as `logicmd run --dry-run` and the npm
//! `exampleInput` use).

use leptos::prelude::*;
use logicmd::model::Contracts;
use logicmd::run::session::example_input;
use serde_json::Value;

use crate::analysis::CoreParsed;
use crate::state::Studio;

/// A declared input: name and type.
#[derive(Debug, Clone, PartialEq)]
pub struct Declared {
    pub name: String,
    pub kind: String,
}

/// The fields `contracts.inputs` declares (its type, or `any`).
pub fn declared(contracts: &Contracts) -> Vec<Declared> {
    contracts
        .inputs
        .iter()
        .map(|field| Declared {
            name: field.name.clone(),
            kind: field.kind.clone().unwrap_or_else(|| "any".to_owned()),
        })
        .collect()
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

/// The contracts of the studio's document (none for a DRTL topology).
pub fn declared_inputs(studio: Studio) -> Memo<Contracts> {
    Memo::new(move |_| {
        studio
            .analysis
            .with(|a| match a.parsed.as_ref().map(|p| &p.0) {
                // Only `contracts` is read: a keystroke in a big document stays cheap.
                Some(CoreParsed::Logic(document)) => Contracts::of(document.json()),
                _ => Contracts::default(),
            })
    })
}

/// Keeps the run's input a placeholder of the declared inputs: it starts again from one whenever
/// the document declares other inputs (before the Run panel's form is ever shown).
pub fn follow_declared_inputs(studio: Studio, input: RwSignal<String>) {
    let contracts = declared_inputs(studio);
    Effect::new(move |_| {
        let example = contracts.with(example_input);
        input.set(serde_json::to_string_pretty(&example).unwrap_or_else(|_| "{}".to_owned()));
    });
}

/// One text field per declared input.
#[component]
pub fn InputForm(input: RwSignal<String>) -> impl IntoView {
    let studio = expect_context::<Studio>();
    let contracts = declared_inputs(studio);
    move || {
        contracts
            .with(declared)
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
    fn the_example_has_a_value_of_each_declared_type_and_the_form_edits_one_key() {
        let spec = json!({"contracts": {"inputs": [
            {"name": "topic", "type": "string"}, {"name": "depth", "type": "integer"}
        ]}});
        let contracts = Contracts::of(&spec);
        let fields = declared(&contracts);
        let example = example_input(&contracts);
        assert_eq!(example, json!({"topic": "example topic", "depth": 1}));
        let edited = with_field(&example.to_string(), &fields[1], "3");
        assert_eq!(
            serde_json::from_str::<Value>(&edited).unwrap(),
            json!({"topic": "example topic", "depth": 3})
        );
        assert_eq!(field_text(&edited, "topic"), "example topic");
    }
}
