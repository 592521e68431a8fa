//! The package's run functions — `createRun`, `resumeRun`, `exampleInput`, `checkInput`,
//! `checkTrace`, `nextAction` and the `EngineRun` they give — with the engine behind them loaded
//! on first use (issue #38, docs/decisions.md "npm package: the engine loaded on first use").
//!
//! Everything here reaches the engine through [`Engine`] and [`RunMethods`], whose only
//! implementation is in [`chunk`], behind one split point: naming the engine anywhere else would
//! link it into the first-load module again. Node instantiates the engine's module synchronously
//! on the first call (the package's `node.js` hands the loader the file), so every function
//! keeps its signature; browsers and bundlers fetch it, on `await loadRun()` or `nextAction`.

mod chunk;

use std::future::Future;
use std::pin::{pin, Pin};
use std::task::{Context, Poll, Waker};

use wasm_bindgen::prelude::*;

/// What the engine's module provides: the functions of `run`, `trace` and `next_action`.
pub trait Engine {
    fn create_run(
        &self,
        text: JsValue,
        input: JsValue,
        options: JsValue,
    ) -> Result<Box<dyn RunMethods>, JsError>;
    fn resume_run(
        &self,
        snapshot: JsValue,
        options: JsValue,
    ) -> Result<Box<dyn RunMethods>, JsError>;
    fn example_input(&self, text: JsValue, options: JsValue) -> Result<JsValue, JsError>;
    fn check_input(
        &self,
        text: JsValue,
        input: JsValue,
        options: JsValue,
    ) -> Result<JsValue, JsError>;
    fn check_trace(
        &self,
        trace: JsValue,
        rules: JsValue,
        options: JsValue,
    ) -> Result<JsValue, JsError>;
    fn next_action(
        &self,
        state: JsValue,
        options: JsValue,
    ) -> Pin<Box<dyn Future<Output = Result<JsValue, JsError>>>>;
}

/// A run's methods (`run::EngineRun`'s), called through the engine's module.
pub trait RunMethods {
    fn next(&mut self) -> Result<JsValue, JsError>;
    fn feed(&mut self, id: JsValue, observation: JsValue) -> Result<(), JsError>;
    fn unanswered(&mut self, id: JsValue, reason: JsValue) -> Result<(), JsError>;
    fn set_clock(&mut self, now_ms: f64);
    fn events(&mut self) -> Result<JsValue, JsError>;
    fn status(&self) -> Result<JsValue, JsError>;
    fn outstanding(&self) -> Result<JsValue, JsError>;
    fn snapshot(&self) -> Result<JsValue, JsError>;
    fn diagnostics(&self) -> Result<JsValue, JsError>;
    fn synthetic(&mut self, action: JsValue) -> Result<JsValue, JsError>;
}

/// The engine's module could not be fetched or instantiated (the loader logs why).
pub struct LoadFailed;

impl From<wasm_split_helpers::SplitLoaderError> for LoadFailed {
    fn from(_: wasm_split_helpers::SplitLoaderError) -> Self {
        LoadFailed
    }
}

fn load_failed(_: LoadFailed) -> JsError {
    JsError::new(
        "the run engine's module (split_engine.wasm, beside logicmd_bg.wasm) did not load; \
         the console says why",
    )
}

/// The engine, loading its module first when it is not in yet.
async fn engine() -> Result<&'static dyn Engine, JsError> {
    chunk::load().await.map_err(load_failed)
}

/// The engine for a synchronous function (`what`): in Node (and once loaded anywhere) the load
/// completes within the call; in a browser before `loadRun()` it cannot, and the error says so
/// (the fetch it started goes on, so `await loadRun()` then finds it under way).
fn engine_now(what: &str) -> Result<&'static dyn Engine, JsError> {
    let mut load = pin!(engine());
    let mut context = Context::from_waker(Waker::noop());
    // A load whose callback comes within the call settles on the second poll.
    for _ in 0..3 {
        if let Poll::Ready(engine) = load.as_mut().poll(&mut context) {
            return engine;
        }
    }
    Err(JsError::new(&format!(
        "{what} needs the run engine, which loads on first use: in a browser or bundler, \
         `await loadRun()` (import {{ loadRun }} from \"logicmd\") once before calling it \
         (Node loads it by itself; nextAction loads it too)"
    )))
}

