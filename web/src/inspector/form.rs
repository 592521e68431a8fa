//! Every node kind's form, read from the schema that defines it: a LOGIC.md step, decision node
//! or terminal from the canonical schema's definitions, a DRTL node from the DRTL schema's
//! definition of its type, the document's own fields from the schema's top level. Each property
//! becomes a control chosen from its type, so the inspector shows every field a kind can have
//! and nothing the schema does not know.

use serde_json::Value;

/// How a field is edited.
#[derive(Debug, Clone, PartialEq)]
pub enum Control {
    /// One line of text.
    Line,
    /// Text whose line breaks matter (instructions, prompts, messages).
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
    /// A step's `branches`: rows of if / then / default.
    Branches,
    /// A list of objects (rules, participants, operations, a decision node's branches): one
    /// row of these fields per item, added and removed in place.
    Rows(Vec<FormField>),
    /// Any JSON value, written as JSON (an object the schema leaves open).
    Json,
    /// A value of any type: JSON when the text reads as JSON (`true`, `3`, `[..]`), else text.
    Any,
    /// What a DRTL node reads: `node.key`, a `{{ }}` template, or a map of named inputs.
    Reference,
    /// The name of another node.
    Target(Targets),
    /// A DRTL route: a node id, or `{next, inject}`.
    Route,
    /// A DRTL review's actions: labels, each optionally routed to a node.
    Actions,
}

/// Which names a [`Control::Target`] offers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Targets {
    /// The nodes and terminals of the field's decision tree, and the steps.
    TreeOrStep,
}

#[derive(Debug, Clone, PartialEq)]
pub struct FormField {
    /// The property's name in its object.
    pub key: String,
    pub label: String,
    /// The schema's description, shown as the field's hint.
    pub help: String,
    pub control: Control,
    /// The schema requires it in its object.
    pub required: bool,
}

/// A schema whose `$ref`s resolve inside it.
#[derive(Clone, Copy)]
struct Schema(&'static Value);

impl Schema {
    fn definition(self, name: &str) -> Option<&'static Value> {
        self.0.get("definitions").and_then(|d| d.get(name))
    }

    fn resolve(self, property: &'static Value) -> Option<&'static Value> {
        self.definition(reference_name(property)?)
    }
}

fn logic() -> Schema {
    Schema(logicmd::schema::schema())
}

fn drtl() -> Schema {
    Schema(logicmd::drtl::schema())
}

/// Every field of a step, from the schema.
pub fn step_fields() -> Vec<FormField> {
    logic_definition("Step")
}

/// A decision node's fields (condition, branches).
pub fn decision_fields() -> Vec<FormField> {
    logic_definition("DecisionNode")
}

/// A terminal's fields (action, message).
pub fn terminal_fields() -> Vec<FormField> {
    logic_definition("Terminal")
}

fn logic_definition(name: &str) -> Vec<FormField> {
    let schema = logic();
    schema
        .definition(name)
        .map(|d| object_fields(schema, d, &[]))
        .unwrap_or_default()
}

/// Fields of the document itself that are edited as a form (the rest are nodes on the canvas
/// or written in the text): LOGIC.md's `reasoning`, `contracts`, `quality_gates`, `fallback`
/// and `global`; a topology's `description`, `version` and `state_defaults`.
pub fn document_fields(drtl_topology: bool) -> Vec<FormField> {
    let (schema, keep): (Schema, &[&str]) = if drtl_topology {
        (
            drtl(),
            &["description", "version", "artifacts", "state_defaults"],
        )
    } else {
        (
            logic(),
            &[
                "description",
                "reasoning",
                "contracts",
                "quality_gates",
                "fallback",
                "global",
            ],
        )
    };
    object_fields(schema, schema.0, &[])
        .into_iter()
        .filter(|f| keep.contains(&f.key.as_str()))
        .collect()
}

/// The fields of a DRTL node of type `node_type` (its `id` and `type` are the node itself).
pub fn drtl_fields(node_type: &str) -> Vec<FormField> {
    let schema = drtl();
    let variant = schema
        .definition("Node")
        .and_then(|n| n.get("allOf"))
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .find(|v| {
            v.pointer("/if/properties/type/const")
                .and_then(Value::as_str)
                == Some(node_type)
        })
        .and_then(|v| v.get("then"));
    variant
        .map(|then| object_fields(schema, then, &["id", "type"]))
        .unwrap_or_default()
}

fn object_fields(schema: Schema, object: &'static Value, skip: &[&str]) -> Vec<FormField> {
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
                .filter(|(key, _)| !skip.contains(&key.as_str()))
                .map(|(key, property)| FormField {
                    key: key.clone(),
                    label: label_of(key),
                    help: text(property, "description")
                        .or_else(|| {
                            schema
                                .resolve(property)
                                .and_then(|p| text(p, "description"))
                        })
                        .unwrap_or_default(),
                    control: control_of(schema, key, property),
                    required: required.contains(&key.as_str()),
                })
                .collect()
        })
        .unwrap_or_default()
}

