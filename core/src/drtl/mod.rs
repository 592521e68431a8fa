//! DRTL v0.1.1 topologies (the second document kind): typed reasoning nodes, edges, gates and
//! reviews in a plain YAML file, parsed with spans, validated against our DRTL schema, and
//! checked for dangling routes, bad references and unverifiable inputs.

mod checks;
mod decision;
mod expressions;
mod model;

use serde_json::Value;

use crate::diagnostic::{has_errors, sort_diagnostics, Diagnostic};
use crate::json::to_json;
use crate::limits::Limits;
use crate::schema::{validate_source, EmbeddedSchema, Source};
use crate::source::LineIndex;
use crate::yaml::{parse_file, Node};

pub(crate) use checks::lint;
pub use checks::STANDARD_RULES;
pub use decision::ReviewDecision;
pub use expressions::VARIABLES;
pub use model::{DrtlNode, Route, RouteKind, TERMINATE};

/// The DRTL specification version this implementation follows.
pub const DRTL_VERSION: &str = "0.1.1";

/// The DRTL v0.1.1 JSON Schema, as shipped in this crate.
pub const SCHEMA_JSON: &str = include_str!("drtl-0.1.1.schema.json");

static DRTL: EmbeddedSchema = EmbeddedSchema::new(SCHEMA_JSON);

/// The DRTL schema ([`SCHEMA_JSON`]) as JSON, parsed once.
pub fn schema() -> &'static Value {
    DRTL.value()
}

/// A parsed DRTL topology.
#[derive(Debug, Clone)]
pub struct Topology {
    text: String,
    index: LineIndex,
    root: Node,
    json: Value,
}

impl Source for Topology {
    fn root(&self) -> &Node {
        &self.root
    }
    fn text(&self) -> &str {
        &self.text
    }
    fn line_index(&self) -> &LineIndex {
        &self.index
    }
    fn root_name(&self) -> &'static str {
        "the topology"
    }
}

impl Topology {
    /// The topology as JSON (what the schema and the checks see).
    pub fn json(&self) -> &Value {
        &self.json
    }

    /// The whole original text.
    pub fn text(&self) -> &str {
        &self.text
    }
}

/// The result of validating a topology.
#[derive(Debug, Clone)]
pub struct DrtlReport {
    /// The topology, when the text parses (even if it is invalid).
    pub topology: Option<Topology>,
    /// Every problem found, sorted by position.
    pub diagnostics: Vec<Diagnostic>,
    /// Whether it parses and no diagnostic is an error.
    pub valid: bool,
}

/// `*.drtl.yaml` / `*.drtl.yml`.
pub fn is_drtl_path(path: &str) -> bool {
    path.ends_with(".drtl.yaml") || path.ends_with(".drtl.yml")
}

/// A top-level `nodes` list whose items have `id` and `type`.
pub fn looks_like_drtl(value: &Value) -> bool {
    value
        .get("nodes")
        .and_then(Value::as_array)
        .is_some_and(|nodes| {
            !nodes.is_empty()
                && nodes
                    .iter()
                    .all(|n| n.get("id").is_some() && n.get("type").is_some())
        })
}

/// Parses `text` as a topology (YAML with spans).
pub fn parse(text: &str) -> (Option<Topology>, Vec<Diagnostic>) {
    parse_with(text, Limits::DEFAULT)
}

/// Parses `text` as a topology within `limits`.
pub fn parse_with(text: &str, limits: Limits) -> (Option<Topology>, Vec<Diagnostic>) {
    let file = parse_file(text, limits);
    let mut diagnostics = file.diagnostics;
    let Some(root) = file.root else {
        if diagnostics.is_empty() {
            let mut empty = Diagnostic::error(
                "drtl-empty",
                "the topology is empty: it needs `name` and `nodes`",
            );
            empty.line = 1;
            empty.column = 1;
            diagnostics.push(empty);
        }
        return (None, diagnostics);
    };
    if root.as_map().is_none() {
        let diagnostic = Diagnostic::error(
            "drtl-not-mapping",
            format!(
                "a topology is a mapping with `name` and `nodes`, found a {}",
                root.type_name()
            ),
        )
        .at(text, &file.index, root.span());
        diagnostics.push(diagnostic);
        return (None, diagnostics);
    }
    let json = to_json(&root);
    (
        Some(Topology {
            text: text.to_owned(),
            index: file.index,
            root,
            json,
        }),
        diagnostics,
    )
}

/// The topology's schema diagnostics alone (what an editor must keep valid).
pub fn validate_schema(topology: &Topology) -> Vec<Diagnostic> {
    validate_source(&DRTL, topology)
}

/// Parses and validates against the DRTL schema, then runs the semantic checks.
pub fn validate(text: &str) -> DrtlReport {
    let (topology, mut diagnostics) = parse(text);
    if let Some(topology) = &topology {
        diagnostics.extend(validate_schema(topology));
        if !has_errors(&diagnostics) {
            diagnostics.extend(lint(topology));
        }
    }
    sort_diagnostics(&mut diagnostics);
    DrtlReport {
        valid: !has_errors(&diagnostics),
        topology,
        diagnostics,
    }
}

#[cfg(test)]
mod tests;
