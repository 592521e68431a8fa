//! A whole (not streamed) chat completion: `choices[0].message.content` and `usage`.

use serde_json::Value;

use super::failure;
use super::secret::{redact, Secret};
use crate::run::action::{ModelFailure, Observation, Served, Usage};

/// An answer, streamed or not.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Completion {
    /// The answer's text (`content`), whole.
    pub text: String,
    /// Token counts, when the server reported them.
    pub usage: Option<Usage>,
    /// `stop`, `length`, `content_filter`, ... as the server said.
    pub finish_reason: Option<String>,
    /// The model the server says answered (`model`).
    pub model: Option<String>,
    /// The server's id of the response (`id`).
    pub id: Option<String>,
}

impl Completion {
    /// What the engine is fed, with what the response says about itself (its model, id and
    /// finish reason).
    pub fn observation(self, latency_ms: u64) -> Observation {
        self.observation_served(latency_ms, Served::default())
    }

    /// What the engine is fed: the response's own facts added to what the driver knows of the
    /// call ([`serving`](super::serving): provider, model asked, server).
    pub fn observation_served(self, latency_ms: u64, serving: Served) -> Observation {
        let served = Served {
            response_model: self.model,
            response_id: self.id,
            finish_reason: self.finish_reason,
            ..serving
        };
        Observation::ModelResponse {
            text: self.text,
            usage: self.usage,
            latency_ms: Some(latency_ms),
            served: (served != Served::default()).then_some(served),
        }
    }
}

/// Reads a completion body. A missing or `null` content is an empty answer (the engine asks
/// again with feedback); a refusal is the answer's text, checked like any other.
pub fn parse_completion(body: &[u8], secret: Option<&Secret>) -> Result<Completion, ModelFailure> {
    let value: Value = serde_json::from_slice(body).map_err(|error| {
        failure::invalid_response(&redact(
            secret,
            &format!(
                "the response is not JSON ({error}): {}",
                excerpt(&String::from_utf8_lossy(body))
            ),
        ))
    })?;
    if let Some(error) = value.get("error").filter(|e| !e.is_null()) {
        return Err(failure::from_error_object(error, secret));
    }
    let Some(choice) = value
        .get("choices")
        .and_then(Value::as_array)
        .and_then(|c| c.first())
    else {
        return Err(failure::invalid_response(&redact(
            secret,
            &format!(
                "the response has no `choices[0]`: {}",
                excerpt(&value.to_string())
            ),
        )));
    };
    let message = choice.get("message");
    let text = message
        .and_then(|m| m.get("content"))
        .and_then(Value::as_str)
        .or_else(|| {
            message
                .and_then(|m| m.get("refusal"))
                .and_then(Value::as_str)
        })
        .unwrap_or_default();
    let field = |key: &str| value.get(key).and_then(Value::as_str).map(str::to_owned);
    Ok(Completion {
        text: text.to_owned(),
        usage: value.get("usage").and_then(usage_of),
        finish_reason: choice
            .get("finish_reason")
            .and_then(Value::as_str)
            .map(str::to_owned),
        model: field("model"),
        id: field("id"),
    })
}

/// `usage` in the chat form (`prompt_tokens`, `completion_tokens`) or the newer one
/// (`input_tokens`, `output_tokens`), with the `cost` servers such as OpenRouter and LiteLLM
/// report; `None` when it has no token counts.
pub(crate) fn usage_of(usage: &Value) -> Option<Usage> {
    let count = |names: [&str; 2]| names.iter().find_map(|n| usage.get(*n)?.as_u64());
    let input = count(["prompt_tokens", "input_tokens"]);
    let output = count(["completion_tokens", "output_tokens"]);
    let cost = usage
        .get("cost")
        .and_then(Value::as_f64)
        .filter(|c| c.is_finite() && *c >= 0.0);
    (input.is_some() || output.is_some()).then_some(Usage {
        input_tokens: input.unwrap_or(0),
        output_tokens: output.unwrap_or(0),
        cost,
    })
}

/// The start of a text, on one line, for a message.
pub(crate) fn excerpt(text: &str) -> String {
    let line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if line.is_empty() {
        return "(empty)".to_owned();
    }
    let cut: String = line.chars().take(120).collect();
    if cut.len() < line.len() {
        format!("`{cut}…`")
    } else {
        format!("`{cut}`")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::openai::failure::kind;

    #[test]
    fn content_usage_and_finish_reason_are_read() {
        let body = br#"{"id":"x","choices":[{"index":0,"message":{"role":"assistant","content":"{\"n\": 1}"},"finish_reason":"stop"}],"usage":{"prompt_tokens":12,"completion_tokens":5,"total_tokens":17,"cost":0.0021}}"#;
        assert_eq!(
            parse_completion(body, None),
            Ok(Completion {
                text: "{\"n\": 1}".into(),
                usage: Some(Usage {
                    input_tokens: 12,
                    output_tokens: 5,
                    // OpenRouter's and LiteLLM's `usage.cost`, read for `max_total_cost`.
                    cost: Some(0.0021),
                }),
                finish_reason: Some("stop".into()),
                model: None,
                id: Some("x".into()),
            })
        );
    }

    #[test]
    fn missing_content_is_an_empty_answer_and_a_refusal_is_text() {
        let null = br#"{"choices":[{"message":{"content":null}}]}"#;
        assert_eq!(parse_completion(null, None).unwrap().text, "");
        let refusal =
            br#"{"choices":[{"message":{"content":null,"refusal":"I can't help with that."}}]}"#;
        assert_eq!(
            parse_completion(refusal, None).unwrap().text,
            "I can't help with that."
        );
    }

    #[test]
    fn malformed_bodies_are_invalid_responses_with_their_start_quoted() {
        let cases: [(&[u8], &str); 5] = [
            (b"<html>oops</html>", "the response is not JSON (expected value at line 1 column 1): `<html>oops</html>`"),
            (b"", "the response is not JSON (EOF while parsing a value at line 1 column 0): (empty)"),
            (b"{\"choices\": [{\"mess", "the response is not JSON (EOF while parsing a string at line 1 column 19): `{\"choices\": [{\"mess`"),
            (b"{\"choices\": []}", "the response has no `choices[0]`: `{\"choices\":[]}`"),
            (b"[1, 2]", "the response has no `choices[0]`: `[1,2]`"),
        ];
        for (body, message) in cases {
            let failure = parse_completion(body, None).unwrap_err();
            assert_eq!(
                (
                    failure.kind.as_str(),
                    failure.message.as_str(),
                    failure.retryable
                ),
                (kind::INVALID_RESPONSE, message, true)
            );
        }
    }

    #[test]
    fn an_error_inside_a_200_is_a_failure() {
        let body = br#"{"error": {"message": "overloaded", "type": "server_error"}}"#;
        let failure = parse_completion(body, None).unwrap_err();
        assert_eq!(
            (failure.kind.as_str(), failure.message.as_str()),
            (kind::SERVER, "the server reported an error: overloaded")
        );
    }
}
