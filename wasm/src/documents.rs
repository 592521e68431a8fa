//! Whole-document functions: parse, validate, lint, compile, graph, check, format.

use logicmd::analysis::{analyze, compile_text, obligations, Analysis, Kind, Options, DEFAULT_ID};
use logicmd::diagnostic::{write_json_array, Diagnostic};
use logicmd::loader::MemoryLoader;
use logicmd::Document;
use serde::Serialize;
use serde_json::{json, Value};
use wasm_bindgen::prelude::*;

use crate::convert::{json_to_js, optional_text_arg, text_arg, to_js};
use crate::loader::JsLoader;

/// Parses a LOGIC.md file: its frontmatter as JSON, its body, and any problems.
#[wasm_bindgen(js_name = parse, unchecked_return_type = "ParseResult")]
pub fn parse(
    #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
) -> Result<JsValue, JsError> {
    let text = text_arg(&text, "text")?;
    let parsed = Document::parse(&text);
    let document = parsed.document.as_ref();
    to_js(&ParseResult {
        frontmatter: document.map(Document::json),
        body: document.map(Document::body),
        diagnostics: &parsed.diagnostics,
    })
}

/// What `parse` returns, serialised straight from the document (no copy of its JSON view).
#[derive(Serialize)]
struct ParseResult<'a> {
    frontmatter: Option<&'a Value>,
    body: Option<&'a str>,
    diagnostics: &'a [Diagnostic],
}

/// What `validate` and `lint` return, serialised straight from the analysis: building a
/// `serde_json::Value` of the diagnostics first copied every string of them once more and was
/// a measurable part of a small document's call (issue #17, round three in docs/perf.md). The
/// text is written by [`Checked::to_json`]; the derived `Serialize` is what it must equal (the
/// test below).
#[derive(Serialize)]
pub struct Checked<'a> {
    kind: Kind,
    valid: bool,
    diagnostics: &'a [Diagnostic],
}

impl<'a> From<&'a Analysis> for Checked<'a> {
    fn from(analysis: &'a Analysis) -> Self {
        Checked {
            kind: analysis.kind,
            valid: analysis.valid,
            diagnostics: &analysis.diagnostics,
        }
    }
}

impl Checked<'_> {
    /// The JSON text `serde_json::to_string` makes of it, written directly: the keys are
    /// constant text and a string is copied whole unless it needs an escape (through serde
    /// the writer was about a tenth of a `validate` call on the corpus; issue #17).
    pub fn to_json(&self) -> String {
        let mut out = String::with_capacity(self.json_length_estimate());
        out.push_str("{\"kind\":\"");
        out.push_str(self.kind.as_str());
        out.push_str(if self.valid {
            "\",\"valid\":true,\"diagnostics\":"
        } else {
            "\",\"valid\":false,\"diagnostics\":"
        });
        write_json_array(self.diagnostics, &mut out);
        out.push('}');
        out
    }

    /// About the length of [`Checked::to_json`], so the text is allocated once: the strings
    /// plus the keys and numbers around each diagnostic (escapes may add a little).
    fn json_length_estimate(&self) -> usize {
        let strings = |d: &Diagnostic| {
            d.code.len()
                + d.message.len()
                + d.path.len()
                + d.keyword.as_ref().map_or(0, String::len)
                + d.help.as_ref().map_or(0, String::len)
        };
        let per_diagnostic = 112;
        48 + self
            .diagnostics
            .iter()
            .map(|d| strings(d) + per_diagnostic)
            .sum::<usize>()
    }
}

/// The result of `validate` as the JSON text that crosses the boundary (the native probe
/// `wasm/examples/npm_probe.rs` measures exactly this).
pub fn validate_json(text: &str) -> String {
    let analysis = analyze(text, &Options::validate(), &MemoryLoader::new());
    Checked::from(&analysis).to_json()
}

