//! WebAssembly bindings of `logicmd` for JavaScript visual builders. Every function takes plain
//! values and returns a plain object (never a JS `Map`) that carries `diagnostics`.

mod share;

use js_sys::Function;
use logicmd::diagnostic::Diagnostic;
use logicmd::edit::{apply, Edit};
use logicmd::loader::{resolve_relative, LoadError, Loader, MemoryLoader};
use logicmd::Document;
use serde::Serialize;
use serde_json::{json, Value};
use wasm_bindgen::prelude::*;

#[wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
}

fn to_js(value: &impl Serialize) -> Result<JsValue, JsError> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|e| JsError::new(&format!("cannot convert the result: {e}")))
}

fn from_js(value: JsValue, what: &str) -> Result<Value, JsError> {
    if value.is_undefined() || value.is_null() {
        return Ok(Value::Null);
    }
    serde_wasm_bindgen::from_value(value)
        .map_err(|e| JsError::new(&format!("{what} is not JSON data: {e}")))
}

fn text_arg(value: &JsValue, what: &str) -> Result<String, JsError> {
    value
        .as_string()
        .ok_or_else(|| JsError::new(&format!("{what} must be a string")))
}

/// Imports and `logic_ref`s read through a JS object `{path: text}` or a function `path => text`.
struct JsLoader {
    files: MemoryLoader,
    callback: Option<Function>,
}

impl JsLoader {
    fn new(files: JsValue) -> Result<JsLoader, JsError> {
        let mut loader = JsLoader {
            files: MemoryLoader::new(),
            callback: None,
        };
        if let Some(function) = files.dyn_ref::<Function>() {
            loader.callback = Some(function.clone());
        } else if let Value::Object(map) = from_js(files, "files")? {
            for (path, text) in map {
                let Value::String(text) = text else {
                    return Err(JsError::new(&format!("files[\"{path}\"] must be a string")));
                };
                loader
                    .files
                    .insert(&path, text)
                    .map_err(|e| JsError::new(&e.message))?;
            }
        }
        Ok(loader)
    }
}

impl Loader for JsLoader {
    fn resolve(&self, from: &str, reference: &str) -> Result<String, LoadError> {
        resolve_relative(from, reference)
    }

    fn load(&self, id: &str) -> Result<String, LoadError> {
        if let Some(callback) = &self.callback {
            let result = callback
                .call1(&JsValue::NULL, &JsValue::from_str(id))
                .map_err(|_| LoadError::new(format!("the loader threw for `{id}`")))?;
            return result
                .as_string()
                .ok_or_else(|| LoadError::new(format!("no file `{id}`")));
        }
        self.files.load(id)
    }
}

fn parse_document(text: &str) -> (Option<Document>, Vec<Diagnostic>) {
    let parsed = Document::parse(text);
    (parsed.document, parsed.diagnostics)
}

/// Parses a LOGIC.md file: its frontmatter as JSON, its body, and any problems.
#[wasm_bindgen(js_name = parse, unchecked_return_type = "ParseResult")]
pub fn parse(text: JsValue) -> Result<JsValue, JsError> {
    let text = text_arg(&text, "text")?;
    let (document, diagnostics) = parse_document(&text);
    to_js(&json!({
        "frontmatter": document.as_ref().map(|d| d.json().clone()),
        "body": document.as_ref().map(|d| d.body().to_owned()),
        "diagnostics": diagnostics,
    }))
}

