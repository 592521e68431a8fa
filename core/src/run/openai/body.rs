//! The `/chat/completions` request body for one `CallModel` action.

use serde::Serialize;
use serde_json::{json, Map, Value};

use super::strict::strict_schema;
use crate::run::action::ModelRequest;

/// How the answer's shape is asked of the server.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ResponseFormat {
    /// A free-text answer: no `response_format`.
    Text,
    /// `json_schema` with `strict: true` (the step's schema, tightened).
    JsonSchema,
    /// `json_object`, the schema stated in the prompt (it has no strict form).
    JsonObject,
    /// No `response_format` (the server refused it): JSON asked for in the prompt only; the
    /// engine's validation checks the answer either way.
    PromptOnly,
}

/// What one request asks.
pub(crate) struct BodyOptions<'a> {
    pub model: &'a str,
    pub stream: bool,
    /// The server refused `response_format` before: ask in the prompt only.
    pub format_refused: bool,
    /// The action's node, which names the schema.
    pub node: &'a str,
}

/// The body, and the format it asks for.
pub(crate) fn chat_body(
    request: &ModelRequest,
    options: &BodyOptions<'_>,
) -> (Value, ResponseFormat) {
    let wants_json = request.json || request.response_schema.is_some();
    let strict = request.response_schema.as_ref().and_then(strict_schema);
    let format = match (wants_json, options.format_refused, &strict) {
        (false, _, _) => ResponseFormat::Text,
        (true, true, _) => ResponseFormat::PromptOnly,
        (true, false, Some(_)) => ResponseFormat::JsonSchema,
        (true, false, None) => ResponseFormat::JsonObject,
    };
    let mut system = request.system.clone();
    if matches!(
        format,
        ResponseFormat::JsonObject | ResponseFormat::PromptOnly
    ) {
        if let Some(note) = json_note(request) {
            if !system.is_empty() {
                system.push_str("\n\n");
            }
            system.push_str(&note);
        }
    }
    let mut messages = Vec::new();
    if !system.is_empty() {
        messages.push(json!({"role": "system", "content": system}));
    }
    for message in &request.messages {
        messages.push(json!({"role": message.role, "content": message.content}));
    }
    let mut body = Map::new();
    body.insert("model".into(), options.model.into());
    body.insert("messages".into(), Value::Array(messages));
    if let Some(temperature) = request.temperature {
        body.insert("temperature".into(), json!(temperature));
    }
    if let Some(max_tokens) = request.max_tokens {
        body.insert("max_tokens".into(), max_tokens.into());
    }
    body.insert("stream".into(), options.stream.into());
    if options.stream {
        body.insert("stream_options".into(), json!({"include_usage": true}));
    }
    match (format, strict) {
        (ResponseFormat::JsonSchema, Some(schema)) => {
            body.insert(
                "response_format".into(),
                json!({
                    "type": "json_schema",
                    "json_schema": {"name": schema_name(options.node), "schema": schema, "strict": true}
                }),
            );
        }
        (ResponseFormat::JsonObject, _) => {
            body.insert("response_format".into(), json!({"type": "json_object"}));
        }
        _ => {}
    }
    (Value::Object(body), format)
}

/// What the prompt must add when the server does not hold the answer to the schema: the
/// schema itself, unless the scaffold already states it (the compiler's execution mandate);
/// for JSON without a schema, the ask (JSON mode also needs the word "JSON" in the messages).
fn json_note(request: &ModelRequest) -> Option<String> {
    match &request.response_schema {
        Some(schema) => {
            let pretty = serde_json::to_string_pretty(schema).unwrap_or_default();
            let stated = request.system.contains(&pretty)
                || request.messages.iter().any(|m| m.content.contains(&pretty));
            (!stated).then(|| {
                format!(
                    "Respond with a single JSON value that conforms to this JSON Schema, with no text before or after it:\n\n```json\n{pretty}\n```"
                )
            })
        }
        None => {
            let says_json = std::iter::once(request.system.as_str())
                .chain(request.messages.iter().map(|m| m.content.as_str()))
                .any(|text| text.to_ascii_lowercase().contains("json"));
            (!says_json).then(|| "Respond with a single JSON value and nothing else.".to_owned())
        }
    }
}

/// `json_schema.name`: `[A-Za-z0-9_-]{1,64}`, from the node's id.
fn schema_name(node: &str) -> String {
    let name: String = node
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .take(64)
        .collect();
    if name.is_empty() {
        "output".to_owned()
    } else {
        name
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schema_names_are_what_the_api_accepts() {
        assert_eq!(schema_name("gather"), "gather");
        assert_eq!(schema_name("research.gather step"), "research_gather_step");
        assert_eq!(schema_name(""), "output");
        assert_eq!(schema_name(&"é".repeat(100)).len(), 64);
    }
}
