//! Validation against the canonical LOGIC.md v1.0 JSON Schema (draft-07, spec §15.1.3), embedded
//! unchanged, with diagnostics that point at the offending key or value in the original file.
//! A schema error means exactly "the canonical schema rejects this"; anything stricter is a lint
//! rule (`crate::lint`).

mod engine;
mod evaluate;
mod instance;
mod messages;
mod places;
mod program;
#[doc(hidden)]
pub mod reference;
mod similarity;
mod suggest;

pub use engine::{unsupported_keywords, ErrorKind, Evaluator, SchemaError};
pub use program::Program;

pub use suggest::{allows_path, closest, known_properties, property_order};

use std::sync::OnceLock;

use serde_json::Value;

use crate::diagnostic::{sort_diagnostics, Diagnostic};
use crate::document::Document;
use crate::json;

/// The canonical LOGIC.md v1.0 JSON Schema (the spec repository's `spec/schema.json`), byte for
/// byte as published; a test compares it with the seed copy.
pub const SCHEMA_JSON: &str = include_str!("logic-md-schema-v1.0.json");

/// The spec versions this implementation validates.
pub const SUPPORTED_SPEC_VERSIONS: &[&str] = &["1.0"];

static LOGIC_MD: EmbeddedSchema = EmbeddedSchema::new(SCHEMA_JSON);

/// A JSON Schema shipped in the crate, parsed and compiled once, on first use.
pub struct EmbeddedSchema {
    text: &'static str,
    value: OnceLock<Value>,
    program: OnceLock<Program<'static>>,
    places: OnceLock<places::Places<'static>>,
}

impl EmbeddedSchema {
    /// A schema from its JSON text; nothing is parsed until first use.
    pub const fn new(text: &'static str) -> Self {
        EmbeddedSchema {
            text,
            value: OnceLock::new(),
            program: OnceLock::new(),
            places: OnceLock::new(),
        }
    }

    /// The schema's places, for the hints of its errors (built on demand, kept for the process).
    fn places(&'static self) -> &'static places::Places<'static> {
        self.places
            .get_or_init(|| places::Places::new(self.value()))
    }

    /// The schema compiled, once per process.
    pub fn program(&'static self) -> &'static Program<'static> {
        self.program.get_or_init(|| Program::compile(self.value()))
    }

    /// The schema; a schema that does not parse (a build defect, caught by the unit tests)
    /// becomes `false`, so every document is refused rather than silently accepted.
    pub fn value(&self) -> &Value {
        self.value
            .get_or_init(|| serde_json::from_str(self.text).unwrap_or(Value::Bool(false)))
    }
}

/// The schema as a JSON value.
pub fn schema() -> &'static Value {
    LOGIC_MD.value()
}

/// Validates the document's frontmatter against the schema.
pub fn validate(document: &Document) -> Vec<Diagnostic> {
    validate_source(&LOGIC_MD, document)
}

/// A parsed source the schema's findings are placed in: its tree, text and line index.
pub trait Source {
    /// The YAML tree the schema is evaluated on.
    fn root(&self) -> &crate::yaml::Node;
    /// The whole text the tree's spans point into.
    fn text(&self) -> &str;
    /// Lines and columns of [`Source::text`].
    fn line_index(&self) -> &crate::source::LineIndex;
    /// Whether a mapping of the tree may repeat a key (the parse reported problems); only the
    /// first entry of a repeated key then counts, as in the JSON view.
    fn may_repeat_keys(&self) -> bool {
        true
    }

    /// What the whole document is called in messages about its root: `the frontmatter` of a
    /// LOGIC.md file, `the topology` of a DRTL file.
    fn root_name(&self) -> &'static str {
        ROOT_NAME
    }

    /// The span of the node at `pointer`, or of the nearest existing ancestor.
    fn span_at(&self, pointer: &str) -> crate::source::Span {
        json::nearest_node(self.root(), pointer).span()
    }

    /// Places a finding at `span` (line, column and snippet of this source).
    fn locate(&self, diagnostic: Diagnostic, span: crate::source::Span) -> Diagnostic {
        diagnostic.at(self.text(), self.line_index(), span)
    }
}

