//! The runtime for Python: a `NativeRun` around the core's run session
//! (`logicmd::run::session::Session`, the driver the CLI, the npm package and the studio use).
//! It hands out the actions the caller carries out, takes their answers in any order and feeds
//! them in a fixed order, keeps the clock, and answers what it can itself (a script, the
//! synthetic provider, facts). The Python side (`logicmd/_run.py`) calls the model.

use std::collections::BTreeMap;
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::{SystemTime, UNIX_EPOCH};

use logicmd::diagnostic::Diagnostic;
use logicmd::loader::Loader;
use logicmd::run::session::{
    check_input, contracts_of, Answerers, ClockMode, Facts, Models, Next, Session, Start, Waits,
};
use logicmd::run::{
    prepare_reporting, Action, ActionKind, Answer, Observation, RunOptions, Scripted, Source,
};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedStr;
use serde::Deserialize;
use serde_json::{json, Value};

use crate::convert::{json_arg, to_json, typed_arg};
use crate::documents::lint_options;
use crate::loader::PyLoader;

pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_class::<NativeRun>()
}

/// The document prepared to run, with the errors it runs despite; or the errors that stop it.
pub fn prepared(
    text: &str,
    path: Option<&str>,
    loader: &dyn Loader,
) -> Result<(Source, Vec<Diagnostic>), Vec<Diagnostic>> {
    prepare_reporting(text, &lint_options(path), loader)
        .map(|prepared| (prepared.source, prepared.tolerated))
}

/// How a run is driven (the Python side's keyword arguments, as JSON).
#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
struct Settings {
    path: Option<String>,
    max_parallelism: Option<usize>,
    start_ms: Option<u64>,
    seed: Option<u64>,
    clock: Option<ClockName>,
    waits: Option<WaitsName>,
    script: Option<String>,
    synthetic: bool,
    facts: Option<Value>,
    pins: BTreeMap<String, Value>,
}

#[derive(Debug, Clone, Copy, Deserialize, PartialEq)]
#[serde(rename_all = "lowercase")]
enum ClockName {
    Fixed,
    Real,
}

#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(rename_all = "lowercase")]
enum WaitsName {
    Instant,
    Caller,
}

impl Settings {
    fn run_options(&self) -> RunOptions {
        let mut options = RunOptions::default();
        if let Some(n) = self.max_parallelism {
            options.max_parallelism = n.max(1);
        }
        options.start_ms = self.start_ms.unwrap_or(options.start_ms);
        options.seed = self.seed.unwrap_or(options.seed);
        options.pins = self.pins.clone();
        options
    }

    fn clock(&self) -> ClockMode {
        match self.clock {
            Some(ClockName::Real) => ClockMode::Real,
            _ => ClockMode::Fixed,
        }
    }

    /// Who answers what: the script, else the synthetic provider when asked for, else the
    /// caller; waits as asked, else as the session's rule says.
    fn answerers(&self, clock: ClockMode) -> PyResult<Answerers> {
        let models = match (&self.script, self.synthetic) {
            (Some(script), _) => Models::Scripted(
                Scripted::parse(script)
                    .map_err(|e| PyValueError::new_err(format!("script: {e}")))?,
            ),
            (None, true) => Models::Synthetic,
            (None, false) => Models::Caller,
        };
        let facts = match &self.facts {
            None | Some(Value::Null) => None,
            Some(value) => Some(
                Facts::from_value(value)
                    .map_err(|e| PyValueError::new_err(format!("facts: {e}")))?,
            ),
        };
        let waits = match self.waits {
            Some(WaitsName::Instant) => Waits::Instant,
            Some(WaitsName::Caller) => Waits::Caller,
            None => Waits::for_run(&models, clock),
        };
        Ok(Answerers {
            models,
            waits,
            facts,
        })
    }
}

/// A run of a document, driven from Python (`logicmd.Run` wraps it).
#[pyclass(module = "logicmd._logicmd")]
pub struct NativeRun {
    state: Mutex<RunState>,
}

struct RunState {
    session: Option<Session>,
    /// Why the document cannot run, or the errors it runs despite.
    diagnostics: Vec<Diagnostic>,
    /// The input against the document's contracts.
    input_check: Value,
    /// The ending, handed out once by `next()`.
    ending: Option<Action>,
    ended: bool,
    clock: ClockMode,
}

