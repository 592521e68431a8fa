//! Lossless editing: structured edits applied as minimal text patches, so comments, blank
//! lines, key order, quoting and the markdown body survive. Every edit is checked by re-parsing:
//! the new frontmatter must equal the intended JSON exactly, must still parse, and a valid
//! document must stay valid; otherwise the edit is refused and the text is left unchanged.

mod clip;
mod connect;
mod current;
mod drtl;
mod literal;
mod ops;
mod patch;
mod plain;
mod render;
mod steps;
mod text;
mod workflow;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::diagnostic::Diagnostic;
use crate::fieldpath::FieldPath;

use crate::format::comments::{check_kept, Comment, CommentChange};
use crate::json::pointer_push;
use crate::source::LineIndex;
pub use clip::{copy_nodes, copy_steps, paste_nodes, paste_steps, Pasted};
use current::Current;
use ops::Change;
pub(crate) use ops::Patch;
pub use patch::TextPatch;
pub(crate) use plain::{plain_is_safe, read_otherwise};

/// The offset of the `-` of a block sequence item.
pub(crate) fn dash_offset(text: &str, item: &crate::yaml::Node) -> Option<usize> {
    ops::item_dash(text, item)
}

/// One edit, as the studio, the npm package and `logicmd edit` express it. Paths are JSON
/// Pointers (`/steps/a/needs`) or dotted paths (`steps.a.needs`, `gates[0].name`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum Edit {
    /// Set the value at a path, creating missing mapping entries.
    Set {
        /// Where: a JSON Pointer or a dotted path.
        path: String,
        /// The new value.
        value: Value,
    },
    /// Remove the entry or list item at a path (with its leading comment).
    Remove {
        /// What: a JSON Pointer or a dotted path.
        path: String,
    },
    /// Insert into the list at a path; `index` defaults to the end.
    Insert {
        /// The list: a JSON Pointer or a dotted path.
        path: String,
        /// The position the new item takes (0 is first); the end when absent.
        #[serde(default)]
        index: Option<usize>,
        /// The new item.
        value: Value,
    },
    /// Replace a byte range of the text (what undo produces). The result must parse; unlike
    /// structural edits it may leave the document invalid.
    ReplaceText {
        /// Byte offset of the range's start, on a character boundary.
        start: usize,
        /// Byte offset just past the range, on a character boundary, not before `start`.
        end: usize,
        /// The text that takes the range's place.
        text: String,
    },
    /// Add a step after `after` (or at the end).
    AddStep {
        /// The new step's name; refused if a step has it already.
        name: String,
        /// The step it goes after; the end when absent.
        #[serde(default)]
        after: Option<String>,
        /// The step's body (a mapping); an empty step when absent.
        #[serde(default)]
        step: Value,
    },
    /// Remove a step and drop it from other steps' `needs`.
    RemoveStep {
        /// The step to remove.
        name: String,
    },
    /// Remove several steps as one edit and drop every reference to them (as `remove_step`);
    /// the steps may read each other's output.
    RemoveSteps {
        /// The steps to remove.
        names: Vec<String>,
    },
    /// Rename a step and every reference to it.
    RenameStep {
        /// The step's current name.
        from: String,
        /// Its new name; refused if a step has it already.
        to: String,
    },
    /// Make `to` need `from` (LOGIC.md), or add an edge from `from` to `to` (DRTL). Refused
    /// when it wires a node to itself, touches anything but steps in LOGIC.md, joins ports
    /// whose types do not fit, or closes a `needs` cycle (the message names the path).
    Connect {
        /// The upstream step or node.
        from: String,
        /// The downstream step or node.
        to: String,
        /// The output port of `from` the wire leaves; its first port when absent.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        from_port: Option<String>,
        /// The input port of `to` the wire enters; its first port when absent.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        to_port: Option<String>,
    },
    /// Remove `from` from the `needs` of `to`.
    Disconnect {
        /// The step that is needed.
        from: String,
        /// The step whose `needs` loses `from`.
        to: String,
    },
    /// Record a node's canvas position (under `metadata.logicmd.positions`).
    SetPosition {
        /// The node's name in the document (a step name, a DRTL node id), as in
        /// [`crate::graph::GraphNode::name`].
        node: String,
        /// Canvas x of the node's left edge; finite, stored to one decimal.
        x: f64,
        /// Canvas y of the node's top edge; finite, stored to one decimal.
        y: f64,
    },
    /// DRTL: add a node (an object with `id` and `type`) after node `after`, or at the end.
    AddNode {
        /// The node: a mapping with at least `id` and `type`.
        node: Value,
        /// The id of the node it goes after; the end when absent.
        #[serde(default)]
        after: Option<String>,
    },
    /// DRTL: remove a node and the edges that touch it.
    RemoveNode {
        /// The node's `id`.
        id: String,
    },
    /// DRTL: point a gate's `on_pass`/`on_fail`, or a review action, at `target`.
    SetRoute {
        /// The gate or review node's `id`.
        node: String,
        /// `on_pass`, `on_fail`, or the review action's name.
        route: String,
        /// The id of the node the route goes to.
        target: String,
    },
}

