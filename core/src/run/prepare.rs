//! What a run needs before it starts, gathered through the front door and a [`Loader`]: the
//! document checked (a run refuses a document lint finds errors in), its imports merged, the
//! documents of its workflow nodes loaded with their overrides, a topology's prompt files read.
//! The result is plain data, kept in snapshots, so a resumed run needs no file again.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{Program, RunError, RunOptions};
use crate::analysis::{analyze, Depth, Options, Parsed};
use crate::diagnostic::Diagnostic;
use crate::imports::resolve;
use crate::loader::Loader;
use crate::model::Spec;

/// A document ready to run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Source {
    /// A LOGIC.md document (imports merged); for a multi-agent workflow, its nodes' documents
    /// by node name, overrides applied.
    Logic {
        /// The frontmatter as JSON, imports merged.
        spec: Value,
        /// The documents of a workflow's nodes, by node name, overrides applied; empty for a single
        /// document.
        #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
        nodes: BTreeMap<String, Value>,
    },
    /// A DRTL topology, with the text of every prompt file it references by path.
    Drtl {
        /// The topology as JSON.
        topology: Value,
        /// The text of each prompt file the topology references, by the path it is referenced by.
        #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
        artifacts: BTreeMap<String, String>,
    },
}

impl Source {
    /// `logic`, `workflow` (a LOGIC.md document with `nodes`) or `drtl`.
    pub fn kind(&self) -> &'static str {
        match self {
            Source::Logic { spec, .. } if spec.get("nodes").is_some() => "workflow",
            Source::Logic { .. } => "logic",
            Source::Drtl { .. } => "drtl",
        }
    }

    /// The document's (or topology's) `name`, when it has one.
    pub fn name(&self) -> Option<&str> {
        let document = match self {
            Source::Logic { spec, .. } => spec,
            Source::Drtl { topology, .. } => topology,
        };
        document.get("name").and_then(Value::as_str)
    }

    /// The program that runs the source, and how many calls it may have in flight (the
    /// options' bound, or the document's `global.max_parallelism` when lower). A document is
    /// read into its typed model once for both: each reading of a 5,000-step document costs
    /// as much as a tenth of its run's trace.
    pub(crate) fn program(
        &self,
        input: &Value,
        options: &RunOptions,
    ) -> Result<(Box<dyn Program>, usize), RunError> {
        match self {
            Source::Logic { spec, nodes } => {
                let typed = Spec::read(spec);
                let parallel = typed
                    .global
                    .max_parallelism
                    .map_or(options.max_parallelism, |n| {
                        options.max_parallelism.min(n.max(1) as usize)
                    });
                let program: Box<dyn Program> = if !nodes.is_empty() || typed.is_workflow() {
                    Box::new(super::logic::WorkflowProgram::new(
                        spec, nodes, input, options,
                    )?)
                } else {
                    Box::new(super::logic::Standalone::new(spec, typed, input, options)?)
                };
                Ok((program, parallel))
            }
            Source::Drtl {
                topology,
                artifacts,
            } => Ok((
                Box::new(super::drtl::DrtlProgram::new(
                    topology, artifacts, input, options,
                )?),
                options.max_parallelism,
            )),
        }
    }
}

/// A document ready to run, and the warnings lint found in it.
#[derive(Debug, Clone)]
pub struct Prepared {
    /// The document to run.
    pub source: Source,
    /// Lint's warnings (not its information): a run goes on with them, shown before it starts.
    /// Any error refuses the run (`logicmd run` exits 1, as `lint` does): a route to a missing
    /// step, a missing need or a condition that is text would run with a meaning the document
    /// does not have.
    pub tolerated: Vec<Diagnostic>,
}

/// Checks `text` at lint depth and gathers what its run needs through `loader`; lint's errors are
/// `Err` ([`prepare_reporting`] also lists the warnings).
pub fn prepare(
    text: &str,
    options: &Options<'_>,
    loader: &dyn Loader,
) -> Result<Source, Vec<Diagnostic>> {
    prepare_reporting(text, options, loader).map(|prepared| prepared.source)
}

