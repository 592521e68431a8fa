//! What a step sees: how a `{{ }}` check over the context (kept in `shared`) is judged, and the
//! task message of its model request (the input and the outputs of the steps it runs after).

use serde_json::Value;

use crate::expr::Template;
use crate::run::action::Message;

/// Evaluates a `{{ }}` check: truthy (JavaScript rules) or not, or why it could not be evaluated.
pub(crate) fn holds(check: &str, context: &Value) -> Result<bool, String> {
    let template = Template::parse(check).map_err(|e| e.message)?;
    let value = template.evaluate(context).map_err(|e| e.message)?;
    Ok(truthy(&value))
}

/// JavaScript truthiness of a JSON value, as the expression language has it.
pub(crate) fn truthy(value: &Value) -> bool {
    crate::expr::JsValue::from_json(value).truthy()
}

/// The user message of a step: the task input, the outputs of the steps it needs, and the
/// answer to the decision tree's question that chose it.
pub(crate) fn task_message(
    input: &Value,
    needs: &[(String, Option<&Value>)],
    decision: Option<&Value>,
) -> Message {
    let mut content = String::from("## Input\n\n```json\n");
    content.push_str(&pretty(input));
    content.push_str("\n```\n");
    for (name, output) in needs {
        content.push_str(&format!("\n## Output of step `{name}`\n\n"));
        match output {
            Some(output) => {
                content.push_str("```json\n");
                content.push_str(&pretty(output));
                content.push_str("\n```\n");
            }
            None => content.push_str("(no output: the step was skipped)\n"),
        }
    }
    if let Some(decision) = decision {
        content.push_str("\n## Decision that chose this step\n\n```json\n");
        content.push_str(&pretty(decision));
        content.push_str("\n```\n");
    }
    Message::user(content)
}

pub(crate) fn pretty(value: &Value) -> String {
    serde_json::to_string_pretty(value).unwrap_or_else(|_| value.to_string())
}

/// The number a check reads as `confidence`: the output's own `confidence`, when it has one.
pub(crate) fn confidence_of(output: &Value) -> Option<f64> {
    output.get("confidence").and_then(Value::as_f64)
}
