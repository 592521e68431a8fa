//! The front door: one entry point that every caller (the CLI, the npm package, the studio)
//! uses, so the same text gets the same answers everywhere.
//!
//! ```text
//! text ──detect──► Kind ──parse──► Parsed (LOGIC.md Document | DRTL Topology) + parse problems
//!      ──check (depth)──► schema problems, then (Depth::Lint) imports and semantic rules
//! ```
//!
//! The policy, stated once:
//! - `valid` means exactly "the document parsed and its schema accepts it" (the canonical
//!   LOGIC.md schema, or our DRTL schema); semantic rules never change it.
//! - Semantic rules run whenever the document parses, schema errors or not, so a user sees every
//!   problem at once. A rule's finding at a place where the schema already reported a wrong value
//!   (the pointer of a type, enum, const, bound, length or pattern error, or anything under it)
//!   is left out: the schema's error already says what is wrong there.
//! - Diagnostics are sorted by position.

mod detect;

use std::sync::Arc;

use serde_json::Value;

use crate::compile::{compile, compile_nodes, CompiledWorkflow};
use crate::diagnostic::{has_errors, sort_diagnostics, Diagnostic};
use crate::document::Document;
use crate::drtl::Topology;
use crate::imports::resolve;
use crate::limits::Limits;
use crate::lint::suppress::{self, Pass};
use crate::loader::Loader;

pub use detect::{detect, Kind};

/// How far to analyse.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Depth {
    /// Parse and validate against the schema (`logicmd validate`).
    Validate,
    /// Also resolve imports and run the semantic rules (`logicmd lint`, the studio).
    Lint,
}

/// What the caller knows about the text.
#[derive(Debug, Clone, Copy)]
pub struct Options<'a> {
    /// The file's path as the user wrote it: it decides the kind when it names one.
    pub path: Option<&'a str>,
    /// The document's id for its loader: relative imports resolve against it.
    pub id: &'a str,
    /// How far to analyse.
    pub depth: Depth,
    /// Size limits the text must respect.
    pub limits: Limits,
}

impl<'a> Options<'a> {
    /// Lint depth, default limits, for a document known to its loader as `id`.
    pub fn lint(id: &'a str) -> Self {
        Options {
            path: None,
            id,
            depth: Depth::Lint,
            limits: Limits::DEFAULT,
        }
    }

    /// Validate depth, default limits.
    pub fn validate() -> Self {
        Options {
            depth: Depth::Validate,
            ..Options::lint(DEFAULT_ID)
        }
    }

    /// The same options for the file at `path` (as the user wrote it), which may decide the kind.
    pub fn with_path(mut self, path: &'a str) -> Self {
        self.path = Some(path);
        self
    }
}

/// The id a document without a name has.
pub const DEFAULT_ID: &str = "document.logic.md";

/// A parsed text of either kind, shared without copying (the studio keeps it between the redraw
/// and the deferred checks).
#[derive(Debug, Clone)]
pub enum Parsed {
    /// A LOGIC.md document.
    Logic(Arc<Document>),
    /// A DRTL topology.
    Drtl(Arc<Topology>),
}

impl Parsed {
    /// Which kind of document it is.
    pub fn kind(&self) -> Kind {
        match self {
            Parsed::Logic(_) => Kind::Logic,
            Parsed::Drtl(_) => Kind::Drtl,
        }
    }

    /// The data as JSON (a LOGIC.md file's frontmatter, or the topology).
    pub fn json(&self) -> &Value {
        match self {
            Parsed::Logic(document) => document.json(),
            Parsed::Drtl(topology) => topology.json(),
        }
    }

    /// The whole original text.
    pub fn text(&self) -> &str {
        match self {
            Parsed::Logic(document) => document.text(),
            Parsed::Drtl(topology) => topology.text(),
        }
    }
}

/// Everything the front door found.
#[derive(Debug, Clone)]
pub struct Analysis {
    /// Which kind the text was taken for.
    pub kind: Kind,
    /// `None` when the text does not parse (see the diagnostics).
    pub parsed: Option<Parsed>,
    /// Every problem, sorted by position.
    pub diagnostics: Vec<Diagnostic>,
    /// The document parsed and its schema accepts it.
    pub valid: bool,
}

impl Analysis {
    /// Whether any diagnostic is an error.
    pub fn has_errors(&self) -> bool {
        has_errors(&self.diagnostics)
    }