/// [`prepare`], with lint's warnings.
pub fn prepare_reporting(
    text: &str,
    options: &Options<'_>,
    loader: &dyn Loader,
) -> Result<Prepared, Vec<Diagnostic>> {
    let options = Options {
        depth: Depth::Lint,
        ..*options
    };
    let analysis = analyze(text, &options, loader);
    let (errors, others): (Vec<Diagnostic>, Vec<Diagnostic>) = analysis
        .diagnostics
        .iter()
        .cloned()
        .partition(Diagnostic::is_error);
    if !errors.is_empty() {
        return Err(errors);
    }
    let tolerated = others
        .into_iter()
        .filter(|d| d.severity == crate::diagnostic::Severity::Warning)
        .collect();
    let source = source_of(analysis, &options, loader)?;
    Ok(Prepared { source, tolerated })
}

fn source_of(
    analysis: crate::analysis::Analysis,
    options: &Options<'_>,
    loader: &dyn Loader,
) -> Result<Source, Vec<Diagnostic>> {
    match analysis.parsed {
        Some(Parsed::Logic(document)) => {
            let spec = resolve(&document, options.id, loader).value.into_owned();
            let nodes = workflow_nodes(&spec, options.id, loader)?;
            Ok(Source::Logic { spec, nodes })
        }
        Some(Parsed::Drtl(topology)) => {
            let topology = topology.json().clone();
            let artifacts = prompt_files(&topology, options.id, loader)?;
            Ok(Source::Drtl {
                topology,
                artifacts,
            })
        }
        None => Err(vec![Diagnostic::error(
            "run-no-document",
            "nothing to run: the text did not parse",
        )]),
    }
}

fn workflow_nodes(
    spec: &Value,
    id: &str,
    loader: &dyn Loader,
) -> Result<BTreeMap<String, Value>, Vec<Diagnostic>> {
    let mut nodes = BTreeMap::new();
    let mut problems = Vec::new();
    for (name, node) in spec
        .get("nodes")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
    {
        match crate::workflow::load_node(node, id, loader) {
            Ok(value) => {
                nodes.insert(name.clone(), value);
            }
            Err(found) => problems.extend(found.into_iter().map(|p| {
                Diagnostic::error(
                    "run-node-unavailable",
                    format!("node `{name}`: {}", p.message),
                )
                .with_path(format!(
                    "/nodes/{}{}",
                    crate::json::escape_token(name),
                    p.at
                ))
            })),
        }
    }
    if problems.is_empty() {
        Ok(nodes)
    } else {
        Err(problems)
    }
}

/// The text of every prompt file a topology names by path (`prompt_ref: prompts/x.md`, or an
/// `artifacts` entry), keyed by the path as written.
fn prompt_files(
    topology: &Value,
    id: &str,
    loader: &dyn Loader,
) -> Result<BTreeMap<String, String>, Vec<Diagnostic>> {
    let mut paths: Vec<String> = Vec::new();
    let mut note = |path: &str| {
        if !path.starts_with("artifacts.") && !paths.iter().any(|p| p == path) {
            paths.push(path.to_owned());
        }
    };
    for kind in ["prompts", "protocols"] {
        for path in topology
            .pointer(&format!("/artifacts/{kind}"))
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
            .filter_map(|(_, v)| v.as_str())
        {
            note(path);
        }
    }
    let mut stack: Vec<&Value> = topology.get("nodes").into_iter().collect();
    while let Some(value) = stack.pop() {
        match value {
            Value::Object(map) => {
                for (key, item) in map {
                    match (key.as_str(), item) {
                        ("prompt_ref" | "protocol_ref", Value::String(path)) => note(path),
                        _ => stack.push(item),
                    }
                }
            }
            Value::Array(items) => stack.extend(items),
            _ => {}
        }
    }
    let mut files = BTreeMap::new();
    let mut problems = Vec::new();
    for path in paths {
        match loader
            .resolve(id, &path)
            .and_then(|file| loader.load(&file))
        {
            Ok(text) => {
                files.insert(path, text);
            }
            Err(error) => problems.push(Diagnostic::error(
                "run-artifact-unavailable",
                format!("cannot read the prompt file `{path}`: {}", error.message),
            )),
        }
    }
    if problems.is_empty() {
        Ok(files)
    } else {
        Err(problems)
    }
}
