//! Why a call failed, as the [`ModelFailure`] a document's retry policy reacts to: the kind
//! names what `retry.non_retryable_errors` lists (the OpenAI SDKs' error names), `retryable`
//! says whether trying again may help, `retry_after_ms` carries the server's `Retry-After`.
//! Messages name the server's own words (from its JSON error body) and never the API key.

use serde_json::Value;

use super::http_date;
use super::secret::{redact, Secret};
use crate::run::action::ModelFailure;

/// The error kinds this provider reports.
pub mod kind {
    /// No complete answer within the time limit (or HTTP 408).
    pub const TIMEOUT: &str = "Timeout";
    /// The server could not be reached, or dropped the connection before answering.
    pub const CONNECTION: &str = "ConnectionError";
    /// HTTP 429.
    pub const RATE_LIMIT: &str = "RateLimitError";
    /// HTTP 5xx.
    pub const SERVER: &str = "ServerError";
    /// HTTP 401.
    pub const AUTHENTICATION: &str = "AuthenticationError";
    /// HTTP 403.
    pub const PERMISSION_DENIED: &str = "PermissionDeniedError";
    /// HTTP 404 (a wrong base URL or model name).
    pub const NOT_FOUND: &str = "NotFoundError";
    /// HTTP 409.
    pub const CONFLICT: &str = "ConflictError";
    /// HTTP 400, 422 and any other 4xx: the request itself is wrong.
    pub const BAD_REQUEST: &str = "BadRequestError";
    /// A body that is not what the protocol promises (not JSON, no `choices`, an event that
    /// does not parse), or an answer the server should not give (a redirect).
    pub const INVALID_RESPONSE: &str = "InvalidResponse";
    /// A stream that ended before `[DONE]` or without a finish reason.
    pub const STREAM_INTERRUPTED: &str = "StreamInterrupted";
}

/// The parts of an HTTP error response that decide the failure.
#[derive(Debug, Clone, Copy)]
pub struct HttpError<'a> {
    /// The HTTP status code.
    pub status: u16,
    /// The `Retry-After` header.
    pub retry_after: Option<&'a str>,
    /// The `retry-after-ms` header (OpenAI's, more precise).
    pub retry_after_ms: Option<&'a str>,
    /// The body (or as much of it as was read).
    pub body: &'a [u8],
}

fn failure(kind: &str, message: String, retryable: bool) -> ModelFailure {
    ModelFailure {
        kind: kind.to_owned(),
        message,
        retryable,
        retry_after_ms: None,
    }
}

/// The failure an HTTP error status stands for; `now_unix_ms` turns a `Retry-After` date into
/// a wait.
pub fn classify_status(
    error: &HttpError<'_>,
    now_unix_ms: Option<u64>,
    secret: Option<&Secret>,
) -> ModelFailure {
    let detail = ErrorBody::read(error.body);
    let (kind, retryable) = match error.status {
        401 => (kind::AUTHENTICATION, false),
        403 => (kind::PERMISSION_DENIED, false),
        404 => (kind::NOT_FOUND, false),
        408 => (kind::TIMEOUT, true),
        409 => (kind::CONFLICT, true),
        // An exhausted quota is not a rate: waiting does not refill it.
        429 => (
            kind::RATE_LIMIT,
            detail.code.as_deref() != Some("insufficient_quota"),
        ),
        400..=499 => (kind::BAD_REQUEST, false),
        500..=599 => (kind::SERVER, true),
        300..=399 => (kind::INVALID_RESPONSE, false),
        _ => (kind::INVALID_RESPONSE, true),
    };
    let mut message = format!("HTTP {}", error.status);
    if let Some(reason) = reason_phrase(error.status) {
        message.push(' ');
        message.push_str(reason);
    }
    match &detail.message {
        Some(said) => {
            message.push_str(": ");
            message.push_str(said);
        }
        None if (300..400).contains(&error.status) => message.push_str(
            ": the server redirected the request; give the final address as the base URL",
        ),
        None => {}
    }
    let mut failure = failure(kind, redact(secret, &message), retryable);
    failure.retry_after_ms = error
        .retry_after_ms
        .and_then(http_date::retry_after_ms_header)
        .or_else(|| {
            error
                .retry_after
                .and_then(|v| http_date::retry_after_ms(v, now_unix_ms))
        });
    failure
}

