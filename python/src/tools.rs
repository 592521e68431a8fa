//! Edits, expressions, decision trees, traces and the run's input rules.

use logicmd::diagnostic::Diagnostic;
use logicmd::edit::{apply, Edit};
use logicmd::run::session::{check_input, contracts_of, example_input, no_checker};
use logicmd::trace::{self, Rule, TraceLimits};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedStr;
use serde_json::{json, Value};

use crate::convert::{json_arg, to_json, typed_arg};
use crate::loader::PyLoader;
use crate::run::prepared;

pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(edit, module)?)?;
    module.add_function(wrap_pyfunction!(evaluate, module)?)?;
    module.add_function(wrap_pyfunction!(eval_tree, module)?)?;
    module.add_function(wrap_pyfunction!(read_trace, module)?)?;
    module.add_function(wrap_pyfunction!(to_jsonl, module)?)?;
    module.add("TRACE_MAX_BYTES", TraceLimits::DEFAULT.max_bytes)?;
    module.add_function(wrap_pyfunction!(check_trace, module)?)?;
    module.add_function(wrap_pyfunction!(input_check, module)?)?;
    module.add_function(wrap_pyfunction!(input_example, module)?)?;
    module.add_function(wrap_pyfunction!(unverifiable_reason, module)?)?;
    Ok(())
}

/// `{applied, text, patches, inverse, notes, diagnostics}` (`logicmd edit`); a refused edit is
/// `applied: false` with the reason.
#[pyfunction]
fn edit(py: Python<'_>, text: PyBackedStr, edit: PyBackedStr) -> PyResult<String> {
    let edit: Edit = typed_arg(&edit, "not an edit")?;
    py.detach(|| match apply(&text, &edit) {
        Ok(applied) => to_json(&json!({
            "applied": true, "text": applied.text, "patches": applied.patches,
            "inverse": applied.inverse, "notes": applied.notes, "diagnostics": applied.diagnostics,
        })),
        Err(refusal) => to_json(&json!({
            "applied": false, "text": &*text, "patches": [], "inverse": null, "notes": [],
            "diagnostics": [refusal],
        })),
    })
}

/// `{value, diagnostics}`: a `{{ }}` expression (with or without the braces) against a JSON
/// context (`logicmd eval`).
#[pyfunction]
#[pyo3(signature = (expression, context=None))]
fn evaluate(
    py: Python<'_>,
    expression: PyBackedStr,
    context: Option<PyBackedStr>,
) -> PyResult<String> {
    let context = match json_arg(context.as_deref(), "context")? {
        Value::Null => json!({}),
        other => other,
    };
    py.detach(|| {
        let source = if expression.contains("{{") {
            expression.to_string()
        } else {
            format!("{{{{ {} }}}}", &*expression)
        };
        match logicmd::expr::Template::parse(&source).and_then(|t| t.evaluate(&context)) {
            Ok(value) => to_json(&json!({"value": value, "diagnostics": []})),
            Err(error) => {
                let mut diagnostic = Diagnostic::error(error.code, error.message);
                diagnostic.line = 1;
                diagnostic.column = u32::try_from(error.offset + 1).unwrap_or(u32::MAX);
                to_json(&json!({"value": null, "diagnostics": [diagnostic]}))
            }
        }
    })
}

/// `{result, diagnostics}`: `input` routed through decision tree `tree` (`logicmd eval-tree`).
#[pyfunction]
fn eval_tree(
    py: Python<'_>,
    text: PyBackedStr,
    tree: PyBackedStr,
    input: PyBackedStr,
) -> PyResult<String> {
    let input = json_arg(Some(&input), "input")?;
    py.detach(|| {
        let report = logicmd::validate(&text);
        let Some(document) = report.document.filter(|_| report.valid) else {
            return to_json(&json!({"result": null, "diagnostics": report.diagnostics}));
        };
        match logicmd::trees::eval_tree(document.json(), &tree, &input) {
            Ok(outcome) => to_json(&json!({"result": outcome, "diagnostics": []})),
            Err(message) => to_json(
                &json!({"result": null, "diagnostics": [Diagnostic::error("eval-tree", message)]}),
            ),
        }
    })
}

/// The events of a JSON Lines trace, bounded as the CLI bounds a trace file; a `ValueError`
/// naming the line otherwise.
#[pyfunction]
fn read_trace(py: Python<'_>, bytes: Vec<u8>) -> PyResult<String> {
    py.detach(|| match trace::read_jsonl(&bytes, TraceLimits::DEFAULT) {
        Ok(read) => to_json(&read.events),
        Err(error) => Err(PyValueError::new_err(match error.line {
            Some(line) => format!("line {line}: {}", error.message),
            None => error.message,
        })),
    })
}

