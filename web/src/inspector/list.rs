//! What every list editor of the inspector does (branches, rows of objects, a review's actions):
//! how long the list is, adding an item at its end, removing one — each one core edit, its
//! refusal shown at the list.

use leptos::prelude::*;
use logicmd::edit::Edit;
use serde_json::Value;

use super::fields::settle;
use super::write::{edits, value_at, write};
use crate::state::Studio;

/// The number of items of the list at `pointer` (0 when there is none), tracked.
pub fn length(studio: Studio, pointer: String) -> Memo<usize> {
    Memo::new(move |_| value_at(studio, &pointer).as_array().map_or(0, Vec::len))
}

/// Adds `item` at the end of the list at `pointer` (writes the list when there is none yet).
pub fn append(studio: Studio, pointer: &str, item: Value) {
    let outcome = if value_at(studio, pointer)
        .as_array()
        .is_none_or(Vec::is_empty)
    {
        write(studio, pointer, Some(Value::Array(vec![item])))
    } else {
        edits(
            studio,
            pointer,
            &[Edit::Insert {
                path: pointer.to_owned(),
                index: None,
                value: item,
            }],
        )
    };
    settle(studio, pointer, outcome);
}

/// Removes the item at `pointer` (a list's `/N`).
pub fn remove(studio: Studio, pointer: &str) {
    let outcome = edits(
        studio,
        pointer,
        &[Edit::Remove {
            path: pointer.to_owned(),
        }],
    );
    settle(studio, pointer, outcome);
}
