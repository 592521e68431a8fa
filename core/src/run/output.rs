//! Reading a model's answer: JSON when the step promises structured output (fences allowed),
//! checked against its schema; the problems, when there are any, phrased as feedback the next
//! attempt is given.

use serde_json::Value;

/// The answer as data, or what is wrong with it.
pub(crate) fn read(text: &str, schema: Option<&Value>) -> Result<Value, Vec<String>> {
    let body = unfenced(text.trim());
    if body.is_empty() {
        return Err(vec!["the answer is empty".to_owned()]);
    }
    let Some(schema) = schema else {
        // Free text, unless the model answered with a JSON object or list anyway.
        return Ok(match serde_json::from_str::<Value>(body) {
            Ok(value @ (Value::Object(_) | Value::Array(_))) => value,
            _ => Value::String(body.to_owned()),
        });
    };
    let value: Value = serde_json::from_str(body).map_err(|error| {
        vec![format!(
            "the answer is not JSON ({error}); answer with a single JSON value and nothing else"
        )]
    })?;
    let problems = problems(schema, &value);
    if problems.is_empty() {
        Ok(value)
    } else {
        Err(problems)
    }
}

/// What is wrong with `value` under `schema`, one sentence per problem, each naming its place
/// in the value (`at `/a/0`: ...`) unless the sentence already does.
pub(crate) fn problems(schema: &Value, value: &Value) -> Vec<String> {
    crate::schema::check_instance(schema, value)
        .into_iter()
        .map(|(at, message)| {
            // The schema's sentences call the root "the frontmatter": here it is an answer.
            let message = message
                .strip_suffix(" in the frontmatter")
                .map_or(message.clone(), str::to_owned);
            if at.is_empty() || message.contains(&format!("`{at}`")) {
                message
            } else {
                format!("at `{at}`: {message}")
            }
        })
        .collect()
}

/// The text inside a ```json fence, when the whole answer is one.
fn unfenced(text: &str) -> &str {
    let Some(rest) = text.strip_prefix("```") else {
        return text;
    };
    let Some(body_start) = rest.find('\n') else {
        return text;
    };
    let body = &rest[body_start + 1..];
    body.trim_end().strip_suffix("```").map_or(text, str::trim)
}

/// The message that asks for a corrected answer.
pub(crate) fn feedback(problems: &[String]) -> String {
    let mut message = String::from("Your previous answer was not accepted:\n");
    for problem in problems {
        message.push_str("- ");
        message.push_str(problem);
        message.push('\n');
    }
    message.push_str("Answer again, correcting these problems.");
    message
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn structured_answers_are_parsed_and_checked() {
        let schema = json!({"type": "object", "required": ["n"], "properties": {"n": {"type": "number", "minimum": 1}}});
        assert_eq!(read("{\"n\": 2}", Some(&schema)), Ok(json!({"n": 2})));
        assert_eq!(
            read("```json\n{\"n\": 3}\n```", Some(&schema)),
            Ok(json!({"n": 3}))
        );
        assert!(read("sure! {\"n\": 2}", Some(&schema)).unwrap_err()[0].contains("not JSON"));
        let errors = read("{\"n\": 0}", Some(&schema)).unwrap_err();
        assert_eq!(errors.len(), 1);
        assert!(errors[0].starts_with("at `/n`:"), "{errors:?}");
        assert_eq!(
            read("{}", Some(&schema)),
            Err(vec!["missing required property `n`".into()])
        );
        let nested = json!({"type": "object", "properties": {"person": {"type": "object", "required": ["year"]}}});
        assert_eq!(
            read("{\"person\": {}}", Some(&nested)),
            Err(vec!["missing required property `year` in `/person`".into()])
        );
        assert_eq!(
            read("  ", Some(&schema)),
            Err(vec!["the answer is empty".into()])
        );
    }

    #[test]
    fn free_answers_are_text_unless_they_are_json_structures() {
        assert_eq!(read("Hello", None), Ok(json!("Hello")));
        assert_eq!(read("{\"a\": 1}", None), Ok(json!({"a": 1})));
        assert_eq!(read("42", None), Ok(json!("42")));
        assert!(read("", None).is_err());
    }
}
