//! Whole-document functions: parse, validate, lint, check, compile, format, graph. The results
//! are the npm package's (`wasm/src/documents.rs`), key for key.

use logicmd::analysis::{analyze, compile_text, obligations, Kind, Options, Parsed, DEFAULT_ID};
use logicmd::diagnostic::Diagnostic;
use logicmd::loader::{Loader, MemoryLoader};
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedStr;
use serde::Serialize;
use serde_json::json;

use crate::convert::to_json;
use crate::loader::PyLoader;

pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(parse, module)?)?;
    module.add_function(wrap_pyfunction!(validate, module)?)?;
    module.add_function(wrap_pyfunction!(lint, module)?)?;
    module.add_function(wrap_pyfunction!(check, module)?)?;
    module.add_function(wrap_pyfunction!(compile, module)?)?;
    module.add_function(wrap_pyfunction!(format, module)?)?;
    module.add_function(wrap_pyfunction!(graph, module)?)?;
    Ok(())
}

/// The options of a document named `path` (its kind, and the id its imports resolve from).
pub fn lint_options(path: Option<&str>) -> Options<'_> {
    let options = Options::lint(path.unwrap_or(DEFAULT_ID));
    match path {
        Some(path) => options.with_path(path),
        None => options,
    }
}

/// The options of `validate` and `parse`: the kind the path names, when given.
fn validate_options(path: Option<&str>) -> Options<'_> {
    match path {
        Some(path) => Options::validate().with_path(path),
        None => Options::validate(),
    }
}

/// What `validate` and `lint` return: the front door's verdict.
#[derive(Serialize)]
struct Checked<'a> {
    kind: Kind,
    valid: bool,
    diagnostics: &'a [Diagnostic],
}

/// A project settings file handed in: its text, its file name, and the document's path
/// relative to its directory.
type SettingsFile = (PyBackedStr, PyBackedStr, Option<PyBackedStr>);

/// `diagnostics` as the settings file wants them (`logicmd::config::apply_file`), or the
/// settings file's problems, as `{settings_problems}`. (`valid` stays the schema's verdict, as
/// in the CLI: settings shape the rules' diagnostics only.)
fn settled(
    diagnostics: Vec<Diagnostic>,
    settings: Option<&SettingsFile>,
) -> Result<Vec<Diagnostic>, String> {
    let Some((text, name, relative)) = settings else {
        return Ok(diagnostics);
    };
    logicmd::config::apply_file(text, name, relative.as_deref(), diagnostics)
        .map_err(|problems| json!({ "settings_problems": problems }).to_string())
}

/// `text` through the front door with `options`, as `{kind, valid, diagnostics}`, with the
/// settings applied when given.
fn checked(
    text: &str,
    options: &Options<'_>,
    loader: &dyn Loader,
    settings: Option<&SettingsFile>,
) -> PyResult<String> {
    let analysis = analyze(text, options, loader);
    let diagnostics = match settled(analysis.diagnostics, settings) {
        Ok(settled) => settled,
        Err(problems) => return Ok(problems),
    };
    to_json(&Checked {
        kind: analysis.kind,
        valid: analysis.valid,
        diagnostics: &diagnostics,
    })
}

/// `{kind, frontmatter, body, diagnostics}`: the data (a LOGIC.md file's frontmatter, or a DRTL
/// topology) and the body, or the problems that stop them.
#[pyfunction]
#[pyo3(signature = (text, path=None))]
fn parse(py: Python<'_>, text: PyBackedStr, path: Option<PyBackedStr>) -> PyResult<String> {
    py.detach(|| {
        let (kind, parsed, diagnostics) =
            logicmd::analysis::parse(&text, &validate_options(path.as_deref()));
        let body = match &parsed {
            Some(Parsed::Logic(document)) => Some(document.body()),
            _ => None,
        };
        to_json(&json!({
            "kind": kind,
            "frontmatter": parsed.as_ref().map(Parsed::json),
            "body": body,
            "diagnostics": diagnostics,
        }))
    })
}

/// `{kind, valid, diagnostics}`: parse and the schema (`logicmd validate`).
#[pyfunction]
#[pyo3(signature = (text, path=None))]
fn validate(py: Python<'_>, text: PyBackedStr, path: Option<PyBackedStr>) -> PyResult<String> {
    py.detach(|| {
        checked(
            &text,
            &validate_options(path.as_deref()),
            &MemoryLoader::new(),
            None,
        )
    })
}

