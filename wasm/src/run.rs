//! The runtime for JavaScript builders: `createRun` / `resumeRun` give an `EngineRun` around the
//! core's run session (`logicmd::run::session::Session`, the same driver the CLI and the studio
//! use): it hands out the actions the caller carries out, takes their answers in any order and
//! feeds them in a fixed order, keeps the clock, and answers what it can itself (a script, the
//! synthetic provider, facts, a rule with nothing to check). The caller keeps its own model calls
//! and keys. `exampleInput` and `checkInput` are the CLI's input rules.

use logicmd::analysis::{Options, DEFAULT_ID};
use logicmd::diagnostic::Diagnostic;
use logicmd::run::session::{
    check_input, contracts_of, example_input, Answerers, ClockMode, Facts, Models, Next, Session,
    Start, Waits,
};
use logicmd::run::{
    prepare_reporting, Action, ActionKind, Answer, Observation, Provider, RunOptions, Scripted,
    Source, Synthetic,
};
use serde_json::{json, Value};
use wasm_bindgen::prelude::*;

use crate::convert::{from_js, json_arg, optional_text_arg, text_arg, to_js};
use crate::loader::JsLoader;

/// A run of a document. Free it with `free()` when done (it holds WebAssembly memory).
pub struct EngineRun {
    session: Option<Session>,
    /// Why the document cannot run (its errors), when it cannot.
    diagnostics: Vec<Diagnostic>,
    /// The ending, handed out once by `next()`.
    ending: Option<Action>,
    ended: bool,
    /// The synthetic provider, for `synthetic(action)`.
    synthetic: Option<Synthetic>,
    clock: ClockMode,
}

/// `createRun` (its documentation: `crate::engine`), run in the engine's module.
pub fn create_run(text: JsValue, input: JsValue, options: JsValue) -> Result<EngineRun, JsError> {
    let text = text_arg(&text, "text")?;
    let input = json_arg(input, "input")?;
    let settings = Settings::read(&options)?;
    let (source, tolerated) = match prepared(&text, &settings)? {
        Ok(prepared) => prepared,
        Err(diagnostics) => return Ok(EngineRun::refused(diagnostics)),
    };
    let synthetic = Synthetic::new(&source, settings.run.seed);
    let clock = settings.clock;
    let start = Start::new(source, input, settings.run.clone(), clock, now_ms());
    match Session::start(start, settings.answerers()?) {
        Ok(session) => Ok(EngineRun {
            session: Some(session),
            diagnostics: tolerated,
            ending: None,
            ended: false,
            synthetic: Some(synthetic),
            clock,
        }),
        Err(error) => Ok(EngineRun::refused(vec![Diagnostic::error(
            "run-cannot-start",
            error.message,
        )])),
    }
}

/// `resumeRun` (its documentation: `crate::engine`), run in the engine's module.
pub fn resume_run(snapshot: JsValue, options: JsValue) -> Result<EngineRun, JsError> {
    let snapshot = json_arg(snapshot, "snapshot")?;
    let mut settings = Settings::read(&options)?;
    settings.clock = match snapshot.pointer("/session/clock").and_then(Value::as_str) {
        Some("real") => ClockMode::Real,
        _ => ClockMode::Fixed,
    };
    let session =
        Session::resume(&snapshot, settings.answerers()?).map_err(|e| JsError::new(&e.message))?;
    let source: Option<Source> = snapshot
        .get("source")
        .and_then(|s| serde_json::from_value(s.clone()).ok());
    let seed = snapshot
        .pointer("/options/seed")
        .and_then(Value::as_u64)
        .unwrap_or_default();
    Ok(EngineRun {
        session: Some(session),
        diagnostics: Vec::new(),
        ending: None,
        ended: false,
        synthetic: source.map(|s| Synthetic::new(&s, seed)),
        clock: settings.clock,
    })
}

/// `exampleInput` (its documentation: `crate::engine`), run in the engine's module.
pub fn example_input_js(text: JsValue, options: JsValue) -> Result<JsValue, JsError> {
    let text = text_arg(&text, "text")?;
    let settings = Settings::read(&options)?;
    match prepared(&text, &settings)? {
        Ok((source, _)) => to_js(&json!({
            "input": example_input(&contracts_of(&source)),
            "diagnostics": [],
        })),
        Err(diagnostics) => to_js(&json!({"input": null, "diagnostics": diagnostics})),
    }
}