impl RunState {
    fn cannot_run(diagnostics: Vec<Diagnostic>) -> RunState {
        RunState {
            session: None,
            diagnostics,
            input_check: Value::Null,
            ending: None,
            ended: false,
            clock: ClockMode::Fixed,
        }
    }

    fn now(&self) -> u64 {
        match self.clock {
            ClockMode::Real => now_ms(),
            ClockMode::Fixed => 0,
        }
    }

    fn session(&mut self) -> PyResult<&mut Session> {
        self.session
            .as_mut()
            .ok_or_else(|| PyRuntimeError::new_err("the document cannot run (see diagnostics)"))
    }
}

/// The wall clock in milliseconds since the Unix epoch, for a run on a real clock.
fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

impl NativeRun {
    fn new(state: RunState) -> NativeRun {
        NativeRun {
            state: Mutex::new(state),
        }
    }

    /// The run's state (never poisoned for good: a panic elsewhere leaves it usable).
    fn state(&self) -> MutexGuard<'_, RunState> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

#[pymethods]
impl NativeRun {
    /// Starts a run of `text` on `input` (JSON). A document whose errors stop a run gives a run
    /// that cannot run (`can_run()` is false, `diagnostics()` says why).
    #[staticmethod]
    #[pyo3(signature = (text, input, settings, files=None))]
    fn start(
        py: Python<'_>,
        text: PyBackedStr,
        input: PyBackedStr,
        settings: PyBackedStr,
        files: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<NativeRun> {
        let input = json_arg(Some(&input), "input")?;
        let settings: Settings = typed_arg(&settings, "run options")?;
        let loader = PyLoader::new(files)?;
        let clock = settings.clock();
        let answerers = settings.answerers(clock)?;
        py.detach(|| {
            let (source, tolerated) = match prepared(&text, settings.path.as_deref(), &loader) {
                Ok(prepared) => prepared,
                Err(diagnostics) => return Ok(NativeRun::new(RunState::cannot_run(diagnostics))),
            };
            let check = check_input(&contracts_of(&source), &input);
            let input_check = json!({
                "problems": check.problems, "enforcement": check.enforcement,
                "rejects": check.rejects(), "diagnostics": [],
            });
            let start = Start::new(source, input, settings.run_options(), clock, now_ms());
            let state = match Session::start(start, answerers) {
                Ok(session) => RunState {
                    session: Some(session),
                    diagnostics: tolerated,
                    input_check,
                    ending: None,
                    ended: false,
                    clock,
                },
                Err(error) => {
                    RunState::cannot_run(vec![Diagnostic::error("run-cannot-start", error.message)])
                }
            };
            Ok(NativeRun::new(state))
        })
    }

    /// Continues a run from `snapshot()` (JSON): exactly where it stopped, no answer asked for
    /// again; the events emitted before come again from `events()`.
    #[staticmethod]
    fn resume(py: Python<'_>, snapshot: PyBackedStr, settings: PyBackedStr) -> PyResult<NativeRun> {
        let snapshot = json_arg(Some(&snapshot), "snapshot")?;
        let settings: Settings = typed_arg(&settings, "run options")?;
        let clock = match snapshot.pointer("/session/clock").and_then(Value::as_str) {
            Some("real") => ClockMode::Real,
            _ => ClockMode::Fixed,
        };
        let answerers = settings.answerers(clock)?;
        py.detach(|| {
            let session = Session::resume(&snapshot, answerers)
                .map_err(|e| PyValueError::new_err(format!("cannot resume: {e}")))?;
            Ok(NativeRun::new(RunState {
                session: Some(session),
                diagnostics: Vec::new(),
                input_check: Value::Null,
                ending: None,
                ended: false,
                clock,
            }))
        })
    }

    /// Whether the document runs (else `diagnostics()` says why).
    fn can_run(&self) -> bool {
        self.state().session.is_some()
    }

    /// Feeds every answer whose turn has come and hands out every action ready now, each once;
    /// at the end the run's ending, once. An empty list: nothing to do until an action handed
    /// out is answered (or, when the status is `paused`, a review is).
    #[allow(clippy::should_implement_trait)]
    fn next(&self, py: Python<'_>) -> PyResult<String> {
        py.detach(|| {
            let mut state = self.state();
            let now = state.now();
            let mut actions = Vec::new();
            let mut ending = None;
            if let Some(session) = &mut state.session {
                loop {
                    match session.next(now) {
                        Next::Act(action) => actions.push(action),
                        Next::Fed | Next::Breakpoint(_) => {}
                        Next::Waiting | Next::Paused(_) => break,
                        Next::Ended(action) => {
                            ending = Some(action);
                            break;
                        }
                    }
                }
            }
            if let Some(action) = ending {
                state.ending.get_or_insert(action);
            }
            if !state.ended {
                if let Some(ending) = state.ending.clone() {
                    actions.push(ending);
                    state.ended = true;
                }
            }
            to_json(&actions)
        })
    }

    /// The answer to action `id` (an observation, JSON), in any order.
    fn feed(&self, py: Python<'_>, id: PyBackedStr, observation: PyBackedStr) -> PyResult<()> {
        let observation: Observation = typed_arg(&observation, "not an observation")?;
        py.detach(|| {
            let mut state = self.state();
            let now = state.now();
            state
                .session()?
                .answer(&id, Answer::Observed(observation), now)
                .map_err(|e| PyValueError::new_err(e.message))
        })
    }

    /// Nobody answers action `id`: a model call becomes a `ProviderError` failure, a tool an
    /// unverifiable verdict, a review waits for a person.
    fn unanswered(&self, py: Python<'_>, id: PyBackedStr, reason: PyBackedStr) -> PyResult<()> {
        py.detach(|| {
            let mut state = self.state();
            let now = state.now();
            state
                .session()?
                .answer(&id, Answer::Unanswered(reason.to_string()), now)
                .map_err(|e| PyValueError::new_err(e.message))
        })
    }

    /// Moves a fixed clock forward to `ms`.
    fn set_clock(&self, ms: u64) {
        if let Some(session) = &mut self.state().session {
            session.advance_clock(ms);
        }
    }

    /// Trace events since the last call (JSON array).
    fn events(&self, py: Python<'_>) -> PyResult<String> {
        py.detach(|| {
            let mut state = self.state();
            let events = state
                .session
                .as_mut()
                .map(Session::take_events)
                .unwrap_or_default();
            to_json(&events)
        })
    }

    /// `running`, `paused`, `completed`, `refused` or `failed`.
    fn status(&self) -> PyResult<String> {
        let state = self.state();
        match (&state.session, &state.ending) {
            (
                _,
                Some(Action {
                    kind: ActionKind::Fail { .. },
                    ..
                }),
            )
            | (None, _) => Ok("failed".to_owned()),
            (Some(session), _) => {
                to_json(&session.status()).map(|s| s.trim_matches('"').to_owned())
            }
        }
    }

    /// Actions handed out and not yet fed (JSON array).
    fn outstanding(&self) -> PyResult<String> {
        let state = self.state();
        to_json(
            &state
                .session
                .as_ref()
                .map(Session::outstanding)
                .unwrap_or_default(),
        )
    }

    /// The run as versioned JSON, for `resume`.
    fn snapshot(&self, py: Python<'_>) -> PyResult<String> {
        py.detach(|| {
            let state = self.state();
            to_json(
                &state
                    .session
                    .as_ref()
                    .map_or(Value::Null, Session::snapshot),
            )
        })
    }

    /// The document's errors: why it cannot run, or those the run goes on past (JSON array).
    fn diagnostics(&self) -> PyResult<String> {
        to_json(&self.state().diagnostics)
    }

    /// The input against `contracts.inputs` (`{problems, enforcement, rejects}`), JSON; `null`
    /// after `resume` (the input was checked when the run started).
    fn input_check(&self) -> PyResult<String> {
        to_json(&self.state().input_check)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_options_are_refused_by_name() {
        let error = serde_json::from_str::<Settings>(r#"{"max_paralelism": 2}"#)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(error.contains("unknown field `max_paralelism`"), "{error}");
    }

    #[test]
    fn a_run_on_no_clock_of_its_own_is_fixed_and_waits_follow_the_session_rule() {
        let settings = Settings::default();
        assert_eq!(settings.clock(), ClockMode::Fixed);
        let synthetic = Settings {
            synthetic: true,
            ..Settings::default()
        };
        let answerers = synthetic.answerers(ClockMode::Fixed).ok();
        assert_eq!(answerers.map(|a| a.waits), Some(Waits::Instant));
    }
}