/// The outcome of an edit.
#[derive(Debug, Clone, Serialize)]
pub struct Applied {
    /// The whole new text.
    pub text: String,
    /// Changes against the original text, sorted and disjoint.
    pub patches: Vec<TextPatch>,
    /// Diagnostics of the new text (parse + schema).
    pub diagnostics: Vec<Diagnostic>,
    /// The edit that restores the original text exactly.
    pub inverse: Edit,
    /// Notes about consequences (for example branches left pointing at a removed step).
    pub notes: Vec<String>,
}

/// Applies `edit` to `text`. An edit that would break parsing or validity is refused with a
/// diagnostic, and nothing changes.
pub fn apply(text: &str, edit: &Edit) -> Result<Applied, Diagnostic> {
    // Lone carriage returns are line breaks while editing, and again in what is returned.
    let lf = crate::source::lone_cr_as_lf(text);
    let restore = |written: String| crate::source::restore_lone_cr(written, text);
    let edit = match edit {
        Edit::ReplaceText {
            start,
            end,
            text: replacement,
        } => Edit::ReplaceText {
            start: *start,
            end: *end,
            text: crate::source::lone_cr_as_lf(replacement).into_owned(),
        },
        other => other.clone(),
    };
    let mut applied = apply_lf(&lf, &edit)?;
    applied.text = restore(applied.text);
    for patch in &mut applied.patches {
        patch.text = restore(std::mem::take(&mut patch.text));
    }
    if let Edit::ReplaceText { text: undo, .. } = &mut applied.inverse {
        *undo = restore(std::mem::take(undo));
    }
    Ok(applied)
}

fn apply_lf(text: &str, edit: &Edit) -> Result<Applied, Diagnostic> {
    let current = Current::detect(text).map_err(|why| {
        refused(format!(
            "the document does not parse ({why}); fix it before editing it structurally"
        ))
    })?;
    let was_valid = !crate::diagnostic::has_errors(&current.diagnostics());
    let mut session = Session {
        original: text.to_owned(),
        comments: current.comments(),
        current,
        merged: Vec::new(),
        notes: Vec::new(),
    };
    match edit {
        Edit::ReplaceText {
            start,
            end,
            text: replacement,
        } => session.replace_text(*start, *end, replacement)?,
        other => steps::run(&mut session, other)?,
    }
    // Every step already re-parsed the text without errors; only the schema is left to check.
    let diagnostics = session.current.diagnostics();
    let after = crate::validate::Report {
        valid: !crate::diagnostic::has_errors(&diagnostics),
        diagnostics,
        document: None,
    };
    // Raw text replacements (typing, undo) need only parse: undoing an edit that fixed a
    // document must be able to bring the old problem back.
    let structural = !matches!(edit, Edit::ReplaceText { .. });
    if structural && was_valid && !after.valid {
        let first = after.first_error("");
        return Err(refused(format!(
            "the edit would make the document invalid: {first}"
        )));
    }
    let new_text = session.current.text().to_owned();
    let undo = patch::diff(&new_text, &session.original);
    Ok(Applied {
        patches: session
            .merged
            .iter()
            .map(|p| patch::describe(text, p))
            .collect(),
        diagnostics: after.diagnostics,
        inverse: Edit::ReplaceText {
            start: undo.start,
            end: undo.end,
            text: undo.text,
        },
        notes: session.notes,
        text: new_text,
    })
}

fn refused(message: impl Into<String>) -> Diagnostic {
    let mut diagnostic = Diagnostic::error("edit-refused", message);
    diagnostic.line = 1;
    diagnostic.column = 1;
    diagnostic
}