/// `checkInput` (its documentation: `crate::engine`), run in the engine's module.
pub fn check_input_js(text: JsValue, input: JsValue, options: JsValue) -> Result<JsValue, JsError> {
    let text = text_arg(&text, "text")?;
    let input = json_arg(input, "input")?;
    let settings = Settings::read(&options)?;
    match prepared(&text, &settings)? {
        Ok((source, _)) => {
            let check = check_input(&contracts_of(&source), &input);
            to_js(&json!({
                "problems": check.problems,
                "enforcement": check.enforcement,
                "rejects": check.rejects(),
                "diagnostics": [],
            }))
        }
        Err(diagnostics) => to_js(&json!({
            "problems": [],
            "enforcement": null,
            "rejects": false,
            "diagnostics": diagnostics,
        })),
    }
}

/// The document prepared to run, with the errors it runs despite; or the errors that stop it.
type Prepared = Result<(Source, Vec<Diagnostic>), Vec<Diagnostic>>;

fn prepared(text: &str, settings: &Settings) -> Result<Prepared, JsError> {
    let loader = JsLoader::new(settings.files.clone())?;
    let id = settings
        .path
        .clone()
        .unwrap_or_else(|| DEFAULT_ID.to_owned());
    let mut analysis_options = Options::lint(&id);
    if let Some(path) = &settings.path {
        analysis_options = analysis_options.with_path(path);
    }
    Ok(prepare_reporting(text, &analysis_options, &loader)
        .map(|prepared| (prepared.source, prepared.tolerated)))
}

/// The wall clock, for a run on a real clock.
fn now_ms() -> u64 {
    js_sys::Date::now().max(0.0) as u64
}

