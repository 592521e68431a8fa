//! What a form value stands for: the JSON to write, nothing (the field is cleared), or why it
//! cannot be written. A value refused here is never written; its error is shown at the field.

use serde_json::{json, Value};

use super::form::Control;

/// Parses the raw text of a control; `label` names the field in messages.
pub fn parse(control: &Control, label: &str, raw: &str) -> Result<Option<Value>, String> {
    let trimmed = raw.trim();
    if trimmed.is_empty() && !matches!(control, Control::Toggle) {
        return Ok(None);
    }
    match control {
        Control::Lines => Ok(Some(json!(raw.replace("\r\n", "\n")))),
        Control::Duration => logicmd::duration::parse_duration(trimmed)
            .map(|_| Some(json!(trimmed)))
            .map_err(|why| format!("{label}: {why}")),
        Control::Expression => logicmd::expr::Template::parse(trimmed)
            .map(|_| Some(json!(trimmed)))
            .map_err(|why| format!("{label}: {}", why.message)),
        Control::Number { min, max, integer } => number(label, trimmed, *min, *max, *integer),
        Control::Choice(options) => options
            .iter()
            .find(|o| o.as_str() == trimmed)
            .map(|o| Some(json!(o)))
            .ok_or_else(|| format!("{label} must be one of {}", options.join(", "))),
        Control::Toggle => Ok(Some(json!(trimmed == "true"))),
        Control::List => Ok(Some(json!(list(raw)))),
        Control::Json => serde_json::from_str(trimmed)
            .map(Some)
            .map_err(|why| format!("{label} must be JSON: {why}")),
        Control::Any => Ok(Some(
            serde_json::from_str(trimmed).unwrap_or_else(|_| json!(trimmed)),
        )),
        Control::Reference if trimmed.starts_with(['{', '[']) => serde_json::from_str(trimmed)
            .map(Some)
            .map_err(|why| format!("{label}: a map of inputs must be JSON: {why}")),
        Control::Line
        | Control::Reference
        | Control::Target(_)
        | Control::Group(_)
        | Control::Schema
        | Control::Branches
        | Control::Rows(_)
        | Control::Route
        | Control::Actions => Ok(Some(json!(trimmed))),
    }
}

fn number(
    label: &str,
    raw: &str,
    min: Option<f64>,
    max: Option<f64>,
    integer: bool,
) -> Result<Option<Value>, String> {
    let value: f64 = raw
        .parse()
        .ok()
        .filter(|v: &f64| v.is_finite())
        .ok_or_else(|| format!("{label} must be a number"))?;
    if integer && value.fract() != 0.0 {
        return Err(format!("{label} must be a whole number"));
    }
    if let Some(min) = min.filter(|min| value < *min) {
        return Err(format!("{label} must be at least {min}"));
    }
    if let Some(max) = max.filter(|max| value > *max) {
        return Err(format!("{label} must be at most {max}"));
    }
    Ok(Some(if value.fract() == 0.0 && value.abs() < 1e15 {
        json!(value as i64)
    } else {
        json!(value)
    }))
}

/// The items of a list written one per line (commas separate too).
pub fn list(raw: &str) -> Vec<String> {
    raw.split(['\n', ','])
        .map(str::trim)
        .filter(|item| !item.is_empty())
        .map(str::to_owned)
        .collect()
}

/// A value as the form shows it: strings as they are, lists one item per line.
pub fn shown(value: &Value) -> String {
    match value {
        Value::Null => String::new(),
        Value::String(s) => s.clone(),
        Value::Array(items) if items.iter().all(|i| !i.is_object() && !i.is_array()) => {
            items.iter().map(shown).collect::<Vec<_>>().join("\n")
        }
        other => other.to_string(),
    }
}