/// Why the dotted `path` must not be written as it is: where it would create an entry beside an
/// existing key that spells the rest of the path with dots (§9.1's override keys such as
/// `reasoning.max_iterations`), the user meant that key, written quoted.
pub(crate) fn dotted_key_conflict(json: &Value, path: &str) -> Option<String> {
    use crate::fieldpath::Segment;
    if path.starts_with('/') {
        return None;
    }
    let segments = FieldPath::parse(path).ok()?.0;
    let mut current = json;
    for (i, segment) in segments.iter().enumerate() {
        let next = match (segment, current) {
            (Segment::Key(key), Value::Object(map)) => map.get(key),
            (Segment::Index(index), Value::Array(items)) => items.get(*index),
            _ => None,
        };
        if let Some(next) = next {
            current = next;
            continue;
        }
        let map = current.as_object()?;
        return (i + 2..=segments.len()).find_map(|end| {
            let key = FieldPath(segments[i..end].to_vec()).to_text();
            map.contains_key(&key).then(|| {
                let mut meant = segments[..i].to_vec();
                meant.push(Segment::Key(key.clone()));
                meant.extend_from_slice(&segments[end..]);
                format!(
                    "`{path}` would write a new `{}` beside the key `{key}`: to set that key, write `{}`",
                    FieldPath(segments[..=i].to_vec()).to_text(),
                    FieldPath(meant).to_text()
                )
            })
        });
    }
    None
}

/// Turns a dotted path or JSON Pointer into a JSON Pointer.
pub(crate) fn to_pointer(path: &str) -> Result<String, Diagnostic> {
    if path.is_empty() || path.starts_with('/') {
        return Ok(path.to_owned());
    }
    FieldPath::parse(path)
        .map(|p| p.to_pointer())
        .map_err(refused)
}

/// The document being edited, one verified primitive step at a time.
pub(crate) struct Session {
    original: String,
    current: Current,
    /// The comments of the current text.
    comments: Vec<Comment>,
    merged: Vec<Patch>,
    notes: Vec<String>,
}

impl Session {
    pub(crate) fn json(&self) -> &Value {
        self.current.json()
    }

    pub(crate) fn is_drtl(&self) -> bool {
        self.current.is_drtl()
    }

    /// The graph of the current text (nodes with their ports).
    pub(crate) fn graph(&self) -> crate::graph::Graph {
        self.current.graph()
    }

    /// "line N" of the value at `pointer` in the current text.
    pub(crate) fn place_line(&self, pointer: &str) -> String {
        let source = self.current.source();
        let span = source.span_at(pointer);
        let line = source.line_index().line_col(source.text(), span.start).line;
        format!("line {line}")
    }

    /// "POINTER (line N)", naming a place in messages.
    pub(crate) fn place(&self, pointer: &str) -> String {
        format!("{pointer} ({})", self.place_line(pointer))
    }

    pub(crate) fn note(&mut self, note: String) {
        self.notes.push(note);
    }

    /// Sets the value at `pointer`. A non-empty mapping or list set to another of its kind is
    /// edited in place, entry by entry and item by item, so what stays keeps its text and
    /// comments; what it no longer contains is removed, with its comments.
    pub(crate) fn set(&mut self, pointer: &str, value: &Value) -> Result<(), Diagnostic> {
        match (self.current.json().pointer(pointer), value) {
            (Some(old), _) if old == value => Ok(()),
            (Some(Value::Object(old)), Value::Object(new))
                if !old.is_empty() && !new.is_empty() =>
            {
                self.set_entries(pointer, &old.clone(), new)
            }
            (Some(Value::Array(old)), Value::Array(new)) if !old.is_empty() && !new.is_empty() => {
                self.set_items(pointer, &old.clone(), new)
            }
            _ => {
                let change = ops::set(self.current.source(), pointer, value).map_err(refused)?;
                let mut expected = self.current.json().clone();
                json_set(&mut expected, pointer, value.clone());
                self.commit(change, &expected)
            }
        }
    }

    /// New and changed entries first (so the mapping never empties and keeps its style), then
    /// the removed ones.
    fn set_entries(
        &mut self,
        pointer: &str,
        old: &serde_json::Map<String, Value>,
        new: &serde_json::Map<String, Value>,
    ) -> Result<(), Diagnostic> {
        for (key, value) in new {
            self.set(&pointer_push(pointer, key), value)?;
        }
        for key in old.keys().filter(|k| !new.contains_key(*k)) {
            self.remove(&pointer_push(pointer, key))?;
        }
        Ok(())
    }