    /// The LOGIC.md document, when the text is one and parses.
    pub fn document(&self) -> Option<&Document> {
        match &self.parsed {
            Some(Parsed::Logic(document)) => Some(document),
            _ => None,
        }
    }

    /// The DRTL topology, when the text is one and parses.
    pub fn topology(&self) -> Option<&Topology> {
        match &self.parsed {
            Some(Parsed::Drtl(topology)) => Some(topology),
            _ => None,
        }
    }
}

/// Analyses `text` to `options.depth`, loading other files through `loader`.
pub fn analyze(text: &str, options: &Options<'_>, loader: &dyn Loader) -> Analysis {
    let (kind, parsed, mut diagnostics) = parse(text, options);
    let mut valid = false;
    if let Some(parsed) = &parsed {
        let schema = schema_problems(parsed);
        valid = !has_errors(&diagnostics) && !has_errors(&schema);
        if options.depth >= Depth::Lint {
            let rules = semantic_problems(parsed, options.id, loader);
            diagnostics.extend(without_schema_duplicates(rules, &schema));
        }
        diagnostics.extend(schema);
        if options.depth >= Depth::Lint {
            diagnostics = suppress::apply(parsed, diagnostics, Pass::Lint);
        }
    }
    sort_diagnostics(&mut diagnostics);
    Analysis {
        kind,
        parsed,
        diagnostics,
        valid,
    }
}

/// Analyses raw file contents: the bytes must be UTF-8 and within `options.limits`.
pub fn analyze_bytes(bytes: &[u8], options: &Options<'_>, loader: &dyn Loader) -> Analysis {
    match crate::document::text_of_bytes(bytes, options.limits) {
        Ok(text) => analyze(text, options, loader),
        Err(problem) => Analysis {
            kind: detect("", options.path),
            parsed: None,
            diagnostics: vec![*problem],
            valid: false,
        },
    }
}

/// Detects the kind and parses: what the studio draws from at every keystroke.
pub fn parse(text: &str, options: &Options<'_>) -> (Kind, Option<Parsed>, Vec<Diagnostic>) {
    parse_from(text, None, options)
}

/// [`parse`] of a text the caller holds shared: a LOGIC.md document keeps `text` itself rather
/// than a copy (unless lone carriage returns had to be read as line breaks).
pub fn parse_shared(
    text: &Arc<str>,
    options: &Options<'_>,
) -> (Kind, Option<Parsed>, Vec<Diagnostic>) {
    parse_from(text, Some(text), options)
}

fn parse_from(
    text: &str,
    shared: Option<&Arc<str>>,
    options: &Options<'_>,
) -> (Kind, Option<Parsed>, Vec<Diagnostic>) {
    // A lone carriage return is a line break (classic Mac line endings), offsets unchanged.
    let read = crate::source::lone_cr_as_lf(text);
    let shared = shared.filter(|_| matches!(read, std::borrow::Cow::Borrowed(_)));
    let text = &*read;
    let kind = detect(text, options.path);
    match kind {
        Kind::Logic => {
            let parsed = match shared {
                Some(source) => Document::parse_shared(source, options.limits),
                None => Document::parse_with(text, options.limits),
            };
            let document = parsed.document.map(|d| Parsed::Logic(Arc::new(d)));
            (kind, document, parsed.diagnostics)
        }
        Kind::Drtl => {
            let (topology, diagnostics) = crate::drtl::parse_with(text, options.limits);
            (
                kind,
                topology.map(|t| Parsed::Drtl(Arc::new(t))),
                diagnostics,
            )
        }
    }
}

/// The schema and (at lint depth) semantic problems of an already parsed text, with the same
/// policy as [`analyze`]: the studio parses at every keystroke and checks later.
pub fn check(parsed: &Parsed, options: &Options<'_>, loader: &dyn Loader) -> Vec<Diagnostic> {
    let schema = schema_problems(parsed);
    let mut diagnostics = if options.depth >= Depth::Lint {
        without_schema_duplicates(semantic_problems(parsed, options.id, loader), &schema)
    } else {
        Vec::new()
    };
    diagnostics.extend(schema);
    if options.depth >= Depth::Lint {
        diagnostics = suppress::apply(parsed, diagnostics, Pass::Lint);
    }
    sort_diagnostics(&mut diagnostics);
    diagnostics
}

