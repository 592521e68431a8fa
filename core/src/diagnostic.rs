//! Problems found in a document, as values: severity, stable code, message, JSON Pointer, place.

use serde::Serialize;

use crate::source::{LineIndex, Span};

mod json;

pub use json::{push_json_string, write_json_array};

/// How serious a [`Diagnostic`] is; ordered from most to least serious. Serialised in lowercase.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// The document is invalid (or the operation is refused); a CLI exits non-zero.
    Error,
    /// Likely a mistake, but the document is still valid.
    Warning,
    /// A remark for information; nothing needs to change.
    Info,
}

impl Severity {
    /// The lowercase name: `error`, `warning` or `info`.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        }
    }
}

/// One problem in one file.
///
/// `path` is the JSON Pointer of the instance location ("" is the frontmatter root). `line` and
/// `column` are 1-based, the column counted in characters, in the original file; 0 only when
/// the problem has no place (for example an unreadable file).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Diagnostic {
    /// How serious the problem is.
    pub severity: Severity,
    /// Stable machine-readable code (`unknown-need`, `step-cycle`, `edit-refused`, ...) that
    /// tools and tests match on; it does not change with the wording.
    pub code: String,
    /// The explanation for a person.
    pub message: String,
    /// JSON Pointer of the instance the problem is about ("" is the frontmatter root).
    pub path: String,
    /// The JSON Schema keyword that failed, for schema diagnostics.
    pub keyword: Option<String>,
    /// 1-based line in the original file; 0 when the problem has no place.
    pub line: u32,
    /// 1-based column, counted in characters; 0 when the problem has no place.
    pub column: u32,
    /// Byte range in the original file that the problem is about.
    #[serde(skip)]
    pub span: Option<Span>,
    /// A hint on how to fix it, shown after the snippet.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub help: Option<String>,
}

impl Diagnostic {
    /// A diagnostic of this severity with no place (line and column 0, empty path).
    pub fn new(severity: Severity, code: impl Into<String>, message: impl Into<String>) -> Self {
        Diagnostic {
            severity,
            code: code.into(),
            message: message.into(),
            path: String::new(),
            keyword: None,
            line: 0,
            column: 0,
            span: None,
            help: None,
        }
    }

    /// An [`Severity::Error`] with no place; see [`Diagnostic::new`].
    pub fn error(code: impl Into<String>, message: impl Into<String>) -> Self {
        Diagnostic::new(Severity::Error, code, message)
    }

    /// A [`Severity::Warning`] with no place; see [`Diagnostic::new`].
    pub fn warning(code: impl Into<String>, message: impl Into<String>) -> Self {
        Diagnostic::new(Severity::Warning, code, message)
    }

    /// The same diagnostic about the instance at JSON Pointer `path`.
    pub fn with_path(mut self, path: impl Into<String>) -> Self {
        self.path = path.into();
        self
    }

    /// The same diagnostic, naming the JSON Schema keyword that failed.
    pub fn with_keyword(mut self, keyword: impl Into<String>) -> Self {
        self.keyword = Some(keyword.into());
        self
    }

    /// The same diagnostic with a hint on how to fix it.
    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// Places the diagnostic at `span` of `text`, filling line and column.
    pub fn at(mut self, text: &str, index: &LineIndex, span: Span) -> Self {
        let at = index.line_col(text, span.start);
        self.line = at.line;
        self.column = at.column;
        self.span = Some(span);
        self
    }

    /// Whether its severity is [`Severity::Error`].
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// Whether any diagnostic is an error.
pub fn has_errors(diagnostics: &[Diagnostic]) -> bool {
    diagnostics.iter().any(Diagnostic::is_error)
}

/// Sorts by position, then severity, then message, so output is stable.
pub fn sort_diagnostics(diagnostics: &mut [Diagnostic]) {
    diagnostics.sort_by(|a, b| {
        (a.line, a.column, a.severity, &a.code, &a.message)
            .cmp(&(b.line, b.column, b.severity, &b.code, &b.message))
    });
}
