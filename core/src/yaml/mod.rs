//! YAML 1.2 (core schema) parsing into a tree where every key and value carries its source span.

mod builder;
mod fast;
mod node;
mod offsets;
mod scalar;
mod text;
pub(crate) mod words;

pub(crate) use builder::build;
pub use node::{Entry, Node, NodeValue, ScalarStyle};
pub use offsets::{value_span, written_start, ValuePlaces};
pub use scalar::resolve_plain;
pub use text::Text;

use crate::diagnostic::Diagnostic;
use crate::limits::Limits;
use crate::source::{LineIndex, Span};

/// A whole file parsed as one YAML document (DRTL topologies are plain YAML, not frontmatter).
#[derive(Debug, Clone)]
pub struct YamlFile {
    /// The document's root; `None` when the text holds no document or it could not be read.
    pub root: Option<Node>,
    /// Lines and columns of the text.
    pub index: LineIndex,
    /// Syntax and limit problems, placed in the file.
    pub diagnostics: Vec<Diagnostic>,
}

/// Parses all of `text` as YAML 1.2 with spans, within `limits`.
pub fn parse_file(text: &str, limits: Limits) -> YamlFile {
    let index = LineIndex::new(text);
    if text.len() > limits.parsed_bytes() {
        let too_large =
            crate::limits::input_too_large(Some(text.len() as u64), limits.parsed_bytes());
        return YamlFile {
            root: None,
            index,
            diagnostics: vec![too_large],
        };
    }
    let start = if text.starts_with('\u{feff}') { 3 } else { 0 };
    let source = std::sync::Arc::from(text);
    let built = build(&source, &index, Span::new(start, text.len()), limits);
    let diagnostics = built
        .problems
        .into_iter()
        .map(|problem| {
            let diagnostic = problem.into_diagnostic();
            match diagnostic.span {
                Some(span) => diagnostic.at(text, &index, span),
                None => diagnostic,
            }
        })
        .collect();
    YamlFile {
        root: built.root,
        index,
        diagnostics,
    }
}
