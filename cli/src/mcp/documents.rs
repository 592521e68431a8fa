//! The document tools, each one call of core's front door (`logicmd::analysis`, `format`,
//! `fix`), so they answer as `logicmd validate | lint | fmt | compile | graph | check` do.

use logicmd::analysis::{self, analyze_bytes, Analysis, Depth};
use logicmd::diagnostic::Severity;
use logicmd::fix::{self, Safety};
use logicmd::Diagnostic;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::schemas::{DiagnosticSchema, LintDiagnosticSchema};
use super::source::{Loaded, Source};
use super::tools::{tool, Context, Misuse, ToolDef};

/// A document's verdict: what every document tool reports.
#[derive(Serialize, JsonSchema)]
pub struct Verdict {
    /// `logic` (LOGIC.md) or `drtl` (a DRTL topology).
    pub kind: String,
    /// The path relative to its root, when the document came as `path`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// The document parsed and its schema accepts it.
    pub valid: bool,
    /// No diagnostic is an error.
    pub passed: bool,
    /// Every problem found, with its place (line, column, JSON Pointer).
    #[schemars(with = "Vec<DiagnosticSchema>")]
    pub diagnostics: Vec<Diagnostic>,
}

impl Verdict {
    pub fn of(loaded: &Loaded, analysis: Analysis) -> Verdict {
        Verdict {
            kind: analysis.kind.as_str().to_owned(),
            file: loaded.name.clone(),
            valid: analysis.valid,
            passed: !has_errors(&analysis.diagnostics),
            diagnostics: analysis.diagnostics,
        }
    }
}

pub fn has_errors(diagnostics: &[Diagnostic]) -> bool {
    diagnostics.iter().any(|d| d.severity == Severity::Error)
}

/// The document's analysis; at lint depth its diagnostics as the project's settings want them
/// (`validate` reports the schema's verdict whatever the settings, as `logicmd validate` does).
fn analyze(context: &Context, source: Source, depth: Depth) -> Result<(Loaded, Analysis), Misuse> {
    let loaded = source.load(&context.roots)?;
    let mut analysis = analyze_bytes(&loaded.bytes, &loaded.options(depth), &*loaded.loader);
    if depth == Depth::Lint {
        analysis.diagnostics = loaded.configured(analysis.diagnostics);
    }
    Ok((loaded, analysis))
}

pub fn validate() -> ToolDef {
    tool(
        "validate",
        "Validate",
        "Parse a LOGIC.md document or DRTL topology and check it against its JSON Schema (as \
         `logicmd validate`). Problems come back as diagnostics with line, column and JSON Pointer.",
        |context, source: Source| {
            let (loaded, analysis) = analyze(context, source, Depth::Validate)?;
            Ok(Verdict::of(&loaded, analysis))
        },
    )
}

#[derive(Deserialize, JsonSchema)]
pub struct LintArgs {
    #[serde(flatten)]
    source: Source,
    /// Also apply fixes and return the fixed text: `safe` applies only fixes that do what the
    /// author evidently meant (as `logicmd lint --fix`), `unsafe` also the guesses. Nothing is
    /// written to a file.
    #[serde(default)]
    fix: Option<FixLevel>,
}

#[derive(Deserialize, JsonSchema, Clone, Copy)]
#[serde(rename_all = "lowercase")]
enum FixLevel {
    Safe,
    Unsafe,
}

#[derive(Serialize, JsonSchema)]
pub struct Linted {
    /// `logic` or `drtl`.
    kind: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    file: Option<String>,
    /// The document parsed and its schema accepts it.
    valid: bool,
    /// No diagnostic is an error.
    passed: bool,
    /// Every problem (schema and semantic rules), each with the quick fixes the language server
    /// offers for it.
    #[schemars(with = "Vec<LintDiagnosticSchema>")]
    diagnostics: Vec<Value>,
    /// With `fix`: the text after the fixes and what was applied.
    #[serde(skip_serializing_if = "Option::is_none")]
    fixed: Option<Fixed>,
}

