//! Evals for Python and Ray workers: a batch of cases run by one variant with simulated
//! answers and scored, all in core (`logicmd::evals`), without the GIL. The rows are the CLI's
//! (`logicmd evals run`): the same loop, the same scorers, the same row.

use logicmd::evals::{
    fingerprint, judge_simulated, read_cases, read_jsonl, row, run_simulated, Ending, Judged,
    MadeFrom, Scorer, Simulated,
};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedStr;

use crate::loader::PyLoader;

pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(evals_run_cases, module)?)?;
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

/// Runs the cases (JSON Lines of `{id, input, expected?, metadata?}`) with the document `text`
/// as variant `variant`, answered by the synthetic provider (`seed`) or a script, scored by
/// `scorers` (the CLI's `--scorer` texts; `schema:FILE` is `schemas[FILE]`, else read from the
/// disk); the rows as JSON Lines.
#[pyfunction]
#[pyo3(signature = (text, variant, cases, scorers, seed=None, script=None, path=None, schemas=None))]
#[allow(clippy::too_many_arguments)]
fn evals_run_cases(
    py: Python<'_>,
    text: PyBackedStr,
    variant: String,
    cases: PyBackedStr,
    scorers: Vec<String>,
    seed: Option<u64>,
    script: Option<String>,
    path: Option<String>,
    schemas: Option<std::collections::BTreeMap<String, String>>,
) -> PyResult<String> {
    let answers = match (seed, script) {
        (_, Some(script)) => Simulated::Scripted { script },
        (seed, None) => Simulated::Synthetic {
            seed: seed.unwrap_or(0),
        },
    };
    let loader = PyLoader::new(None)?;
    py.detach(|| {
        // A schema the caller read already (a Ray worker runs elsewhere), else from the disk.
        let schemas = schemas.unwrap_or_default();
        let load = |file: &str| match schemas.get(file) {
            Some(text) => Ok(text.clone()),
            None => std::fs::read_to_string(file).map_err(|e| format!("cannot read {file}: {e}")),
        };
        let scorers = scorers
            .iter()
            .map(|spec| Scorer::parse(spec, &load))
            .collect::<Result<Vec<_>, _>>()
            .map_err(PyValueError::new_err)?;
        let cases = read_jsonl(&cases).map_err(|e| PyValueError::new_err(format!("cases:{e}")))?;
        let (source, _) =
            crate::run::prepared(&text, path.as_deref(), &loader).map_err(|problems| {
                let listed: Vec<String> = problems.iter().map(|d| d.message.clone()).collect();
                PyValueError::new_err(format!("{variant} was not run: {}", listed.join("; ")))
            })?;
        let made = MadeFrom::new((&text, &source), &answers.identity(), &scorers);
        let mut rows = String::new();
        for case in &cases {
            let ran = run_simulated(&source, case, &answers);
            let judged = match (
                &ran.ending,
                scorers.iter().any(|s| matches!(s, Scorer::Judge)),
            ) {
                (Ending::Completed(output), true) => {
                    judge_simulated(&source, case, output, &answers)
                }
                _ => None,
            };
            let made_from = fingerprint(&made, case);
            let judged = judged.as_deref().map_or(Judged::Nobody, Judged::Answered);
            let row = row(case, (&variant, made_from), ran, &scorers, judged);
            rows.push_str(
                &serde_json::to_string(&row).map_err(|e| PyValueError::new_err(e.to_string()))?,
            );
            rows.push('\n');
        }
        Ok(rows)
    })
}
