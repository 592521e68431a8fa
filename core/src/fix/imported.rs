//! An imported step read with dots (`steps.lib.gather`): JavaScript reads a member `gather` of
//! a step `lib`, so lint says `unknown-step-reference` and names the form meant,
//! `steps['lib.gather']`. The fix writes that form in place.

use super::{Fix, Safety};
use crate::diagnostic::Diagnostic;
use crate::edit::Edit;

/// What lint's help says before the bracketed form.
const HELP: &str = "an imported step is read with its full name in brackets: `";

/// Rewrites `steps.alias.name` at the diagnostic's span as `steps['alias.name']` (with the
/// quote the scalar can hold: `"` inside a single-quoted scalar). Safe: `steps.alias` names no
/// step, and `alias.name` is the imported step the help names, or the one close name it
/// suggests for a misspelled one (`steps.alias.nmae`). `None` when the help names no imported
/// step or the text at the span is not written `steps.alias.word`.
pub(super) fn bracketed(text: &str, value: Option<&str>, diagnostic: &Diagnostic) -> Option<Fix> {
    let name = meant(diagnostic.help.as_deref()?)?;
    let (alias, _) = name.split_once('.')?;
    let span = diagnostic.span?;
    let written = text.get(span.start..span.end)?;
    let step = written
        .strip_prefix("steps.")?
        .strip_prefix(alias)?
        .strip_prefix('.')?;
    let word = step
        .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
        .unwrap_or(step.len());
    if word == 0 {
        return None;
    }
    let dotted = &written[..written.len() - step.len() + word];
    ['\'', '"'].into_iter().find_map(|quote| {
        let replacement = format!("steps[{}]", crate::expr::quoted(name, quote));
        let fix = Fix::new(
            &diagnostic.code,
            format!("Write `{replacement}`"),
            Safety::Safe,
            vec![Edit::ReplaceText {
                start: span.start,
                end: span.start + dotted.len(),
                text: replacement.clone(),
            }],
        );
        keeps_the_rest(&fix, text, value?, &diagnostic.path, dotted, &replacement).then_some(fix)
    })
}

/// The imported step a help names: `steps['a.b']` of the bracket hint, or `a.b` of
/// "did you mean `a.b`?".
fn meant(help: &str) -> Option<&str> {
    if let Some(bracketed) = help.strip_prefix(HELP) {
        let name = bracketed
            .strip_suffix('`')?
            .strip_prefix("steps[")?
            .strip_suffix(']')?;
        return name.get(1..name.len().checked_sub(1)?);
    }
    super::names::suggested_name(help).filter(|name| name.contains('.'))
}

/// Whether the fixed text's value at `pointer` differs from `value` only by the rewrite: a
/// quote the scalar cannot hold ends it (the edit is refused) or changes what it reads.
fn keeps_the_rest(
    fix: &Fix,
    text: &str,
    value: &str,
    pointer: &str,
    dotted: &str,
    replacement: &str,
) -> bool {
    let Ok(fixed) = fix.apply(text) else {
        return false;
    };
    let Some(document) = crate::Document::parse(&fixed).document else {
        return false;
    };
    let json = document.json();
    let Some(after) = json.pointer(pointer).and_then(|v| v.as_str()) else {
        return false;
    };
    after != value && after.replace(replacement, dotted) == value.replace(replacement, dotted)
}