fn schema_problems(parsed: &Parsed) -> Vec<Diagnostic> {
    match parsed {
        Parsed::Logic(document) => crate::schema::validate(document),
        Parsed::Drtl(topology) => crate::drtl::validate_schema(topology),
    }
}

fn semantic_problems(parsed: &Parsed, id: &str, loader: &dyn Loader) -> Vec<Diagnostic> {
    match parsed {
        Parsed::Logic(document) => crate::lint::lint(document, id, loader),
        Parsed::Drtl(topology) => crate::drtl::lint(topology),
    }
}

/// Keywords whose error says the value at its pointer is wrong as a whole (not which keys or
/// items it has, which other rules may still have something to say about).
fn about_the_value(keyword: Option<&str>) -> bool {
    matches!(
        keyword,
        Some(
            "type"
                | "enum"
                | "const"
                | "minimum"
                | "maximum"
                | "exclusiveMinimum"
                | "exclusiveMaximum"
                | "multipleOf"
                | "minLength"
                | "maxLength"
                | "pattern"
                | "format"
        )
    )
}

fn without_schema_duplicates(rules: Vec<Diagnostic>, schema: &[Diagnostic]) -> Vec<Diagnostic> {
    let wrong_values: Vec<&str> = schema
        .iter()
        .filter(|d| about_the_value(d.keyword.as_deref()))
        .map(|d| d.path.as_str())
        .collect();
    rules
        .into_iter()
        .filter(|rule| {
            !wrong_values.iter().any(|&at| {
                rule.path == at
                    || (rule.path.starts_with(at)
                        && rule.path.as_bytes().get(at.len()) == Some(&b'/'))
            })
        })
        .collect()
}

/// What the obligation analysis gives.
#[derive(Debug, Clone)]
pub struct Obligations {
    /// The document's errors when it is not sound, else every finding placed in the file.
    pub analysis: Analysis,
    /// The findings with the path of node ids (or step names) each concerns; empty when the
    /// analysis did not run.
    pub findings: Vec<crate::check::Finding>,
}

/// The obligation analysis (`logicmd check`) of a text: its errors when lint finds any (the
/// analysis needs a sound document: parsed, schema-valid, references resolved), else the
/// findings of [`crate::check`] placed in the file. Imports are merged through `loader` first.
pub fn obligations(text: &str, options: &Options<'_>, loader: &dyn Loader) -> Obligations {
    let options = Options {
        depth: Depth::Lint,
        ..*options
    };
    let mut analysis = analyze(text, &options, loader);
    if analysis.has_errors() {
        analysis.diagnostics.retain(Diagnostic::is_error);
        return Obligations {
            analysis,
            findings: Vec::new(),
        };
    }
    let (findings, placed) = match &analysis.parsed {
        Some(Parsed::Logic(document)) => {
            let resolved = resolve(document, options.id, loader);
            let findings = crate::check::check_document(&resolved.value);
            let placed = crate::check::place_findings(&findings, &**document);
            (findings, placed)
        }
        Some(Parsed::Drtl(topology)) => {
            let findings = crate::check::check_topology(topology);
            let placed = crate::check::place_findings(&findings, &**topology);
            (findings, placed)
        }
        None => (Vec::new(), Vec::new()),
    };
    analysis.diagnostics = match &analysis.parsed {
        Some(parsed) => {
            let mut kept = suppress::apply(parsed, placed, Pass::Check);
            sort_diagnostics(&mut kept);
            kept
        }
        None => placed,
    };
    Obligations { analysis, findings }
}

/// What `compile` gives: the compiled workflow when the document has no error, and every
/// problem found on the way (the same checks as lint).
#[derive(Debug, Clone)]
pub struct Compiled {
    /// The compiled workflow; `None` when any diagnostic is an error.
    pub workflow: Option<CompiledWorkflow>,
    /// The lint-depth analysis, with the problems compilation found added.
    pub analysis: Analysis,
}

