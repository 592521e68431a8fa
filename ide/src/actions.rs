//! Code actions: the quick fixes of core's one list (`logicmd::fix`) for the diagnostics in a
//! range, and assists where the cursor is (wrap a bare condition in `{{ }}`).

use logicmd::fix::{fixes_for, wrap_condition, Fix, Safety};
use logicmd::source::Span;
use serde::Serialize;

use crate::locate::place;
use crate::schema_docs::Seg;
use crate::workspace::Workspace;
use crate::{TextEdit, WorkspaceEdit};

/// What kind of action it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ActionKind {
    /// It repairs a diagnostic.
    QuickFix,
    /// It rewrites code that has no diagnostic.
    Rewrite,
}

/// One code action.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Action {
    /// What it does.
    pub title: String,
    /// Quick fix or rewrite.
    pub kind: ActionKind,
    /// The code of the diagnostic it repairs (for a quick fix).
    pub code: Option<String>,
    /// The span of that diagnostic.
    pub diagnostic: Option<Span>,
    /// Whether `lint --fix` would apply it unasked.
    pub safety: Safety,
    /// The one to apply by default (the only safe fix of its diagnostic).
    pub preferred: bool,
    /// The change.
    pub edit: WorkspaceEdit,
}

/// The actions for `range` of `id`.
pub fn code_actions(workspace: &mut Workspace, id: &str, range: Span) -> Vec<Action> {
    let Some(file) = workspace.analysis(id) else {
        return Vec::new();
    };
    let diagnostics = workspace.raw_diagnostics(id);
    // The whole document's JSON is made (for this call) only when a diagnostic is in range:
    // editors ask for actions at every cursor move.
    let json = std::cell::OnceCell::new();
    let text = &file.text;
    let mut actions = Vec::new();
    for diagnostic in diagnostics.iter() {
        let at = diagnostic.span.unwrap_or(Span::empty(0));
        let overlaps = at.start <= range.end && range.start <= at.end;
        if !overlaps {
            continue;
        }
        let fixes = fixes_for(
            text,
            json.get_or_init(|| file.json()).as_deref(),
            diagnostic,
        );
        let safe = fixes.iter().filter(|f| f.safety == Safety::Safe).count();
        for fix in fixes {
            if let Some(edit) = edit_of(id, text, &fix) {
                actions.push(Action {
                    preferred: safe == 1 && fix.safety == Safety::Safe,
                    title: fix.title,
                    kind: ActionKind::QuickFix,
                    code: Some(diagnostic.code.clone()),
                    diagnostic: Some(at),
                    safety: fix.safety,
                    edit,
                });
            }
        }
    }
    if let Some(source) = file.source() {
        if let Some(at) = place(source.root(), range.start) {
            if at.key.is_none() {
                let pointer = pointer_of(&at.path);
                let already = actions.iter().any(|a| {
                    a.code.as_deref() == Some(logicmd::lint::rules::UNBRACED_CONDITION.code)
                });
                let spine = file
                    .json_at(&pointer)
                    .map(|value| spine_of(&at.path, value.into_owned()));
                let fix = spine.and_then(|json| wrap_condition(&json, &pointer));
                if let Some(fix) = fix.filter(|_| !already) {
                    if let Some(edit) = edit_of(id, text, &fix) {
                        actions.push(Action {
                            title: fix.title,
                            kind: ActionKind::Rewrite,
                            code: None,
                            diagnostic: None,
                            safety: fix.safety,
                            preferred: false,
                            edit,
                        });
                    }
                }
            }
        }
    }
    actions
}

/// The actions of `actions` that a client naming `named` (each diagnostic's span and code, as
/// the client shows them) is to be offered: a quick fix only for a diagnostic named (same code,
/// overlapping span), every rewrite. A fix repairs its own diagnostic, not another at the same
/// place (quoting `2024-01-01` leaves its `invalid-duration`). A client that names none gets
/// every quick fix in its range.
pub fn for_named(actions: Vec<Action>, named: &[(Span, &str)]) -> Vec<Action> {
    if named.is_empty() {
        return actions;
    }
    actions
        .into_iter()
        .filter(|action| match (action.diagnostic, action.code.as_deref()) {
            (Some(at), Some(code)) => named.iter().any(|(span, named_code)| {
                *named_code == code && span.start <= at.end && at.start <= span.end
            }),
            _ => true,
        })
        .collect()
}

/// A document holding only `value` at `path` (a list's earlier items null): what an assist that
/// reads one value by its pointer needs, without the whole document's JSON.
fn spine_of(path: &[Seg], value: serde_json::Value) -> serde_json::Value {
    path.iter().rev().fold(value, |inner, seg| match seg {
        Seg::Key(key) => serde_json::Value::Object([(key.clone(), inner)].into_iter().collect()),
        Seg::Index(index) => {
            let mut items = vec![serde_json::Value::Null; *index];
            items.push(inner);
            serde_json::Value::Array(items)
        }
    })
}

fn pointer_of(path: &[Seg]) -> String {
    let mut pointer = String::new();
    for seg in path {
        pointer.push('/');
        match seg {
            Seg::Key(key) => pointer.push_str(&crate::symbols::token(key)),
            Seg::Index(index) => pointer.push_str(&index.to_string()),
        }
    }
    pointer
}

/// A fix as one edit of the file: the smallest range where the fixed text differs.
fn edit_of(id: &str, text: &str, fix: &Fix) -> Option<WorkspaceEdit> {
    let fixed = fix.apply(text).ok()?;
    Some(WorkspaceEdit {
        changes: vec![(id.to_owned(), vec![diff(text, &fixed)])],
    })
}

/// The one replacement that turns `old` into `new`: common prefix and suffix left out, on
/// character boundaries.
pub fn diff(old: &str, new: &str) -> TextEdit {
    let prefix = old
        .char_indices()
        .zip(new.chars())
        .take_while(|((_, a), b)| a == b)
        .last()
        .map_or(0, |((i, a), _)| i + a.len_utf8());
    let room = old.len().min(new.len()) - prefix;
    let suffix = old[prefix..]
        .chars()
        .rev()
        .zip(new[prefix..].chars().rev())
        .take_while(|(a, b)| a == b)
        .map(|(a, _)| a.len_utf8())
        .scan(0usize, |total, len| {
            *total += len;
            Some(*total)
        })
        .take_while(|total| *total <= room)
        .last()
        .unwrap_or(0);
    TextEdit {
        span: Span::new(prefix, old.len() - suffix),
        text: new[prefix..new.len() - suffix].to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_diff_is_the_smallest_replacement() {
        let edit = diff("needs: [gathr]", "needs: [gather]");
        assert_eq!((edit.span, edit.text.as_str()), (Span::new(12, 12), "e"));
        let edit = diff("aaa", "aa");
        assert_eq!((edit.span, edit.text.as_str()), (Span::new(2, 3), ""));
        let edit = diff("é", "è");
        assert_eq!((edit.span, edit.text.as_str()), (Span::new(0, 2), "è"));
    }
}
