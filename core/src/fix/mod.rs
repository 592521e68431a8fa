//! Quick fixes: for a diagnostic, the edits that repair it, each marked safe (it does what the
//! author evidently meant and keeps the document's meaning otherwise: `logicmd lint --fix`
//! applies these) or unsafe (a guess or a choice a person makes: offered, never applied
//! unasked). One list for every front end: the language server's code actions, the studio's
//! problems list, `lint --fix`, the MCP server.
//!
//! A fix is a list of core [`Edit`]s applied in turn, so every one is verified as any edit is
//! (the text re-parsed, comments kept); a fix whose edit is refused is not offered.

mod imported;
mod names;
mod rules;

use serde::Serialize;
use serde_json::Value;

use crate::analysis::{analyze, Options};
use crate::diagnostic::Diagnostic;
use crate::edit::{apply as apply_edit, Edit};
use crate::loader::Loader;

pub use names::suggested_name;
pub use rules::wrap_condition;

/// Whether a fix may be applied without asking.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Safety {
    /// It does what the author evidently meant: applied by `lint --fix`.
    Safe,
    /// A guess or a choice: offered, applied only when a person picks it.
    Unsafe,
}

/// One way to repair a diagnostic.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Fix {
    /// The code of the diagnostic it repairs.
    pub code: String,
    /// What it does, for a person ("Replace `gathr` with `gather`").
    pub title: String,
    /// Whether it may be applied without asking.
    pub safety: Safety,
    /// The edits, applied in turn to the text.
    pub edits: Vec<Edit>,
}

impl Fix {
    fn new(code: &str, title: impl Into<String>, safety: Safety, edits: Vec<Edit>) -> Fix {
        Fix {
            code: code.to_owned(),
            title: title.into(),
            safety,
            edits,
        }
    }

    /// Applies the fix to `text`: the new text, or why an edit was refused.
    pub fn apply(&self, text: &str) -> Result<String, Diagnostic> {
        let mut current = text.to_owned();
        for edit in &self.edits {
            current = apply_edit(&current, edit)?.text;
        }
        Ok(current)
    }
}

/// The fixes for `diagnostic`, one of the diagnostics of `text` (whose frontmatter or topology
/// is `json`, when it parses). Only fixes whose edits apply to `text` are given.
pub fn fixes_for(text: &str, json: Option<&Value>, diagnostic: &Diagnostic) -> Vec<Fix> {
    let mut found = Vec::new();
    let closes_cycle = json.is_some_and(|json| rules::need_closes_cycle(json, diagnostic));
    if let Some(fix) = names::did_you_mean(text, diagnostic).filter(|_| !closes_cycle) {
        found.push(fix);
    }
    if let Some(json) = json {
        found.extend(rules::fixes(json, diagnostic));
        let value = json.pointer(&diagnostic.path).and_then(Value::as_str);
        found.extend(imported::bracketed(text, value, diagnostic));
    }
    found.retain(|fix| fix.apply(text).is_ok());
    found
}

/// What [`fix_all`] did.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Fixed {
    /// The text after every fix applied.
    pub text: String,
    /// The fixes applied, in order.
    pub applied: Vec<Fix>,
}

/// Applies fixes of at most `safety` (Safe: only safe ones) to `text` until none is left,
/// analysing again after each (at most `limit` fixes): what `logicmd lint --fix` does.
pub fn fix_all(
    text: &str,
    options: &Options<'_>,
    loader: &dyn Loader,
    safety: Safety,
    limit: usize,
) -> Fixed {
    fix_selected(text, options, loader, safety, limit, &|_| true)
}

/// [`fix_all`], fixing only the diagnostics `selected` keeps (those a project's settings leave
/// reported: an ignored rule is not fixed either).
pub fn fix_selected(
    text: &str,
    options: &Options<'_>,
    loader: &dyn Loader,
    safety: Safety,
    limit: usize,
    selected: &dyn Fn(&Diagnostic) -> bool,
) -> Fixed {
    let mut current = text.to_owned();
    let mut applied = Vec::new();
    while applied.len() < limit {
        let analysis = analyze(&current, options, loader);
        let json = analysis.parsed.as_ref().map(|p| p.json());
        let next = analysis
            .diagnostics
            .iter()
            .filter(|d| selected(d))
            .find_map(|diagnostic| {
                fixes_for(&current, json, diagnostic)
                    .into_iter()
                    .find(|fix| fix.safety <= safety)
            });
        let Some(fix) = next else {
            break;
        };
        match fix.apply(&current) {
            Ok(text) if text != current => {
                current = text;
                applied.push(fix);
            }
            _ => break,
        }
    }
    Fixed {
        text: current,
        applied,
    }
}

#[cfg(test)]
mod tests;