    /// Items equal at the start and at the end stay; the ones between are set pairwise, and the
    /// surplus is inserted or removed.
    fn set_items(&mut self, pointer: &str, old: &[Value], new: &[Value]) -> Result<(), Diagnostic> {
        let shorter = old.len().min(new.len());
        let prefix = old.iter().zip(new).take_while(|(a, b)| a == b).count();
        let suffix = old
            .iter()
            .rev()
            .zip(new.iter().rev())
            .take(shorter - prefix)
            .take_while(|(a, b)| a == b)
            .count();
        let (old_middle, new_middle) = (old.len() - prefix - suffix, new.len() - prefix - suffix);
        let paired = old_middle.min(new_middle);
        for (i, item) in new.iter().enumerate().skip(prefix).take(paired) {
            self.set(&format!("{pointer}/{i}"), item)?;
        }
        for (i, item) in new
            .iter()
            .enumerate()
            .skip(prefix + paired)
            .take(new_middle - paired)
        {
            self.insert(pointer, Some(i), item)?;
        }
        for i in (prefix + new_middle..prefix + old_middle).rev() {
            self.remove(&format!("{pointer}/{i}"))?;
        }
        Ok(())
    }

    pub(crate) fn remove(&mut self, pointer: &str) -> Result<(), Diagnostic> {
        let change = ops::remove(self.current.source(), pointer).map_err(refused)?;
        let mut expected = self.current.json().clone();
        json_remove(&mut expected, pointer);
        self.commit(change, &expected)
    }

    pub(crate) fn insert(
        &mut self,
        pointer: &str,
        index: Option<usize>,
        value: &Value,
    ) -> Result<(), Diagnostic> {
        let len = self
            .current
            .json()
            .pointer(pointer)
            .and_then(Value::as_array)
            .map_or(0, Vec::len);
        let index = index.unwrap_or(len);
        let change = ops::insert(self.current.source(), pointer, index, value).map_err(refused)?;
        let mut expected = self.current.json().clone();
        match expected.pointer_mut(pointer) {
            Some(Value::Array(items)) => items.insert(index.min(items.len()), value.clone()),
            _ => json_set(&mut expected, pointer, Value::Array(vec![value.clone()])),
        }
        self.commit(change, &expected)
    }

    /// Adds `key: value` to the mapping at `pointer` right after its entry `after`; the order
    /// of the keys is checked too.
    pub(crate) fn insert_entry_after(
        &mut self,
        pointer: &str,
        after: &str,
        key: &str,
        value: &Value,
    ) -> Result<(), Diagnostic> {
        let change = ops::insert_entry_after(self.current.source(), pointer, after, key, value)
            .map_err(refused)?;
        let mut expected = self.current.json().clone();
        let Some(Value::Object(map)) = expected.pointer_mut(pointer) else {
            return Err(refused(format!("there is no mapping at `{pointer}`")));
        };
        let position = map
            .keys()
            .position(|k| k == after)
            .map_or(map.len(), |i| i + 1);
        map.shift_insert(position, key.to_owned(), value.clone());
        let order: Vec<String> = map.keys().cloned().collect();
        self.commit(change, &expected)?;
        let written: Vec<String> = self
            .current
            .json()
            .pointer(pointer)
            .and_then(Value::as_object)
            .map(|m| m.keys().cloned().collect())
            .unwrap_or_default();
        if written != order {
            return Err(refused(format!(
                "`{key}` could not be written after `{after}`"
            )));
        }
        Ok(())
    }

    /// Renames the key at `pointer` in place (the key's text only).
    pub(crate) fn rename_key(&mut self, pointer: &str, new_key: &str) -> Result<(), Diagnostic> {
        let entry = crate::json::entry_at(self.current.source().root(), pointer)
            .ok_or_else(|| refused(format!("no key at `{pointer}`")))?;
        let change = Change {
            patch: Patch {
                start: entry.key_span().start,
                end: entry.key_span().end,
                text: render::key(new_key),
            },
            owned: Vec::new(),
        };
        let mut expected = self.current.json().clone();
        let tokens = crate::json::pointer_tokens(pointer);
        if let Some((last, parents)) = tokens.split_last() {
            let parent_pointer: String = parents
                .iter()
                .map(|t| format!("/{}", crate::json::escape_token(t)))
                .collect();
            if let Some(Value::Object(map)) = expected.pointer_mut(&parent_pointer) {
                let renamed: serde_json::Map<String, Value> = std::mem::take(map)
                    .into_iter()
                    .map(|(k, v)| {
                        if k == *last {
                            (new_key.to_owned(), v)
                        } else {
                            (k, v)
                        }
                    })
                    .collect();
                *map = renamed;
            }
        }
        self.commit(change, &expected)
    }

