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
    // Lone carriage returns are line breaks while formatting, and again in the result.
    let original = text;
    let normalized = crate::source::lone_cr_as_lf(text);
    let text = &*normalized;
    format_lf(text).map(|formatted| crate::source::restore_lone_cr(formatted, original))
}

fn format_lf(text: &str) -> Result<String, Diagnostic> {
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
        let pointer = reparsed
            .document
            .as_ref()
            .map_or_else(String::new, |after| {
                first_difference(document.json(), after.json(), String::new())
            });
        let diagnostic = Diagnostic::error(
            "fmt-refused",
            format!(
                "formatting would change the value at `{}`; the file is left unchanged",
                if pointer.is_empty() { "/" } else { &pointer }
            ),
        )
        .with_path(&pointer);
        let mut diagnostic = document.locate(diagnostic, document.span_at(&pointer));
        diagnostic.help = Some(LIMIT_HELP.into());
        return Err(diagnostic);
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

/// The texts of the comments of a document's frontmatter, sorted: what a change that keeps
/// every comment (wherever it moves it) leaves equal.
pub fn comment_texts(document: &Document) -> Vec<String> {
    let mut texts: Vec<String> = comments_of(document).into_iter().map(|c| c.text).collect();
    crate::sorting::sort_by(&mut texts, |a, b| a.cmp(b));
    texts
}

/// The comments of a document's frontmatter.
pub(crate) fn comments_of(document: &Document) -> Vec<Comment> {
    comments::find(document.text(), document.sections().yaml, document.root())
}

/// The JSON Pointer of the first place (in document order) where `after` differs from `before`.
fn first_difference(before: &serde_json::Value, after: &serde_json::Value, at: String) -> String {
    use serde_json::Value;
    match (before, after) {
        (Value::Object(a), Value::Object(b)) if a.len() == b.len() => a
            .iter()
            .find(|(key, value)| b.get(*key) != Some(value))
            .map_or(at.clone(), |(key, value)| match b.get(key) {
                Some(other) => first_difference(value, other, crate::json::pointer_push(&at, key)),
                None => crate::json::pointer_push(&at, key),
            }),
        (Value::Array(a), Value::Array(b)) if a.len() == b.len() => a
            .iter()
            .zip(b)
            .position(|(x, y)| x != y)
            .map_or(at.clone(), |i| {
                first_difference(&a[i], &b[i], format!("{at}/{i}"))
            }),
        _ => at,
    }
}

/// A refusal placed at the frontmatter's opening delimiter (it is about the whole text).
fn refused(document: &Document, why: String) -> Diagnostic {
    let mut diagnostic = document.locate(
        Diagnostic::error("fmt-refused", format!("{why}; the file is left unchanged")),
        document.sections().open,
    );
    diagnostic.help = Some(if why == emit::ANCHORS_REFUSED {
        "reordering could move an alias before its anchor: expand the aliases to format this file"
            .into()
    } else {
        LIMIT_HELP.into()
    });
    diagnostic
}

/// What a refusal that is the formatter's own limit says.
const LIMIT_HELP: &str =
    "this is the formatter's limit, not a problem of the file: please report it";

#[cfg(test)]
mod tests;
