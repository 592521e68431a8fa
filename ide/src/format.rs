//! Formatting is `logicmd fmt`: the whole document, or the changes of `fmt` that fall inside a
//! range (line by line).

use logicmd::analysis::{detect, Kind};
use logicmd::source::Span;

use crate::TextEdit;

/// Above this many lines on either side, a range is formatted only when all of `fmt`'s change
/// falls inside it (the line diff is quadratic).
const MAX_DIFF_LINES: usize = 4000;

/// The edits that format the whole text (none when it is formatted, or `fmt` leaves it alone).
pub fn format_document(id: &str, text: &str) -> Result<Vec<TextEdit>, String> {
    if detect(text, Some(id)) == Kind::Drtl {
        return Err("DRTL topologies are not formatted (as `logicmd fmt`)".to_owned());
    }
    let formatted = logicmd::format::format(text).map_err(|d| d.message)?;
    if formatted == text {
        return Ok(Vec::new());
    }
    Ok(vec![crate::actions::diff(text, &formatted)])
}

/// The edits of `fmt` whose lines lie inside `range`.
pub fn format_range(id: &str, text: &str, range: Span) -> Result<Vec<TextEdit>, String> {
    let whole = format_document(id, text)?;
    let formatted = match whole.first() {
        None => return Ok(Vec::new()),
        Some(edit) if edit.span.start >= range.start && edit.span.end <= range.end => {
            return Ok(whole)
        }
        Some(_) => logicmd::format::format(text).map_err(|d| d.message)?,
    };
    let old: Vec<&str> = text.split_inclusive('\n').collect();
    let new: Vec<&str> = formatted.split_inclusive('\n').collect();
    if old.len() > MAX_DIFF_LINES || new.len() > MAX_DIFF_LINES {
        return Ok(Vec::new());
    }
    let inside: Vec<TextEdit> = hunks(&old, &new)
        .into_iter()
        .filter(|edit| edit.span.start >= range.start && edit.span.end <= range.end)
        .collect();
    // Part of a reordering can say something else than the whole (a section moved in but not
    // out): the range's changes are given only when they keep the document's meaning.
    Ok(if keeps_meaning(text, &inside) {
        inside
    } else {
        Vec::new()
    })
}

/// Whether applying `edits` to `text` leaves the same data and the same comments.
fn keeps_meaning(text: &str, edits: &[TextEdit]) -> bool {
    let mut changed = text.to_owned();
    for edit in edits.iter().rev() {
        changed.replace_range(edit.span.start..edit.span.end, &edit.text);
    }
    let (before, after) = (
        logicmd::Document::parse(text),
        logicmd::Document::parse(&changed),
    );
    match (before.document, after.document) {
        (Some(before), Some(after)) => {
            after.json() == before.json()
                && !after_has_new_problems(&after)
                && comments(text) == comments(&changed)
        }
        _ => false,
    }
}

fn after_has_new_problems(document: &logicmd::Document) -> bool {
    !document.is_clean()
}

/// The comment lines' texts, in order (formatting moves comments with their keys).
fn comments(text: &str) -> Vec<&str> {
    let mut found: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|line| line.starts_with('#'))
        .collect();
    found.sort_unstable();
    found
}

/// The changed runs of lines between `old` and `new` (longest common subsequence), as edits
/// of the old text.
fn hunks(old: &[&str], new: &[&str]) -> Vec<TextEdit> {
    let (n, m) = (old.len(), new.len());
    // lcs[i][j]: the longest common subsequence of old[i..] and new[j..].
    let mut lcs = vec![vec![0u32; m + 1]; n + 1];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            lcs[i][j] = if old[i] == new[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    let offsets: Vec<usize> = std::iter::once(0)
        .chain(old.iter().scan(0, |at, line| {
            *at += line.len();
            Some(*at)
        }))
        .collect();
    let mut edits = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < n || j < m {
        if i < n && j < m && old[i] == new[j] {
            i += 1;
            j += 1;
            continue;
        }
        let (start_i, start_j) = (i, j);
        while (i < n || j < m) && !(i < n && j < m && old[i] == new[j]) {
            if j < m && (i == n || lcs[i][j + 1] >= lcs[i + 1][j]) {
                j += 1;
            } else {
                i += 1;
            }
        }
        edits.push(TextEdit {
            span: Span::new(offsets[start_i], offsets[i]),
            text: new[start_j..j].concat(),
        });
    }
    edits
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_range_gets_the_changes_inside_it_only_when_they_keep_the_meaning() {
        let text = "---\nname: a\nspec_version: \"1.0\"\nsteps:\n  s:\n      description: x\n---\n";
        // Re-indenting the step is safe alone.
        let steps = text.find("steps:").unwrap();
        let edits = format_range("a.logic.md", text, Span::new(steps, text.len())).unwrap();
        assert_eq!(edits.len(), 1, "{edits:?}");
        assert_eq!(edits[0].text, "    description: x\n");
        // Moving `spec_version` above `name` is a reorder: only the whole range can do it.
        let head = Span::new(0, text.find("steps:").unwrap());
        let reorder = format_range("a.logic.md", text, head).unwrap();
        let mut changed = text.to_owned();
        for edit in reorder.iter().rev() {
            changed.replace_range(edit.span.start..edit.span.end, &edit.text);
        }
        let parsed = logicmd::Document::parse(&changed).document.unwrap();
        assert!(
            parsed.is_clean() && parsed.json()["name"] == "a",
            "{changed}"
        );
    }

    #[test]
    fn hunks_rebuild_the_new_text() {
        let old = ["a\n", "b\n", "c\n", "d\n"];
        let new = ["a\n", "B\n", "c\n", "d\n", "e\n"];
        let edits = hunks(&old, &new);
        let mut text = old.concat();
        for edit in edits.iter().rev() {
            text.replace_range(edit.span.start..edit.span.end, &edit.text);
        }
        assert_eq!(text, new.concat());
        assert_eq!(edits.len(), 2);
    }
}