#[derive(Serialize, JsonSchema)]
struct Fixed {
    /// The whole text after the fixes (the same as the input when none applied).
    text: String,
    /// The titles of the fixes applied, in order.
    applied: Vec<String>,
}

pub fn lint() -> ToolDef {
    tool(
        "lint",
        "Lint",
        "Validate, then check references, cycles, expressions, thresholds, decision trees, \
         workflows and imports (as `logicmd lint`). Each diagnostic carries the quick fixes the \
         language server offers (edits for the `edit` tool); `fix` returns the fixed text.",
        |context, args: LintArgs| {
            let (loaded, analysis) = analyze(context, args.source, Depth::Lint)?;
            let text = analysis.parsed.as_ref().map(|p| p.text().to_owned());
            let json = analysis.parsed.as_ref().map(|p| p.json());
            let diagnostics = analysis
                .diagnostics
                .iter()
                .map(|diagnostic| {
                    let fixes = text
                        .as_deref()
                        .map(|text| fix::fixes_for(text, json, diagnostic))
                        .unwrap_or_default();
                    with_fixes(diagnostic, &fixes)
                })
                .collect();
            let fixed = match (args.fix, &text) {
                (Some(level), Some(text)) => {
                    let safety = match level {
                        FixLevel::Safe => Safety::Safe,
                        FixLevel::Unsafe => Safety::Unsafe,
                    };
                    let done = fix::fix_selected(
                        text,
                        &loaded.options(Depth::Lint),
                        &*loaded.loader,
                        safety,
                        crate::commands::front::FIX_LIMIT,
                        &|diagnostic| loaded.reported(diagnostic),
                    );
                    Some(Fixed {
                        text: done.text,
                        applied: done.applied.into_iter().map(|f| f.title).collect(),
                    })
                }
                _ => None,
            };
            Ok(Linted {
                kind: analysis.kind.as_str().to_owned(),
                file: loaded.name.clone(),
                valid: analysis.valid,
                passed: !has_errors(&analysis.diagnostics),
                diagnostics,
                fixed,
            })
        },
    )
}

fn with_fixes(diagnostic: &Diagnostic, fixes: &[fix::Fix]) -> Value {
    let mut value = serde_json::to_value(diagnostic).unwrap_or_default();
    if let Value::Object(object) = &mut value {
        object.insert(
            "fixes".into(),
            serde_json::to_value(fixes).unwrap_or_default(),
        );
    }
    value
}

#[derive(Serialize, JsonSchema)]
pub struct Formatted {
    /// `logic` or `drtl`.
    kind: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    file: Option<String>,
    /// The formatted text differs from the input.
    changed: bool,
    /// The formatted text: canonical key order, 2-space indentation, every comment kept; the
    /// input unchanged when it cannot be formatted (see `diagnostics`). Nothing is written.
    text: String,
    /// Why the text was left as it is, if it was.
    #[schemars(with = "Vec<DiagnosticSchema>")]
    diagnostics: Vec<Diagnostic>,
}

pub fn fmt() -> ToolDef {
    tool(
        "fmt",
        "Format",
        "Format a LOGIC.md document (as `logicmd fmt`): canonical key order, 2-space \
         indentation, every comment kept. Returns the text; writes nothing. DRTL topologies are \
         left as they are.",
        |context, source: Source| {
            let loaded = source.load(&context.roots)?;
            let text = match loaded.text() {
                Ok(text) => text.to_owned(),
                Err(problem) => {
                    return Ok(Formatted {
                        kind: "logic".to_owned(),
                        file: loaded.name.clone(),
                        changed: false,
                        text: String::from_utf8_lossy(&loaded.bytes).into_owned(),
                        diagnostics: vec![problem],
                    })
                }
            };
            let kind = analysis::detect(&text, loaded.name.as_deref());
            let (formatted, diagnostics) = match kind {
                analysis::Kind::Drtl => (
                    text.clone(),
                    vec![Diagnostic::new(
                        Severity::Info,
                        "not-formatted",
                        "DRTL topologies are not formatted (the formatter knows LOGIC.md's canonical order); left as is",
                    )],
                ),
                analysis::Kind::Logic => match logicmd::format::format(&text) {
                    Ok(formatted) => (formatted, Vec::new()),
                    Err(problem) => (text.clone(), vec![problem]),
                },
            };
            Ok(Formatted {
                kind: kind.as_str().to_owned(),
                file: loaded.name.clone(),
                changed: formatted != text,
                text: formatted,
                diagnostics,
            })
        },
    )
}