/// Analyses at lint depth and compiles, refusing (no workflow) when any error was found: a
/// scaffold with a broken reference or an unparsable `{{ }}` must not be handed to a model.
/// Workflow nodes are compiled from their own documents through `loader`.
pub fn compile_text(text: &str, options: &Options<'_>, loader: &dyn Loader) -> Compiled {
    let options = Options {
        depth: Depth::Lint,
        ..*options
    };
    let mut analysis = analyze(text, &options, loader);
    let workflow = match (&analysis.parsed, analysis.has_errors()) {
        (Some(Parsed::Logic(document)), false) => {
            let resolved = resolve(document, options.id, loader);
            match compile(&resolved.value) {
                Ok(mut workflow) => {
                    compile_nodes(&mut workflow, &resolved.value, options.id, loader);
                    Some(workflow)
                }
                Err(errors) => {
                    analysis
                        .diagnostics
                        .extend(crate::compile::place(document, errors));
                    sort_diagnostics(&mut analysis.diagnostics);
                    None
                }
            }
        }
        (Some(Parsed::Drtl(_)), false) => {
            analysis.diagnostics.push(Diagnostic::error(
                "compile-drtl",
                "DRTL topologies have no prompt scaffold to compile; use `logicmd graph` or `logicmd run`",
            ));
            None
        }
        _ => None,
    };
    Compiled { workflow, analysis }
}

/// What the graph of a text gives: the analysis at the depth asked, and the graph, laid out,
/// whenever the text parses (valid or not: the studio draws while the text is being written).
#[derive(Debug, Clone)]
pub struct Graphed {
    /// The analysis of the text.
    pub analysis: Analysis,
    /// The graph model, laid out; `None` when the text does not parse.
    pub graph: Option<crate::graph::Graph>,
}

/// The graph of a text (`logicmd graph`, npm `graph`): a topology's nodes and routes, or a
/// LOGIC.md document's steps, trees and workflow nodes — the nodes' documents loaded through
/// `loader`, so a workflow edge is drawn incompatible exactly where lint reports
/// `contract-mismatch` — laid out with the default options.
pub fn graph(text: &str, options: &Options<'_>, loader: &dyn Loader) -> Graphed {
    let analysis = analyze(text, options, loader);
    let graph = analysis.parsed.as_ref().map(|parsed| {
        let mut graph = graph_of(parsed, options.id, loader);
        crate::graph::layout(&mut graph, crate::graph::LayoutOptions::default());
        graph
    });
    Graphed { analysis, graph }
}

/// The graph model of a parsed text, not laid out (see [`graph`]).
pub fn graph_of(parsed: &Parsed, id: &str, loader: &dyn Loader) -> crate::graph::Graph {
    match parsed {
        Parsed::Logic(document) => crate::graph::from_workflow(document, id, loader),
        Parsed::Drtl(topology) => crate::graph::from_topology(topology),
    }
}

/// Routes `input` through the decision tree `tree` of a LOGIC.md text (`logicmd eval-tree`, npm
/// `evalTree`): the text is analysed at lint depth first, and refused with its errors as
/// `compile` and `run` refuse it (a condition that is text would route the same way whatever the
/// input); imports are merged, so an imported tree is `as.tree`. The input is an object (the
/// conditions read `input.field`).
pub fn eval_tree(
    text: &str,
    options: &Options<'_>,
    loader: &dyn Loader,
    tree: &str,
    input: &Value,
) -> Result<crate::trees::TreeOutcome, Vec<Diagnostic>> {
    if !input.is_object() {
        let what = crate::json::kind_of(input);
        return Err(vec![Diagnostic::error(
            "eval-tree-input",
            format!("the input is {what}; a decision tree reads an object (its conditions read `input.field`)"),
        )
        .with_help("give the input as a JSON object, e.g. {\"type\": \"question\"}")]);
    }
    let options = Options {
        depth: Depth::Lint,
        ..*options
    };
    let analysis = analyze(text, &options, loader);
    if analysis.has_errors() {
        return Err(analysis
            .diagnostics
            .into_iter()
            .filter(Diagnostic::is_error)
            .collect());
    }
    let Some(Parsed::Logic(document)) = &analysis.parsed else {
        return Err(vec![Diagnostic::error(
            "eval-tree-drtl",
            "DRTL topologies have no decision trees; `eval-tree` reads a LOGIC.md document's",
        )]);
    };
    let resolved = resolve(document, options.id, loader);
    crate::trees::eval_tree(&resolved.value, tree, input)
        .map_err(|message| vec![Diagnostic::error("eval-tree", message)])
}

#[cfg(test)]
mod tests;