impl Source for Document {
    fn root(&self) -> &crate::yaml::Node {
        Document::root(self)
    }
    fn text(&self) -> &str {
        Document::text(self)
    }
    fn line_index(&self) -> &crate::source::LineIndex {
        Document::line_index(self)
    }
    fn may_repeat_keys(&self) -> bool {
        !self.is_clean()
    }
}

/// Validates the tree of `source` against `schema`, placing every finding. The tree is read as
/// the JSON it stands for; no JSON copy is made.
pub fn validate_source(schema: &'static EmbeddedSchema, source: &dyn Source) -> Vec<Diagnostic> {
    let tree = instance::TreeInstance {
        node: source.root(),
        repeats: source.may_repeat_keys(),
    };
    let errors = evaluate::errors(schema.program(), tree);
    // One diagnostic per error, or one per unknown key: mostly the size needed.
    let mut diagnostics = Vec::with_capacity(errors.len());
    for error in errors {
        diagnose(source, schema.places(), &error, &mut diagnostics);
    }
    let root = source.root_name();
    if root != ROOT_NAME {
        for diagnostic in &mut diagnostics {
            diagnostic.message = diagnostic.message.replace(ROOT_NAME, root);
        }
    }
    sort_diagnostics(&mut diagnostics);
    // Two branches of a schema can require the same thing (DRTL's node kinds each require `id`):
    // one problem is said once.
    diagnostics.dedup_by(|a, b| a.code == b.code && a.path == b.path && a.message == b.message);
    diagnostics
}

/// How messages name a LOGIC.md file's root (the schema's words; [`Source::root_name`]).
const ROOT_NAME: &str = "the frontmatter";

/// Validates a bare JSON value (no source to point into): `(instance pointer, message)` pairs.
pub fn validate_value(value: &Value) -> Vec<(String, String)> {
    evaluate::errors(LOGIC_MD.program(), value)
        .iter()
        .map(|error| (error.instance_path.clone(), messages::describe(error)))
        .collect()
}

/// Validates `instance` against any JSON Schema of the keyword subset we evaluate (a step's
/// `output_schema`, an edge contract): `(instance pointer, message)` pairs.
pub fn check_instance(schema: &Value, instance: &Value) -> Vec<(String, String)> {
    Evaluator::new(schema)
        .errors(instance)
        .iter()
        .map(|error| (error.instance_path.clone(), messages::describe(error)))
        .collect()
}

pub(crate) fn diagnose(
    document: &dyn Source,
    schema: &places::Places<'_>,
    error: &SchemaError<'_>,
    out: &mut Vec<Diagnostic>,
) {
    // Pushed where they are collected: a vector per error and a copy of its path were most
    // of the allocations of a diagnostic beside its own strings (issue #38).
    let path = &error.instance_path;
    let keyword = error.kind.keyword();
    let root = document.root();
    match &error.kind {
        ErrorKind::AdditionalProperties { unexpected } => {
            // The names are the same for every unexpected key of one object: walked once.
            let known = schema.property_names(path);
            out.extend(unexpected.iter().map(|key| {
                let mut diagnostic = Diagnostic::error(
                    "schema-unknown-property",
                    messages::unknown_property(key, path),
                )
                .with_path(path)
                .with_keyword(keyword);
                if let Some(close) = suggest::closest(key, known.iter().copied()) {
                    diagnostic = diagnostic.with_help(format!("did you mean `{close}`?"));
                } else if !known.is_empty() {
                    diagnostic =
                        diagnostic.with_help(format!("known properties: {}", known.join(", ")));
                }
                let span = match error.node {
                    // The object the key is in: what the walk along `path` finds.
                    Some(object) => object
                        .entry(key)
                        .map_or_else(|| object.span(), crate::yaml::Entry::key_span),
                    None => json::entry_at(root, &json::pointer_push(path, key))
                        .map_or_else(|| document.span_at(path), |entry| entry.key_span()),
                };
                document.locate(diagnostic, span)
            }));
        }
        kind => {
            let mut diagnostic = Diagnostic::error(messages::code(kind), messages::describe(error))
                .with_path(path)
                .with_keyword(keyword);
            if let Some(help) = messages::help(schema, error) {
                diagnostic = diagnostic.with_help(help);
            }
            // The failing node is where the walk along `path` ends.
            let span = error
                .node
                .map_or_else(|| document.span_at(path), crate::yaml::Node::span);
            out.push(document.locate(diagnostic, span));
        }
    }
}

#[cfg(test)]
mod tests;