    fn replace_text(
        &mut self,
        start: usize,
        end: usize,
        replacement: &str,
    ) -> Result<(), Diagnostic> {
        let text = self.current.text();
        if start > end
            || end > text.len()
            || !text.is_char_boundary(start)
            || !text.is_char_boundary(end)
        {
            return Err(refused(format!(
                "the range {start}..{end} is not within the text"
            )));
        }
        let patch = Patch {
            start,
            end,
            text: replacement.to_owned(),
        };
        let new_text = patch::apply_patch(text, &patch);
        let document = self.current.reparse(&new_text).map_err(|why| {
            refused(format!(
                "the replacement would leave text that does not parse: {why}"
            ))
        })?;
        patch::compose(&mut self.merged, self.current.text(), &patch);
        self.comments = document.comments();
        self.current = document;
        Ok(())
    }

    /// Applies the change if the result parses to exactly `expected` and keeps every comment
    /// but those of what it removes.
    fn commit(&mut self, change: Change, expected: &Value) -> Result<(), Diagnostic> {
        let patch = change.patch;
        let new_text = patch::apply_patch(self.current.text(), &patch);
        let document = self
            .current
            .reparse(&new_text)
            .map_err(|why| refused(format!("the edit would break the YAML: {why}")))?;
        if document.json() != expected {
            return Err(refused(
                "the edit could not be written without changing other values; it was not applied",
            ));
        }
        let comments = document.comments();
        let owned = |c: &Comment| {
            change
                .owned
                .iter()
                .any(|s| s.start <= c.offset && c.offset < s.end)
        };
        if let Err(problem) = check_kept(&self.comments, &comments, owned) {
            let (verb, comment, text) = match problem {
                CommentChange::Lost(c) => ("lose", c, self.current.text()),
                CommentChange::Appeared(c) => ("turn text into", c, document.text()),
            };
            let line = LineIndex::new(text).line_col(text, comment.offset).line;
            return Err(refused(format!(
                "the edit would {verb} the comment `{}` (line {line}); it was not applied",
                comment.text
            )));
        }
        patch::compose(&mut self.merged, self.current.text(), &patch);
        self.current = document;
        self.comments = comments;
        Ok(())
    }
}

/// Sets `value` at `pointer` in a JSON value, creating objects on the way.
pub(crate) fn json_set(target: &mut Value, pointer: &str, value: Value) {
    let tokens = crate::json::pointer_tokens(pointer);
    let mut current = target;
    for (i, token) in tokens.iter().enumerate() {
        let last = i + 1 == tokens.len();
        if current.is_null() {
            *current = Value::Object(serde_json::Map::new());
        }
        current = match current {
            Value::Object(map) => {
                if last {
                    map.insert(token.clone(), value);
                    return;
                }
                map.entry(token.clone()).or_insert(Value::Null)
            }
            Value::Array(items) => {
                let Ok(index) = token.parse::<usize>() else {
                    return;
                };
                if index == items.len() {
                    items.push(Value::Null);
                }
                let Some(slot) = items.get_mut(index) else {
                    return;
                };
                if last {
                    *slot = value;
                    return;
                }
                slot
            }
            _ => return,
        };
    }
}

fn json_remove(target: &mut Value, pointer: &str) {
    let tokens = crate::json::pointer_tokens(pointer);
    let Some((last, parents)) = tokens.split_last() else {
        return;
    };
    let parent_pointer: String = parents
        .iter()
        .map(|t| format!("/{}", crate::json::escape_token(t)))
        .collect();
    match target.pointer_mut(&parent_pointer) {
        Some(Value::Object(map)) => {
            map.shift_remove(last);
        }
        Some(Value::Array(items)) => {
            if let Ok(index) = last.parse::<usize>() {
                if index < items.len() {
                    items.remove(index);
                }
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests;
