//! Run mode's engine as the rest of the studio sees it: two small traits, and the lazy load of
//! the wasm chunk that implements them ([`super::mode`]).
//!
//! The engine (the core's `logicmd::run` with the OpenAI protocol, the trace checks) is about a
//! sixth of the studio's code, and a first visit does not need it. Everything the studio calls of
//! it goes through these traits: the build's split step (scripts/split-wasm.sh) moves what only
//! the chunk's entry point reaches into its own `.wasm`, fetched on the first Run (or trace
//! replay, pin, compiled prompt). Nothing outside [`super::mode`] may name `Driver`,
//! `logicmd::run::Run` or `logicmd::trace::check` directly: such a call would pull the engine
//! back into the first download (`tests/web/studio-split.test.mjs` holds that).

use std::cell::Cell;
use std::collections::BTreeSet;
use std::future::Future;
use std::pin::Pin;

use leptos::prelude::*;
use logicmd::run::{Action, Observation};
use serde_json::Value;

use super::driver::{Pins, ProviderChoice, Slice};

/// A run in progress, driven frame by frame by [`super::RunState`].
pub trait Session {
    /// Carries the run on for up to `budget_ms` of `now` or `max_actions` steps, or until
    /// something halts it; returns the slice's events, the calls to start, and the halt.
    fn slice(
        &mut self,
        budget_ms: f64,
        max_actions: usize,
        breakpoints: &BTreeSet<String>,
        now: &dyn Fn() -> f64,
    ) -> Slice;
    /// Gives the answer to a call a slice handed out (in any order: the run feeds them in the
    /// order they were handed out).
    fn feed(&mut self, id: &str, observation: Observation) -> Result<(), String>;
    fn answer_tool(&mut self, id: &str, passed: bool, evidence: String) -> Result<(), String>;
    /// Answers review `id` with `choice`, and the reviewer's note (the node's next call sees it).
    fn decide(&mut self, id: &str, choice: &str, note: Option<String>) -> Result<(), String>;
    fn set_auto_answer(&mut self, on: bool);
    /// Whether model calls go to a server (then slices hand them out as calls).
    fn calls_server(&self) -> bool;
    /// Carries out a call a slice handed out: a model call to the server (each streamed token
    /// goes to `on_token`), or a wait slept through with a timer. Several may be in flight.
    fn call_model(
        &mut self,
        action: Action,
        on_token: Box<dyn FnMut(&str)>,
    ) -> Pin<Box<dyn Future<Output = Observation>>>;
}

/// Request and raw HTTP body of a node's first model call (pretty JSON), or `None` when the run
/// never calls a model for it.
pub type Compiled = Option<(Value, Value)>;

/// Everything of run mode the studio calls outside a session.
pub trait RunMode {
    fn start(
        &self,
        text: &str,
        input: Value,
        provider: &ProviderChoice,
        pins: Pins,
    ) -> Result<Box<dyn Session>, String>;
    /// Runs `text` again from `from`, what does not depend on it pinned to `previous`'s outputs.
    fn start_from(
        &self,
        text: &str,
        input: Value,
        provider: &ProviderChoice,
        pins: Pins,
        previous: &[Value],
        from: &str,
    ) -> Result<Box<dyn Session>, String>;
    fn compiled(&self, text: &str, input: Value, node: &str) -> Result<Compiled, String>;
    fn check_pin(&self, text: &str, node: &str, output: Value) -> Result<(), String>;
    /// Each built-in trace check and whether `events` hold it (the first violation's message).
    fn builtin_results(&self, events: &[Value]) -> Vec<(&'static str, Option<String>)>;
    /// A JSON Lines trace's events, or why it is not one.
    fn read_trace(&self, text: &str) -> Result<Vec<Value>, String>;
    /// The Run panel's body: the outcome, the node card, the setup, the legend and the trace
    /// (views only run mode needs, so they load with it).
    fn panel(&self) -> AnyView;
}

/// Where the run-mode chunk is.
#[derive(Debug, Clone, PartialEq)]
pub enum Load {
    NotLoaded,
    Loading,
    Ready,
    Failed(String),
}

thread_local! {
    static LOADED: Cell<Option<&'static dyn RunMode>> = const { Cell::new(None) };
}

/// Run mode if its chunk is loaded already.
pub fn loaded() -> Option<&'static dyn RunMode> {
    LOADED.with(Cell::get)
}

/// Run mode, fetching its chunk on the first call (later calls: at once). `status` follows the
/// load, so the panel can say it is loading (and a view waiting for it redraws).
pub async fn run_mode(status: RwSignal<Load>) -> Result<&'static dyn RunMode, String> {
    if let Some(mode) = loaded() {
        return Ok(mode);
    }
    status.set(Load::Loading);
    match super::mode::load().await {
        Ok(mode) => {
            LOADED.with(|l| l.set(Some(mode)));
            status.set(Load::Ready);
            Ok(mode)
        }
        Err(_) => {
            let reason = "run mode could not be loaded (is the network down?)".to_owned();
            status.set(Load::Failed(reason.clone()));
            Err(reason)
        }
    }
}

/// Starts fetching the chunk (a pointer over Run, or focus on it), without waiting. Only a
/// chunk not tried yet: after a failure, only the person's next action tries again.
pub fn preload(status: RwSignal<Load>) {
    if loaded().is_none() && status.get_untracked() == Load::NotLoaded {
        leptos::task::spawn_local(async move {
            let _ = run_mode(status).await;
        });
    }
}