/// A value as a control shows it: open JSON (objects, lists of them, a reference map) as JSON,
/// everything else as [`shown`].
pub fn shown_for(control: &Control, value: &Value) -> String {
    match (control, value) {
        (Control::Json | Control::Any | Control::Reference, Value::Object(_) | Value::Array(_)) => {
            serde_json::to_string(value).unwrap_or_default()
        }
        (Control::Any, Value::String(s)) if serde_json::from_str::<Value>(s).is_ok() => {
            // A string that reads as JSON (`"true"`) is shown quoted, so it stays a string.
            Value::String(s.clone()).to_string()
        }
        _ => shown(value),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NUMBER: Control = Control::Number {
        min: Some(0.0),
        max: Some(1.0),
        integer: false,
    };

    #[test]
    fn durations_are_checked_and_bad_ones_say_why() {
        assert_eq!(
            parse(&Control::Duration, "Timeout", " 30s "),
            Ok(Some(json!("30s")))
        );
        let error = parse(&Control::Duration, "Timeout", "abc").unwrap_err();
        assert!(error.starts_with("Timeout: `abc`"), "{error}");
        assert_eq!(parse(&Control::Duration, "Timeout", ""), Ok(None));
    }

    #[test]
    fn numbers_keep_to_their_bounds_and_kind() {
        assert_eq!(parse(&NUMBER, "Minimum", "0.5"), Ok(Some(json!(0.5))));
        assert_eq!(
            parse(&NUMBER, "Minimum", "2").unwrap_err(),
            "Minimum must be at most 1"
        );
        assert_eq!(
            parse(&NUMBER, "Minimum", "x").unwrap_err(),
            "Minimum must be a number"
        );
        let integer = Control::Number {
            min: None,
            max: None,
            integer: true,
        };
        assert_eq!(parse(&integer, "Max attempts", "5"), Ok(Some(json!(5))));
        assert_eq!(
            parse(&integer, "Max attempts", "2.5").unwrap_err(),
            "Max attempts must be a whole number"
        );
    }

    #[test]
    fn open_values_read_as_json_when_they_are_and_as_text_otherwise() {
        assert_eq!(parse(&Control::Any, "Value", "true"), Ok(Some(json!(true))));
        assert_eq!(
            parse(&Control::Any, "Value", "billing"),
            Ok(Some(json!("billing")))
        );
        assert_eq!(
            parse(&Control::Any, "Value", "\"true\""),
            Ok(Some(json!("true")))
        );
        assert_eq!(shown_for(&Control::Any, &json!("true")), "\"true\"");
        assert_eq!(shown_for(&Control::Any, &json!(3)), "3");
        assert_eq!(
            parse(&Control::Json, "Consensus", "{\"type\": \"unanimous\"}"),
            Ok(Some(json!({"type": "unanimous"})))
        );
        assert!(parse(&Control::Json, "Consensus", "{type").is_err());
        assert_eq!(
            parse(&Control::Reference, "Input", "draft.article"),
            Ok(Some(json!("draft.article")))
        );
        assert_eq!(
            parse(&Control::Reference, "Input", "{\"a\": \"x.y\"}"),
            Ok(Some(json!({"a": "x.y"})))
        );
        assert_eq!(
            shown_for(&Control::Reference, &json!({"a": "x.y"})),
            "{\"a\":\"x.y\"}"
        );
    }

    #[test]
    fn line_breaks_lists_choices_and_expressions() {
        assert_eq!(
            parse(&Control::Lines, "Instructions", "one\r\ntwo\n"),
            Ok(Some(json!("one\ntwo\n")))
        );
        assert_eq!(
            parse(&Control::List, "Needs", "a\n b, c\n\n"),
            Ok(Some(json!(["a", "b", "c"])))
        );
        assert_eq!(shown(&json!(["a", "b"])), "a\nb");
        let choice = Control::Choice(vec!["all".into(), "any".into()]);
        assert!(parse(&choice, "Join", "some").is_err());
        assert_eq!(
            parse(&Control::Expression, "Check", "{{ output.score > 0.5 }}"),
            Ok(Some(json!("{{ output.score > 0.5 }}")))
        );
        assert!(parse(&Control::Expression, "Check", "{{ output. }}").is_err());
        assert_eq!(
            parse(&Control::Toggle, "Default", "false"),
            Ok(Some(json!(false)))
        );
    }
}
