//! The OpenAI-compatible provider's transport: core's protocol (`logicmd::run::openai`) over
//! blocking HTTP/1.1 (ureq with rustls). One request per `CallModel` action (two when the
//! server refuses `response_format`), read as a stream of server-sent events whose deltas go
//! to `on_token`, or as one JSON body; the action's `timeout_ms` (the step's `timeout`) or the
//! configured default bounds the whole exchange; the latency is measured around it.

use std::io::Read;
use std::path::Path;
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use logicmd::run::openai::{
    failure, AfterError, Call, Client, ClientConfig, Completion, HttpError,
};
use logicmd::run::{Action, ActionKind, Answer, ModelFailure, Observation, Provider};

use super::settings::{shown_url, Resolved, Settings};

/// The most of an error body read (its message is all we need).
const ERROR_BODY_LIMIT: u64 = 64 * 1024;
/// The most of a whole (not streamed) answer read.
const ANSWER_LIMIT: u64 = 16 * 1024 * 1024;
/// How much a streamed read asks for at once.
const READ_CHUNK: usize = 8 * 1024;

/// Answers model calls from an OpenAI-compatible server; several at once from several threads
/// (the protocol's state, whether the server refused `response_format`, is shared by them).
#[derive(Debug)]
pub struct OpenAiProvider {
    agent: ureq::Agent,
    /// `{base}/chat/completions`.
    endpoint: String,
    /// The base URL as messages show it (no user or password).
    shown_base: String,
    client: Mutex<Client>,
    default_timeout_ms: u64,
}

/// How one HTTP exchange ended.
enum Exchange {
    Answered(Completion),
    Failed(ModelFailure),
    HttpError {
        status: u16,
        retry_after: Option<String>,
        retry_after_ms: Option<String>,
        body: Vec<u8>,
    },
}

impl OpenAiProvider {
    /// The provider `settings` describe, completed from the environment and the nearest
    /// logicmd.toml above `document` (`None`: standard input, the working directory).
    pub fn from_settings(
        settings: &Settings,
        document: Option<&Path>,
    ) -> Result<OpenAiProvider, String> {
        let resolved = settings.resolve(document, &|name| std::env::var(name).ok())?;
        Ok(OpenAiProvider::new(resolved))
    }

    pub fn new(resolved: Resolved) -> OpenAiProvider {
        let config = ureq::Agent::config_builder()
            // Statuses are answers the protocol reads, not transport errors.
            .http_status_as_error(false)
            // A POST is not re-sent elsewhere: a redirect is reported.
            .max_redirects(0)
            .max_redirects_will_error(false)
            .build();
        OpenAiProvider {
            agent: config.into(),
            endpoint: format!("{}/chat/completions", resolved.base_url),
            shown_base: shown_url(&resolved.base_url),
            client: Mutex::new(Client::new(ClientConfig {
                model: resolved.model,
                model_overrides_document: resolved.model_overrides_document,
                stream: resolved.stream,
                api_key: resolved.api_key,
            })),
            default_timeout_ms: resolved.timeout_ms,
        }
    }

