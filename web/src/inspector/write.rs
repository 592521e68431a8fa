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
    let present = !value_at(studio, pointer).is_null();
    let edit = match value {
        Some(value) => Edit::Set {
            path: pointer.to_owned(),
            value,
        },
        None if !present => return Ok(()),
        None => Edit::Remove {
            path: pointer.to_owned(),
        },
    };
    edits(studio, pointer, &[edit])
}

/// Applies `edits` in turn as one undoable change; refused (nothing written) when one is, or
/// when the result has a schema error at or under `pointer`.
pub fn edits(studio: Studio, pointer: &str, edits: &[Edit]) -> Result<(), String> {
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
    let refused = applied.diagnostics.iter().find(|d| {
        d.severity == Severity::Error
            && (d.path == pointer || d.path.starts_with(&format!("{pointer}/")))
    });
    if let Some(problem) = refused {
        return Err(problem.message.clone());
    }
    studio.replace_text(applied.text);
    Ok(())
}