fn text(value: &Value, key: &str) -> Option<String> {
    value.get(key).and_then(Value::as_str).map(str::to_owned)
}

fn reference_name(property: &Value) -> Option<&str> {
    property
        .get("$ref")?
        .as_str()?
        .strip_prefix("#/definitions/")
}

fn choices(values: &Value) -> Vec<String> {
    values
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(str::to_owned)
        .collect()
}

fn control_of(schema: Schema, key: &str, property: &'static Value) -> Control {
    match reference_name(property) {
        Some("Expression") => return Control::Expression,
        Some("JsonSchemaObject") => return Control::Schema,
        Some("Route") => return Control::Route,
        Some(_) => {
            return schema
                .resolve(property)
                .map_or(Control::Line, |d| control_of(schema, key, d))
        }
        None => {}
    }
    if let Some(options) = property.get("enum") {
        return Control::Choice(choices(options));
    }
    let number = |name: &str| property.get(name).and_then(Value::as_f64);
    match property.get("type") {
        Some(Value::Array(kinds)) if key == "input" && kinds.len() > 1 => Control::Reference,
        Some(Value::Array(_)) => Control::Any,
        Some(Value::String(kind)) => match kind.as_str() {
            "object" if property.get("properties").is_some() => {
                Control::Group(object_fields(schema, property, &[]))
            }
            "object" => Control::Json,
            "number" | "integer" => Control::Number {
                min: number("minimum"),
                max: number("maximum"),
                integer: kind == "integer",
            },
            "boolean" => Control::Toggle,
            "array" => array_control(schema, key, property),
            "string" => string_control(key, property),
            _ => Control::Line,
        },
        _ => Control::Any,
    }
}

fn array_control(schema: Schema, key: &str, property: &'static Value) -> Control {
    let items = property.get("items");
    match items.and_then(reference_name) {
        Some("Branch") => return Control::Branches,
        Some("Action") => return Control::Actions,
        _ => {}
    }
    let item = items.and_then(|i| schema.resolve(i).or(Some(i)));
    match item {
        Some(item) if item.get("properties").is_some() => {
            let fields = object_fields(schema, item, &[])
                .into_iter()
                .map(|mut f| {
                    if key == "branches" && f.key == "next" {
                        f.control = Control::Target(Targets::TreeOrStep);
                    }
                    f
                })
                .collect();
            Control::Rows(fields)
        }
        _ => Control::List,
    }
}

