//! The engine's side of the split: [`load`] is its only entry point (a split point), so the build's
//! split step (scripts/build-npm.sh) puts what only it reaches — the run session, the engine, the
//! trace checks, next-action — in `split_engine.wasm`, instantiated on first use. Each method
//! calls the function of `run`, `trace` or `next_action` as it was (their bodies are unchanged).
//! On other targets (native tests) the split point is a plain call.

use std::future::Future;
use std::pin::Pin;

use wasm_bindgen::prelude::*;

use super::{Engine, LoadFailed, RunMethods};
use crate::run::{self, EngineRun};
use crate::{next_action, trace};

/// The split point: loads the engine's module on the first call, then hands out the engine.
#[wasm_split_helpers::wasm_split(engine, fallible)]
pub fn load() -> Result<&'static dyn Engine, LoadFailed> {
    Ok(&Chunk)
}

struct Chunk;

impl Engine for Chunk {
    fn create_run(
        &self,
        text: JsValue,
        input: JsValue,
        options: JsValue,
    ) -> Result<Box<dyn RunMethods>, JsError> {
        Ok(Box::new(run::create_run(text, input, options)?))
    }

    fn resume_run(
        &self,
        snapshot: JsValue,
        options: JsValue,
    ) -> Result<Box<dyn RunMethods>, JsError> {
        Ok(Box::new(run::resume_run(snapshot, options)?))
    }

    fn example_input(&self, text: JsValue, options: JsValue) -> Result<JsValue, JsError> {
        run::example_input_js(text, options)
    }

    fn check_input(
        &self,
        text: JsValue,
        input: JsValue,
        options: JsValue,
    ) -> Result<JsValue, JsError> {
        run::check_input_js(text, input, options)
    }

    fn check_trace(
        &self,
        trace: JsValue,
        rules: JsValue,
        options: JsValue,
    ) -> Result<JsValue, JsError> {
        trace::check_trace(trace, rules, options)
    }

    fn next_action(
        &self,
        state: JsValue,
        options: JsValue,
    ) -> Pin<Box<dyn Future<Output = Result<JsValue, JsError>>>> {
        Box::pin(next_action::next_action(state, options))
    }
}

impl RunMethods for EngineRun {
    fn next(&mut self) -> Result<JsValue, JsError> {
        EngineRun::next(self)
    }

    fn feed(&mut self, id: JsValue, observation: JsValue) -> Result<(), JsError> {
        EngineRun::feed(self, id, observation)
    }

    fn unanswered(&mut self, id: JsValue, reason: JsValue) -> Result<(), JsError> {
        EngineRun::unanswered(self, id, reason)
    }

    fn set_clock(&mut self, now_ms: f64) {
        EngineRun::set_clock(self, now_ms)
    }

    fn events(&mut self) -> Result<JsValue, JsError> {
        EngineRun::events(self)
    }

    fn status(&self) -> Result<JsValue, JsError> {
        EngineRun::status(self)
    }

    fn outstanding(&self) -> Result<JsValue, JsError> {
        EngineRun::outstanding(self)
    }

    fn snapshot(&self) -> Result<JsValue, JsError> {
        EngineRun::snapshot(self)
    }

    fn diagnostics(&self) -> Result<JsValue, JsError> {
        EngineRun::diagnostics(self)
    }

    fn synthetic(&mut self, action: JsValue) -> Result<JsValue, JsError> {
        EngineRun::synthetic(self, action)
    }
}
