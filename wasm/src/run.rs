//! The runtime for JavaScript builders: `createRun` / `resumeRun` give an `EngineRun` that hands out
//! actions and takes observations; the caller keeps its own model calls and keys, the engine keeps
//! the semantics (the same `logicmd::run` the CLI and the studio drive).

use logicmd::analysis::{Options, DEFAULT_ID};
use logicmd::diagnostic::Diagnostic;
use logicmd::run::{
    prepare_reporting, Action, ActionKind, Answer, Observation, Provider, Run, RunOptions, Source,
    Synthetic,
};
use serde_json::{json, Value};
use wasm_bindgen::prelude::*;

use crate::convert::{from_js, json_arg, optional_text_arg, text_arg, to_js};
use crate::loader::JsLoader;

/// A run of a document. Free it with `free()` when done (it holds WebAssembly memory).
#[wasm_bindgen]
pub struct EngineRun {
    run: Option<Run>,
    /// Why the document cannot run (its errors), when it cannot.
    diagnostics: Vec<Diagnostic>,
    /// The failure handed out once by `next()` when the document cannot run.
    refusal: Option<Action>,
    synthetic: Option<Synthetic>,
}

/// Starts a run of `text` on `input`. `options`: `{path, files, maxParallelism, startMs, seed}`
/// (`files` resolves imports, workflow nodes and prompt files like `lint`'s). A document lint finds
/// errors in gives a run whose `diagnostics` list them and whose `next()` fails at once; lint's
/// warnings are listed in `diagnostics` and the run goes on, as `logicmd run` does.
#[wasm_bindgen(js_name = createRun)]
pub fn create_run(
    #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Json")] input: JsValue,
    #[wasm_bindgen(unchecked_param_type = "CreateRunOptions | null")] options: JsValue,
) -> Result<EngineRun, JsError> {
    let text = text_arg(&text, "text")?;
    let input = json_arg(input, "input")?;
    let settings = Settings::read(&options)?;
    let loader = JsLoader::new(settings.files.clone())?;
    let id = settings
        .path
        .clone()
        .unwrap_or_else(|| DEFAULT_ID.to_owned());
    let mut analysis_options = Options::lint(&id);
    if let Some(path) = &settings.path {
        analysis_options = analysis_options.with_path(path);
    }
    let (source, tolerated) = match prepare_reporting(&text, &analysis_options, &loader) {
        Ok(prepared) => (prepared.source, prepared.tolerated),
        Err(diagnostics) => return Ok(EngineRun::refused(diagnostics)),
    };
    let synthetic = Synthetic::new(&source, settings.run.seed);
    match Run::start(source, input, settings.run) {
        Ok(run) => Ok(EngineRun {
            run: Some(run),
            diagnostics: tolerated,
            refusal: None,
            synthetic: Some(synthetic),
        }),
        Err(error) => Ok(EngineRun::refused(vec![Diagnostic::error(
            "run-cannot-start",
            error.message,
        )])),
    }
}

/// Continues a run from `run.snapshot()`: exactly where it stopped, no call repeated. The events
/// emitted before come again from `events()`.
#[wasm_bindgen(js_name = resumeRun)]
pub fn resume_run(
    #[wasm_bindgen(unchecked_param_type = "RunSnapshot")] snapshot: JsValue,
) -> Result<EngineRun, JsError> {
    let snapshot = json_arg(snapshot, "snapshot")?;
    let run = Run::resume(&snapshot).map_err(|e| JsError::new(&e.message))?;
    let source: Option<Source> = snapshot
        .get("source")
        .and_then(|s| serde_json::from_value(s.clone()).ok());
    let seed = snapshot
        .pointer("/options/seed")
        .and_then(Value::as_u64)
        .unwrap_or_default();
    Ok(EngineRun {
        run: Some(run),
        diagnostics: Vec::new(),
        refusal: None,
        synthetic: source.map(|s| Synthetic::new(&s, seed)),
    })
}

struct Settings {
    path: Option<String>,
    files: JsValue,
    run: RunOptions,
}

impl Settings {
    fn read(options: &JsValue) -> Result<Settings, JsError> {
        let field = |name: &str| {
            if options.is_undefined() || options.is_null() {
                Ok(JsValue::UNDEFINED)
            } else {
                js_sys::Reflect::get(options, &JsValue::from_str(name))
                    .map_err(|_| JsError::new("options must be an object"))
            }
        };
        let number = |name: &str| -> Result<Option<u64>, JsError> {
            let value = field(name)?;
            if value.is_undefined() || value.is_null() {
                return Ok(None);
            }
            match value.as_f64() {
                Some(n) if n >= 0.0 && n.fract() == 0.0 && n <= 9_007_199_254_740_991.0 => {
                    Ok(Some(n as u64))
                }
                _ => Err(JsError::new(&format!(
                    "options.{name} must be a whole number ≥ 0"
                ))),
            }
        };
        let mut run = RunOptions::default();
        if let Some(n) = number("maxParallelism")? {
            run.max_parallelism = n.max(1) as usize;
        }
        if let Some(n) = number("startMs")? {
            run.start_ms = n;
        }
        if let Some(n) = number("seed")? {
            run.seed = n;
        }
        Ok(Settings {
            path: optional_text_arg(&field("path")?, "options.path")?,
            files: field("files")?,
            run,
        })
    }
}

