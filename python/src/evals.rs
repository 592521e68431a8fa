//! Evals for Python and Ray workers: a batch of cases run by one variant with simulated
//! answers and scored, all in core (`logicmd::evals`), without the GIL. The rows are the CLI's
//! (`logicmd evals run`): the same loop, the same scorers, the same row, the same fingerprint.

use std::collections::BTreeMap;

use logicmd::analysis::Options;
use logicmd::evals::{
    fingerprint, judge_simulated, read_cases, read_jsonl, row, run_simulated, Case, Ending,
    MadeFrom, Scorer, Simulated,
};
use logicmd::loader::Loader;
use logicmd::run::{prepare_reporting, Source};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedStr;

use crate::loader::PyLoader;

pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(evals_run_cases, module)?)?;
    module.add_function(wrap_pyfunction!(evals_plan, module)?)?;
    module.add_function(wrap_pyfunction!(evals_read_cases, module)?)
}

/// The cases of a dataset (`.csv` by its name, else JSON Lines) as a JSON list; a bad line is
/// a `ValueError` naming `name:line:column`.
#[pyfunction]
fn evals_read_cases(py: Python<'_>, name: String, text: PyBackedStr) -> PyResult<String> {
    py.detach(|| {
        let cases =
            read_cases(&name, &text).map_err(|e| PyValueError::new_err(format!("{name}:{e}")))?;
        crate::convert::to_json(&cases)
    })
}

/// One variant as it runs: the document prepared (imports, workflow nodes and prompt files
/// read through the loader), who answers, the scorers, and what its rows are made from.
struct Arm {
    variant: String,
    source: Source,
    answers: Simulated,
    scorers: Vec<Scorer>,
    made: MadeFrom,
}

/// The document `text` read from `path` (`id` in its project: relative imports resolve from
/// it), with `files` (a dict or callable, see [`PyLoader`]), answered by the synthetic
/// provider (`seed`) or a script, scored by `scorers` (`schema:FILE` is `schemas[FILE]`, else
/// read from the disk).
struct Given {
    text: PyBackedStr,
    variant: String,
    id: Option<String>,
    scorers: Vec<String>,
    seed: Option<u64>,
    script: Option<String>,
    schemas: Option<BTreeMap<String, String>>,
}

impl Given {
    fn arm(self, loader: &dyn Loader) -> PyResult<Arm> {
        let answers = match (self.seed, self.script) {
            (_, Some(script)) => Simulated::Scripted { script },
            (seed, None) => Simulated::Synthetic {
                seed: seed.unwrap_or(0),
            },
        };
        // A schema the caller read already (a Ray worker runs elsewhere), else from the disk.
        let schemas = self.schemas.unwrap_or_default();
        let load = |file: &str| match schemas.get(file) {
            Some(text) => Ok(text.clone()),
            None => std::fs::read_to_string(file).map_err(|e| format!("cannot read {file}: {e}")),
        };
        let scorers = self
            .scorers
            .iter()
            .map(|spec| Scorer::parse(spec, &load))
            .collect::<Result<Vec<_>, _>>()
            .map_err(PyValueError::new_err)?;
        let id = self.id.as_deref().unwrap_or(&self.variant);
        let options = Options::lint(id).with_path(&self.variant);
        let source = prepare_reporting(&self.text, &options, loader)
            .map_err(|problems| {
                let listed: Vec<String> = problems.iter().map(|d| d.message.clone()).collect();
                PyValueError::new_err(format!(
                    "{} was not run: {}",
                    self.variant,
                    listed.join("; ")
                ))
            })?
            .source;
        let made = MadeFrom::new(&self.text, &answers.identity(), &scorers);
        Ok(Arm {
            variant: self.variant,
            source,
            answers,
            scorers,
            made,
        })
    }
}

fn cases_of(cases: &str) -> PyResult<Vec<Case>> {
    read_jsonl(cases).map_err(|e| PyValueError::new_err(format!("cases:{e}")))
}

/// What the rows of these cases (JSON Lines) by this variant would be made from, without
/// running them: `{"scorers": [name…], "fingerprints": [one a case]}` (a resumed eval keeps
/// the rows whose fingerprint is still the same). Preparing the document reads every file it
/// needs through `files`: a recording callable learns which, for workers that cannot read them.
#[pyfunction]
#[pyo3(signature = (text, variant, cases, scorers, seed=None, script=None, id=None, files=None, schemas=None))]
#[allow(clippy::too_many_arguments)]
fn evals_plan(
    py: Python<'_>,
    text: PyBackedStr,
    variant: String,
    cases: PyBackedStr,
    scorers: Vec<String>,
    seed: Option<u64>,
    script: Option<String>,
    id: Option<String>,
    files: Option<Bound<'_, PyAny>>,
    schemas: Option<BTreeMap<String, String>>,
) -> PyResult<String> {
    let loader = PyLoader::new(files.as_ref())?;
    let given = Given {
        text,
        variant,
        id,
        scorers,
        seed,
        script,
        schemas,
    };
    py.detach(|| {
        let arm = given.arm(&loader)?;
        let cases = cases_of(&cases)?;
        let names: Vec<String> = arm.scorers.iter().map(Scorer::name).collect();
        let fingerprints: Vec<String> = cases.iter().map(|c| fingerprint(&arm.made, c)).collect();
        crate::convert::to_json(&serde_json::json!({
            "scorers": names,
            "fingerprints": fingerprints,
        }))
    })
}

/// Runs the cases (JSON Lines of `{id, input, expected?, metadata?}`) with the document `text`
/// as variant `variant` (see [`evals_plan`] for the rest); the rows as JSON Lines.
#[pyfunction]
#[pyo3(signature = (text, variant, cases, scorers, seed=None, script=None, id=None, files=None, schemas=None))]
#[allow(clippy::too_many_arguments)]
fn evals_run_cases(
    py: Python<'_>,
    text: PyBackedStr,
    variant: String,
    cases: PyBackedStr,
    scorers: Vec<String>,
    seed: Option<u64>,
    script: Option<String>,
    id: Option<String>,
    files: Option<Bound<'_, PyAny>>,
    schemas: Option<BTreeMap<String, String>>,
) -> PyResult<String> {
    let loader = PyLoader::new(files.as_ref())?;
    let given = Given {
        text,
        variant,
        id,
        scorers,
        seed,
        script,
        schemas,
    };
    py.detach(|| {
        let arm = given.arm(&loader)?;
        let mut rows = String::new();
        for case in &cases_of(&cases)? {
            let row = arm.row(case);
            rows.push_str(
                &serde_json::to_string(&row).map_err(|e| PyValueError::new_err(e.to_string()))?,
            );
            rows.push('\n');
        }
        Ok(rows)
    })
}

impl Arm {
    fn row(&self, case: &Case) -> logicmd::evals::Row {
        let ran = run_simulated(&self.source, case, &self.answers);
        let judging = self.scorers.iter().any(|s| matches!(s, Scorer::Judge));
        let judged = match (&ran.ending, judging) {
            (Ending::Completed(output), true) => {
                judge_simulated(&self.source, case, output, &self.answers)
            }
            _ => None,
        };
        let made_from = fingerprint(&self.made, case);
        row(
            case,
            (&self.variant, made_from),
            ran,
            &self.scorers,
            judged.as_deref(),
        )
    }
}