/// Loads the run engine (`createRun`, `resumeRun`, `exampleInput`, `checkInput`, `checkTrace`,
/// `nextAction`) if it is not in yet: browsers and bundlers await it once before the first
/// synchronous one of these (after `init()`); in Node it is there from the first call anyway.
#[wasm_bindgen(js_name = loadRun)]
pub async fn load_run() -> Result<(), JsError> {
    engine().await.map(|_| ())
}

/// A run of a document. Free it with `free()` when done (it holds WebAssembly memory).
#[wasm_bindgen]
pub struct EngineRun {
    run: Box<dyn RunMethods>,
}

/// Starts a run of `text` on `input`. `options`: `{path, files, maxParallelism, startMs, seed,
/// clock, waits, script, synthetic, facts}` (`files` resolves imports, workflow nodes and prompt
/// files like `lint`'s). A document lint finds errors in gives a run whose `diagnostics` list them
/// and whose `next()` fails at once; lint's warnings are listed in `diagnostics` and the run goes
/// on, as `logicmd run` does.
#[wasm_bindgen(js_name = createRun)]
pub fn create_run(
    #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Json")] input: JsValue,
    #[wasm_bindgen(unchecked_param_type = "CreateRunOptions | null")] options: JsValue,
) -> Result<EngineRun, JsError> {
    let run = engine_now("createRun")?.create_run(text, input, options)?;
    Ok(EngineRun { run })
}

/// Continues a run from `run.snapshot()`: exactly where it stopped, no answer asked for again.
/// The events emitted before come again from `events()`. `options`: `{waits, script, synthetic,
/// facts}`, as the run was created with (a script is brought to where it was).
#[wasm_bindgen(js_name = resumeRun)]
pub fn resume_run(
    #[wasm_bindgen(unchecked_param_type = "RunSnapshot")] snapshot: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "ResumeRunOptions | null")] options: JsValue,
) -> Result<EngineRun, JsError> {
    let run = engine_now("resumeRun")?.resume_run(snapshot, options)?;
    Ok(EngineRun { run })
}

/// An input that fits the document's `contracts.inputs` (a value of each declared type), as
/// `logicmd run --dry-run` uses without `--input`. `options`: `{path, files}`.
#[wasm_bindgen(js_name = exampleInput, unchecked_return_type = "ExampleInputResult")]
pub fn example_input(
    #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "CreateRunOptions | null")] options: JsValue,
) -> Result<JsValue, JsError> {
    engine_now("exampleInput")?.example_input(text, options)
}

/// `input` against the document's `contracts.inputs`: `{problems, enforcement, rejects,
/// diagnostics}` — what is wrong, and what the document's `contracts.validation` makes of it
/// (`reject`: the run fails before any step; `record`: it goes on with the violation in the
/// trace; `off`). `options`: `{path, files}`.
#[wasm_bindgen(js_name = checkInput, unchecked_return_type = "CheckInputResult")]
pub fn check_input(
    #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Json")] input: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "CreateRunOptions | null")] options: JsValue,
) -> Result<JsValue, JsError> {
    engine_now("checkInput")?.check_input(text, input, options)
}

/// `{violations, notChecked, rules, events, diagnostics}`: each violation names its rule and the
/// event index (0-based) where it fails; `notChecked` the rules the trace cannot settle yet (a
/// paused run's `terminates`); `rules` lists what was checked. An unreadable trace or a formula that
/// does not parse is a diagnostic (then nothing is checked). `rules` is an array of `FORMULA` or
/// `NAME=FORMULA` strings; `options.builtins: false` leaves the built-in rules out.
#[wasm_bindgen(js_name = checkTrace, unchecked_return_type = "TraceCheckResult")]
pub fn check_trace(
    #[wasm_bindgen(unchecked_param_type = "string | TraceEvent[]")] trace: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string[] | undefined")] rules: JsValue,
    #[wasm_bindgen(unchecked_param_type = "TraceCheckOptions | undefined")] options: JsValue,
) -> Result<JsValue, JsError> {
    engine_now("checkTrace")?.check_trace(trace, rules, options)
}

