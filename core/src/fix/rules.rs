//! Fixes particular to a rule, read from the diagnostic's code and place.

use serde_json::{json, Value};

use super::{Fix, Safety};
use crate::diagnostic::Diagnostic;
use crate::edit::Edit;
use crate::lint::rules;

/// The rule-specific fixes of `diagnostic` in the document whose data is `json`.
pub(super) fn fixes(json: &Value, diagnostic: &Diagnostic) -> Vec<Fix> {
    let code = diagnostic.code.as_str();
    let path = diagnostic.path.as_str();
    match code {
        c if c == rules::UNUSED_IMPORT.code => unused_import(json, code, path),
        c if c == rules::DUPLICATE_DEPENDENCY.code => duplicate_dependency(json, code, path),
        c if c == rules::TOOL_ALLOWED_AND_DENIED.code => allowed_and_denied(json, code, path),
        c if c == rules::MISSING_DEFAULT_BRANCH.code => default_branch(json, code, path),
        c if c == rules::AMBIGUOUS_SCALAR.code => quote(json, diagnostic),
        c if c == rules::UNWAITED_STEP_READ.code => add_need(json, diagnostic),
        c if c == rules::UNBRACED_CONDITION.code => {
            wrap_condition(json, path).into_iter().collect()
        }
        "schema-missing-property" if missing_spec_version(diagnostic) => {
            vec![Fix::new(
                code,
                "Add `spec_version: \"1.0\"`",
                Safety::Safe,
                vec![Edit::Set {
                    path: "/spec_version".to_owned(),
                    value: json!("1.0"),
                }],
            )]
        }
        _ => Vec::new(),
    }
}

/// An import nothing uses: remove its entry (the whole `imports` when it is the only one).
/// Safe: it contributes nothing that is used.
fn unused_import(json: &Value, code: &str, path: &str) -> Vec<Fix> {
    let alias = json
        .pointer(&format!("{path}/as"))
        .and_then(Value::as_str)
        .unwrap_or("the import");
    let only_one = json
        .get("imports")
        .and_then(Value::as_array)
        .is_some_and(|imports| imports.len() == 1);
    let removed = if only_one { "/imports" } else { path };
    vec![Fix::new(
        code,
        format!("Remove the unused import `{alias}`"),
        Safety::Safe,
        vec![Edit::Remove {
            path: removed.to_owned(),
        }],
    )]
}

/// A name repeated in `needs` or `depends_on`: remove every repeat after the first. Safe: a
/// repeat changes nothing.
fn duplicate_dependency(json: &Value, code: &str, path: &str) -> Vec<Fix> {
    let Some((list_pointer, _)) = path.rsplit_once('/') else {
        return Vec::new();
    };
    let Some(name) = json.pointer(path).and_then(Value::as_str) else {
        return Vec::new();
    };
    let Some(items) = json.pointer(list_pointer).and_then(Value::as_array) else {
        return Vec::new();
    };
    let repeats: Vec<usize> = items
        .iter()
        .enumerate()
        .filter(|(_, item)| item.as_str() == Some(name))
        .map(|(index, _)| index)
        .skip(1)
        .collect();
    // Removed from the last, so the earlier indices stay where they are.
    let edits = repeats
        .iter()
        .rev()
        .map(|index| Edit::Remove {
            path: format!("{list_pointer}/{index}"),
        })
        .collect();
    vec![Fix::new(
        code,
        format!("Remove the repeated `{name}`"),
        Safety::Safe,
        edits,
    )]
}

/// A tool both allowed and denied: denied wins at run time, so removing it from
/// `allowed_tools` keeps what runs. Safe.
fn allowed_and_denied(json: &Value, code: &str, path: &str) -> Vec<Fix> {
    let Some((step, _)) = path.rsplit_once("/denied_tools/") else {
        return Vec::new();
    };
    let Some(tool) = json.pointer(path).and_then(Value::as_str) else {
        return Vec::new();
    };
    let allowed = format!("{step}/allowed_tools");
    let Some(items) = json.pointer(&allowed).and_then(Value::as_array) else {
        return Vec::new();
    };
    let edits: Vec<Edit> = items
        .iter()
        .enumerate()
        .filter(|(_, item)| item.as_str() == Some(tool))
        .map(|(index, _)| Edit::Remove {
            path: format!("{allowed}/{index}"),
        })
        .rev()
        .collect();
    vec![Fix::new(
        code,
        format!("Remove `{tool}` from `allowed_tools` (it is denied)"),
        Safety::Safe,
        edits,
    )]
}

/// A decision-tree node without a default branch: add `default: true` leading to one of the
/// tree's terminals. Unsafe: which outcome an unmatched value should get is a person's choice,
/// so one fix is offered per terminal.
fn default_branch(json: &Value, code: &str, path: &str) -> Vec<Fix> {
    let Some((tree, _)) = path.split_once("/nodes/") else {
        return Vec::new();
    };
    let terminals = json
        .pointer(&format!("{tree}/terminals"))
        .and_then(Value::as_object)
        .map(|t| t.keys().cloned().collect::<Vec<_>>())
        .unwrap_or_default();
    terminals
        .into_iter()
        .map(|terminal| {
            Fix::new(
                code,
                format!("Add a default branch to the terminal `{terminal}`"),
                Safety::Unsafe,
                vec![Edit::Insert {
                    path: format!("{path}/branches"),
                    index: None,
                    value: json!({"default": true, "next": terminal}),
                }],
            )
        })
        .collect()
}