    /// The protocol's state (never poisoned for good: a panic elsewhere leaves it usable).
    fn client(&self) -> std::sync::MutexGuard<'_, Client> {
        self.client.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Carries out a model call (any other action is not this provider's): the answer, or the
    /// failure the step's policy reacts to, with the key in no failure message and an answer
    /// that holds the key refused (the protocol's `guard`).
    pub fn call(&self, action: &Action, on_token: &mut dyn FnMut(&str)) -> Option<Observation> {
        let ActionKind::CallModel { timeout_ms, .. } = &action.kind else {
            return None;
        };
        let timeout_ms = timeout_ms.unwrap_or(self.default_timeout_ms).max(1);
        let observation = self.call_model(action, timeout_ms, on_token);
        // The one gate before the engine and its trace: nothing leaves with the key.
        Some(self.client().guard(observation))
    }

    /// Carries out one model call: an answer or a failure, never a panic.
    fn call_model(
        &self,
        action: &Action,
        timeout_ms: u64,
        on_token: &mut dyn FnMut(&str),
    ) -> Observation {
        let started = Instant::now();
        let deadline = Duration::from_millis(timeout_ms);
        // Two rounds at most: the second only after the server refused `response_format`.
        for _ in 0..2 {
            let call = self.client().call(action);
            let call = match call {
                Ok(call) => call,
                Err(failure) => return Observation::ModelError(failure),
            };
            let Some(left) = deadline.checked_sub(started.elapsed()) else {
                return Observation::ModelError(failure::timeout(timeout_ms));
            };
            let exchange = self.exchange(&call, left, timeout_ms, on_token);
            let latency_ms = started.elapsed().as_millis().min(u128::from(u64::MAX)) as u64;
            match exchange {
                Exchange::Answered(completion) => return completion.observation(latency_ms),
                Exchange::Failed(failure) => return Observation::ModelError(failure),
                Exchange::HttpError {
                    status,
                    retry_after,
                    retry_after_ms,
                    body,
                } => {
                    let error = HttpError {
                        status,
                        retry_after: retry_after.as_deref(),
                        retry_after_ms: retry_after_ms.as_deref(),
                        body: &body,
                    };
                    let after = self.client().http_error(&call, &error, now_unix_ms());
                    match after {
                        AfterError::RetryWithoutFormat => continue,
                        AfterError::Fail(failure) => return Observation::ModelError(failure),
                    }
                }
            }
        }
        Observation::ModelError(failure::invalid_response(
            "the server refused the request with and without `response_format`",
        ))
    }

    /// One request and its response.
    fn exchange(
        &self,
        call: &Call,
        left: Duration,
        timeout_ms: u64,
        on_token: &mut dyn FnMut(&str),
    ) -> Exchange {
        let mut request = self.agent.post(&self.endpoint);
        let headers = self.client().headers(call);
        for (name, value) in headers {
            request = request.header(name, value);
        }
        let sent = request
            .config()
            .timeout_global(Some(left))
            .build()
            .send(call.body.as_bytes());
        let mut response = match sent {
            Ok(response) => response,
            Err(error) => return Exchange::Failed(self.transport_failure(error, timeout_ms)),
        };
        let status = response.status().as_u16();
        let header = |name: &str| {
            response
                .headers()
                .get(name)
                .and_then(|v| v.to_str().ok())
                .map(str::to_owned)
        };
        let (retry_after, retry_after_ms) = (header("retry-after"), header("retry-after-ms"));
        let is_json = header("content-type").is_some_and(|t| t.contains("application/json"));
        let mut reader = response.body_mut().as_reader();
        if !(200..300).contains(&status) {
            let mut body = Vec::new();
            // What arrived is enough for the message, even when the rest does not come.
            let _ = (&mut reader).take(ERROR_BODY_LIMIT).read_to_end(&mut body);
            return Exchange::HttpError {
                status,
                retry_after,
                retry_after_ms,
                body,
            };
        }
        if call.stream && !is_json {
            self.read_stream(&mut reader, timeout_ms, on_token)
        } else {
            self.read_whole(&mut reader, timeout_ms)
        }
    }

    fn read_stream(
        &self,
        reader: &mut impl Read,
        timeout_ms: u64,
        on_token: &mut dyn FnMut(&str),
    ) -> Exchange {
        let mut parser = self.client().stream();
        let mut buffer = vec![0; READ_CHUNK];
        let mut received = 0usize;
        loop {
            match reader.read(&mut buffer) {
                Ok(0) => break,
                Ok(n) => {
                    received += n;
                    match parser.push(&buffer[..n]) {
                        Ok(deltas) => deltas.iter().for_each(|d| on_token(d)),
                        Err(failure) => return Exchange::Failed(failure),
                    }
                    if parser.is_done() {
                        // Read the response to its end (servers end it right after `[DONE]`)
                        // so the connection is kept for the next call: no new handshake.
                        // The answer is complete: what follows cannot spoil it.
                        let _ =
                            std::io::copy(&mut reader.take(ERROR_BODY_LIMIT), &mut std::io::sink());
                        break;
                    }
                }
                Err(error) => {
                    return Exchange::Failed(self.read_failure(error, timeout_ms, received, true))
                }
            }
        }
        if let Some(rest) = parser.flush_withheld() {
            on_token(&rest);
        }
        match parser.finish() {
            Ok(completion) => Exchange::Answered(completion),
            Err(failure) => Exchange::Failed(failure),
        }
    }

    fn read_whole(&self, reader: &mut impl Read, timeout_ms: u64) -> Exchange {
        let mut body = Vec::new();
        if let Err(error) = reader.take(ANSWER_LIMIT + 1).read_to_end(&mut body) {
            return Exchange::Failed(self.read_failure(error, timeout_ms, body.len(), false));
        }
        if body.len() as u64 > ANSWER_LIMIT {
            return Exchange::Failed(failure::invalid_response(&format!(
                "the answer is over the {} MiB limit",
                ANSWER_LIMIT >> 20
            )));
        }
        let completion = self.client().completion(&body);
        match completion {
            Ok(completion) => Exchange::Answered(completion),
            Err(failure) => Exchange::Failed(failure),
        }
    }

    /// A request that got no response.
    fn transport_failure(&self, error: ureq::Error, timeout_ms: u64) -> ModelFailure {
        let base = &self.shown_base;
        match error {
            ureq::Error::Timeout(_) => failure::timeout(timeout_ms),
            ureq::Error::Io(io) => match io.kind() {
                std::io::ErrorKind::TimedOut => failure::timeout(timeout_ms),
                std::io::ErrorKind::ConnectionRefused => failure::connection(
                    &format!(
                        "could not connect to {base}: connection refused (is the server running?)"
                    ),
                    true,
                ),
                std::io::ErrorKind::ConnectionReset
                | std::io::ErrorKind::ConnectionAborted
                | std::io::ErrorKind::UnexpectedEof
                | std::io::ErrorKind::BrokenPipe => failure::connection(
                    &format!("{base} closed the connection before answering ({io})"),
                    true,
                ),
                _ => failure::connection(&format!("could not reach {base}: {io}"), true),
            },
            ureq::Error::HostNotFound => {
                failure::connection(&format!("could not find the host of {base}"), true)
            }
            ureq::Error::ConnectionFailed => {
                failure::connection(&format!("could not connect to {base}"), true)
            }
            ureq::Error::BadUri(detail) => ModelFailure {
                kind: failure::kind::BAD_REQUEST.to_owned(),
                message: format!("the base URL {base} is not a valid URL: {detail}"),
                retryable: false,
                retry_after_ms: None,
            },
            error @ (ureq::Error::Tls(_) | ureq::Error::Rustls(_) | ureq::Error::Pem(_)) => {
                failure::connection(&format!("TLS with {base} failed: {error}"), false)
            }
            ureq::Error::Protocol(error) => {
                failure::invalid_response(&format!("{base} did not answer in HTTP/1.1: {error}"))
            }
            other => failure::connection(&format!("the request to {base} failed: {other}"), true),
        }
    }

    /// A response whose body broke off after `received` bytes.
    fn read_failure(
        &self,
        error: std::io::Error,
        timeout_ms: u64,
        received: usize,
        streaming: bool,
    ) -> ModelFailure {
        match ureq::Error::from(error) {
            ureq::Error::Timeout(_) => failure::timeout(timeout_ms),
            ureq::Error::Io(io) if io.kind() == std::io::ErrorKind::TimedOut => {
                failure::timeout(timeout_ms)
            }
            other if streaming => failure::stream_interrupted(&format!(
                "the stream from {} broke off after {received} bytes ({other})",
                self.shown_base
            )),
            other => failure::connection(
                &format!(
                    "the answer from {} broke off after {received} bytes ({other})",
                    self.shown_base
                ),
                true,
            ),
        }
    }
}

impl Provider for OpenAiProvider {
    fn answer(&mut self, action: &Action, on_token: &mut dyn FnMut(&str)) -> Answer {
        if let Some(observation) = self.call(action, on_token) {
            return Answer::Observed(observation);
        }
        Answer::Unanswered(format!(
            "the OpenAI-compatible provider answers model calls only, not `{}`",
            match &action.kind {
                ActionKind::CallTool { name, .. } => format!("tool {name}"),
                ActionKind::AskReview { node, .. } => format!("review at {node}"),
                ActionKind::Wait { node, ms } => format!("a wait of {ms} ms at {node}"),
                _ => "the run's ending".to_owned(),
            }
        ))
    }
}

fn now_unix_ms() -> Option<u64> {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .ok()
        .map(|d| d.as_millis().min(u128::from(u64::MAX)) as u64)
}