/// Decides the next action for `state`: `{action, attempts, problems}`, or `{action: null,
/// problems}` when no valid answer came within `maxAttempts` (default 3). `options.provider` is
/// `(request) => text | Promise<text>`; `options.spec` is a LOGIC.md text whose strategy and gates
/// apply. An unusable state throws (a programming error), naming what is wrong. Loads the run
/// engine first when it is not in yet.
#[wasm_bindgen(js_name = nextAction, unchecked_return_type = "Promise<NextActionResult>")]
pub async fn next_action(
    #[wasm_bindgen(unchecked_param_type = "AgentState")] state: JsValue,
    #[wasm_bindgen(unchecked_param_type = "NextActionOptions")] options: JsValue,
) -> Result<JsValue, JsError> {
    engine().await?.next_action(state, options).await
}

#[wasm_bindgen]
impl EngineRun {
    /// Feeds every answer whose turn has come and hands out every action ready now, each once;
    /// at the end the run's ending, once. An empty list: nothing to do until an action handed
    /// out is answered (or, when `status()` is `paused`, a review is).
    // The JS API's name (a batch per call, not an iterator).
    #[allow(clippy::should_implement_trait)]
    #[wasm_bindgen(unchecked_return_type = "RunAction[]")]
    pub fn next(&mut self) -> Result<JsValue, JsError> {
        self.run.next()
    }

    /// Gives the answer to action `id` (any order: they are fed in the order they were handed
    /// out). Throws when no such action waits, it was answered already, or the observation does
    /// not answer it.
    pub fn feed(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] id: JsValue,
        #[wasm_bindgen(unchecked_param_type = "Observation")] observation: JsValue,
    ) -> Result<(), JsError> {
        self.run.feed(id, observation)
    }

    /// Says that nobody answers action `id`: a model call becomes a `ProviderError` failure (as
    /// in the CLI and the studio), a tool an unverifiable verdict, a review waits for a person.
    pub fn unanswered(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] id: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] reason: JsValue,
    ) -> Result<(), JsError> {
        self.run.unanswered(id, reason)
    }

    /// Moves a fixed clock forward to `ms` (traces and timings use it).
    #[wasm_bindgen(js_name = setClock)]
    pub fn set_clock(&mut self, now_ms: f64) {
        self.run.set_clock(now_ms)
    }

    /// Trace events since the last call.
    #[wasm_bindgen(unchecked_return_type = "TraceEvent[]")]
    pub fn events(&mut self) -> Result<JsValue, JsError> {
        self.run.events()
    }

    /// `running`, `paused` (only reviews outstanding), `completed`, `refused` or `failed`.
    #[wasm_bindgen(unchecked_return_type = "RunStatus")]
    pub fn status(&self) -> Result<JsValue, JsError> {
        self.run.status()
    }

    /// Actions handed out and not yet fed (after `resumeRun`, `next()` hands out again those
    /// whose answers were not kept).
    #[wasm_bindgen(unchecked_return_type = "RunAction[]")]
    pub fn outstanding(&self) -> Result<JsValue, JsError> {
        self.run.outstanding()
    }

    /// The run as versioned JSON, for `resumeRun`: what was fed, and the answers given but not
    /// fed yet.
    #[wasm_bindgen(unchecked_return_type = "RunSnapshot")]
    pub fn snapshot(&self) -> Result<JsValue, JsError> {
        self.run.snapshot()
    }

    /// The document's errors: why it cannot run, or (when it runs) those the run goes on past.
    #[wasm_bindgen(getter, unchecked_return_type = "Diagnostic[]")]
    pub fn diagnostics(&self) -> Result<JsValue, JsError> {
        self.run.diagnostics()
    }

    /// What the synthetic provider answers to `action` (a model call, or a wait), for offline runs
    /// and previews; `null` for actions it does not answer (tools, reviews).
    #[wasm_bindgen(unchecked_return_type = "Observation | null")]
    pub fn synthetic(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "RunAction")] action: JsValue,
    ) -> Result<JsValue, JsError> {
        self.run.synthetic(action)
    }
}
