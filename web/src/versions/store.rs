//! The saved states of the document kept in the browser: every state the autosave wrote, newest
//! last, at most [`KEEP`] of them and [`BYTES`] in all (the oldest go first). Only the document's
//! own text is kept, as the autosave already does.

use serde_json::{json, Value};

/// Saved states kept, and their total size.
pub const KEEP: usize = 50;
pub const BYTES: usize = 2 << 20;

#[derive(Debug, Clone, PartialEq)]
pub struct Version {
    /// When it was saved (milliseconds since the Unix epoch).
    pub saved: f64,
    pub text: String,
}

/// Adds `text` as the newest state unless it is the newest already; drops the oldest beyond the
/// bounds (the newest is always kept). Returns whether anything changed.
pub fn record(versions: &mut Vec<Version>, text: &str, saved: f64) -> bool {
    if versions.last().is_some_and(|v| v.text == text) || text.trim().is_empty() {
        return false;
    }
    versions.push(Version {
        saved,
        text: text.to_owned(),
    });
    let mut total: usize = versions.iter().map(|v| v.text.len()).sum();
    while versions.len() > 1 && (versions.len() > KEEP || total > BYTES) {
        total -= versions.remove(0).text.len();
    }
    true
}

/// The stored list, or nothing if it is missing or unreadable.
pub fn parse(stored: &str) -> Vec<Version> {
    let Ok(Value::Array(items)) = serde_json::from_str::<Value>(stored) else {
        return Vec::new();
    };
    items
        .iter()
        .filter_map(|item| {
            Some(Version {
                saved: item.get("saved")?.as_f64()?,
                text: item.get("text")?.as_str()?.to_owned(),
            })
        })
        .collect()
}

pub fn format(versions: &[Version]) -> String {
    let items: Vec<Value> = versions
        .iter()
        .map(|v| json!({ "saved": v.saved, "text": v.text }))
        .collect();
    Value::Array(items).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn states_are_kept_newest_last_bounded_and_without_repeats() {
        let mut versions = Vec::new();
        assert!(record(&mut versions, "a", 1.0));
        assert!(
            !record(&mut versions, "a", 2.0),
            "the same text twice is one state"
        );
        assert!(
            !record(&mut versions, "  ", 3.0),
            "a blank text is not a state"
        );
        for i in 0..KEEP + 5 {
            record(&mut versions, &format!("text {i}"), i as f64);
        }
        assert_eq!(versions.len(), KEEP);
        assert_eq!(versions.last().unwrap().text, format!("text {}", KEEP + 4));
        assert_eq!(parse(&super::format(&versions)), versions);
        assert_eq!(parse("not json"), vec![]);
        let mut big = Vec::new();
        record(&mut big, &"x".repeat(BYTES), 1.0);
        record(&mut big, &"y".repeat(BYTES), 2.0);
        assert_eq!(
            big.len(),
            1,
            "the size bound drops the oldest, keeps the newest"
        );
    }
}