#[derive(Deserialize, JsonSchema)]
pub struct StepArgs {
    #[serde(flatten)]
    source: Source,
    /// The step to compile.
    step: String,
}

#[derive(Serialize, JsonSchema)]
pub struct CompiledStep {
    /// The document compiled (it has no lint error).
    compiled: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    file: Option<String>,
    /// Why it was not compiled, or the warnings it compiled with.
    #[schemars(with = "Vec<DiagnosticSchema>")]
    diagnostics: Vec<Diagnostic>,
    /// The step's reasoning scaffold (markdown), the prompt an agent follows.
    #[serde(skip_serializing_if = "Option::is_none")]
    scaffold: Option<String>,
    /// The compiled step: level, order, inputs, outputs, checks, as `logicmd compile --step
    /// NAME --format json`.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<serde_json::Map<String, Value>>")]
    step: Option<Value>,
}

pub fn compile_step() -> ToolDef {
    tool(
        "compile_step",
        "Compile a step",
        "Compile one step of a LOGIC.md document into its reasoning scaffold (as `logicmd \
         compile --step NAME`). A document with lint errors is not compiled: its diagnostics \
         say why.",
        |context, args: StepArgs| {
            let loaded = args.source.load(&context.roots)?;
            let (diagnostics, workflow) = compiled(&loaded);
            let Some(workflow) = workflow else {
                return Ok(CompiledStep {
                    compiled: false,
                    file: loaded.name.clone(),
                    diagnostics,
                    scaffold: None,
                    step: None,
                });
            };
            let step = workflow
                .step(&args.step)
                .map_err(|unknown| Misuse(unknown.message))?;
            Ok(CompiledStep {
                compiled: true,
                file: loaded.name.clone(),
                diagnostics,
                scaffold: Some(step.scaffold.clone()),
                step: Some(serde_json::to_value(step).unwrap_or_default()),
            })
        },
    )
}

/// The document compiled through the front door (refused on any lint error).
fn compiled(loaded: &Loaded) -> (Vec<Diagnostic>, Option<logicmd::compile::CompiledWorkflow>) {
    match loaded.text() {
        Ok(text) => {
            let compiled =
                analysis::compile_text(text, &loaded.options(Depth::Lint), &*loaded.loader);
            (compiled.analysis.diagnostics, compiled.workflow)
        }
        Err(problem) => (vec![problem], None),
    }
}

#[derive(Serialize, JsonSchema)]
pub struct CompiledWorkflow {
    /// The document compiled (it has no lint error).
    compiled: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    file: Option<String>,
    #[schemars(with = "Vec<DiagnosticSchema>")]
    diagnostics: Vec<Diagnostic>,
    /// The whole scaffold as markdown (as `logicmd compile`).
    #[serde(skip_serializing_if = "Option::is_none")]
    markdown: Option<String>,
    /// Steps with their levels, execution order and scaffolds (as `logicmd compile --format
    /// json`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<serde_json::Map<String, Value>>")]
    workflow: Option<Value>,
}

