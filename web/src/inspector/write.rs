//! Writing one inspector field through core's lossless edit: a minimal text change, comments
//! kept, one undo step. A value the schema refuses at the field is not written.

use leptos::prelude::*;
use logicmd::edit::{apply, Edit};
use logicmd::Severity;
use serde_json::Value;

use crate::analysis::CoreParsed;
use crate::state::Studio;

/// The document's value at `pointer` (`Null` when absent or the text does not parse).
pub fn value_at(studio: Studio, pointer: &str) -> Value {
    studio
        .analysis
        .with(|a| match a.parsed.as_ref().map(|p| &p.0) {
            Some(CoreParsed::Logic(document)) => document.json().pointer(pointer).cloned(),
            Some(CoreParsed::Drtl(topology)) => topology.json().pointer(pointer).cloned(),
            None => None,
        })
        .unwrap_or(Value::Null)
}

/// Sets (or, for `None`, removes) the value at `pointer` as one undoable change.
pub fn write(studio: Studio, pointer: &str, value: Option<Value>) -> Result<(), String> {
    write_all(studio, &[pointer.to_owned()], value, None)
}

/// Sets (or removes) the value at every one of `pointers` (the same field of several selected
/// nodes) as one undoable change; changes of one `group` (a field typed in) are one undo step.
pub fn write_all(
    studio: Studio,
    pointers: &[String],
    value: Option<Value>,
    group: Option<&str>,
) -> Result<(), String> {
    let planned: Vec<Edit> = pointers
        .iter()
        .filter_map(|pointer| match &value {
            Some(value) => Some(Edit::Set {
                path: pointer.clone(),
                value: value.clone(),
            }),
            None if value_at(studio, pointer).is_null() => None,
            None => Some(Edit::Remove {
                path: pointer.clone(),
            }),
        })
        .collect();
    apply_checked(studio, pointers, &planned, group)
}

/// Applies `edits` in turn as one undoable change; refused (nothing written) when one is, or
/// when the result has a schema error at or under `pointer`.
pub fn edits(studio: Studio, pointer: &str, edits: &[Edit]) -> Result<(), String> {
    apply_checked(studio, &[pointer.to_owned()], edits, None)
}

fn apply_checked(
    studio: Studio,
    pointers: &[String],
    edits: &[Edit],
    group: Option<&str>,
) -> Result<(), String> {
    let mut text = studio.text.get_untracked();
    let mut last = None;
    for edit in edits {
        let applied = apply(&text, edit).map_err(|d| d.message)?;
        text = applied.text.clone();
        last = Some(applied);
    }
    let Some(applied) = last else {
        return Ok(());
    };
    let under = |path: &str| {
        pointers
            .iter()
            .any(|p| path == p || path.starts_with(&format!("{p}/")))
    };
    let refused = applied
        .diagnostics
        .iter()
        .find(|d| d.severity == Severity::Error && under(&d.path));
    if let Some(problem) = refused {
        return Err(problem.message.clone());
    }
    studio.replace_text_in(applied.text, group);
    Ok(())
}
