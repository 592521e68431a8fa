//! Evals for Python and Ray workers: a batch of cases run by one variant with simulated
//! answers and scored, all in core (`logicmd::evals`), without the GIL. The rows are the CLI's
//! (`logicmd evals run`): the same loop, the same scorers, the same row, the same fingerprint.

use std::collections::BTreeMap;

use logicmd::analysis::Options;
use logicmd::evals::{
    fingerprint, judge_simulated, read_cases, read_jsonl, row, run_simulated, Case, Ending, Judged,
    MadeFrom, Scorer, Simulated,
};
use logicmd::loader::Loader;
use logicmd::run::{prepare_reporting, Source};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedStr;

use crate::loader::PyLoader;

pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_class::<EvalsVariant>()?;
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

/// What [`EvalsVariant`] is made from.
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
        let made = MadeFrom::new((&self.text, &source), &answers.identity(), &scorers);
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

/// One variant of an eval, prepared (Python's `EvalsVariant`): the document `text` read from
/// `variant` (`id` in its project: relative imports resolve from it) with `files` (a dict or
/// callable, see [`PyLoader`]), answered by the synthetic provider (`seed`) or a script,
/// scored by `scorers` (the CLI's `--scorer` texts; `schema:FILE` is `schemas[FILE]`, else
/// read from the disk). Preparing it reads every file the document needs through `files`: a
/// recording callable learns which, for workers that cannot read them.
#[pyclass(name = "EvalsVariant", frozen)]
struct EvalsVariant(Arm);

#[pymethods]
impl EvalsVariant {
    #[new]
    #[pyo3(signature = (text, variant, scorers, seed=None, script=None, id=None, files=None, schemas=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        text: PyBackedStr,
        variant: String,
        scorers: Vec<String>,
        seed: Option<u64>,
        script: Option<String>,
        id: Option<String>,
        files: Option<Bound<'_, PyAny>>,
        schemas: Option<BTreeMap<String, String>>,
    ) -> PyResult<EvalsVariant> {
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
        py.detach(|| given.arm(&loader)).map(EvalsVariant)
    }

    /// The scorers' names, as rows name them.
    fn scorer_names(&self) -> Vec<String> {
        self.0.scorers.iter().map(Scorer::name).collect()
    }

    /// What the rows of these cases (JSON Lines) would be made from, one a case, without
    /// running them: a resumed eval keeps the rows whose fingerprint is still the same.
    fn fingerprints(&self, py: Python<'_>, cases: PyBackedStr) -> PyResult<Vec<String>> {
        py.detach(|| {
            let cases = cases_of(&cases)?;
            Ok(cases.iter().map(|c| fingerprint(&self.0.made, c)).collect())
        })
    }

    /// Runs the cases (JSON Lines of `{id, input, expected?, metadata?}`); the rows as JSON
    /// Lines.
    fn run(&self, py: Python<'_>, cases: PyBackedStr) -> PyResult<String> {
        py.detach(|| {
            let mut rows = String::new();
            for case in &cases_of(&cases)? {
                let row = self.0.row(case);
                rows.push_str(
                    &serde_json::to_string(&row)
                        .map_err(|e| PyValueError::new_err(e.to_string()))?,
                );
                rows.push('\n');
            }
            Ok(rows)
        })
    }
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
            judged.as_deref().map_or(Judged::Nobody, Judged::Answered),
        )
    }
}
