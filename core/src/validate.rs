//! The parse → schema-validate pipeline, as one call.

use crate::diagnostic::{has_errors, sort_diagnostics, Diagnostic};
use crate::document::{Document, ParsedDocument};
use crate::limits::Limits;
use crate::schema;

/// The result of validating one LOGIC.md file.
#[derive(Debug, Clone)]
pub struct Report {
    /// The parsed document, when the frontmatter could be read as a mapping.
    pub document: Option<Document>,
    /// Every problem, sorted by position.
    pub diagnostics: Vec<Diagnostic>,
    /// No diagnostic is an error.
    pub valid: bool,
}

impl Report {
    /// The first error as `FILE:LINE:COL: message` (`LINE:COL: message` when `file` is empty),
    /// for summaries that mention it elsewhere.
    pub fn first_error(&self, file: &str) -> String {
        let prefix = if file.is_empty() {
            String::new()
        } else {
            format!("{file}:")
        };
        self.diagnostics
            .iter()
            .find(|d| d.is_error())
            .map(|d| format!("{prefix}{}:{}: {}", d.line, d.column, d.message))
            .unwrap_or_default()
    }
}

/// Parses and validates a LOGIC.md file's text.
pub fn validate(text: &str) -> Report {
    report(Document::parse(text))
}

/// Parses and validates raw file contents within `limits` (the file must be UTF-8).
pub fn validate_bytes(bytes: &[u8], limits: Limits) -> Report {
    report(Document::parse_bytes(bytes, limits))
}

fn report(parsed: ParsedDocument) -> Report {
    let ParsedDocument {
        document,
        mut diagnostics,
    } = parsed;
    if let Some(document) = &document {
        let found = schema::validate(document);
        // A clean parse has nothing to add to: the schema's list is taken as it is (moving
        // each diagnostic into an empty list was a copy of every one: issue #38).
        if diagnostics.is_empty() {
            diagnostics = found;
        } else {
            diagnostics.extend(found);
        }
    }
    sort_diagnostics(&mut diagnostics);
    Report {
        valid: !has_errors(&diagnostics),
        document,
        diagnostics,
    }
}