/// An unquoted value other YAML readers take for something else than a string: quote it.
/// Safe: YAML 1.2 reads the same string quoted; the others now read it too.
fn quote(json: &Value, diagnostic: &Diagnostic) -> Vec<Fix> {
    let (Some(text), Some(span)) = (
        json.pointer(&diagnostic.path).and_then(Value::as_str),
        diagnostic.span,
    ) else {
        return Vec::new();
    };
    let quoted = Value::String(text.to_owned()).to_string();
    vec![Fix::new(
        &diagnostic.code,
        format!("Quote `{text}`"),
        Safety::Safe,
        vec![Edit::ReplaceText {
            start: span.start,
            end: span.end,
            text: quoted,
        }],
    )]
}

/// A step reads another it does not wait for: add that one to its `needs`. Safe: reading a
/// step's output is waiting for it. Not offered when the step read already waits for the
/// reader (through `needs`, directly or not): the addition would close a cycle, and which way
/// the data flows is the author's choice.
fn add_need(json: &Value, diagnostic: &Diagnostic) -> Vec<Fix> {
    let (Some(reader), Some(help)) = (
        diagnostic
            .path
            .strip_prefix("/steps/")
            .and_then(|rest| rest.split('/').next()),
        diagnostic.help.as_deref(),
    ) else {
        return Vec::new();
    };
    let Some(step) = help
        .strip_prefix("add `")
        .and_then(|rest| rest.split_once('`'))
        .map(|(step, _)| step)
    else {
        return Vec::new();
    };
    if waits_for(json, step, reader) {
        return Vec::new();
    }
    let needs = format!("/steps/{reader}/needs");
    let edit = match json.pointer(&needs) {
        Some(Value::Array(_)) => Edit::Insert {
            path: needs,
            index: None,
            value: json!(step),
        },
        _ => Edit::Set {
            path: needs,
            value: json!([step]),
        },
    };
    vec![Fix::new(
        &diagnostic.code,
        format!("Add `{step}` to the `needs` of `{reader}`"),
        Safety::Safe,
        vec![edit],
    )]
}

/// Whether the name an `unknown-need` suggests already waits for the step whose `needs` it
/// would join (or is that step): the replacement would close a cycle, so it is no fix.
pub(super) fn need_closes_cycle(json: &Value, diagnostic: &Diagnostic) -> bool {
    if diagnostic.code != rules::UNKNOWN_NEED.code {
        return false;
    }
    let tokens = crate::json::pointer_tokens(&diagnostic.path);
    let tokens: Vec<&str> = tokens.iter().map(String::as_str).collect();
    let (["steps", step, "needs", _], Some(name)) = (
        &tokens[..],
        diagnostic.help.as_deref().and_then(super::suggested_name),
    ) else {
        return false;
    };
    waits_for(json, name, step)
}

/// Whether step `from` waits for step `to` through the steps' `needs` (a chain of any length).
fn waits_for(json: &Value, from: &str, to: &str) -> bool {
    let needs_of = |step: &str| -> Vec<String> {
        let needs = format!("/steps/{}/needs", crate::json::escape_token(step));
        crate::model::read::strings(json.pointer(&needs))
    };
    let mut seen = std::collections::HashSet::new();
    let mut waiting = vec![from.to_owned()];
    while let Some(step) = waiting.pop() {
        if step == to {
            return true;
        }
        if seen.insert(step.clone()) {
            waiting.extend(needs_of(&step));
        }
    }
    false
}

fn missing_spec_version(diagnostic: &Diagnostic) -> bool {
    diagnostic.path.is_empty() && diagnostic.message.contains("`spec_version`")
}

/// Whether `pointer` names a condition field.
fn is_condition(pointer: &str) -> bool {
    let tokens: Vec<&str> = pointer.split('/').collect();
    crate::lint::condition_patterns().any(|pattern| {
        let parts: Vec<&str> = pattern.split('/').collect();
        parts.len() == tokens.len() && parts.iter().zip(&tokens).all(|(p, t)| *p == "*" || p == t)
    })
}

/// A condition written without `{{ }}` is text, always truthy: wrap it, so it is evaluated.
/// Safe: a bare condition is a constant nobody means (spec §4.2: expressions use `{{ }}`).
/// `None` when `pointer` is not a condition field or its value already holds `{{`.
pub fn wrap_condition(json: &Value, pointer: &str) -> Option<Fix> {
    if !is_condition(pointer) {
        return None;
    }
    let value = json.pointer(pointer)?.as_str()?;
    let trimmed = value.trim();
    if trimmed.is_empty() || value.contains("{{") {
        return None;
    }
    Some(Fix::new(
        rules::UNBRACED_CONDITION.code,
        format!("Wrap `{trimmed}` in `{{{{ }}}}`"),
        Safety::Safe,
        vec![Edit::Set {
            path: pointer.to_owned(),
            value: json!(format!("{{{{ {trimmed} }}}}")),
        }],
    ))
}
