//! Editing, expressions, decision trees, share links and node discovery.

use logicmd::diagnostic::Diagnostic;
use logicmd::edit::{apply, Edit};
use serde_json::{json, Value};
use wasm_bindgen::prelude::*;

use crate::convert::{json_arg, text_arg, to_js};
use logicmd::share;

/// Applies an edit (`{op: "set", path, value}`, `{op: "rename_step", from, to}`, ...).
#[wasm_bindgen(js_name = applyEdit, unchecked_return_type = "EditResult")]
pub fn apply_edit(
    #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Edit")] edit: JsValue,
) -> Result<JsValue, JsError> {
    let text = text_arg(&text, "text")?;
    let edit: Edit = serde_json::from_value(json_arg(edit, "edit")?)
        .map_err(|e| JsError::new(&format!("not an edit: {e}")))?;
    match apply(&text, &edit) {
        Ok(applied) => to_js(&json!({
            "applied": true, "text": applied.text, "patches": applied.patches,
            "inverse": applied.inverse, "notes": applied.notes, "diagnostics": applied.diagnostics,
        })),
        Err(refusal) => to_js(&json!({
            "applied": false, "text": text, "patches": [], "inverse": null, "notes": [],
            "diagnostics": [refusal],
        })),
    }
}

/// Evaluates a `{{ }}` expression (with or without the braces) against a JSON context.
#[wasm_bindgen(js_name = evaluate, unchecked_return_type = "EvaluateResult")]
pub fn evaluate(
    #[wasm_bindgen(unchecked_param_type = "string")] expression: JsValue,
    #[wasm_bindgen(unchecked_param_type = "{ [key: string]: Json } | null")] context: JsValue,
) -> Result<JsValue, JsError> {
    let expression = text_arg(&expression, "expression")?;
    let context = match json_arg(context, "context")? {
        Value::Null => json!({}),
        other => other,
    };
    match logicmd::expr::eval_input(&expression, &context) {
        Ok(value) => to_js(&json!({ "value": value, "diagnostics": [] })),
        Err(error) => {
            let mut diagnostic = Diagnostic::error(error.code, error.message);
            diagnostic.line = 1;
            // The column in characters of the text as typed (the offset is in bytes).
            let before = expression.get(..error.offset).unwrap_or(&expression);
            diagnostic.column = u32::try_from(before.chars().count() + 1).unwrap_or(u32::MAX);
            to_js(&json!({ "value": null, "diagnostics": [diagnostic] }))
        }
    }
}

/// Routes `input` (an object) through decision tree `tree` of the document, through the front
/// door as `logicmd eval-tree` does: a document lint finds errors in is refused with them;
/// `files` resolves imports (an imported tree is `as.tree`) and `path` names the document.
#[wasm_bindgen(js_name = evalTree, unchecked_return_type = "EvalTreeResult")]
pub fn eval_tree(
    #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] tree: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Json")] input: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Files | null")] files: Option<JsValue>,
    #[wasm_bindgen(unchecked_param_type = "string | null")] path: Option<JsValue>,
) -> Result<JsValue, JsError> {
    let text = text_arg(&text, "text")?;
    let tree = text_arg(&tree, "tree")?;
    let input = json_arg(input, "input")?;
    let path = crate::convert::optional_text_arg(&path.unwrap_or(JsValue::NULL), "path")?;
    let loader = crate::loader::JsLoader::new(files.unwrap_or(JsValue::NULL))?;
    let id = path.as_deref().unwrap_or(logicmd::analysis::DEFAULT_ID);
    let mut options = logicmd::analysis::Options::lint(id);
    if let Some(path) = path.as_deref() {
        options = options.with_path(path);
    }
    match logicmd::analysis::eval_tree(&text, &options, &loader, &tree, &input) {
        Ok(outcome) => to_js(&json!({ "result": outcome, "diagnostics": [] })),
        Err(diagnostics) => to_js(&json!({ "result": null, "diagnostics": diagnostics })),
    }
}

/// The document deflated and base64url-encoded behind the `lm1.` prefix (a URL fragment).
#[wasm_bindgen(js_name = encodeShareLink)]
pub fn encode_share_link(
    #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
) -> Result<String, JsError> {
    Ok(share::encode(&text_arg(&text, "text")?))
}

/// The document of a share link (a whole URL, a fragment, or the bare payload).
#[wasm_bindgen(js_name = decodeShareLink, unchecked_return_type = "DecodeShareLinkResult")]
pub fn decode_share_link(
    #[wasm_bindgen(unchecked_param_type = "string")] link: JsValue,
) -> Result<JsValue, JsError> {
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
pub fn discover(
    #[wasm_bindgen(unchecked_param_type = "SourceFile[]")] files: JsValue,
) -> Result<JsValue, JsError> {
    let Value::Array(files) = json_arg(files, "files")? else {
        return Err(JsError::new("files must be an array of {path, text}"));
    };
    let mut pairs = Vec::with_capacity(files.len());
    for (i, file) in files.iter().enumerate() {
        match (
            file.get("path").and_then(Value::as_str),
            file.get("text").and_then(Value::as_str),
        ) {
            (Some(path), Some(text)) => pairs.push((path, text)),
            _ => {
                return Err(JsError::new(&format!(
                    "files[{i}] must be {{path: string, text: string}}"
                )))
            }
        }
    }
    let (nodes, diagnostics) = logicmd::discover::discover(pairs);
    to_js(&json!({ "nodes": nodes, "diagnostics": diagnostics }))
}
