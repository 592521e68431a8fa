//! The OpenAI-compatible chat completions protocol (OpenAI, Ollama, llama.cpp server, vLLM,
//! LM Studio), sans-IO: what to send for a `CallModel` action, and what the server's answer
//! means — a completion, or a [`ModelFailure`] the document's retry policy reacts to. The
//! transport (the CLI's blocking HTTP client, the studio's `fetch`) moves the bytes:
//!
//! ```text
//! client.call(action) ──► Call { body, stream } ──► POST {base}/chat/completions with client.headers(call)
//!   2xx JSON  ──► client.completion(bytes)                    ──► Completion ──► observation(latency)
//!   2xx SSE   ──► parser = client.stream(); parser.push(chunk)… ──► deltas (tokens); parser.finish()
//!   error     ──► client.http_error(call, status, headers, body) ──► RetryWithoutFormat | Fail(ModelFailure)
//!   no answer ──► failure::timeout / connection / stream_interrupted
//! ```
//!
//! The API key lives in a [`Secret`]: it goes into the `Authorization` header, is redacted from
//! every failure the client composes, and an answer that holds it is refused
//! ([`Client::guard`]); a model's answer is never altered.

mod body;
mod completion;
pub mod failure;
mod http_date;
mod secret;
mod serving;
mod sse;
mod strict;

use super::action::{Action, ActionKind, ModelFailure, Observation};

pub use body::ResponseFormat;
pub use completion::{parse_completion, Completion};
pub use failure::{classify_status, HttpError};
pub use http_date::{parse_http_date, retry_after_ms, MAX_RETRY_AFTER_MS};
pub use secret::{Secret, PLACEHOLDER_BELOW, REDACTED};
pub use serving::{provider_of_host, provider_of_model, serving};
pub use sse::StreamParser;
pub use strict::strict_schema;

/// What the client is told once.
#[derive(Debug, Clone, Default)]
pub struct ClientConfig {
    /// The model to ask when the document names none (or always, with
    /// `model_overrides_document`).
    pub model: Option<String>,
    /// `model` wins over a `model` the document names (the user chose it for this run).
    pub model_overrides_document: bool,
    /// Ask for a streamed answer (server-sent events).
    pub stream: bool,
    /// The API key, sent as `Authorization: Bearer`; redacted from any error that could echo it,
    /// and an answer holding it is refused. `None` sends no `Authorization` header (a local
    /// server).
    pub api_key: Option<Secret>,
}

/// One request to make.
#[derive(Debug, Clone, PartialEq)]
pub struct Call {
    /// The JSON body.
    pub body: String,
    /// Whether to read the answer as a stream ([`StreamParser`]) or whole ([`parse_completion`]).
    pub stream: bool,
    /// How the body asks for the answer's shape (a strict JSON Schema, JSON mode, or free text).
    pub format: ResponseFormat,
    /// The model the body names.
    pub model: String,
}

/// What to do after an HTTP error.
#[derive(Debug, Clone, PartialEq)]
pub enum AfterError {
    /// The server refused `response_format`: build the call again (it now asks for JSON in the
    /// prompt only) and send it once more. Happens at most once per client.
    RetryWithoutFormat,
    /// Give up on this call with this failure; feed it to the run as
    /// [`crate::run::Observation::ModelError`].
    Fail(ModelFailure),
}

/// The protocol's state for one server: its configuration, and whether the server refused
/// `response_format` (then no later request sends it).
#[derive(Debug, Clone)]
pub struct Client {
    config: ClientConfig,
    format_refused: bool,
}

impl Client {
    /// A client for one server, nothing refused yet.
    pub fn new(config: ClientConfig) -> Client {
        Client {
            config,
            format_refused: false,
        }
    }

    /// The configuration it was made with.
    pub fn config(&self) -> &ClientConfig {
        &self.config
    }