/// Events (a JSON array) as JSON Lines, one compact event a line: the CLI's trace file.
#[pyfunction]
fn to_jsonl(py: Python<'_>, events: PyBackedStr) -> PyResult<String> {
    let events: Vec<Value> = typed_arg(&events, "the trace must be a list of event dicts")?;
    py.detach(|| {
        let mut out = String::new();
        for event in &events {
            out.push_str(&to_json(event)?);
            out.push('\n');
        }
        Ok(out)
    })
}

/// `{violations, rules, events, diagnostics}` (`logicmd trace check`): the built-in rules
/// (unless `builtins` is false) and the formulas `rules` (`FORMULA` or `NAME=FORMULA`) over
/// `events` (a JSON array of events).
#[pyfunction]
fn check_trace(
    py: Python<'_>,
    events: PyBackedStr,
    rules: Vec<String>,
    builtins: bool,
) -> PyResult<String> {
    let events: Vec<Value> = typed_arg(&events, "the trace must be a list of event dicts")?;
    py.detach(|| {
        let limits = TraceLimits::DEFAULT;
        if events.len() > limits.max_events {
            return Err(PyValueError::new_err(format!(
                "the trace has {} events; at most {} are read",
                events.len(),
                limits.max_events
            )));
        }
        if let Some(i) = events.iter().position(|e| !e.is_object()) {
            return Err(PyValueError::new_err(format!(
                "event {i} of the trace is not an object"
            )));
        }
        let mut checked = if builtins {
            Rule::builtins()
        } else {
            Vec::new()
        };
        let mut diagnostics = Vec::new();
        for (i, text) in rules.iter().enumerate() {
            match Rule::parse(text) {
                Ok(rule) => checked.push(rule),
                Err(error) => diagnostics.push(
                    Diagnostic::error(
                        "trace-rule-invalid",
                        format!("rule {}: {}", i + 1, error.message),
                    )
                    .with_path(format!("/{i}"))
                    .with_help(format!("{text}\n{}^", " ".repeat(error.column - 1))),
                ),
            }
        }
        if !diagnostics.is_empty() {
            return to_json(
                &json!({"violations": [], "rules": [], "events": 0, "diagnostics": diagnostics}),
            );
        }
        let violations: Vec<Value> = trace::check(&events, &checked)
            .iter()
            .map(|v| json!({"rule": v.rule, "index": v.index, "message": v.message}))
            .collect();
        let names: Vec<&str> = checked.iter().map(Rule::name).collect();
        to_json(&json!({
            "violations": violations, "rules": names, "events": events.len(), "diagnostics": [],
        }))
    })
}

/// `{problems, enforcement, rejects, diagnostics}`: `input` against the document's
/// `contracts.inputs`, and what its `contracts.validation` makes of problems.
#[pyfunction]
#[pyo3(signature = (text, input, path=None, files=None))]
fn input_check(
    py: Python<'_>,
    text: PyBackedStr,
    input: PyBackedStr,
    path: Option<PyBackedStr>,
    files: Option<&Bound<'_, PyAny>>,
) -> PyResult<String> {
    let input = json_arg(Some(&input), "input")?;
    let loader = PyLoader::new(files)?;
    py.detach(|| match prepared(&text, path.as_deref(), &loader) {
        Ok((source, _)) => {
            let check = check_input(&contracts_of(&source), &input);
            to_json(&json!({
                "problems": check.problems, "enforcement": check.enforcement,
                "rejects": check.rejects(), "diagnostics": [],
            }))
        }
        Err(diagnostics) => to_json(&json!({
            "problems": [], "enforcement": null, "rejects": false, "diagnostics": diagnostics,
        })),
    })
}

/// `{input, diagnostics}`: an input that fits the document's `contracts.inputs` (what
/// `logicmd run --dry-run` uses without `--input`).
#[pyfunction]
#[pyo3(signature = (text, path=None, files=None))]
fn input_example(
    py: Python<'_>,
    text: PyBackedStr,
    path: Option<PyBackedStr>,
    files: Option<&Bound<'_, PyAny>>,
) -> PyResult<String> {
    let loader = PyLoader::new(files)?;
    py.detach(|| match prepared(&text, path.as_deref(), &loader) {
        Ok((source, _)) => {
            to_json(&json!({"input": example_input(&contracts_of(&source)), "diagnostics": []}))
        }
        Err(diagnostics) => to_json(&json!({"input": null, "diagnostics": diagnostics})),
    })
}

/// Why a tool nobody checks is unverifiable (the words every front end uses).
#[pyfunction]
fn unverifiable_reason(rule: &str) -> String {
    no_checker(rule)
}
