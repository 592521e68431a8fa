//! The fields of a step as the canonical schema (`definitions.Step`) declares them, in its
//! order: each property becomes a control chosen from its type, so the inspector shows every
//! field a step can have and nothing the schema does not know.

use serde_json::Value;

/// How a field is edited.
#[derive(Debug, Clone, PartialEq)]
pub enum Control {
    /// One line of text.
    Line,
    /// Text whose line breaks matter (`instructions`).
    Lines,
    /// A duration string (`30s`, `2m`), checked by core's duration parser.
    Duration,
    /// A `{{ }}` expression, checked by core's expression parser.
    Expression,
    Number {
        min: Option<f64>,
        max: Option<f64>,
        integer: bool,
    },
    /// One of the schema's `enum` values.
    Choice(Vec<String>),
    Toggle,
    /// A list of strings, written one per line.
    List,
    /// An object with its own fields (`retry`, `confidence`, `verification`).
    Group(Vec<FormField>),
    /// An inline JSON Schema: the small schema editor.
    Schema,
    /// The step's `branches`: rows of if / then / default.
    Branches,
}

#[derive(Debug, Clone, PartialEq)]
pub struct FormField {
    /// The property's name in the step (or in its group).
    pub key: String,
    pub label: String,
    /// The schema's description, shown as the field's hint.
    pub help: String,
    pub control: Control,
    /// The schema requires it in its object.
    pub required: bool,
}

/// Every field of a step, from the schema.
pub fn step_fields() -> Vec<FormField> {
    definition("Step").map(object_fields).unwrap_or_default()
}

fn definition(name: &str) -> Option<&'static Value> {
    logicmd::schema::schema()
        .get("definitions")
        .and_then(|d| d.get(name))
}

fn object_fields(object: &'static Value) -> Vec<FormField> {
    let required: Vec<&str> = object
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    object
        .get("properties")
        .and_then(Value::as_object)
        .map(|properties| {
            properties
                .iter()
                .map(|(key, property)| FormField {
                    key: key.clone(),
                    label: label_of(key),
                    help: text(property, "description")
                        .or_else(|| resolve(property).and_then(|p| text(p, "description")))
                        .unwrap_or_default(),
                    control: control_of(key, property),
                    required: required.contains(&key.as_str()),
                })
                .collect()
        })
        .unwrap_or_default()
}

fn text(value: &Value, key: &str) -> Option<String> {
    value.get(key).and_then(Value::as_str).map(str::to_owned)
}

/// The definition a `$ref` names, if the property is one.
fn resolve(property: &'static Value) -> Option<&'static Value> {
    let reference = property.get("$ref")?.as_str()?;
    definition(reference.strip_prefix("#/definitions/")?)
}

fn reference_name(property: &Value) -> Option<&str> {
    property
        .get("$ref")?
        .as_str()?
        .strip_prefix("#/definitions/")
}

fn control_of(key: &str, property: &'static Value) -> Control {
    match reference_name(property) {
        Some("Expression") => return Control::Expression,
        Some("JsonSchemaObject") => return Control::Schema,
        Some(_) => return resolve(property).map_or(Control::Line, |d| control_of(key, d)),
        None => {}
    }
    let kind = property.get("type").and_then(Value::as_str).unwrap_or("");
    let number = |name: &str| property.get(name).and_then(Value::as_f64);
    match kind {
        "object" if property.get("properties").is_some() => Control::Group(object_fields(property)),
        "number" | "integer" => Control::Number {
            min: number("minimum"),
            max: number("maximum"),
            integer: kind == "integer",
        },
        "boolean" => Control::Toggle,
        "array" => match property.get("items").and_then(reference_name) {
            Some("Branch") => Control::Branches,
            _ => Control::List,
        },
        "string" => match property.get("enum").and_then(Value::as_array) {
            Some(options) => Control::Choice(
                options
                    .iter()
                    .filter_map(Value::as_str)
                    .map(str::to_owned)
                    .collect(),
            ),
            None if key == "instructions" => Control::Lines,
            None if text(property, "description").is_some_and(|d| d.contains("duration")) => {
                Control::Duration
            }
            None => Control::Line,
        },
        _ => Control::Line,
    }
}

/// `max_attempts` → `Max attempts`.
pub fn label_of(key: &str) -> String {
    let spaced = key.replace('_', " ");
    let mut chars = spaced.chars();
    chars
        .next()
        .map(|first| first.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn find<'a>(fields: &'a [FormField], key: &str) -> &'a FormField {
        fields
            .iter()
            .find(|f| f.key == key)
            .unwrap_or_else(|| panic!("no field {key}"))
    }

    #[test]
    fn a_step_has_every_field_of_the_schema_with_a_fitting_control() {
        let fields = step_fields();
        let keys: Vec<&str> = fields.iter().map(|f| f.key.as_str()).collect();
        assert_eq!(
            keys,
            [
                "description",
                "needs",
                "instructions",
                "input_schema",
                "output_schema",
                "confidence",
                "branches",
                "retry",
                "verification",
                "timeout",
                "allowed_tools",
                "denied_tools",
                "execution",
                "parallel_steps",
                "join",
                "join_timeout"
            ]
        );
        assert_eq!(find(&fields, "instructions").control, Control::Lines);
        assert_eq!(find(&fields, "timeout").control, Control::Duration);
        assert_eq!(find(&fields, "needs").control, Control::List);
        assert_eq!(find(&fields, "branches").control, Control::Branches);
        assert_eq!(find(&fields, "output_schema").control, Control::Schema);
        assert_eq!(
            find(&fields, "join").control,
            Control::Choice(vec!["all".into(), "any".into(), "majority".into()])
        );
    }

    #[test]
    fn groups_carry_their_own_fields_and_requirements() {
        let fields = step_fields();
        let Control::Group(retry) = &find(&fields, "retry").control else {
            panic!("retry is a group");
        };
        assert_eq!(
            find(retry, "max_attempts").control,
            Control::Number {
                min: None,
                max: None,
                integer: true
            }
        );
        assert_eq!(find(retry, "initial_interval").control, Control::Duration);
        let Control::Group(confidence) = &find(&fields, "confidence").control else {
            panic!("confidence is a group");
        };
        assert_eq!(
            find(confidence, "minimum").control,
            Control::Number {
                min: Some(0.0),
                max: Some(1.0),
                integer: false
            }
        );
        let Control::Group(verification) = &find(&fields, "verification").control else {
            panic!("verification is a group");
        };
        assert!(find(verification, "check").required);
        assert_eq!(find(verification, "check").control, Control::Expression);
        assert_eq!(label_of("max_attempts"), "Max attempts");
    }
}