pub fn compile_workflow() -> ToolDef {
    tool(
        "compile_workflow",
        "Compile the workflow",
        "Compile a whole LOGIC.md document: every step's scaffold, its parallel level and the \
         execution order (as `logicmd compile`). A document with lint errors is not compiled.",
        |context, source: Source| {
            let loaded = source.load(&context.roots)?;
            let (diagnostics, workflow) = compiled(&loaded);
            Ok(CompiledWorkflow {
                compiled: workflow.is_some(),
                file: loaded.name.clone(),
                diagnostics,
                markdown: workflow.as_ref().map(|w| w.to_markdown()),
                workflow: workflow.map(|w| serde_json::to_value(w).unwrap_or_default()),
            })
        },
    )
}

#[derive(Deserialize, JsonSchema)]
pub struct GraphArgs {
    #[serde(flatten)]
    source: Source,
    /// `json` (the graph model, laid out: nodes with positions, edges), `mermaid` or `dot`.
    #[serde(default)]
    format: GraphFormat,
}

#[derive(Deserialize, JsonSchema, Default, Clone, Copy, PartialEq)]
#[serde(rename_all = "lowercase")]
enum GraphFormat {
    #[default]
    Json,
    Mermaid,
    Dot,
}

#[derive(Serialize, JsonSchema)]
pub struct Graphed {
    /// `logic` or `drtl`.
    kind: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    file: Option<String>,
    /// The document is valid (a graph is drawn only then).
    valid: bool,
    #[schemars(with = "Vec<DiagnosticSchema>")]
    diagnostics: Vec<Diagnostic>,
    /// With `format: json`: the graph model (nodes, edges, layout).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<serde_json::Map<String, Value>>")]
    graph: Option<Value>,
    /// With `format: mermaid` or `dot`: the diagram's text.
    #[serde(skip_serializing_if = "Option::is_none")]
    diagram: Option<String>,
}

pub fn graph() -> ToolDef {
    tool(
        "graph",
        "Graph",
        "The graph of a LOGIC.md document or DRTL topology, laid out (as `logicmd graph`): the \
         JSON model, or a Mermaid or Graphviz DOT diagram.",
        |context, args: GraphArgs| {
            let loaded = args.source.load(&context.roots)?;
            let options = loaded.options(Depth::Validate);
            let graphed = match loaded.text() {
                Ok(text) => analysis::graph(text, &options, &*loaded.loader),
                Err(_) => analysis::Graphed {
                    analysis: analyze_bytes(&loaded.bytes, &options, &*loaded.loader),
                    graph: None,
                },
            };
            let analysis = graphed.analysis;
            let graph = graphed.graph.filter(|_| analysis.valid);
            let (graph, diagram) = match (graph, args.format) {
                (None, _) => (None, None),
                (Some(graph), GraphFormat::Json) => {
                    (Some(serde_json::to_value(&graph).unwrap_or_default()), None)
                }
                (Some(graph), GraphFormat::Mermaid) => {
                    (None, Some(logicmd::graph::to_mermaid(&graph)))
                }
                (Some(graph), GraphFormat::Dot) => (None, Some(logicmd::graph::to_dot(&graph))),
            };
            Ok(Graphed {
                kind: analysis.kind.as_str().to_owned(),
                file: loaded.name.clone(),
                valid: analysis.valid,
                diagnostics: analysis.diagnostics,
                graph,
                diagram,
            })
        },
    )
}

pub fn check() -> ToolDef {
    tool(
        "check",
        "Check obligations",
        "The obligation analysis (as `logicmd check`): unverified outputs, human overrides, \
         unbounded cycles, termination, gate branches, each placed in the document. A document \
         that does not validate gets its errors instead.",
        |context, source: Source| {
            let loaded = source.load(&context.roots)?;
            let options = loaded.options(Depth::Validate);
            let mut analysis = match loaded.text() {
                Ok(text) => analysis::obligations(text, &options, &*loaded.loader).analysis,
                Err(_) => analyze_bytes(&loaded.bytes, &options, &*loaded.loader),
            };
            analysis.diagnostics = loaded.configured(analysis.diagnostics);
            Ok(Verdict::of(&loaded, analysis))
        },
    )
}