/// The failure an `error` object inside a 200 body or a stream event stands for.
pub fn from_error_object(error: &Value, secret: Option<&Secret>) -> ModelFailure {
    let detail = ErrorBody::from_value(&serde_json::json!({ "error": error }));
    let label = detail
        .kind
        .clone()
        .or_else(|| detail.code.clone())
        .unwrap_or_default();
    let (kind, retryable) = if label.contains("rate_limit") {
        (kind::RATE_LIMIT, true)
    } else if label.contains("invalid_request") || label.contains("bad_request") {
        (kind::BAD_REQUEST, false)
    } else if label.contains("authentication") {
        (kind::AUTHENTICATION, false)
    } else {
        (kind::SERVER, true)
    };
    let said = detail
        .message
        .unwrap_or_else(|| "the server reported an error without a message".to_owned());
    failure(
        kind,
        redact(secret, &format!("the server reported an error: {said}")),
        retryable,
    )
}

/// No complete answer within `limit_ms`.
pub fn timeout(limit_ms: u64) -> ModelFailure {
    failure(
        kind::TIMEOUT,
        format!("no complete answer within {}", duration_text(limit_ms)),
        true,
    )
}

/// The server could not be reached or dropped the connection (`detail` says how); `retryable`
/// is false where trying again cannot help (a TLS certificate the client refuses).
pub fn connection(detail: &str, retryable: bool) -> ModelFailure {
    failure(kind::CONNECTION, detail.to_owned(), retryable)
}

/// A stream that broke off.
pub fn stream_interrupted(detail: &str) -> ModelFailure {
    failure(kind::STREAM_INTERRUPTED, detail.to_owned(), true)
}

/// A body that does not follow the protocol. Retryable: a gateway's error page or a body cut
/// short is usually transient, and the retry policy bounds the attempts (a document can list
/// `InvalidResponse` in `non_retryable_errors`).
pub fn invalid_response(detail: &str) -> ModelFailure {
    failure(kind::INVALID_RESPONSE, detail.to_owned(), true)
}

/// `1500` → `1.5s`, `60000` → `60s`, `250` → `250ms`.
fn duration_text(ms: u64) -> String {
    if ms < 1_000 {
        format!("{ms}ms")
    } else if ms % 1_000 == 0 {
        format!("{}s", ms / 1_000)
    } else {
        let fraction = format!("{:03}", ms % 1_000);
        format!("{}.{}s", ms / 1_000, fraction.trim_end_matches('0'))
    }
}

fn reason_phrase(status: u16) -> Option<&'static str> {
    Some(match status {
        400 => "Bad Request",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        409 => "Conflict",
        413 => "Content Too Large",
        415 => "Unsupported Media Type",
        422 => "Unprocessable Content",
        429 => "Too Many Requests",
        500 => "Internal Server Error",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        504 => "Gateway Timeout",
        _ => return None,
    })
}

/// What an error body says, in the shapes compatible servers use: OpenAI, llama.cpp and LM
/// Studio `{"error": {"message", "type", "code"}}`, Ollama's native `{"error": "text"}`, vLLM
/// `{"message", "type", "code"}`, FastAPI `{"detail": ...}`; else the body's own text.
#[derive(Debug, Default)]
struct ErrorBody {
    message: Option<String>,
    kind: Option<String>,
    code: Option<String>,
}

/// The most of a server's text a message quotes.
const QUOTE_LIMIT: usize = 300;

impl ErrorBody {
    fn read(body: &[u8]) -> ErrorBody {
        match serde_json::from_slice::<Value>(body) {
            Ok(value) => ErrorBody::from_value(&value),
            Err(_) => ErrorBody {
                message: quote(&String::from_utf8_lossy(body)),
                ..ErrorBody::default()
            },
        }
    }

    fn from_value(value: &Value) -> ErrorBody {
        let text = |v: Option<&Value>| -> Option<String> {
            match v? {
                Value::String(s) => quote(s),
                Value::Null => None,
                Value::Number(n) => Some(n.to_string()),
                other => quote(&other.to_string()),
            }
        };
        let error = value.get("error");
        let inner = error.filter(|e| e.is_object()).unwrap_or(value);
        let message = match error {
            Some(Value::String(s)) => quote(s),
            _ => text(inner.get("message")).or_else(|| text(inner.get("detail"))),
        }
        .or_else(|| quote(&value.to_string()).filter(|_| !value.is_null()));
        ErrorBody {
            message,
            kind: text(inner.get("type")),
            code: text(inner.get("code")),
        }
    }
}