fn string_control(key: &str, property: &Value) -> Control {
    match key {
        "instructions" | "prompt" | "message" => Control::Lines,
        _ if text(property, "description").is_some_and(|d| d.contains("duration")) => {
            Control::Duration
        }
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

    fn keys(fields: &[FormField]) -> Vec<&str> {
        fields.iter().map(|f| f.key.as_str()).collect()
    }

    #[test]
    fn a_step_has_every_field_of_the_schema_with_a_fitting_control() {
        let fields = step_fields();
        assert_eq!(
            keys(&fields),
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
        let Control::Group(verification) = &find(&fields, "verification").control else {
            panic!("verification is a group");
        };
        assert!(find(verification, "check").required);
        assert_eq!(find(verification, "check").control, Control::Expression);
        assert_eq!(label_of("max_attempts"), "Max attempts");
    }

    /// Issue #31: every DRTL node kind has a complete form from the DRTL schema.
    #[test]
    fn every_drtl_kind_has_its_schema_fields() {
        let verify = drtl_fields("verify");
        assert_eq!(
            keys(&verify),
            [
                "description",
                "input",
                "output_key",
                "output_format",
                "rules"
            ]
        );
        assert_eq!(find(&verify, "input").control, Control::Reference);
        let Control::Rows(rule) = &find(&verify, "rules").control else {
            panic!("rules are rows");
        };
        assert_eq!(keys(rule), ["id", "target", "mode"]);
        assert_eq!(
            find(rule, "mode").control,
            Control::Choice(vec!["block".into(), "warn".into(), "observe".into()])
        );
        let gate = drtl_fields("gate");
        assert_eq!(find(&gate, "on_pass").control, Control::Route);
        assert_eq!(find(&gate, "on_fail").control, Control::Route);
        assert_eq!(
            find(&drtl_fields("review"), "actions").control,
            Control::Actions
        );
        let transform = drtl_fields("transform");
        let Control::Rows(operation) = &find(&transform, "operations").control else {
            panic!("operations are rows");
        };
        assert_eq!(find(operation, "value").control, Control::Any);
        assert!(matches!(
            find(&drtl_fields("aggregate"), "strategy").control,
            Control::Choice(_)
        ));
        assert!(matches!(
            find(&drtl_fields("fan_out"), "participants").control,
            Control::Rows(_)
        ));
        let debate = drtl_fields("debate");
        assert!(matches!(
            find(&debate, "consensus").control,
            Control::Group(_)
        ));
        assert_eq!(
            find(&drtl_fields("debate"), "max_rounds").control,
            Control::Number {
                min: Some(1.0),
                max: None,
                integer: true
            }
        );
        assert!(matches!(
            find(&debate, "participants").control,
            Control::Rows(_)
        ));
        assert_eq!(
            find(&drtl_fields("generate"), "prompt").control,
            Control::Lines
        );
        for kind in crate::defaults::DRTL_TYPES {
            assert!(!drtl_fields(kind).is_empty(), "{kind}");
        }
    }

    /// Issue #31: decision trees' nodes and the document's gates and fallback are forms too.
    #[test]
    fn decision_nodes_terminals_and_the_document_have_forms() {
        let decision = decision_fields();
        assert_eq!(find(&decision, "condition").control, Control::Expression);
        let Control::Rows(branch) = &find(&decision, "branches").control else {
            panic!("branches are rows");
        };
        assert_eq!(
            find(branch, "next").control,
            Control::Target(Targets::TreeOrStep)
        );
        assert_eq!(find(branch, "value").control, Control::Any);
        assert_eq!(keys(&terminal_fields()), ["action", "message"]);
        let document = document_fields(false);
        let Control::Group(gates) = &find(&document, "quality_gates").control else {
            panic!("quality gates are a group");
        };
        assert!(matches!(
            find(gates, "pre_output").control,
            Control::Rows(_)
        ));
        let Control::Group(fallback) = &find(&document, "fallback").control else {
            panic!("fallback is a group");
        };
        assert!(matches!(
            find(fallback, "strategy").control,
            Control::Choice(_)
        ));
        assert!(matches!(
            find(fallback, "escalation").control,
            Control::Rows(_)
        ));
    }
}