/// `{kind, valid, diagnostics}`: validation plus the semantic rules (`logicmd lint`), shaped by
/// a project settings file when given (else `{settings_problems}`).
#[pyfunction]
#[pyo3(signature = (text, path=None, files=None, settings=None))]
fn lint(
    py: Python<'_>,
    text: PyBackedStr,
    path: Option<PyBackedStr>,
    files: Option<&Bound<'_, PyAny>>,
    settings: Option<SettingsFile>,
) -> PyResult<String> {
    let loader = PyLoader::new(files)?;
    py.detach(|| {
        checked(
            &text,
            &lint_options(path.as_deref()),
            &loader,
            settings.as_ref(),
        )
    })
}

/// `{kind, valid, diagnostics, findings}`: the obligation analysis (`logicmd check`), shaped by
/// a project settings file when given (else `{settings_problems}`).
#[pyfunction]
#[pyo3(signature = (text, path=None, files=None, settings=None))]
fn check(
    py: Python<'_>,
    text: PyBackedStr,
    path: Option<PyBackedStr>,
    files: Option<&Bound<'_, PyAny>>,
    settings: Option<SettingsFile>,
) -> PyResult<String> {
    let loader = PyLoader::new(files)?;
    py.detach(|| {
        let checked = obligations(&text, &lint_options(path.as_deref()), &loader);
        let diagnostics = match settled(checked.analysis.diagnostics, settings.as_ref()) {
            Ok(settled) => settled,
            Err(problems) => return Ok(problems),
        };
        to_json(&json!({
            "kind": checked.analysis.kind,
            "valid": checked.analysis.valid,
            "diagnostics": diagnostics,
            "findings": checked.findings,
        }))
    })
}

/// `{workflow, step, markdown, diagnostics}`: the prompt scaffold of the whole workflow, or of
/// one step; nothing when lint finds an error (`logicmd compile`).
#[pyfunction]
#[pyo3(signature = (text, step=None, path=None, files=None))]
fn compile(
    py: Python<'_>,
    text: PyBackedStr,
    step: Option<PyBackedStr>,
    path: Option<PyBackedStr>,
    files: Option<&Bound<'_, PyAny>>,
) -> PyResult<String> {
    let loader = PyLoader::new(files)?;
    py.detach(|| {
        let compiled = compile_text(&text, &lint_options(path.as_deref()), &loader);
        let mut diagnostics = compiled.analysis.diagnostics;
        let nothing = |diagnostics: Vec<Diagnostic>| {
            to_json(
                &json!({"workflow": null, "step": null, "markdown": null, "diagnostics": diagnostics}),
            )
        };
        let Some(workflow) = compiled.workflow else {
            return nothing(diagnostics);
        };
        let chosen = match step.as_deref() {
            None => None,
            Some(name) => match workflow.steps.iter().find(|s| s.name == name) {
                Some(found) => Some(found),
                None => {
                    diagnostics.push(Diagnostic::error(
                        "unknown-step",
                        format!(
                            "there is no step `{name}` (steps: {})",
                            workflow.order.join(", ")
                        ),
                    ));
                    return nothing(diagnostics);
                }
            },
        };
        let markdown = chosen.map_or_else(|| workflow.to_markdown(), |s| s.scaffold.clone());
        to_json(&json!({
            "workflow": workflow, "step": chosen, "markdown": markdown, "diagnostics": diagnostics,
        }))
    })
}

/// `{changed, text, diagnostics}`: the formatted text, or the text as it was and why it is left
/// alone (`logicmd fmt`).
#[pyfunction]
fn format(py: Python<'_>, text: PyBackedStr) -> PyResult<String> {
    py.detach(|| match logicmd::format::format(&text) {
        Ok(formatted) => {
            to_json(&json!({"changed": *formatted != *text, "text": formatted, "diagnostics": []}))
        }
        Err(diagnostic) => {
            to_json(&json!({"changed": false, "text": &*text, "diagnostics": [diagnostic]}))
        }
    })
}

/// `{kind, graph, diagnostics}`: the graph model, laid out (`logicmd graph`).
#[pyfunction]
fn graph(py: Python<'_>, text: PyBackedStr) -> PyResult<String> {
    py.detach(|| {
        let analysis = analyze(&text, &Options::validate(), &MemoryLoader::new());
        let mut graph = match &analysis.parsed {
            Some(Parsed::Drtl(topology)) => Some(logicmd::graph::from_topology(topology)),
            Some(Parsed::Logic(document)) => Some(logicmd::graph::from_document(document)),
            None => None,
        };
        if let Some(graph) = &mut graph {
            logicmd::graph::layout(graph, logicmd::graph::LayoutOptions::default());
        }
        to_json(
            &json!({"kind": analysis.kind, "graph": graph, "diagnostics": analysis.diagnostics}),
        )
    })
}
