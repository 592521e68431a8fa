//! The OpenAI-compatible provider over the browser's `fetch`, streaming: the core's sans-IO
//! protocol (`logicmd::run::openai`) builds the request and reads the answer; this module only
//! moves the bytes. The key lives in this struct (memory) only: never in storage, the address, a
//! share link or the trace (the core redacts it from every answer before the engine sees it).

use js_sys::Uint8Array;
use logicmd::run::openai::{failure, AfterError, Client, ClientConfig, HttpError, Secret};
use logicmd::run::{Action, Observation};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{ReadableStreamDefaultReader, RequestInit, Response};

use crate::browser;

/// Where to send model calls.
#[derive(Clone)]
pub struct Endpoint {
    /// The part before `/chat/completions` (`http://127.0.0.1:11434/v1` for a local Ollama).
    pub base_url: String,
    pub model: String,
    pub key: Option<String>,
}

impl std::fmt::Debug for Endpoint {
    /// Never prints the key.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Endpoint({} {})", self.base_url, self.model)
    }
}

impl PartialEq for Endpoint {
    fn eq(&self, other: &Self) -> bool {
        self.base_url == other.base_url && self.model == other.model && self.key == other.key
    }
}

impl Eq for Endpoint {}

impl Endpoint {
    pub fn client(&self) -> Client {
        Client::new(ClientConfig {
            model: (!self.model.trim().is_empty()).then(|| self.model.trim().to_owned()),
            model_overrides_document: !self.model.trim().is_empty(),
            stream: true,
            api_key: self.key.clone().and_then(Secret::new),
        })
    }
}

/// Carries out a `CallModel` action: each streamed token goes to `on_token`; the answer (or the
/// failure the document's retry policy reacts to) comes back as an observation, key redacted.
pub async fn call(
    client: &mut Client,
    base_url: &str,
    action: &Action,
    mut on_token: impl FnMut(&str),
) -> Observation {
    let started = browser::now_ms();
    let observation = loop {
        let call = match client.call(action) {
            Ok(call) => call,
            Err(failure) => break Observation::ModelError(failure),
        };
        let url = format!("{}/chat/completions", base_url.trim_end_matches('/'));
        let response = match send(&url, &call.body, &client.headers(&call)).await {
            Ok(response) => response,
            Err(detail) => break Observation::ModelError(failure::connection(&detail, true)),
        };
        if !response.ok() {
            let body = read_all(&response).await.unwrap_or_default();
            let header = |name: &str| response.headers().get(name).ok().flatten();
            let (retry_after, retry_after_ms) = (header("retry-after"), header("retry-after-ms"));
            let error = HttpError {
                status: response.status(),
                retry_after: retry_after.as_deref(),
                retry_after_ms: retry_after_ms.as_deref(),
                body: &body,
            };
            match client.http_error(&call, &error, Some(js_sys::Date::now() as u64)) {
                AfterError::RetryWithoutFormat => continue,
                AfterError::Fail(failure) => break Observation::ModelError(failure),
            }
        }
        let latency = || (browser::now_ms() - started).max(0.0) as u64;
        if !call.stream {
            let body = read_all(&response).await.unwrap_or_default();
            break match client.completion(&body) {
                Ok(completion) => completion.observation(latency()),
                Err(failure) => Observation::ModelError(failure),
            };
        }
        break match stream(client, &response, &mut on_token).await {
            Ok(completion) => completion.observation(latency()),
            Err(failure) => Observation::ModelError(failure),
        };
    };
    client.guard(observation)
}

async fn send(url: &str, body: &str, headers: &[(&str, String)]) -> Result<Response, String> {
    let init = RequestInit::new();
    init.set_method("POST");
    init.set_body(&JsValue::from_str(body));
    let list = web_sys::Headers::new().map_err(describe)?;
    for (name, value) in headers {
        list.set(name, value).map_err(describe)?;
    }
    init.set_headers(&list);
    let window = browser::window().ok_or("no window")?;
    let response = JsFuture::from(window.fetch_with_str_and_init(url, &init))
        .await
        .map_err(|e| {
            format!(
                "{url} did not answer (is it running, and does it allow this page by CORS?): {}",
                describe(e)
            )
        })?;
    response.dyn_into().map_err(describe)
}

/// Reads the server-sent events as they arrive.
async fn stream(
    client: &Client,
    response: &Response,
    on_token: &mut impl FnMut(&str),
) -> Result<logicmd::run::openai::Completion, logicmd::run::ModelFailure> {
    let mut parser = client.stream();
    let body = response
        .body()
        .ok_or_else(|| failure::invalid_response("the answer has no body"))?;
    let reader: ReadableStreamDefaultReader = body
        .get_reader()
        .dyn_into()
        .map_err(|_| failure::invalid_response("the answer's body cannot be read"))?;
    loop {
        let chunk = JsFuture::from(reader.read())
            .await
            .map_err(|e| failure::stream_interrupted(&describe(e)))?;
        let done = js_sys::Reflect::get(&chunk, &"done".into())
            .ok()
            .and_then(|d| d.as_bool())
            .unwrap_or(true);
        if done {
            break;
        }
        let value = js_sys::Reflect::get(&chunk, &"value".into())
            .map_err(|_| failure::invalid_response("an unreadable chunk"))?;
        for delta in parser.push(&Uint8Array::new(&value).to_vec())? {
            on_token(&delta);
        }
    }
    if let Some(rest) = parser.flush_withheld() {
        on_token(&rest);
    }
    parser.finish()
}

async fn read_all(response: &Response) -> Option<Vec<u8>> {
    let buffer = JsFuture::from(response.array_buffer().ok()?).await.ok()?;
    Some(Uint8Array::new(&buffer).to_vec())
}

fn describe(error: JsValue) -> String {
    error
        .dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| error.as_string())
        .unwrap_or_else(|| "unknown error".to_owned())
}