/// Validates a LOGIC.md file, or a DRTL topology (YAML whose `nodes` have `id` and `type`).
#[wasm_bindgen(js_name = validate, unchecked_return_type = "ValidateResult")]
pub fn validate(
    #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
) -> Result<JsValue, JsError> {
    let text = text_arg(&text, "text")?;
    json_to_js(&validate_json(&text))
}

/// The options of a document named `path` (its kind and the id its imports resolve from).
fn lint_options(path: Option<&str>) -> Options<'_> {
    let options = Options::lint(path.unwrap_or(DEFAULT_ID));
    match path {
        Some(path) => options.with_path(path),
        None => options,
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
    let analysis = analyze(&text, &lint_options(path.as_deref()), &loader);
    json_to_js(&Checked::from(&analysis).to_json())
}

/// The prompt scaffold: the whole workflow, or one step when `step` is given. Compiling runs
/// the same checks as `lint` and gives no workflow when any of them is an error.
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
    let compiled = compile_text(&text, &lint_options(path.as_deref()), &loader);
    let mut diagnostics = compiled.analysis.diagnostics;
    let nothing = |diagnostics: Vec<Diagnostic>| {
        to_js(
            &json!({ "workflow": null, "step": null, "markdown": null, "diagnostics": diagnostics }),
        )
    };
    let Some(workflow) = compiled.workflow else {
        return nothing(diagnostics);
    };
    let chosen = match step.as_deref().map(|name| workflow.step(name)) {
        None => None,
        Some(Ok(found)) => Some(found.clone()),
        Some(Err(unknown)) => {
            diagnostics.push(unknown);
            return nothing(diagnostics);
        }
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
    let graphed = logicmd::analysis::graph(&text, &Options::validate(), &MemoryLoader::new());
    to_js(&json!({
        "kind": graphed.analysis.kind,
        "graph": graphed.graph,
        "diagnostics": graphed.analysis.diagnostics,
    }))
}

/// The obligation analysis, as `logicmd check` gives it: `diagnostics` hold the document's
/// errors when it is not sound (does not parse, validate or lint cleanly), else every finding
/// placed in the file; `findings` are the same findings with the path of node ids each concerns.
#[wasm_bindgen(js_name = check, unchecked_return_type = "CheckResult")]
pub fn check(
    #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string | null")] path: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Files | null")] files: JsValue,
) -> Result<JsValue, JsError> {
    let text = text_arg(&text, "text")?;
    let path = optional_text_arg(&path, "path")?;
    let loader = JsLoader::new(files)?;
    let options = lint_options(path.as_deref());
    let checked = obligations(&text, &options, &loader);
    to_js(&json!({
        "kind": checked.analysis.kind,
        "valid": checked.analysis.valid,
        "diagnostics": checked.analysis.diagnostics,
        "findings": checked.findings,
    }))
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

/// The bench's corpus of documents, for the test below.
#[cfg(test)]
#[path = "../../core/benches/support/corpus.rs"]
mod corpus;

#[cfg(test)]
mod tests {
    use super::*;

    /// The result written directly is the text serde wrote, on every document we have (all
    /// of them, the limit-hitting fixtures included) and on DRTL and valid documents.
    #[test]
    fn the_written_result_is_what_serde_writes() {
        let mut texts: Vec<String> = super::corpus::corpus(false)
            .into_iter()
            .map(|(_, text)| text)
            .collect();
        assert!(texts.len() > 100, "only {} documents found", texts.len());
        texts.push("nodes:\n  - id: a\n    type: llm\n".to_owned());
        texts.push("---\nspec_version: \"1.0\"\nname: \"quote \\\" \\t\"\n---\n".to_owned());
        let mut with_help = 0;
        for text in &texts {
            let analysis = analyze(text, &Options::validate(), &MemoryLoader::new());
            let checked = Checked::from(&analysis);
            let by_serde = serde_json::to_string(&checked).unwrap_or_default();
            assert_eq!(checked.to_json(), by_serde);
            with_help += usize::from(by_serde.contains("\"help\":"));
        }
        assert!(with_help > 10, "only {with_help} results with a hint");
    }
}
