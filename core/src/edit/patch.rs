//! Text patches: applying them, composing a sequence into patches against the original text,
//! and the smallest single patch between two texts (for undo).

use serde::{Deserialize, Serialize};

use super::ops::Patch;
use crate::source::utf16_offset;

/// A change to the original text, in bytes and in UTF-16 code units (what browser editors use).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TextPatch {
    /// Byte offset where the replaced range starts.
    pub start: usize,
    /// Byte offset just past the replaced range.
    pub end: usize,
    /// `start` in UTF-16 code units.
    pub start_utf16: usize,
    /// `end` in UTF-16 code units.
    pub end_utf16: usize,
    /// The text that replaces the range.
    pub text: String,
}

pub fn apply_patch(text: &str, patch: &Patch) -> String {
    let mut out = String::with_capacity(text.len() + patch.text.len());
    out.push_str(&text[..patch.start]);
    out.push_str(&patch.text);
    out.push_str(&text[patch.end..]);
    out
}

/// Adds `patch` (relative to `current`, the text after the patches in `merged`) to `merged`
/// (relative to the original text, sorted and disjoint), merging with patches it touches.
pub fn compose(merged: &mut Vec<Patch>, current: &str, patch: &Patch) {
    let delta = |p: &Patch| p.text.len() as isize - (p.end - p.start) as isize;
    let mut shift: isize = 0;
    let mut first = None;
    let mut last = None;
    for (i, existing) in merged.iter().enumerate() {
        let start = (existing.start as isize + shift) as usize;
        let end = start + existing.text.len();
        if end < patch.start {
            shift += delta(existing);
            continue;
        }
        if start > patch.end {
            break;
        }
        first.get_or_insert(i);
        last = Some(i);
    }
    let (Some(first), Some(last)) = (first, last) else {
        // Touches nothing: `shift` is the offset change of every patch before it.
        let start = (patch.start as isize - shift) as usize;
        let end = (patch.end as isize - shift) as usize;
        let at = merged.partition_point(|p| p.start < start);
        merged.insert(
            at,
            Patch {
                start,
                end,
                text: patch.text.clone(),
            },
        );
        return;
    };
    let group_delta: isize = merged[first..=last].iter().map(delta).sum();
    let group_start_current = (merged[first].start as isize + shift) as usize;
    let group_end_current = (merged[last].end as isize + shift + group_delta) as usize;
    let start_current = patch.start.min(group_start_current);
    let end_current = patch.end.max(group_end_current);
    let mut text = String::new();
    text.push_str(&current[start_current..patch.start]);
    text.push_str(&patch.text);
    text.push_str(&current[patch.end..end_current]);
    let combined = Patch {
        start: (start_current as isize - shift) as usize,
        end: (end_current as isize - shift - group_delta) as usize,
        text,
    };
    merged.splice(first..=last, [combined]);
}

/// The single smallest patch turning `from` into `to`: common prefix and suffix kept.
pub fn diff(from: &str, to: &str) -> Patch {
    let prefix = from
        .char_indices()
        .zip(to.chars())
        .find(|((_, a), b)| a != b)
        .map_or(from.len().min(to.len()), |((i, _), _)| i);
    let max_suffix = (from.len() - prefix).min(to.len() - prefix);
    let mut suffix = 0;
    let (fb, tb) = (from.as_bytes(), to.as_bytes());
    while suffix < max_suffix && fb[fb.len() - 1 - suffix] == tb[tb.len() - 1 - suffix] {
        suffix += 1;
    }
    // Keep the suffix on a character boundary of both texts.
    while suffix > 0
        && (!from.is_char_boundary(from.len() - suffix) || !to.is_char_boundary(to.len() - suffix))
    {
        suffix -= 1;
    }
    Patch {
        start: prefix,
        end: from.len() - suffix,
        text: to[prefix..to.len() - suffix].to_owned(),
    }
}

/// Describes `patch` against `text` in both byte and UTF-16 offsets.
pub fn describe(text: &str, patch: &Patch) -> TextPatch {
    TextPatch {
        start: patch.start,
        end: patch.end,
        start_utf16: utf16_offset(text, patch.start),
        end_utf16: utf16_offset(text, patch.end),
        text: patch.text.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(start: usize, end: usize, text: &str) -> Patch {
        Patch {
            start,
            end,
            text: text.to_owned(),
        }
    }

    /// Applies `sequence` one by one and checks the composed patches give the same text.
    fn check(original: &str, sequence: &[Patch]) {
        let mut current = original.to_owned();
        let mut merged = Vec::new();
        for patch in sequence {
            compose(&mut merged, &current, patch);
            current = apply_patch(&current, patch);
        }
        let mut rebuilt = original.to_owned();
        for patch in merged.iter().rev() {
            rebuilt = apply_patch(&rebuilt, patch);
        }
        assert_eq!(rebuilt, current, "{merged:?}");
        assert!(
            merged.windows(2).all(|w| w[0].end <= w[1].start),
            "{merged:?}"
        );
    }

    #[test]
    fn composes_disjoint_and_overlapping_patches() {
        let text = "0123456789abcdef";
        check(text, &[p(2, 3, "XX"), p(10, 12, ""), p(0, 0, "^")]);
        check(text, &[p(2, 5, "X"), p(1, 4, "YY")]);
        check(text, &[p(5, 5, "abc"), p(5, 8, "")]);
        check(text, &[p(1, 2, "A"), p(8, 9, "B"), p(0, 10, "Z")]);
        check(text, &[p(3, 4, "x"), p(4, 4, "y"), p(4, 5, "")]);
    }

    #[test]
    fn diff_keeps_common_prefix_and_suffix() {
        assert_eq!(diff("abcdef", "abXYef"), p(2, 4, "XY"));
        assert_eq!(diff("aé b", "aé c"), p(4, 5, "c"));
        assert_eq!(diff("same", "same"), p(4, 4, ""));
        let from = "é";
        let to = "è";
        let patch = diff(from, to);
        assert_eq!(apply_patch(from, &patch), to);
    }
}
