//! `logicmd fmt`: canonical key order (the spec's), 2-space indentation, quotes only where
//! needed, and every comment kept. The result must parse to the same JSON and keep every
//! comment, or the file is left as it is with a diagnostic saying why.

pub(crate) mod comments;
mod emit;

use crate::diagnostic::Diagnostic;
use crate::document::Document;

pub(crate) use comments::Comment;
use comments::CommentChange;

/// The spec's order of root properties (§2.1).
pub(crate) const ROOT_ORDER: &[&str] = &[
    "spec_version",
    "name",
    "description",
    "imports",
    "reasoning",
    "steps",
    "contracts",
    "quality_gates",
    "fallback",
    "decision_trees",
    "visual",
    "global",
    "nodes",
    "edges",
    "metadata",
];

/// Formats a LOGIC.md file's text.
pub fn format(text: &str) -> Result<String, Diagnostic> {
    let parsed = Document::parse(text);
    if let Some(error) = parsed.diagnostics.iter().find(|d| d.is_error()) {
        return Err(error.clone());
    }
    let Some(document) = parsed.document else {
        return Err(Diagnostic::error(
            "fmt-refused",
            "the file has no frontmatter to format",
        ));
    };
    let formatted = emit::emit(&document).map_err(|why| refused(&document, why))?;
    let reparsed = Document::parse(&formatted);
    let Some(result) = reparsed
        .document
        .as_ref()
        .filter(|d| d.json() == document.json())
    else {
        return Err(refused(
            &document,
            "formatting would change the document's meaning".into(),
        ));
    };
    // The invariant, checked on the result itself: every comment is still there.
    let before = comments_of(&document);
    let after = comments_of(result);
    if let Err(change) = comments::check_kept(&before, &after, |_| false) {
        let why = match change {
            CommentChange::Lost(lost) => format!(
                "formatting would lose or alter the comment `{}` (line {})",
                lost.text,
                document
                    .line_index()
                    .line_col(document.text(), lost.offset)
                    .line
            ),
            CommentChange::Appeared(new) => {
                format!("formatting would turn text into the comment `{}`", new.text)
            }
        };
        return Err(refused(&document, why));
    }
    Ok(formatted)
}

/// The comments of a document's frontmatter.
pub(crate) fn comments_of(document: &Document) -> Vec<Comment> {
    comments::find(document.text(), document.sections().yaml, document.root())
}

fn refused(document: &Document, why: String) -> Diagnostic {
    document.locate(
        Diagnostic::error("fmt-refused", format!("{why}; the file is left unchanged")),
        document.sections().open,
    )
}

#[cfg(test)]
mod tests;