impl EngineRun {
    fn refused(diagnostics: Vec<Diagnostic>) -> EngineRun {
        let summary = diagnostics
            .iter()
            .map(|d| format!("{}:{}: {}", d.line, d.column, d.message))
            .collect::<Vec<_>>()
            .join("; ");
        EngineRun {
            run: None,
            refusal: Some(Action {
                id: "a1".to_owned(),
                kind: ActionKind::Fail {
                    error: format!("the document cannot run: {summary}"),
                },
            }),
            diagnostics,
            synthetic: None,
        }
    }
}

#[wasm_bindgen]
impl EngineRun {
    /// Every action ready now, each handed out once; at the end the run's ending, once.
    // The JS API's name (a batch per call, not an iterator).
    #[allow(clippy::should_implement_trait)]
    #[wasm_bindgen(unchecked_return_type = "RunAction[]")]
    pub fn next(&mut self) -> Result<JsValue, JsError> {
        let actions = match &mut self.run {
            Some(run) => run.next(),
            None => self.refusal.take().into_iter().collect(),
        };
        to_js(&actions)
    }

    /// Feeds what happened to action `id`; throws when no such action waits or the observation
    /// does not answer it.
    pub fn feed(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] id: JsValue,
        #[wasm_bindgen(unchecked_param_type = "Observation")] observation: JsValue,
    ) -> Result<(), JsError> {
        let id = text_arg(&id, "id")?;
        let observation: Observation = from_js(observation, "not an observation")?;
        let run = self
            .run
            .as_mut()
            .ok_or_else(|| JsError::new("the document cannot run (see diagnostics)"))?;
        run.feed(&id, observation)
            .map_err(|e| JsError::new(&e.message))
    }

    /// Sets the clock in milliseconds (traces and timings use it).
    #[wasm_bindgen(js_name = setClock)]
    pub fn set_clock(&mut self, now_ms: f64) {
        if let Some(run) = &mut self.run {
            run.set_clock(now_ms.max(0.0) as u64);
        }
    }

    /// Trace events since the last call.
    #[wasm_bindgen(unchecked_return_type = "TraceEvent[]")]
    pub fn events(&mut self) -> Result<JsValue, JsError> {
        let events: Vec<Value> = self.run.as_mut().map(Run::take_events).unwrap_or_default();
        to_js(&events)
    }

    /// `running`, `paused` (only reviews outstanding), `completed`, `refused` or `failed`.
    #[wasm_bindgen(unchecked_return_type = "RunStatus")]
    pub fn status(&self) -> Result<JsValue, JsError> {
        match &self.run {
            Some(run) => to_js(&run.status()),
            None => to_js(&"failed"),
        }
    }

    /// Actions handed out and not yet answered (after `resumeRun`, the ones to carry out again).
    #[wasm_bindgen(unchecked_return_type = "RunAction[]")]
    pub fn outstanding(&self) -> Result<JsValue, JsError> {
        to_js(&self.run.as_ref().map(Run::outstanding).unwrap_or_default())
    }

    /// The run as versioned JSON, for `resumeRun`.
    #[wasm_bindgen(unchecked_return_type = "RunSnapshot")]
    pub fn snapshot(&self) -> Result<JsValue, JsError> {
        to_js(&self.run.as_ref().map_or(Value::Null, Run::snapshot))
    }

    /// The document's errors: why it cannot run, or (when it runs) those the run goes on past.
    #[wasm_bindgen(getter, unchecked_return_type = "Diagnostic[]")]
    pub fn diagnostics(&self) -> Result<JsValue, JsError> {
        to_js(&self.diagnostics)
    }

    /// What the synthetic provider answers to `action` (a model call, or a wait), for offline runs
    /// and previews; `null` for actions it does not answer (tools, reviews).
    #[wasm_bindgen(unchecked_return_type = "Observation | null")]
    pub fn synthetic(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "RunAction")] action: JsValue,
    ) -> Result<JsValue, JsError> {
        let action: Action = from_js(action, "not an action")?;
        let Some(provider) = &mut self.synthetic else {
            return to_js(&Value::Null);
        };
        match provider.answer(&action, &mut |_| {}) {
            Answer::Observed(observation) => to_js(&observation),
            Answer::Unanswered(_) => to_js(&json!(null)),
        }
    }
}