struct Settings {
    path: Option<String>,
    files: JsValue,
    run: RunOptions,
    clock: ClockMode,
    waits: Option<Waits>,
    script: Option<String>,
    synthetic: bool,
    facts: Value,
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
        let word = |name: &str, allowed: &[&str]| -> Result<Option<String>, JsError> {
            let value = optional_text_arg(&field(name)?, &format!("options.{name}"))?;
            match value {
                Some(word) if !allowed.contains(&word.as_str()) => Err(JsError::new(&format!(
                    "options.{name} must be one of {}",
                    allowed.join(", ")
                ))),
                other => Ok(other),
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
        let clock = match word("clock", &["fixed", "real"])?.as_deref() {
            Some("real") => ClockMode::Real,
            _ => ClockMode::Fixed,
        };
        let waits = word("waits", &["instant", "caller"])?.map(|w| match w.as_str() {
            "instant" => Waits::Instant,
            _ => Waits::Caller,
        });
        let synthetic = field("synthetic")?;
        if !(synthetic.is_undefined() || synthetic.is_null() || synthetic.as_bool().is_some()) {
            return Err(JsError::new("options.synthetic must be a boolean"));
        }
        Ok(Settings {
            path: optional_text_arg(&field("path")?, "options.path")?,
            files: field("files")?,
            run,
            clock,
            waits,
            script: optional_text_arg(&field("script")?, "options.script")?,
            synthetic: synthetic.as_bool().unwrap_or(false),
            facts: json_arg(field("facts")?, "options.facts")?,
        })
    }

    /// Who answers what: the script, else the synthetic provider when asked for, else the
    /// caller; waits as asked, else as the session's rule says.
    fn answerers(&self) -> Result<Answerers, JsError> {
        let models = match (&self.script, self.synthetic) {
            (Some(script), _) => Models::Scripted(
                Scripted::parse(script)
                    .map_err(|e| JsError::new(&format!("options.script: {e}")))?,
            ),
            (None, true) => Models::Synthetic,
            (None, false) => Models::Caller,
        };
        let facts = match &self.facts {
            Value::Null => None,
            value => Some(
                Facts::from_value(value)
                    .map_err(|e| JsError::new(&format!("options.facts: {e}")))?,
            ),
        };
        Ok(Answerers {
            waits: self
                .waits
                .unwrap_or_else(|| Waits::for_run(&models, self.clock)),
            models,
            facts,
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
            session: None,
            ending: Some(Action {
                id: "a1".to_owned(),
                kind: ActionKind::Fail {
                    error: format!("the document cannot run: {summary}"),
                },
            }),
            ended: false,
            diagnostics,
            synthetic: None,
            clock: ClockMode::Fixed,
        }
    }

    fn now(&self) -> u64 {
        match self.clock {
            ClockMode::Real => now_ms(),
            ClockMode::Fixed => 0,
        }
    }
}

impl EngineRun {
    /// `EngineRun.next` (its documentation: `crate::engine`), run in the engine's module.
    // The JS API's name (a batch per call, not an iterator).
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> Result<JsValue, JsError> {
        let now = self.now();
        let mut actions = Vec::new();
        if let Some(session) = &mut self.session {
            loop {
                match session.next(now) {
                    Next::Act(action) => actions.push(action),
                    Next::Fed | Next::Breakpoint(_) => {}
                    Next::Waiting | Next::Paused(_) => break,
                    Next::Ended(action) => {
                        self.ending.get_or_insert(action);
                        break;
                    }
                }
            }
        }
        if !self.ended {
            if let Some(ending) = &self.ending {
                actions.push(ending.clone());
                self.ended = true;
            }
        }
        to_js(&actions)
    }

    /// `EngineRun.feed` (its documentation: `crate::engine`), run in the engine's module.
    pub fn feed(&mut self, id: JsValue, observation: JsValue) -> Result<(), JsError> {
        let id = text_arg(&id, "id")?;
        let observation: Observation = from_js(observation, "not an observation")?;
        let now = self.now();
        let session = self
            .session
            .as_mut()
            .ok_or_else(|| JsError::new("the document cannot run (see diagnostics)"))?;
        session
            .answer(&id, Answer::Observed(observation), now)
            .map_err(|e| JsError::new(&e.message))
    }

    /// `EngineRun.unanswered` (its documentation: `crate::engine`), run in the engine's module.
    pub fn unanswered(&mut self, id: JsValue, reason: JsValue) -> Result<(), JsError> {
        let id = text_arg(&id, "id")?;
        let reason = text_arg(&reason, "reason")?;
        let now = self.now();
        let session = self
            .session
            .as_mut()
            .ok_or_else(|| JsError::new("the document cannot run (see diagnostics)"))?;
        session
            .answer(&id, Answer::Unanswered(reason), now)
            .map_err(|e| JsError::new(&e.message))
    }

    /// `EngineRun.setClock` (its documentation: `crate::engine`), run in the engine's module.
    pub fn set_clock(&mut self, now_ms: f64) {
        if let Some(session) = &mut self.session {
            session.advance_clock(now_ms.max(0.0) as u64);
        }
    }

    /// `EngineRun.events` (its documentation: `crate::engine`), run in the engine's module.
    pub fn events(&mut self) -> Result<JsValue, JsError> {
        let events: Vec<Value> = self
            .session
            .as_mut()
            .map(Session::take_events)
            .unwrap_or_default();
        to_js(&events)
    }

    /// `EngineRun.status` (its documentation: `crate::engine`), run in the engine's module.
    pub fn status(&self) -> Result<JsValue, JsError> {
        match &self.session {
            Some(session) => to_js(&session.status()),
            None => to_js(&"failed"),
        }
    }

    /// `EngineRun.outstanding` (its documentation: `crate::engine`), run in the engine's module.
    pub fn outstanding(&self) -> Result<JsValue, JsError> {
        to_js(
            &self
                .session
                .as_ref()
                .map(Session::outstanding)
                .unwrap_or_default(),
        )
    }

    /// `EngineRun.snapshot` (its documentation: `crate::engine`), run in the engine's module.
    pub fn snapshot(&self) -> Result<JsValue, JsError> {
        to_js(&self.session.as_ref().map_or(Value::Null, Session::snapshot))
    }

    /// `EngineRun.diagnostics` (its documentation: `crate::engine`), run in the engine's module.
    pub fn diagnostics(&self) -> Result<JsValue, JsError> {
        to_js(&self.diagnostics)
    }

    /// `EngineRun.synthetic` (its documentation: `crate::engine`), run in the engine's module.
    pub fn synthetic(&mut self, action: JsValue) -> Result<JsValue, JsError> {
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