    /// The request for a `CallModel` action.
    pub fn call(&self, action: &Action) -> Result<Call, ModelFailure> {
        let ActionKind::CallModel { node, request, .. } = &action.kind else {
            return Err(failure::invalid_response(
                "only model calls are sent to a chat completions server",
            ));
        };
        let model = match (&self.config.model, &request.model) {
            (Some(model), _) if self.config.model_overrides_document => model,
            (_, Some(model)) => model,
            (Some(model), None) => model,
            (None, None) => {
                return Err(ModelFailure {
                    kind: failure::kind::BAD_REQUEST.to_owned(),
                    message: format!(
                    "no model to ask for `{node}`: the document names none and none is configured"
                ),
                    retryable: false,
                    retry_after_ms: None,
                })
            }
        };
        let (body, format) = body::chat_body(
            request,
            &body::BodyOptions {
                model,
                stream: self.config.stream,
                format_refused: self.format_refused,
                node,
            },
        );
        Ok(Call {
            body: body.to_string(),
            stream: self.config.stream,
            format,
            model: model.clone(),
        })
    }

    /// The request headers (the key, when there is one, as a bearer token).
    pub fn headers(&self, call: &Call) -> Vec<(&'static str, String)> {
        let mut headers = vec![
            ("Content-Type", "application/json".to_owned()),
            (
                "Accept",
                if call.stream {
                    "text/event-stream"
                } else {
                    "application/json"
                }
                .to_owned(),
            ),
        ];
        if let Some(key) = &self.config.api_key {
            headers.push(("Authorization", format!("Bearer {}", key.expose())));
        }
        headers
    }

    /// Reads a whole (not streamed) answer.
    pub fn completion(&self, body: &[u8]) -> Result<Completion, ModelFailure> {
        parse_completion(body, self.config.api_key.as_ref())
    }

    /// A reader for a streamed answer.
    pub fn stream(&self) -> StreamParser {
        StreamParser::new(self.config.api_key.clone())
    }

    /// What an HTTP error means for `call`. A 400 or 422 about `response_format` to a call that
    /// sent one is answered with [`AfterError::RetryWithoutFormat`], once: from then on every
    /// call asks for JSON in the prompt only.
    pub fn http_error(
        &mut self,
        call: &Call,
        error: &HttpError<'_>,
        now_unix_ms: Option<u64>,
    ) -> AfterError {
        let sent_format = matches!(
            call.format,
            ResponseFormat::JsonSchema | ResponseFormat::JsonObject
        );
        if sent_format && !self.format_refused && refuses_format(error) {
            self.format_refused = true;
            return AfterError::RetryWithoutFormat;
        }
        AfterError::Fail(classify_status(
            error,
            now_unix_ms,
            self.config.api_key.as_ref(),
        ))
    }

    /// Whether the server refused `response_format` (and calls now go without it).
    pub fn format_refused(&self) -> bool {
        self.format_refused
    }

    /// Keeps what a copy of this client learned about the server during a call (concurrent
    /// calls each work on a copy): a refused `response_format` stays refused.
    pub fn learn_from(&mut self, copy: &Client) {
        self.format_refused |= copy.format_refused;
    }

    /// `text` without the key.
    pub fn redact(&self, text: &str) -> String {
        secret::redact(self.config.api_key.as_ref(), text)
    }

    /// `observation` fit for the engine and its trace, which the key must never reach: a failure
    /// message has the key redacted; a model's answer is never altered, so an answer that holds
    /// a real key (a server echoing it) is not recorded at all — it becomes a failed call
    /// (`InvalidResponse`, retryable) that says why. The last gate before the engine.
    pub fn guard(&self, observation: Observation) -> Observation {
        match observation {
            Observation::ModelResponse { text, .. }
                if self
                    .config
                    .api_key
                    .as_ref()
                    .is_some_and(|key| key.appears_in(&text)) =>
            {
                Observation::ModelError(failure::invalid_response(
                    "the answer holds the API key, so it is not recorded (logicmd writes the key \
                     nowhere, and never alters an answer)",
                ))
            }
            Observation::ModelError(mut failure) => {
                failure.message = self.redact(&failure.message);
                Observation::ModelError(failure)
            }
            other => other,
        }
    }
}

/// A 400 or 422 whose message is about the response format (LM Studio: "'response_format.type'
/// must be 'json_schema' or 'text'"; llama.cpp: "response_format type must be one of ...";
/// OpenAI: "Invalid schema for response_format ..."; "json_schema is not supported").
fn refuses_format(error: &HttpError<'_>) -> bool {
    if !matches!(error.status, 400 | 422) {
        return false;
    }
    let body = String::from_utf8_lossy(error.body).to_ascii_lowercase();
    [
        "response_format",
        "json_schema",
        "json_object",
        "structured output",
    ]
    .iter()
    .any(|needle| body.contains(needle))
}

#[cfg(test)]
mod tests;
