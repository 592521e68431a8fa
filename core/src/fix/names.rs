//! Did-you-mean fixes: every rule that finds an unknown name (a step, a node, a key, an enum
//! value, a variable) says `did you mean \`NAME\`?` when one known name is close; the fix
//! writes that name in place of the unknown one.

use super::{Fix, Safety};
use crate::diagnostic::Diagnostic;
use crate::edit::Edit;
use crate::source::Span;

/// The name a diagnostic's hint suggests: `X` of "did you mean `X`?".
pub fn suggested_name(help: &str) -> Option<&str> {
    let rest = help.strip_prefix("did you mean `")?;
    let name = rest.strip_suffix("`?")?;
    (!name.is_empty() && !name.contains('`')).then_some(name)
}

/// Replaces the unknown name inside the diagnostic's span by the suggested one. Safe: the name
/// as written names nothing (the diagnostic says so) and the suggestion is the one close name.
pub(super) fn did_you_mean(text: &str, diagnostic: &Diagnostic) -> Option<Fix> {
    let name = suggested_name(diagnostic.help.as_deref()?)?;
    let span = diagnostic.span?;
    let written = text.get(span.start..span.end)?;
    // An imported name read with dots is rewritten in brackets (`imported::bracketed`).
    if name.contains('.') && written.starts_with("steps.") {
        return None;
    }
    let word = misspelled_word(written, name)?;
    let start = span.start + word.start;
    let replacement = if needs_quotes(text, span, name) {
        format!("\"{name}\"")
    } else {
        name.to_owned()
    };
    Some(Fix::new(
        &diagnostic.code,
        format!("Replace `{}` with `{name}`", &written[word.start..word.end]),
        Safety::Safe,
        vec![Edit::ReplaceText {
            start,
            end: span.start + word.end,
            text: replacement,
        }],
    ))
}

/// The part of `written` (a key, a value with its quotes, an expression chain) that the
/// suggestion replaces: the whole unquoted text when it is one word, else the word most like
/// the suggestion.
fn misspelled_word(written: &str, suggestion: &str) -> Option<Span> {
    let quoted = written.len() >= 2
        && (written.starts_with('"') && written.ends_with('"')
            || written.starts_with('\'') && written.ends_with('\''));
    let inner = if quoted {
        Span::new(1, written.len() - 1)
    } else {
        Span::new(0, written.len())
    };
    let whole = &written[inner.start..inner.end];
    if !whole.is_empty()
        && !whole.contains(|c: char| c.is_whitespace() || "[]'\"(){}".contains(c))
        && !whole.starts_with("steps.")
    {
        return (whole != suggestion).then_some(inner);
    }
    // An imported name (`lib.gather`) is one word with its dot.
    words(written, suggestion.contains('.'))
        .filter(|w| &written[w.start..w.end] != suggestion)
        .max_by(|a, b| {
            let score = |w: &Span| strsim::jaro_winkler(&written[w.start..w.end], suggestion);
            score(a).total_cmp(&score(b))
        })
}

/// The identifier-like words of `text`: runs of letters, digits, `_`, `-` and `$` (and `.`
/// when `dotted`).
fn words(text: &str, dotted: bool) -> impl Iterator<Item = Span> + '_ {
    let is_word = move |c: char| {
        c.is_alphanumeric() || c == '_' || c == '-' || c == '$' || dotted && c == '.'
    };
    let mut at = 0;
    std::iter::from_fn(move || {
        let rest = &text[at..];
        let start = at + rest.find(is_word)?;
        let len = text[start..]
            .find(|c: char| !is_word(c))
            .unwrap_or(text.len() - start);
        at = start + len;
        Some(Span::new(start, start + len))
    })
}

/// A plain key or value written in place of another must stay the same string: quote the
/// suggestion when it would not read back as itself plain. (Quoted spans keep their quotes.)
fn needs_quotes(text: &str, span: Span, name: &str) -> bool {
    let first = text[span.start..].chars().next();
    !matches!(first, Some('"' | '\'')) && !crate::edit::plain_is_safe(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_suggestion_is_read_from_the_hint() {
        assert_eq!(suggested_name("did you mean `gather`?"), Some("gather"));
        assert_eq!(suggested_name("did you mean `lib.a`?"), Some("lib.a"));
        assert_eq!(suggested_name("add a description"), None);
    }

    #[test]
    fn the_misspelled_word_is_found_in_what_was_written() {
        let at = |written: &str, name: &str| {
            misspelled_word(written, name).map(|s| written[s.start..s.end].to_owned())
        };
        assert_eq!(at("gathr", "gather").as_deref(), Some("gathr"));
        assert_eq!(at("\"gathr\"", "gather").as_deref(), Some("gathr"));
        assert_eq!(at("lib.gathr", "lib.gather").as_deref(), Some("lib.gathr"));
        assert_eq!(
            at("steps.gathr.output.x", "gather").as_deref(),
            Some("gathr")
        );
        assert_eq!(
            at("steps['gathr'].output", "gather").as_deref(),
            Some("gathr")
        );
    }
}
