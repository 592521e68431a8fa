//! The OpenAI-compatible protocol for the Python package's built-in provider: core's sans-IO
//! client (`logicmd::run::openai::Client`) decides what to send and what the answer means; the
//! Python side (`logicmd/openai.py`) moves the bytes. The key lives in the client's `Secret`:
//! it is only ever handed out in the `Authorization` header, is redacted from every failure,
//! and an answer that holds it is refused (`Client::guard`).

use std::sync::{Mutex, MutexGuard, PoisonError};

use logicmd::run::openai::{failure, AfterError, Call, Client, ClientConfig, HttpError, Secret};
use logicmd::run::{Action, ModelFailure, Observation};
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedStr;

use crate::convert::{to_json, typed_arg};

pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_class::<OpenAIProtocol>()?;
    module.add_class::<PreparedCall>()
}

/// One request to send: its body and whether the answer is a stream.
#[pyclass(module = "logicmd._logicmd", frozen)]
pub struct PreparedCall {
    call: Call,
}

#[pymethods]
impl PreparedCall {
    /// The JSON body.
    #[getter]
    fn body(&self) -> &str {
        &self.call.body
    }

    /// The model the body names.
    #[getter]
    fn model(&self) -> &str {
        &self.call.model
    }

    fn __repr__(&self) -> String {
        format!("PreparedCall(model={:?})", self.call.model)
    }
}

/// The protocol's state for one server (whether it refused `response_format`).
#[pyclass(module = "logicmd._logicmd")]
pub struct OpenAIProtocol {
    client: Mutex<Client>,
}

impl OpenAIProtocol {
    fn client(&self) -> MutexGuard<'_, Client> {
        self.client.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A failure as the observation to feed, with the key redacted.
    fn failed(&self, failure: ModelFailure) -> PyResult<String> {
        to_json(&self.client().guard(Observation::ModelError(failure)))
    }
}

#[pymethods]
impl OpenAIProtocol {
    /// `model`: the model to ask when the document names none (or always, with
    /// `model_overrides_document`); `api_key`: sent as a bearer token (None: no header). Whole
    /// answers only (the transport reads one JSON body).
    #[new]
    #[pyo3(signature = (model=None, model_overrides_document=false, api_key=None))]
    fn new(
        model: Option<String>,
        model_overrides_document: bool,
        api_key: Option<String>,
    ) -> OpenAIProtocol {
        OpenAIProtocol {
            client: Mutex::new(Client::new(ClientConfig {
                model,
                model_overrides_document,
                stream: false,
                api_key: api_key.and_then(Secret::new),
            })),
        }
    }

    /// The request for a `call_model` action (JSON): `(call, None)`, or `(None, failure)` with
    /// the observation to feed (no model configured, not a model call).
    fn prepare(&self, action: PyBackedStr) -> PyResult<(Option<PreparedCall>, Option<String>)> {
        let action: Action = typed_arg(&action, "not an action")?;
        let call = self.client().call(&action);
        match call {
            Ok(call) => Ok((Some(PreparedCall { call }), None)),
            Err(failure) => Ok((None, Some(self.failed(failure)?))),
        }
    }

    /// The request headers, the key (when there is one) as a bearer token: for the transport
    /// only, never to be shown.
    fn headers(&self, call: &PreparedCall) -> Vec<(&'static str, String)> {
        self.client().headers(&call.call)
    }

    /// The observation for a 2xx answer's body, which took `latency_ms`.
    fn completion(&self, body: &[u8], latency_ms: u64) -> PyResult<String> {
        let client = self.client();
        let observation = match client.completion(body) {
            Ok(completion) => completion.observation(latency_ms),
            Err(failure) => Observation::ModelError(failure),
        };
        to_json(&client.guard(observation))
    }

    /// What an HTTP error status means for `call`: `None` to send it again (the server refused
    /// `response_format`; `prepare` now leaves it out), else the failure to feed.
    #[pyo3(signature = (call, status, body, retry_after=None, retry_after_ms=None, now_ms=None))]
    fn http_error(
        &self,
        call: &PreparedCall,
        status: u16,
        body: &[u8],
        retry_after: Option<PyBackedStr>,
        retry_after_ms: Option<PyBackedStr>,
        now_ms: Option<u64>,
    ) -> PyResult<Option<String>> {
        let error = HttpError {
            status,
            retry_after: retry_after.as_deref(),
            retry_after_ms: retry_after_ms.as_deref(),
            body,
        };
        let after = self.client().http_error(&call.call, &error, now_ms);
        match after {
            AfterError::RetryWithoutFormat => Ok(None),
            AfterError::Fail(failure) => self.failed(failure).map(Some),
        }
    }

    /// The failure of a call that got no answer: `timeout` (after `limit_ms`), `connection`
    /// (`detail` says what happened), or `invalid` (an answer that is not one).
    #[pyo3(signature = (kind, detail, limit_ms=0))]
    fn no_answer(&self, kind: &str, detail: &str, limit_ms: u64) -> PyResult<String> {
        let failure = match kind {
            "timeout" => failure::timeout(limit_ms),
            "connection" => failure::connection(detail, true),
            _ => failure::invalid_response(detail),
        };
        self.failed(failure)
    }

    /// `text` without the key.
    fn redact(&self, text: &str) -> String {
        self.client().redact(text)
    }

    fn __repr__(&self) -> String {
        let client = self.client();
        let config = client.config();
        format!(
            "OpenAIProtocol(model={:?}, api_key={})",
            config.model,
            if config.api_key.is_some() {
                "'[redacted]'"
            } else {
                "None"
            }
        )
    }
}
