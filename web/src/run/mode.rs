//! The run-mode chunk: the engine behind [`super::engine`]'s traits. [`load`] is the chunk's only
//! entry point (a split point): the build's split step puts what only it reaches — the driver,
//! the core's engine, the OpenAI protocol, the trace checks — in a `.wasm` of its own, fetched
//! when the studio first awaits it. On other targets (the native tests) it is a plain call.

use std::cell::RefCell;
use std::collections::BTreeSet;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;

use logicmd::run::openai::Client;
use logicmd::run::{Action, ActionKind, Observation};
use logicmd::trace::{check, read_jsonl, Builtin, Rule, TraceLimits};
use serde_json::Value;

use super::driver::{self, Driver, Pins, ProviderChoice, Slice};
use super::engine::{Compiled, RunMode, Session};
use super::openai::{self, Endpoint};

/// The chunk could not be fetched or instantiated (the loader logs why to the console).
pub struct LoadFailed;

impl From<leptos::wasm_split::SplitLoaderError> for LoadFailed {
    fn from(_: leptos::wasm_split::SplitLoaderError) -> Self {
        LoadFailed
    }
}

/// The split point: fetches the run-mode chunk on the first call, then hands out run mode.
#[leptos::wasm_split::wasm_split(run_mode, wasm_split_path = ::leptos::wasm_split, fallible)]
pub fn load() -> Result<&'static dyn RunMode, LoadFailed> {
    Ok(&Mode)
}

struct Mode;

impl RunMode for Mode {
    fn start(
        &self,
        text: &str,
        input: Value,
        provider: &ProviderChoice,
        pins: Pins,
    ) -> Result<Box<dyn Session>, String> {
        let driver = Driver::start(text, input, provider, pins)?;
        Ok(DriverSession::boxed(driver, provider))
    }

    fn start_from(
        &self,
        text: &str,
        input: Value,
        provider: &ProviderChoice,
        pins: Pins,
        previous: &[Value],
        from: &str,
    ) -> Result<Box<dyn Session>, String> {
        let driver = Driver::start_from(text, input, provider, pins, previous, from)?;
        Ok(DriverSession::boxed(driver, provider))
    }

    fn compiled(&self, text: &str, input: Value, node: &str) -> Result<Compiled, String> {
        let Some(action) = driver::compiled_request(text, input, node)? else {
            return Ok(None);
        };
        let request = match &action.kind {
            ActionKind::CallModel { request, .. } => {
                serde_json::to_value(request).unwrap_or_default()
            }
            _ => Value::Null,
        };
        let client = Endpoint {
            base_url: String::new(),
            model: "MODEL".to_owned(),
            key: None,
        }
        .client();
        let body = client
            .call(&action)
            .ok()
            .and_then(|call| serde_json::from_str::<Value>(&call.body).ok())
            .unwrap_or_default();
        Ok(Some((request, body)))
    }

    fn check_pin(&self, text: &str, node: &str, output: Value) -> Result<(), String> {
        driver::check_pin(text, node, output)
    }

    fn builtin_results(&self, events: &[Value]) -> Vec<(&'static str, Option<String>)> {
        let violations = check(events, &Rule::builtins());
        Builtin::ALL
            .iter()
            .map(|builtin| {
                let first = violations.iter().find(|v| v.rule == builtin.name());
                (
                    builtin.name(),
                    first.map(|v| format!("event {}: {}", v.index, v.message)),
                )
            })
            .collect()
    }

    fn panel(&self) -> leptos::prelude::AnyView {
        super::panel::body()
    }

    fn read_trace(&self, text: &str) -> Result<Vec<Value>, String> {
        read_jsonl(text.as_bytes(), TraceLimits::DEFAULT)
            .map(|trace| trace.events)
            .map_err(|error| format!("Not a trace: {error}"))
    }
}

/// A run: the driver, and the server's protocol state (whether it refused `response_format`),
/// kept across its calls.
struct DriverSession {
    driver: Driver,
    client: Rc<RefCell<Option<Client>>>,
}

/// A promise that resolves after `ms` milliseconds (a wait slept through in the page).
async fn sleep(ms: u64) {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        if let Some(window) = web_sys::window() {
            let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(
                &resolve,
                ms.min(i32::MAX as u64) as i32,
            );
        }
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}

impl DriverSession {
    fn boxed(driver: Driver, provider: &ProviderChoice) -> Box<dyn Session> {
        let client = match provider {
            ProviderChoice::OpenAi(endpoint) => Some(endpoint.client()),
            _ => None,
        };
        Box::new(DriverSession {
            driver,
            client: Rc::new(RefCell::new(client)),
        })
    }
}

impl Session for DriverSession {
    fn slice(
        &mut self,
        budget_ms: f64,
        max_actions: usize,
        breakpoints: &BTreeSet<String>,
        now: &dyn Fn() -> f64,
    ) -> Slice {
        self.driver.slice(budget_ms, max_actions, breakpoints, now)
    }

    fn feed(&mut self, id: &str, observation: Observation) -> Result<(), String> {
        self.driver.feed(id, observation)
    }

    fn answer_tool(&mut self, id: &str, passed: bool, evidence: String) -> Result<(), String> {
        self.driver.answer_tool(id, passed, evidence)
    }

    fn decide(&mut self, id: &str, choice: &str, note: Option<String>) -> Result<(), String> {
        let note = note.filter(|n| !n.trim().is_empty());
        self.driver.feed(
            id,
            Observation::ReviewAnswer {
                action: choice.to_owned(),
                note,
            },
        )
    }

    fn set_auto_answer(&mut self, on: bool) {
        self.driver.auto_answer = on;
    }

    fn calls_server(&self) -> bool {
        self.driver.endpoint.is_some()
    }

    fn call_model(
        &mut self,
        action: Action,
        mut on_token: Box<dyn FnMut(&str)>,
    ) -> Pin<Box<dyn Future<Output = Observation>>> {
        let base_url = self
            .driver
            .endpoint
            .as_ref()
            .map(|e| e.base_url.clone())
            .unwrap_or_default();
        let shared = Rc::clone(&self.client);
        Box::pin(async move {
            if let ActionKind::Wait { ms, .. } = action.kind {
                sleep(ms).await;
                return Observation::Waited;
            }
            // Calls run concurrently, each with its own copy of the protocol's state; what one
            // learns (a server that refuses `response_format`) is kept for the later ones.
            let copy = shared.borrow().clone();
            let Some(mut client) = copy else {
                return Observation::ModelError(logicmd::run::openai::failure::connection(
                    "no server is configured for this run",
                    false,
                ));
            };
            let observation = openai::call(&mut client, &base_url, &action, &mut *on_token).await;
            if let Some(kept) = shared.borrow_mut().as_mut() {
                kept.learn_from(&client);
            }
            observation
        })
    }
}
