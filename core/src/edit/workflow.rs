//! Edits of a LOGIC.md workflow (spec §9.1) and of what names a step or node from elsewhere in
//! the document: removing a node with the `depends_on` entries and edges that point at it, the
//! `visual.inspector` controls bound to a removed step or node, a section a removal emptied.

use serde_json::Value;

use super::{refused, Session};
use crate::diagnostic::Diagnostic;
use crate::fieldpath::{FieldPath, Segment};
use crate::json::pointer_push;

/// Removes workflow node `name` and what only points at it: other nodes' `depends_on` entries,
/// the edges from or to it, the inspector controls bound to it, its canvas position (each with a
/// note).
pub(super) fn remove_node(session: &mut Session, name: &str) -> Result<(), Diagnostic> {
    let own = pointer_push("/nodes", name);
    if session.json().pointer(&own).is_none() {
        return Err(refused(format!("there is no node `{name}`")));
    }
    let others: Vec<String> = session
        .json()
        .get("nodes")
        .and_then(Value::as_object)
        .map(|nodes| nodes.keys().filter(|k| *k != name).cloned().collect())
        .unwrap_or_default();
    for other in others {
        let list = format!("{}/depends_on", pointer_push("/nodes", &other));
        if remove_matching(session, &list, |v| v.as_str() == Some(name))? {
            session.note(format!("node `{other}` no longer depends on `{name}`"));
        }
    }
    let touches = |edge: &Value| {
        ["from", "to"]
            .iter()
            .any(|end| edge.get(*end).and_then(Value::as_str) == Some(name))
    };
    let removed: Vec<String> = session
        .json()
        .get("edges")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter(|edge| touches(edge))
        .map(|edge| {
            let end = |k: &str| {
                edge.get(k)
                    .and_then(Value::as_str)
                    .unwrap_or("?")
                    .to_owned()
            };
            format!(
                "the edge from `{}` to `{}` was removed",
                end("from"),
                end("to")
            )
        })
        .collect();
    remove_matching(session, "/edges", touches)?;
    for note in removed {
        session.note(note);
    }
    remove_inspector_controls(session, "nodes", name)?;
    session.remove(&own)?;
    remove_position(session, name)
}

/// Removes the canvas position of the step or node `name`, if it has one.
pub(super) fn remove_position(session: &mut Session, name: &str) -> Result<(), Diagnostic> {
    let position = format!(
        "/metadata/logicmd/positions/{}",
        crate::json::escape_token(name)
    );
    if session.json().pointer(&position).is_some() {
        session.remove(&position)?;
    }
    Ok(())
}

/// Removes the items of the list at `pointer` that `matches`, and the list itself when none is
/// left; whether any was removed.
pub(super) fn remove_matching(
    session: &mut Session,
    pointer: &str,
    matches: impl Fn(&Value) -> bool,
) -> Result<bool, Diagnostic> {
    let items = session
        .json()
        .pointer(pointer)
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let doomed: Vec<usize> = (0..items.len()).filter(|&i| matches(&items[i])).collect();
    if doomed.is_empty() {
        return Ok(false);
    }
    if doomed.len() == items.len() {
        session.remove(pointer)?;
        return Ok(true);
    }
    for index in doomed.into_iter().rev() {
        session.remove(&format!("{pointer}/{index}"))?;
    }
    Ok(true)
}

/// Removes the object at `pointer` when a removal left it empty (`fallback: {}` says nothing).
pub(super) fn remove_if_emptied(session: &mut Session, pointer: &str) -> Result<(), Diagnostic> {
    let empty = session
        .json()
        .pointer(pointer)
        .and_then(Value::as_object)
        .is_some_and(|map| map.is_empty());
    if empty {
        session.remove(pointer)?;
    }
    Ok(())
}

/// The `visual.inspector` controls whose `key` is a field of `collection.name` (a step or a node),
/// by index.
fn inspector_controls_of(json: &Value, collection: &str, name: &str) -> Vec<(usize, FieldPath)> {
    let controls = json.pointer("/visual/inspector").and_then(Value::as_array);
    controls
        .into_iter()
        .flatten()
        .enumerate()
        .filter_map(|(index, control)| {
            let key = control.get("key").and_then(Value::as_str)?;
            let path = FieldPath::parse(key).ok()?;
            match path.0.as_slice() {
                [Segment::Key(c), Segment::Key(n), ..] if c == collection && n == name => {
                    Some((index, path))
                }
                _ => None,
            }
        })
        .collect()
}

/// Removes the inspector controls bound to a field of `collection.name` (it is being removed).
pub(super) fn remove_inspector_controls(
    session: &mut Session,
    collection: &str,
    name: &str,
) -> Result<(), Diagnostic> {
    let doomed = inspector_controls_of(session.json(), collection, name);
    if doomed.is_empty() {
        return Ok(());
    }
    let bound: Vec<Value> = {
        let controls = session.json().pointer("/visual/inspector");
        let controls = controls
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        doomed.iter().map(|(i, _)| controls[*i].clone()).collect()
    };
    remove_matching(session, "/visual/inspector", |control| {
        bound.contains(control)
    })?;
    remove_if_emptied(session, "/visual")?;
    for (_, path) in doomed {
        session.note(format!(
            "the inspector control of `{}` was removed",
            path.to_text()
        ));
    }
    Ok(())
}

/// Renames `collection.from` to `collection.to` in the inspector controls' keys.
pub(super) fn rename_in_inspector_keys(
    session: &mut Session,
    collection: &str,
    from: &str,
    to: &str,
) -> Result<(), Diagnostic> {
    for (index, mut path) in inspector_controls_of(session.json(), collection, from) {
        path.0[1] = Segment::Key(to.to_owned());
        session.set(
            &format!("/visual/inspector/{index}/key"),
            &Value::String(path.to_text()),
        )?;
    }
    Ok(())
}