/// Validates a LOGIC.md file, or a DRTL topology (YAML whose `nodes` have `id` and `type`).
#[wasm_bindgen(js_name = validate, unchecked_return_type = "ValidateResult")]
pub fn validate(text: JsValue) -> Result<JsValue, JsError> {
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
pub fn lint(text: JsValue, path: Option<String>, files: JsValue) -> Result<JsValue, JsError> {
    let text = text_arg(&text, "text")?;
    let loader = JsLoader::new(files)?;
    let (kind, _, mut diagnostics) = validate_any(&text);
    if kind == "logic" {
        if let Some(document) = Document::parse(&text).document {
            let id = path.unwrap_or_else(|| "document.logic.md".to_owned());
            diagnostics.extend(logicmd::lint::lint(&document, &id, &loader));
        }
    }
    logicmd::diagnostic::sort_diagnostics(&mut diagnostics);
    let valid = !logicmd::diagnostic::has_errors(&diagnostics);
    to_js(&json!({ "valid": valid, "diagnostics": diagnostics }))
}

/// The prompt scaffold: the whole workflow, or one step when `step` is given.
#[wasm_bindgen(js_name = compile, unchecked_return_type = "CompileResult")]
pub fn compile(text: JsValue, step: Option<String>, files: JsValue) -> Result<JsValue, JsError> {
    let text = text_arg(&text, "text")?;
    let loader = JsLoader::new(files)?;
    let report = logicmd::validate(&text);
    let mut diagnostics = report.diagnostics;
    let Some(document) = report.document.filter(|_| report.valid) else {
        return to_js(
            &json!({ "workflow": null, "step": null, "markdown": null, "diagnostics": diagnostics }),
        );
    };
    let resolved = logicmd::imports::resolve(&document, "document.logic.md", &loader);
    diagnostics.extend(resolved.diagnostics);
    match logicmd::compile::compile_document(&document, &resolved.value) {
        Ok(workflow) => {
            let chosen = step
                .as_deref()
                .map(|name| workflow.steps.iter().find(|s| s.name == name).cloned());
            if let Some(None) = chosen {
                let name = step.unwrap_or_default();
                diagnostics.push(Diagnostic::error(
                    "unknown-step",
                    format!(
                        "there is no step `{name}` (steps: {})",
                        workflow.order.join(", ")
                    ),
                ));
                return to_js(
                    &json!({ "workflow": null, "step": null, "markdown": null, "diagnostics": diagnostics }),
                );
            }
            let chosen = chosen.flatten();
            let markdown = chosen
                .as_ref()
                .map_or_else(|| workflow.to_markdown(), |s| s.scaffold.clone());
            to_js(
                &json!({ "workflow": workflow, "step": chosen, "markdown": markdown, "diagnostics": diagnostics }),
            )
        }
        Err(errors) => {
            diagnostics.extend(errors);
            to_js(
                &json!({ "workflow": null, "step": null, "markdown": null, "diagnostics": diagnostics }),
            )
        }
    }
}

/// The graph model, laid out.
#[wasm_bindgen(js_name = graph, unchecked_return_type = "GraphResult")]
pub fn graph(text: JsValue) -> Result<JsValue, JsError> {
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

/// The obligation analysis.
#[wasm_bindgen(js_name = check, unchecked_return_type = "CheckResult")]
pub fn check(text: JsValue) -> Result<JsValue, JsError> {
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

/// Applies an edit (`{op: "set", path, value}`, `{op: "rename_step", from, to}`, ...).
#[wasm_bindgen(js_name = applyEdit, unchecked_return_type = "EditResult")]
pub fn apply_edit(text: JsValue, edit: JsValue) -> Result<JsValue, JsError> {
    let text = text_arg(&text, "text")?;
    let edit: Edit = serde_json::from_value(from_js(edit, "edit")?)
        .map_err(|e| JsError::new(&format!("not an edit: {e}")))?;
    match apply(&text, &edit) {
        Ok(applied) => to_js(&json!({
            "applied": true, "text": applied.text, "patches": applied.patches, "inverse": applied.inverse,
            "notes": applied.notes, "diagnostics": applied.diagnostics,
        })),
        Err(refusal) => to_js(&json!({
            "applied": false, "text": text, "patches": [], "inverse": null, "notes": [], "diagnostics": [refusal],
        })),
    }
}

/// Formats a LOGIC.md file (spec order, 2-space indent, comments kept).
#[wasm_bindgen(js_name = format, unchecked_return_type = "FormatResult")]
pub fn format(text: JsValue) -> Result<JsValue, JsError> {
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

/// Evaluates a `{{ }}` expression (with or without the braces) against a JSON context.
#[wasm_bindgen(js_name = evaluate, unchecked_return_type = "EvaluateResult")]
pub fn evaluate(expression: JsValue, context: JsValue) -> Result<JsValue, JsError> {
    let expression = text_arg(&expression, "expression")?;
    let context = match from_js(context, "context")? {
        Value::Null => json!({}),
        other => other,
    };
    let source = if expression.contains("{{") {
        expression
    } else {
        format!("{{{{ {expression} }}}}")
    };
    match logicmd::expr::Template::parse(&source).and_then(|t| t.evaluate(&context)) {
        Ok(value) => to_js(&json!({ "value": value, "diagnostics": [] })),
        Err(error) => {
            let mut diagnostic = Diagnostic::error(error.code, error.message);
            diagnostic.column = u32::try_from(error.offset + 1).unwrap_or(u32::MAX);
            diagnostic.line = 1;
            to_js(&json!({ "value": null, "diagnostics": [diagnostic] }))
        }
    }
}

/// Routes `input` through decision tree `tree`.
#[wasm_bindgen(js_name = evalTree, unchecked_return_type = "EvalTreeResult")]
pub fn eval_tree(text: JsValue, tree: String, input: JsValue) -> Result<JsValue, JsError> {
    let text = text_arg(&text, "text")?;
    let input = from_js(input, "input")?;
    let report = logicmd::validate(&text);
    let Some(document) = report.document.filter(|_| report.valid) else {
        return to_js(&json!({ "result": null, "diagnostics": report.diagnostics }));
    };
    match logicmd::trees::eval_tree(document.json(), &tree, &input) {
        Ok(outcome) => to_js(&json!({ "result": outcome, "diagnostics": [] })),
        Err(message) => to_js(
            &json!({ "result": null, "diagnostics": [Diagnostic::error("eval-tree", message)] }),
        ),
    }
}

#[wasm_bindgen(js_name = encodeShareLink)]
pub fn encode_share_link(text: JsValue) -> Result<String, JsError> {
    Ok(share::encode(&text_arg(&text, "text")?))
}

#[wasm_bindgen(js_name = decodeShareLink, unchecked_return_type = "DecodeShareLinkResult")]
pub fn decode_share_link(link: JsValue) -> Result<JsValue, JsError> {
    let link = text_arg(&link, "link")?;
    match share::decode(&link) {
        Ok(text) => to_js(&json!({ "text": text, "diagnostics": [] })),
        Err(message) => to_js(
            &json!({ "text": null, "diagnostics": [Diagnostic::error("share-link", message)] }),
        ),
    }
}

/// Builder node definitions (§10.1, §13) for a list of `{path, text}` files.
#[wasm_bindgen(js_name = discover, unchecked_return_type = "DiscoverResult")]
pub fn discover(files: JsValue) -> Result<JsValue, JsError> {
    let Value::Array(files) = from_js(files, "files")? else {
        return Err(JsError::new("files must be an array of {path, text}"));
    };
    let mut nodes = Vec::new();
    let mut diagnostics = Vec::new();
    for file in files {
        let (Some(path), Some(text)) = (
            file.get("path").and_then(Value::as_str),
            file.get("text").and_then(Value::as_str),
        ) else {
            return Err(JsError::new(
                "each file must be {path: string, text: string}",
            ));
        };
        let named = path.ends_with(".logic.md")
            || path.ends_with("LOGIC.md")
            || path.ends_with(".logic/index.md");
        if !named {
            continue;
        }
        let report = logicmd::validate(text);
        if !report.valid {
            for mut d in report.diagnostics {
                d.message = format!("{path}: {}", d.message);
                diagnostics.push(d);
            }
            continue;
        }
        let Some(document) = report.document else {
            continue;
        };
        let json = document.json();
        let visual = json.get("visual").cloned().unwrap_or(Value::Null);
        nodes.push(json!({
            "path": path,
            "name": json.get("name"),
            "description": json.get("description"),
            "category": visual.get("category").cloned().unwrap_or(json!("reasoning")),
            "icon": visual.get("icon"),
            "color": visual.get("color"),
            "inspector": visual.get("inspector").cloned().unwrap_or(json!([])),
            "ports": {
                "inputs": visual.pointer("/ports/inputs").cloned().or_else(|| json.pointer("/contracts/inputs").cloned()).unwrap_or(json!([])),
                "outputs": visual.pointer("/ports/outputs").cloned().or_else(|| json.pointer("/contracts/outputs").cloned()).unwrap_or(json!([])),
            },
            "strategy": json.pointer("/reasoning/strategy"),
        }));
    }
    to_js(&json!({ "nodes": nodes, "diagnostics": diagnostics }))
}

#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_owned()
}

#[wasm_bindgen(js_name = supportedSpecVersions)]
pub fn supported_spec_versions() -> Vec<String> {
    logicmd::schema::SUPPORTED_SPEC_VERSIONS
        .iter()
        .map(|v| (*v).to_owned())
        .collect()
}
