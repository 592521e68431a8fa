//! Plain-language messages and stable codes for JSON Schema failures.

use jsonschema::error::{TypeKind, ValidationErrorKind};
use jsonschema::ValidationError;
use serde_json::Value;

use super::{suggest, SUPPORTED_SPEC_VERSIONS};

/// A stable diagnostic code per kind of failure, for tools that filter on codes.
pub(super) fn code(kind: &ValidationErrorKind) -> &'static str {
    match kind {
        ValidationErrorKind::Required { .. } => "schema-missing-property",
        ValidationErrorKind::AdditionalProperties { .. } => "schema-unknown-property",
        ValidationErrorKind::Type { .. } => "schema-type",
        ValidationErrorKind::Enum { .. } => "schema-enum",
        ValidationErrorKind::Constant { .. } => "schema-const",
        ValidationErrorKind::Minimum { .. }
        | ValidationErrorKind::Maximum { .. }
        | ValidationErrorKind::ExclusiveMinimum { .. }
        | ValidationErrorKind::ExclusiveMaximum { .. } => "schema-range",
        ValidationErrorKind::MinLength { .. }
        | ValidationErrorKind::MaxLength { .. }
        | ValidationErrorKind::MinItems { .. }
        | ValidationErrorKind::MaxItems { .. }
        | ValidationErrorKind::MinProperties { .. }
        | ValidationErrorKind::MaxProperties { .. } => "schema-size",
        ValidationErrorKind::Pattern { .. } => "schema-pattern",
        ValidationErrorKind::UniqueItems => "schema-unique",
        ValidationErrorKind::AnyOf { .. }
        | ValidationErrorKind::OneOfNotValid { .. }
        | ValidationErrorKind::OneOfMultipleValid { .. } => "schema-alternatives",
        _ => "schema",
    }
}

pub(super) fn unknown_property(key: &str, path: &str) -> String {
    format!("unknown property `{key}` in {}", place(path))
}

fn place(path: &str) -> String {
    if path.is_empty() {
        "the frontmatter".to_owned()
    } else {
        format!("`{path}`")
    }
}

/// A sentence saying what is wrong with the value, in the user's terms.
pub(super) fn describe(error: &ValidationError<'_>) -> String {
    let instance = error.instance();
    let value = short(instance);
    match error.kind() {
        ValidationErrorKind::Required { property } => format!(
            "missing required property `{}` in {}",
            property.as_str().unwrap_or_default(),
            place(error.instance_path().as_str())
        ),
        ValidationErrorKind::Type { kind } => {
            format!(
                "expected {}, found {}",
                expected_types(kind),
                json_type(instance)
            )
        }
        ValidationErrorKind::Enum { options } => {
            format!("{value} is not one of {}", list(options))
        }
        ValidationErrorKind::Constant { expected_value } => {
            if error.instance_path().as_str() == "/spec_version" {
                format!(
                    "unsupported spec_version {value}; supported versions: {}",
                    SUPPORTED_SPEC_VERSIONS
                        .iter()
                        .map(|v| format!("\"{v}\""))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            } else {
                format!("{value} must be exactly {}", short(expected_value))
            }
        }
        ValidationErrorKind::Minimum { limit } => {
            format!("{value} is less than the minimum {limit}")
        }
        ValidationErrorKind::Maximum { limit } => {
            format!("{value} is greater than the maximum {limit}")
        }
        ValidationErrorKind::ExclusiveMinimum { limit } => {
            format!("{value} must be greater than {limit}")
        }
        ValidationErrorKind::ExclusiveMaximum { limit } => {
            format!("{value} must be less than {limit}")
        }
        ValidationErrorKind::MinLength { limit: 1 } => "must not be empty".to_owned(),
        ValidationErrorKind::MinLength { limit } => {
            format!("{value} is shorter than {limit} characters")
        }
        ValidationErrorKind::MaxLength { limit } => {
            format!("{value} is longer than {limit} characters")
        }
        ValidationErrorKind::MinItems { limit } => format!("needs at least {limit} item(s)"),
        ValidationErrorKind::MaxItems { limit } => format!("allows at most {limit} item(s)"),
        ValidationErrorKind::MinProperties { limit } => {
            format!(
                "needs at least {limit} entr{}",
                if *limit == 1 { "y" } else { "ies" }
            )
        }
        ValidationErrorKind::Pattern { pattern } => {
            format!("{value} does not match the pattern `{pattern}`")
        }
        ValidationErrorKind::UniqueItems => "items must be unique".to_owned(),
        ValidationErrorKind::AnyOf { context } | ValidationErrorKind::OneOfNotValid { context } => {
            alternatives(context)
        }
        _ => error.to_string(),
    }
}

/// A hint for fixing the value, where one can be computed.
pub(super) fn help(error: &ValidationError<'_>) -> Option<String> {
    match error.kind() {
        ValidationErrorKind::Enum { options } => {
            let text = error.instance().as_str()?;
            let options = options.as_array()?;
            suggest::closest(text, options.iter().filter_map(Value::as_str))
                .map(|close| format!("did you mean `{close}`?"))
        }
        ValidationErrorKind::Type { .. } if error.instance().is_string() => {
            Some("numbers and booleans must not be quoted".to_owned()).filter(|_| {
                error
                    .instance()
                    .as_str()
                    .is_some_and(|s| s.parse::<f64>().is_ok() || s == "true" || s == "false")
            })
        }
        _ => None,
    }
}

/// For `anyOf` failures: when every branch only misses properties, name the choices.
fn alternatives(context: &[Vec<ValidationError<'static>>]) -> String {
    let mut missing = Vec::new();
    for branch in context {
        match branch.as_slice() {
            [only] => match only.kind() {
                ValidationErrorKind::Required { property } => {
                    missing.push(format!("`{}`", property.as_str().unwrap_or_default()))
                }
                _ => return "does not match any of the allowed forms".to_owned(),
            },
            _ => return "does not match any of the allowed forms".to_owned(),
        }
    }
    if missing.is_empty() {
        "does not match any of the allowed forms".to_owned()
    } else {
        format!("needs one of {}", missing.join(" or "))
    }
}

fn expected_types(kind: &TypeKind) -> String {
    let names: Vec<String> = match kind {
        TypeKind::Single(t) => vec![t.to_string()],
        TypeKind::Multiple(set) => set.iter().map(|t| t.to_string()).collect(),
    };
    let names: Vec<String> = names.iter().map(|n| article(n)).collect();
    names.join(" or ")
}

fn article(type_name: &str) -> String {
    match type_name {
        "array" | "object" | "integer" => format!("an {type_name}"),
        "null" => "null".to_owned(),
        other => format!("a {other}"),
    }
}

fn json_type(value: &Value) -> String {
    let name = match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_f64() => "number",
        Value::Number(_) => "integer",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    };
    let text = article(name);
    match value {
        Value::String(_) | Value::Number(_) | Value::Bool(_) => format!("{text} {}", short(value)),
        _ => text,
    }
}

fn list(options: &Value) -> String {
    match options.as_array() {
        Some(items) => items.iter().map(short).collect::<Vec<_>>().join(", "),
        None => short(options),
    }
}

/// A value as the user wrote it, cut short.
fn short(value: &Value) -> String {
    let text = match value {
        Value::String(s) => format!("`{s}`"),
        Value::Array(_) => "this list".to_owned(),
        Value::Object(_) => "this object".to_owned(),
        other => format!("`{other}`"),
    };
    if text.chars().count() > 60 {
        let cut: String = text.chars().take(57).collect();
        format!("{cut}...`")
    } else {
        text
    }
}
