//! Two results compared case by case: what regressed (passed before, fails now), what was
//! fixed, what is only on one side.

use std::collections::{HashMap, HashSet};

use serde::Serialize;
use serde_json::Value;

use super::row::Row;

/// One case whose verdict changed.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Change {
    /// The case's id, unique in its dataset.
    pub id: String,
    /// The variant before.
    pub before_variant: String,
    /// The variant after.
    pub after_variant: String,
    /// The scorers that passed before and fail now (a regression), or the reverse (a fix).
    pub scorers: Vec<String>,
    /// The run's status before and after, when it changed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<(String, String)>,
}

/// What changed from `before` to `after`.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Comparison {
    /// Passed before, fail now.
    pub regressions: Vec<Change>,
    /// Failed before, pass now.
    pub fixes: Vec<Change>,
    /// Cases that pass on both sides.
    pub still_passing: u64,
    /// Cases that fail on both sides.
    pub still_failing: u64,
    /// Cases (id, variant) only in `before`, or only in `after`.
    pub only_before: Vec<String>,
    /// Cases only in the second result.
    pub only_after: Vec<String>,
}

/// Compares two results. Rows are matched by id and variant; when each side holds one variant
/// only (a document against its changed version, a model against another), by id alone.
pub fn compare(before: &[Row], after: &[Row]) -> Comparison {
    let by_id = single_variant(before) && single_variant(after);
    let key = |row: &Row| {
        if by_id {
            row.id.clone()
        } else {
            format!("{} [{}]", row.id, row.variant)
        }
    };
    let mut comparison = Comparison::default();
    let later: HashMap<String, &Row> = after.iter().map(|row| (key(row), row)).collect();
    let earlier: HashSet<String> = before.iter().map(key).collect();
    for old in before {
        let Some(new) = later.get(&key(old)).copied() else {
            comparison.only_before.push(key(old));
            continue;
        };
        match (old.pass, new.pass) {
            (true, true) => comparison.still_passing += 1,
            (false, false) => comparison.still_failing += 1,
            (true, false) => comparison.regressions.push(change(old, new, true)),
            (false, true) => comparison.fixes.push(change(old, new, false)),
        }
    }
    comparison.only_after = after
        .iter()
        .filter(|new| !earlier.contains(&key(new)))
        .map(key)
        .collect();
    comparison
}

fn single_variant(rows: &[Row]) -> bool {
    rows.iter()
        .all(|r| rows.first().is_some_and(|f| f.variant == r.variant))
}

fn change(old: &Row, new: &Row, regressed: bool) -> Change {
    let passes = |row: &Row, name: &str| {
        row.scores
            .get(name)
            .and_then(|s| s.get("pass"))
            .and_then(Value::as_bool)
    };
    let (from, to) = if regressed { (old, new) } else { (new, old) };
    let scorers = from
        .scores
        .keys()
        .filter(|name| passes(from, name) == Some(true) && passes(to, name) == Some(false))
        .cloned()
        .collect();
    Change {
        id: old.id.clone(),
        before_variant: old.variant.clone(),
        after_variant: new.variant.clone(),
        scorers,
        status: (old.status != new.status).then(|| (old.status.clone(), new.status.clone())),
    }
}
