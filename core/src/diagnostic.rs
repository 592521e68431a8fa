//! Problems found in a document, as values: severity, stable code, message, JSON Pointer, place.

use serde::Serialize;

use crate::source::{LineIndex, Span};

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
    Info,
}

impl Severity {
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
    pub severity: Severity,
    pub code: String,
    pub message: String,
    pub path: String,
    /// The JSON Schema keyword that failed, for schema diagnostics.
    pub keyword: Option<String>,
    pub line: u32,
    pub column: u32,
    /// Byte range in the original file that the problem is about.
    #[serde(skip)]
    pub span: Option<Span>,
    /// A hint on how to fix it, shown after the snippet.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub help: Option<String>,
}

impl Diagnostic {
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

    pub fn error(code: impl Into<String>, message: impl Into<String>) -> Self {
        Diagnostic::new(Severity::Error, code, message)
    }

    pub fn warning(code: impl Into<String>, message: impl Into<String>) -> Self {
        Diagnostic::new(Severity::Warning, code, message)
    }

    pub fn with_path(mut self, path: impl Into<String>) -> Self {
        self.path = path.into();
        self
    }

    pub fn with_keyword(mut self, keyword: impl Into<String>) -> Self {
        self.keyword = Some(keyword.into());
        self
    }

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
