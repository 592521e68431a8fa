//! Whole-document functions: parse, validate, lint, compile, graph, check, format.

use logicmd::diagnostic::{has_errors, sort_diagnostics, Diagnostic};
use logicmd::Document;
use serde_json::json;
use wasm_bindgen::prelude::*;

use crate::convert::{optional_text_arg, text_arg, to_js};
use crate::loader::JsLoader;

/// The id an unnamed document has, against which relative imports resolve.
const DEFAULT_PATH: &str = "document.logic.md";

/// Parses a LOGIC.md file: its frontmatter as JSON, its body, and any problems.
#[wasm_bindgen(js_name = parse, unchecked_return_type = "ParseResult")]
pub fn parse(
    #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
) -> Result<JsValue, JsError> {
    let text = text_arg(&text, "text")?;
    let parsed = Document::parse(&text);
    let document = parsed.document.as_ref();
    to_js(&json!({
        "frontmatter": document.map(|d| d.json().clone()),
        "body": document.map(|d| d.body().to_owned()),
        "diagnostics": parsed.diagnostics,
    }))
}

/// Validates a LOGIC.md file, or a DRTL topology (YAML whose `nodes` have `id` and `type`).
#[wasm_bindgen(js_name = validate, unchecked_return_type = "ValidateResult")]
pub fn validate(
    #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
) -> Result<JsValue, JsError> {
    let text = text_arg(&text, "text")?;
    let (kind, valid, diagnostics) = validate_any(&text);
    to_js(&json!({ "kind": kind, "valid": valid, "diagnostics": diagnostics }))
}

fn is_topology(text: &str) -> bool {
    !text.trim_start_matches('\u{feff}').starts_with("---")
        && logicmd::drtl::parse(text)
            .0
            .is_some_and(|t| logicmd::drtl::looks_like_drtl(t.json()))
}

fn validate_any(text: &str) -> (&'static str, bool, Vec<Diagnostic>) {
    if is_topology(text) {
        let report = logicmd::drtl::validate(text);
        ("drtl", report.valid, report.diagnostics)
    } else {
        let report = logicmd::validate(text);
        ("logic", report.valid, report.diagnostics)
    }
}

/// Validation plus the semantic rules; `files` resolves imports (`{path: text}` or `path => text`).
#[wasm_bindgen(js_name = lint, unchecked_return_type = "LintResult")]
pub fn lint(
    #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string | null")] path: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Files | null")] files: JsValue,
) -> Result<JsValue, JsError> {
    let text = text_arg(&text, "text")?;
    let path = optional_text_arg(&path, "path")?;
    let loader = JsLoader::new(files)?;
    let (kind, _, mut diagnostics) = validate_any(&text);
    if kind == "logic" {
        if let Some(document) = Document::parse(&text).document {
            let id = path.as_deref().unwrap_or(DEFAULT_PATH);
            diagnostics.extend(logicmd::lint::lint(&document, id, &loader));
        }
    }
    sort_diagnostics(&mut diagnostics);
    to_js(&json!({ "valid": !has_errors(&diagnostics), "diagnostics": diagnostics }))
}

/// The prompt scaffold: the whole workflow, or one step when `step` is given.
#[wasm_bindgen(js_name = compile, unchecked_return_type = "CompileResult")]
pub fn compile(
    #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string | null")] step: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Files | null")] files: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string | null")] path: JsValue,
) -> Result<JsValue, JsError> {
    let text = text_arg(&text, "text")?;
    let step = optional_text_arg(&step, "step")?;
    let path = optional_text_arg(&path, "path")?;
    let loader = JsLoader::new(files)?;
    let nothing = |diagnostics: Vec<Diagnostic>| {
        to_js(
            &json!({ "workflow": null, "step": null, "markdown": null, "diagnostics": diagnostics }),
        )
    };
    let report = logicmd::validate(&text);
    let mut diagnostics = report.diagnostics;
    let Some(document) = report.document.filter(|_| report.valid) else {
        return nothing(diagnostics);
    };
    let resolved =
        logicmd::imports::resolve(&document, path.as_deref().unwrap_or(DEFAULT_PATH), &loader);
    diagnostics.extend(resolved.diagnostics);
    let workflow = match logicmd::compile::compile_document(&document, &resolved.value) {
        Ok(workflow) => workflow,
        Err(errors) => {
            diagnostics.extend(errors);
            return nothing(diagnostics);
        }
    };
    let chosen = match step {
        None => None,
        Some(name) => match workflow.steps.iter().find(|s| s.name == name) {
            Some(found) => Some(found.clone()),
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
    let markdown = chosen
        .as_ref()
        .map_or_else(|| workflow.to_markdown(), |s| s.scaffold.clone());
    to_js(&json!({
        "workflow": workflow, "step": chosen, "markdown": markdown, "diagnostics": diagnostics,
    }))
}

/// The graph model of a LOGIC.md file or DRTL topology, laid out.
#[wasm_bindgen(js_name = graph, unchecked_return_type = "GraphResult")]
pub fn graph(
    #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
) -> Result<JsValue, JsError> {
    let text = text_arg(&text, "text")?;
    let (kind, _, diagnostics) = validate_any(&text);
    let mut graph = if kind == "drtl" {
        logicmd::drtl::parse(&text)
            .0
            .map(|t| logicmd::graph::from_topology(&t))
    } else {
        Document::parse(&text)
            .document
            .map(|d| logicmd::graph::from_document(&d))
    };
    if let Some(graph) = &mut graph {
        logicmd::graph::layout(graph, logicmd::graph::LayoutOptions::default());
    }
    to_js(&json!({ "kind": kind, "graph": graph, "diagnostics": diagnostics }))
}

/// The obligation analysis (only for documents that validate).
#[wasm_bindgen(js_name = check, unchecked_return_type = "CheckResult")]
pub fn check(
    #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
) -> Result<JsValue, JsError> {
    let text = text_arg(&text, "text")?;
    let (kind, valid, diagnostics) = validate_any(&text);
    let findings = match (kind, valid) {
        ("drtl", true) => logicmd::drtl::parse(&text)
            .0
            .map(|t| logicmd::check::check_topology(&t))
            .unwrap_or_default(),
        ("logic", true) => Document::parse(&text)
            .document
            .map(|d| logicmd::check::check_document(d.json()))
            .unwrap_or_default(),
        _ => Vec::new(),
    };
    to_js(&json!({ "findings": findings, "diagnostics": diagnostics }))
}

/// Formats a LOGIC.md file (spec order, 2-space indent, comments kept).
#[wasm_bindgen(js_name = format, unchecked_return_type = "FormatResult")]
pub fn format(
    #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
) -> Result<JsValue, JsError> {
    let text = text_arg(&text, "text")?;
    match logicmd::format::format(&text) {
        Ok(formatted) => {
            to_js(&json!({ "changed": formatted != text, "text": formatted, "diagnostics": [] }))
        }
        Err(diagnostic) => {
            to_js(&json!({ "changed": false, "text": text, "diagnostics": [diagnostic] }))
        }
    }
}
