//! The seed's next-action API: a decision the Python side drives with its own model calls
//! (`logicmd.next_action`), asking again until the answer is a valid action.

use std::sync::{Mutex, PoisonError};

use logicmd::next_action::{Decision, DecisionOptions, State, Step};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedStr;
use serde_json::json;

use crate::convert::{to_json, typed_arg};

pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_class::<NativeDecision>()
}

/// One decision in progress.
#[pyclass(module = "logicmd._logicmd")]
pub struct NativeDecision {
    decision: Mutex<Decision>,
}

#[pymethods]
impl NativeDecision {
    /// Starts deciding for `state` (JSON): the decision and the first model request (JSON). An
    /// unusable state, or a `spec` that does not parse, is a `ValueError` naming what is wrong.
    #[staticmethod]
    #[pyo3(signature = (state, spec=None, max_attempts=3))]
    fn start(
        state: PyBackedStr,
        spec: Option<PyBackedStr>,
        max_attempts: u32,
    ) -> PyResult<(NativeDecision, String)> {
        let state: State = typed_arg(&state, "state is not an agent state")?;
        let mut options = DecisionOptions {
            max_attempts: max_attempts.clamp(1, 20),
            ..DecisionOptions::default()
        };
        if let Some(text) = spec {
            let document = logicmd::Document::parse(&text).document.ok_or_else(|| {
                PyValueError::new_err(
                    "spec is not a LOGIC.md document (its frontmatter does not parse)",
                )
            })?;
            options.spec = Some(document.json().clone());
        }
        let (decision, request) = Decision::start(state, options).map_err(|problems| {
            PyValueError::new_err(format!("the state cannot be used: {}", problems.join("; ")))
        })?;
        let request = to_json(&request)?;
        Ok((
            NativeDecision {
                decision: Mutex::new(decision),
            },
            request,
        ))
    }

    /// Feeds the model's answer: `{"action": …}` when decided, `{"request": …}` to ask again,
    /// or `{"problems": […]}` when no valid answer came within the attempts (JSON).
    fn feed(&self, answer: &str) -> PyResult<String> {
        let mut decision = self.decision.lock().unwrap_or_else(PoisonError::into_inner);
        let attempts = decision.attempts();
        match decision.feed(answer) {
            Step::Done(action) => {
                to_json(&json!({"action": action, "attempts": decision.attempts()}))
            }
            Step::Retry { request, problems } => {
                to_json(&json!({"request": request, "problems": problems, "attempts": attempts}))
            }
            Step::Failed(problems) => {
                to_json(&json!({"problems": problems, "attempts": decision.attempts()}))
            }
        }
    }
}
