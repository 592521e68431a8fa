//! Plain-language messages and stable codes for JSON Schema failures.

use serde_json::Value;

use super::engine::{ErrorKind, SchemaError};
use super::{suggest, SUPPORTED_SPEC_VERSIONS};

/// A stable diagnostic code per kind of failure, for tools that filter on codes.
pub(super) fn code(kind: &ErrorKind<'_>) -> &'static str {
    match kind {
        ErrorKind::Required { .. } => "schema-missing-property",
        ErrorKind::AdditionalProperties { .. } => "schema-unknown-property",
        ErrorKind::Type { .. } => "schema-type",
        ErrorKind::Enum { .. } => "schema-enum",
        ErrorKind::Const { .. } => "schema-const",
        ErrorKind::Minimum { .. }
        | ErrorKind::Maximum { .. }
        | ErrorKind::ExclusiveMinimum { .. }
        | ErrorKind::ExclusiveMaximum { .. } => "schema-range",
        ErrorKind::MinLength { .. }
        | ErrorKind::MaxLength { .. }
        | ErrorKind::MinItems { .. }
        | ErrorKind::MaxItems { .. }
        | ErrorKind::MinProperties { .. }
        | ErrorKind::MaxProperties { .. } => "schema-size",
        ErrorKind::UniqueItems => "schema-unique",
        ErrorKind::AnyOf { .. } | ErrorKind::OneOfNone { .. } | ErrorKind::OneOfMany => {
            "schema-alternatives"
        }
        _ => "schema",
    }
}

pub(super) fn unknown_property(key: &str, path: &str) -> String {
    let mut out = String::with_capacity(32 + key.len() + path.len());
    out.push_str("unknown property `");
    out.push_str(key);
    out.push_str("` in ");
    push_place(path, &mut out);
    out
}

/// `missing required property `NAME` in PLACE`.
fn missing(property: &str, path: &str) -> String {
    let mut out = String::with_capacity(48 + property.len() + path.len());
    out.push_str("missing required property ");
    push_quoted(property, &mut out);
    out.push_str(" in ");
    push_place(path, &mut out);
    out
}

/// The instance location in words: `the frontmatter` or the pointer in backticks. Messages are
/// built by appending to one string, not by `format!` of `format!`s: the corpus's hundreds of
/// schema messages per pass spent more in the formatting machinery than in deciding what to
/// say (issue #17).
fn push_place(path: &str, out: &mut String) {
    if path.is_empty() {
        out.push_str("the frontmatter");
    } else {
        push_quoted(path, out);
    }
}

/// `text` in backticks.
fn push_quoted(text: &str, out: &mut String) {
    out.push('`');
    out.push_str(text);
    out.push('`');
}

/// A sentence saying what is wrong with the value, in the user's terms.
pub(super) fn describe(error: &SchemaError<'_>) -> String {
    let instance = &*error.instance;
    // The value as shown, made only by the messages that show it.
    let value = || short(instance);
    match &error.kind {
        ErrorKind::Required { property } => missing(property, &error.instance_path),
        ErrorKind::Type { expected } => expected_found(expected, instance),
        ErrorKind::Enum { options } => {
            format!("{} is not one of {}", value(), list(options))
        }
        ErrorKind::Const { expected } => {
            if error.instance_path.as_str() == "/spec_version" {
                format!(
                    "unsupported spec_version {}; supported versions: {}",
                    value(),
                    SUPPORTED_SPEC_VERSIONS
                        .iter()
                        .map(|v| format!("\"{v}\""))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            } else {
                format!("{} must be exactly {}", value(), short(expected))
            }
        }
        ErrorKind::Minimum { limit } => {
            format!("{} is less than the minimum {limit}", value())
        }
        ErrorKind::Maximum { limit } => {
            format!("{} is greater than the maximum {limit}", value())
        }
        ErrorKind::ExclusiveMinimum { limit } => {
            format!("{} must be greater than {limit}", value())
        }
        ErrorKind::ExclusiveMaximum { limit } => {
            format!("{} must be less than {limit}", value())
        }
        ErrorKind::MinLength { limit: 1 } => "must not be empty".to_owned(),
        ErrorKind::MinLength { limit } => {
            format!("{} is shorter than {limit} characters", value())
        }
        ErrorKind::MaxLength { limit } => {
            format!("{} is longer than {limit} characters", value())
        }
        ErrorKind::MinItems { limit } => format!("needs at least {limit} item(s)"),
        ErrorKind::MaxItems { limit } => format!("allows at most {limit} item(s)"),
        ErrorKind::MinProperties { limit } => {
            format!(
                "needs at least {limit} entr{}",
                if *limit == 1 { "y" } else { "ies" }
            )
        }
        ErrorKind::UniqueItems => "items must be unique".to_owned(),
        ErrorKind::AnyOf { context } | ErrorKind::OneOfNone { context } => {
            alternatives(&error.instance_path, instance, context)
        }
        ErrorKind::MaxProperties { limit } => format!("allows at most {limit} entries"),
        ErrorKind::AdditionalProperties { unexpected } => {
            let keys: Vec<String> = unexpected.iter().map(|k| format!("`{k}`")).collect();
            format!("unknown properties {}", keys.join(", "))
        }
        ErrorKind::OneOfMany => "matches more than one of the allowed forms".to_owned(),
        ErrorKind::Not => "is not allowed here".to_owned(),
        ErrorKind::Nothing => "no value is allowed here".to_owned(),
        ErrorKind::BadReference { reference } => {
            format!("the schema refers to `{reference}`, which it does not define")
        }
    }
}

/// A hint for fixing the value, where one can be computed from the value and the schema.
pub(super) fn help(schema: &super::places::Places<'_>, error: &SchemaError<'_>) -> Option<String> {
    match &error.kind {
        ErrorKind::Enum { options } => {
            let text = error.instance.as_str()?;
            let options = options.as_array()?;
            suggest::closest(text, options.iter().filter_map(Value::as_str))
                .map(|close| format!("did you mean `{close}`?"))
        }
        ErrorKind::Required { property } => {
            let at = crate::json::pointer_push(&error.instance_path, property);
            let choices = schema.choices(&at);
            (!choices.is_empty()).then(|| {
                let listed: Vec<String> = choices.iter().map(|c| format!("`{c}`")).collect();
                format!("`{property}` is one of {}", listed.join(", "))
            })
        }
        ErrorKind::Type { expected } if expected.as_slice() == ["string"] => {
            let number = error.instance.as_number()?;
            schema.is_duration(&error.instance_path).then(|| {
                format!("a duration is a string with a unit: `\"{number}s\"` (also `ms`, `m`, `h`)")
            })
        }
        ErrorKind::Type { .. } if error.instance.is_string() => {
            Some("numbers and booleans must not be quoted".to_owned()).filter(|_| {
                error
                    .instance
                    .as_str()
                    .is_some_and(|s| s.parse::<f64>().is_ok() || s == "true" || s == "false")
            })
        }
        _ => None,
    }
}

/// For `anyOf`/`oneOf` failures, in the user's terms: the types allowed when every form fails
/// on its type alone, the choices when every form only misses a property, else the problem
/// inside the one form whose type fits.
fn alternatives(path: &str, instance: &Value, context: &[Vec<SchemaError<'_>>]) -> String {
    const NONE: &str = "does not match any of the allowed forms";
    let types: Option<Vec<&str>> = context
        .iter()
        .map(|branch| match branch.as_slice() {
            [only] if only.instance_path == path => match &only.kind {
                ErrorKind::Type { expected } => Some(expected.clone()),
                _ => None,
            },
            _ => None,
        })
        .collect::<Option<Vec<_>>>()
        .map(|lists| lists.concat());
    if let Some(types) = types.filter(|t| !t.is_empty()) {
        return expected_found(&types, instance);
    }
    let missing: Option<Vec<String>> = context
        .iter()
        .map(|branch| match branch.as_slice() {
            [only] => match &only.kind {
                ErrorKind::Required { property } => Some(format!("`{property}`")),
                _ => None,
            },
            _ => None,
        })
        .collect();
    if let Some(missing) = missing.filter(|m| !m.is_empty()) {
        return format!("needs one of {}", missing.join(" or "));
    }
    let fitting: Vec<&Vec<SchemaError<'_>>> = context
        .iter()
        .filter(|branch| {
            !branch
                .iter()
                .any(|e| e.instance_path == path && matches!(e.kind, ErrorKind::Type { .. }))
        })
        .collect();
    match fitting.as_slice() {
        [branch] => match branch.first() {
            Some(inner) if inner.instance_path != path => {
                format!("{NONE}: at `{}`, {}", inner.instance_path, describe(inner))
            }
            Some(inner) => format!("{NONE}: {}", describe(inner)),
            None => NONE.to_owned(),
        },
        _ => NONE.to_owned(),
    }
}

/// `expected <types>, found <the value's type and value>`.
fn expected_found(expected: &[&str], instance: &Value) -> String {
    let mut out = String::with_capacity(64);
    out.push_str("expected ");
    for (i, name) in expected.iter().enumerate() {
        if i > 0 {
            out.push_str(" or ");
        }
        push_article(name, &mut out);
    }
    out.push_str(", found ");
    push_json_type(instance, &mut out);
    out
}

/// A type's name with its article: `an array`, `a string`, `null`.
fn push_article(type_name: &str, out: &mut String) {
    match type_name {
        "array" | "object" | "integer" => out.push_str("an "),
        "null" => {}
        _ => out.push_str("a "),
    }
    out.push_str(type_name);
}

/// The value's JSON type with its article, and the value itself when it is a scalar.
fn push_json_type(value: &Value, out: &mut String) {
    let name = match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_f64() => "number",
        Value::Number(_) => "integer",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    };
    push_article(name, out);
    if let Value::String(_) | Value::Number(_) | Value::Bool(_) = value {
        out.push(' ');
        push_short(value, out);
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
    let mut text = String::with_capacity(24);
    push_short(value, &mut text);
    text
}

/// Appends [`short`]'s text to `out`: a type error's message holds it, and a string of its own
/// per message was a tenth of writing one (issue #38, round two).
fn push_short(value: &Value, out: &mut String) {
    /// A string of this many bytes or fewer has no more characters: with its backticks it
    /// is within the 60 that are shown whole.
    const SHORT_BYTES: usize = 58;
    let from = out.len();
    match value {
        Value::String(s) => {
            out.reserve(s.len() + 2);
            push_quoted(s, out);
            if s.len() <= SHORT_BYTES {
                return;
            }
        }
        Value::Array(_) => out.push_str("this list"),
        Value::Object(_) => out.push_str("this object"),
        other => {
            // Written as JSON writes it, without the formatting machinery for the common
            // scalars (a number or a boolean is in most type errors' messages: issue #38).
            out.push('`');
            match other {
                Value::Bool(true) => out.push_str("true"),
                Value::Bool(false) => out.push_str("false"),
                Value::Null => out.push_str("null"),
                Value::Number(n) => match (n.as_u64(), n.as_i64()) {
                    (Some(natural), _) => crate::json::push_decimal(out, natural),
                    (None, Some(negative)) => {
                        out.push('-');
                        crate::json::push_decimal(out, negative.unsigned_abs());
                    }
                    _ => out.push_str(&n.to_string()),
                },
                _ => out.push_str(&other.to_string()),
            }
            out.push('`');
        }
    }
    // Past 60 characters: the first 57, then `...` and a closing backtick.
    if out[from..].chars().nth(60).is_some() {
        let keep = out[from..]
            .char_indices()
            .nth(57)
            .map_or(out.len(), |(at, _)| from + at);
        out.truncate(keep);
        out.push_str("...`");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The first version's wording, made of `format!`s: the oracle of the appended one.
    fn expected_found_by_format(expected: &[&str], instance: &Value) -> String {
        fn article(type_name: &str) -> String {
            match type_name {
                "array" | "object" | "integer" => format!("an {type_name}"),
                "null" => "null".to_owned(),
                other => format!("a {other}"),
            }
        }
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
        let name = match instance {
            Value::Null => "null",
            Value::Bool(_) => "boolean",
            Value::Number(n) if n.is_f64() => "number",
            Value::Number(_) => "integer",
            Value::String(_) => "string",
            Value::Array(_) => "array",
            Value::Object(_) => "object",
        };
        let found = match instance {
            Value::String(_) | Value::Number(_) | Value::Bool(_) => {
                format!("{} {}", article(name), short(instance))
            }
            _ => article(name),
        };
        let names: Vec<String> = expected.iter().map(|n| article(n)).collect();
        format!("expected {}, found {found}", names.join(" or "))
    }

    fn any_value() -> impl Strategy<Value = Value> {
        prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(Value::from),
            any::<u64>().prop_map(Value::from),
            any::<f64>().prop_map(Value::from),
            // Around the 58 bytes / 60 characters where a value is cut, in one- to four-byte
            // characters.
            "[a-z`]{0,70}|[é✓😀a]{20,64}".prop_map(Value::String),
            Just(serde_json::json!([1])),
            Just(serde_json::json!({"a": 1})),
        ]
    }

    proptest! {
        #[test]
        fn the_appended_wording_is_the_formatted_one(
            expected in proptest::collection::vec(
                prop_oneof![Just("array"), Just("object"), Just("integer"), Just("null"), Just("string"), Just("number"), Just("boolean"), Just("thing")],
                0..4,
            ),
            instance in any_value(),
            key in "[a-z/]{0,8}",
            path in "(/[a-z]{1,5}){0,3}",
        ) {
            prop_assert_eq!(expected_found(&expected, &instance), expected_found_by_format(&expected, &instance));
            let place = if path.is_empty() { "the frontmatter".to_owned() } else { format!("`{path}`") };
            prop_assert_eq!(unknown_property(&key, &path), format!("unknown property `{key}` in {place}"));
            prop_assert_eq!(missing(&key, &path), format!("missing required property `{key}` in {place}"));
        }
    }
}