/// `text` on one line, at most [`QUOTE_LIMIT`] characters; `None` when blank.
fn quote(text: &str) -> Option<String> {
    let line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if line.is_empty() {
        return None;
    }
    if line.chars().count() <= QUOTE_LIMIT {
        return Some(line);
    }
    let cut: String = line.chars().take(QUOTE_LIMIT).collect();
    Some(format!("{cut}…"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn status(status: u16, body: &str) -> ModelFailure {
        classify_status(
            &HttpError {
                status,
                retry_after: None,
                retry_after_ms: None,
                body: body.as_bytes(),
            },
            None,
            None,
        )
    }

    #[test]
    fn every_status_class_has_its_kind_and_retryability() {
        let table: Vec<(u16, String, bool)> = [
            400, 401, 403, 404, 408, 409, 413, 422, 429, 500, 502, 503, 504, 301, 101,
        ]
        .into_iter()
        .map(|code| {
            let f = status(code, "");
            (code, f.kind, f.retryable)
        })
        .collect();
        let table: Vec<(u16, &str, bool)> = table
            .iter()
            .map(|(code, kind, retryable)| (*code, kind.as_str(), *retryable))
            .collect();
        assert_eq!(
            table,
            [
                (400, "BadRequestError", false),
                (401, "AuthenticationError", false),
                (403, "PermissionDeniedError", false),
                (404, "NotFoundError", false),
                (408, "Timeout", true),
                (409, "ConflictError", true),
                (413, "BadRequestError", false),
                (422, "BadRequestError", false),
                (429, "RateLimitError", true),
                (500, "ServerError", true),
                (502, "ServerError", true),
                (503, "ServerError", true),
                (504, "ServerError", true),
                (301, "InvalidResponse", false),
                (101, "InvalidResponse", true),
            ]
        );
    }

    #[test]
    fn messages_quote_the_server_in_each_error_shape() {
        let cases = [
            (
                r#"{"error": {"message": "Invalid model", "type": "invalid_request_error"}}"#,
                "HTTP 400 Bad Request: Invalid model",
            ),
            (
                r#"{"error": "model 'x' not found"}"#,
                "HTTP 400 Bad Request: model 'x' not found",
            ),
            (
                r#"{"object": "error", "message": "max_tokens too large", "code": 400}"#,
                "HTTP 400 Bad Request: max_tokens too large",
            ),
            (
                r#"{"detail": [{"loc": ["body"], "msg": "field required"}]}"#,
                r#"HTTP 400 Bad Request: [{"loc":["body"],"msg":"field required"}]"#,
            ),
            (
                "<html>\n<b>Bad   gateway</b></html>",
                "HTTP 400 Bad Request: <html> <b>Bad gateway</b></html>",
            ),
            ("", "HTTP 400 Bad Request"),
            ("{}", "HTTP 400 Bad Request: {}"),
        ];
        for (body, expected) in cases {
            assert_eq!(status(400, body).message, expected, "{body}");
        }
        let long = "x".repeat(1_000);
        assert_eq!(
            status(500, &long).message.chars().count(),
            "HTTP 500 Internal Server Error: ".len() + QUOTE_LIMIT + 1
        );
    }

    #[test]
    fn an_exhausted_quota_is_not_retried() {
        let f = status(
            429,
            r#"{"error": {"message": "You exceeded your current quota", "code": "insufficient_quota"}}"#,
        );
        assert_eq!((f.kind.as_str(), f.retryable), (kind::RATE_LIMIT, false));
    }

    #[test]
    fn retry_after_comes_from_either_header() {
        let with = |retry_after: Option<&str>, retry_after_ms: Option<&str>| {
            classify_status(
                &HttpError {
                    status: 429,
                    retry_after,
                    retry_after_ms,
                    body: b"",
                },
                Some(784_111_777_000),
                None,
            )
            .retry_after_ms
        };
        assert_eq!(with(Some("3"), None), Some(3_000));
        assert_eq!(
            with(Some("Sun, 06 Nov 1994 08:49:41 GMT"), None),
            Some(4_000)
        );
        assert_eq!(
            with(Some("3"), Some("2500")),
            Some(2_500),
            "the precise header wins"
        );
        assert_eq!(with(Some("later"), None), None);
        assert_eq!(with(None, None), None);
    }

    #[test]
    fn an_echoed_key_is_redacted() {
        let secret = Secret::new("sk-test-SECRET-42").unwrap();
        let f = classify_status(
            &HttpError {
                status: 401,
                retry_after: None,
                retry_after_ms: None,
                body:
                    br#"{"error": {"message": "Incorrect API key provided: sk-test-SECRET-42."}}"#,
            },
            None,
            Some(&secret),
        );
        assert_eq!(
            f.message,
            "HTTP 401 Unauthorized: Incorrect API key provided: [redacted]."
        );
        let f = from_error_object(
            &serde_json::json!({"message": "bad key sk-test-SECRET-42", "type": "authentication_error"}),
            Some(&secret),
        );
        assert_eq!(
            (f.kind.as_str(), f.message.as_str()),
            (
                kind::AUTHENTICATION,
                "the server reported an error: bad key [redacted]"
            )
        );
    }

    #[test]
    fn durations_read_naturally() {
        assert_eq!(timeout(250).message, "no complete answer within 250ms");
        assert_eq!(timeout(60_000).message, "no complete answer within 60s");
        assert_eq!(timeout(1_500).message, "no complete answer within 1.5s");
    }
}
