//! Formatting is `logicmd fmt`: the whole document, or `fmt`'s text for the lines a range
//! touches, in place (see [`format_range`]).

use std::ops::Range;

use logicmd::analysis::{detect, Kind};
use logicmd::source::{LineIndex, Span};
use logicmd::yaml::Node;
use logicmd::Document;
use rustc_hash::FxHashMap;
use similar::{capture_diff_slices, Algorithm, DiffOp};

use crate::TextEdit;

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

/// The edits of `fmt` for the lines `range` touches.
pub fn format_range(id: &str, text: &str, range: Span) -> Result<Vec<TextEdit>, String> {
    Ok(format_range_region(id, text, range)?.map_or_else(Vec::new, |r| r.edits))
}

/// What a range's formatting did: the lines it formatted and its edits.
#[derive(Debug, Clone, PartialEq)]
pub struct RangeFormat {
    /// From the start of the first line formatted to the end of the last one (after its line
    /// break): the lines the range touches, or the lines of the YAML node around them.
    pub lines: Span,
    /// The edits, inside `lines`, in order, not overlapping.
    pub edits: Vec<TextEdit>,
}

/// [`format_range`], with the lines formatted; `None` when nothing can be formatted there
/// (nothing to change, or no change there keeps the meaning).
///
/// The lines the range touches get `fmt`'s text in place: their indentation, spacing, quotes
/// and comments' spacing. A range never moves lines (putting keys in the spec's order moves
/// a line in and another out; that is the whole document's formatting). When those lines
/// alone would change the meaning (a key re-indented without its siblings), the lines of the
/// YAML node around them are formatted instead, the innermost that keeps the meaning; none
/// when none does. A range over every line `fmt` changes gets `fmt`'s edits.
pub fn format_range_region(
    id: &str,
    text: &str,
    range: Span,
) -> Result<Option<RangeFormat>, String> {
    let whole = format_document(id, text)?;
    let index = LineIndex::new(text);
    let touched = touched_lines(&index, text, range);
    let region = |lines: &Range<usize>| line_span(&index, text, lines);
    let Some(first) = whole.first() else {
        return Ok(None);
    };
    let all = region(&touched);
    if all.start <= first.span.start && first.span.end <= all.end {
        return Ok(Some(RangeFormat {
            lines: all,
            edits: whole,
        }));
    }
    let formatted = logicmd::format::format(text).map_err(|d| d.message)?;
    let aligned = Aligned::new(text, &formatted);
    let units = in_place(&aligned);
    let Some(parsed) = Document::parse(text).document else {
        return Ok(None);
    };
    let mut candidates = vec![touched.clone()];
    candidates.extend(enclosing(parsed.root(), &index, text, &touched));
    for lines in candidates {
        // `fmt`'s text for these lines as a block (keys ordered among themselves), when their
        // edges are lines `fmt` keeps and it keeps the meaning; else each line in place.
        if let Some(edit) = aligned.block(&lines, &index, text) {
            if keeps_meaning(&parsed, text, std::slice::from_ref(&edit)) {
                return Ok(Some(RangeFormat {
                    lines: region(&lines),
                    edits: vec![edit],
                }));
            }
        }
        let (lines, edits) = select(&units, lines, &aligned.new, &index, text);
        if edits.is_empty() {
            return Ok(None);
        }
        if keeps_meaning(&parsed, text, &edits) {
            return Ok(Some(RangeFormat {
                lines: region(&lines),
                edits,
            }));
        }
    }
    Ok(None)
}

/// The lines `range` touches: from its start's line to its end's (a range ending at a line's
/// start does not touch that line).
fn touched_lines(index: &LineIndex, text: &str, range: Span) -> Range<usize> {
    let first = index.line_of(range.start.min(text.len()));
    let end = range.end.clamp(range.start, text.len());
    let last = index.line_of(end);
    let at_start = index.line_start(last) == Some(end) && end > range.start;
    first..(if at_start { last } else { last + 1 }).max(first + 1)
}

/// From the start of line `lines.start` to the start of line `lines.end` (or the text's end).
fn line_span(index: &LineIndex, text: &str, lines: &Range<usize>) -> Span {
    let at = |line: usize| index.line_start(line).unwrap_or(text.len()).min(text.len());
    Span::new(at(lines.start), at(lines.end))
}

/// The line ranges of the collections around `touched`, innermost first.
fn enclosing(
    root: &Node,
    index: &LineIndex,
    text: &str,
    touched: &Range<usize>,
) -> Vec<Range<usize>> {
    let mut found = Vec::new();
    let mut visit = vec![root];
    while let Some(node) = visit.pop() {
        let children: Vec<&Node> = match (node.as_map(), node.as_seq()) {
            (Some(entries), _) => entries.iter().map(|e| &e.value).collect(),
            (_, Some(items)) => items.iter().collect(),
            _ => continue,
        };
        let span = node.span();
        let end = index.line_of(span.end.saturating_sub(1).max(span.start).min(text.len()));
        let lines = index.line_of(span.start)..end + 1;
        if lines.start <= touched.start && touched.end <= lines.end {
            found.push(lines);
            visit.extend(children);
        }
    }
    found.sort_by_key(|lines| lines.len());
    found.dedup();
    found
}

/// The document's lines and `fmt`'s, aligned by their text without white space (Myers).
struct Aligned<'t> {
    old: Vec<&'t str>,
    new: Vec<&'t str>,
    old_bare: Vec<String>,
    new_bare: Vec<String>,
    ops: Vec<DiffOp>,
}

impl<'t> Aligned<'t> {
    fn new(text: &'t str, formatted: &'t str) -> Aligned<'t> {
        // A line's text without white space or quotes: re-indented, re-spaced and re-quoted
        // lines are the same line.
        let bare = |line: &&str| -> String {
            line.chars()
                .filter(|c| !c.is_whitespace() && *c != '"' && *c != '\'')
                .collect()
        };
        let old: Vec<&str> = text.split_inclusive('\n').collect();
        let new: Vec<&str> = formatted.split_inclusive('\n').collect();
        let old_bare: Vec<String> = old.iter().map(bare).collect();
        let new_bare: Vec<String> = new.iter().map(bare).collect();
        let ops = capture_diff_slices(Algorithm::Myers, &old_bare, &new_bare);
        Aligned {
            old,
            new,
            old_bare,
            new_bare,
            ops,
        }
    }

    /// The line of `fmt`'s text where old line `line` (or the end) is, when `fmt` keeps it in
    /// place or a change starts there; `None` inside a change.
    fn new_line(&self, line: usize) -> Option<usize> {
        for op in &self.ops {
            let (old, new) = (op.old_range(), op.new_range());
            if line == old.start {
                return Some(new.start);
            }
            if matches!(op, DiffOp::Equal { .. }) && old.contains(&line) {
                return Some(new.start + line - old.start);
            }
        }
        Some(self.new.len())
    }

    /// One edit giving old lines `lines` the text of the `fmt` lines between the same edges
    /// (the lines alike at both ends left out); `None` when an edge is inside a change or
    /// nothing changes.
    fn block(&self, lines: &Range<usize>, index: &LineIndex, text: &str) -> Option<TextEdit> {
        let lines = lines.start.min(self.old.len())..lines.end.min(self.old.len());
        let (start, end) = (self.new_line(lines.start)?, self.new_line(lines.end)?);
        let (old, new) = (self.old.get(lines.clone())?, self.new.get(start..end)?);
        let same_start = old.iter().zip(new).take_while(|(a, b)| a == b).count();
        let rest = old.len().min(new.len()) - same_start;
        let same_end = old
            .iter()
            .rev()
            .zip(new.iter().rev())
            .take(rest)
            .take_while(|(a, b)| a == b)
            .count();
        if same_start == old.len() && old.len() == new.len() {
            return None;
        }
        let changed = lines.start + same_start..lines.end - same_end;
        Some(TextEdit {
            span: line_span(index, text, &changed),
            text: new[same_start..new.len() - same_end].concat(),
        })
    }
}

/// One change of `fmt` kept in place: old lines `old` become new lines `new`.
#[derive(Debug, Clone)]
struct Unit {
    old: Range<usize>,
    new: Vec<usize>,
}

/// `fmt`'s changes as in-place units: lines paired by their text without white space (a
/// re-indented or re-spaced line), a line `fmt` moves changed where it is (its move left
/// out), and what is left of each change as one unit.
fn in_place(aligned: &Aligned<'_>) -> Vec<Unit> {
    let Aligned {
        old,
        new,
        old_bare,
        new_bare,
        ops,
    } = aligned;
    // Lines inserted by a change, by their bare text: where a moved line went.
    let mut inserted: FxHashMap<&str, Vec<usize>> = FxHashMap::default();
    for op in ops {
        if !matches!(op, DiffOp::Equal { .. }) {
            for j in op.new_range().rev() {
                inserted.entry(new_bare[j].as_str()).or_default().push(j);
            }
        }
    }
    let mut moved_to: FxHashMap<usize, usize> = FxHashMap::default();
    for op in ops {
        if !matches!(op, DiffOp::Equal { .. }) {
            for i in op.old_range() {
                if let Some(j) = inserted.get_mut(old_bare[i].as_str()).and_then(Vec::pop) {
                    moved_to.insert(i, j);
                }
            }
        }
    }
    let moved: rustc_hash::FxHashSet<usize> = moved_to.values().copied().collect();
    let mut units = Vec::new();
    for op in ops {
        let (olds, news) = (op.old_range(), op.new_range());
        if let DiffOp::Equal { .. } = op {
            units.extend(
                olds.zip(news)
                    .filter(|(i, j)| old[*i] != new[*j])
                    .map(|(i, j)| Unit {
                        old: i..i + 1,
                        new: vec![j],
                    }),
            );
            continue;
        }
        let left_old: Vec<usize> = olds.clone().filter(|i| !moved_to.contains_key(i)).collect();
        let left_new: Vec<usize> = news.filter(|j| !moved.contains(j)).collect();
        if left_old.len() == left_new.len() {
            // The lines left pair in order.
            let mut left = left_new.iter();
            for i in olds {
                let j = match moved_to.get(&i) {
                    Some(j) => Some(*j),
                    None => left.next().copied(),
                };
                units.extend(j.filter(|j| old[i] != new[*j]).map(|j| Unit {
                    old: i..i + 1,
                    new: vec![j],
                }));
            }
        } else {
            // Unequal: one unit over the change, moved lines changed where they are.
            let mut lines = Vec::new();
            for i in olds.clone() {
                match moved_to.get(&i) {
                    Some(j) => lines.push(*j),
                    None if Some(&i) == left_old.first() => lines.extend(&left_new),
                    None => {}
                }
            }
            if left_old.is_empty() {
                lines.extend(&left_new);
            }
            units.push(Unit {
                old: olds,
                new: lines,
            });
        }
    }
    units
}

/// The units in or at `lines` (widened to whole units), as edits of the old text.
fn select(
    units: &[Unit],
    mut lines: Range<usize>,
    new: &[&str],
    index: &LineIndex,
    text: &str,
) -> (Range<usize>, Vec<TextEdit>) {
    let inside = |unit: &Unit, lines: &Range<usize>| {
        if unit.old.is_empty() {
            lines.start < unit.old.start && unit.old.start <= lines.end
        } else {
            unit.old.start < lines.end && lines.start < unit.old.end
        }
    };
    let chosen: Vec<&Unit> = units.iter().filter(|u| inside(u, &lines)).collect();
    for unit in &chosen {
        lines = lines.start.min(unit.old.start)..lines.end.max(unit.old.end);
    }
    let edits = chosen
        .into_iter()
        .map(|unit| TextEdit {
            span: line_span(index, text, &unit.old),
            text: unit.new.iter().map(|j| new[*j]).collect(),
        })
        .filter(|edit| text[edit.span.start..edit.span.end] != edit.text)
        .collect();
    (lines, edits)
}

/// Whether applying `edits` to `text` (parsed as `before`) leaves a document that parses
/// cleanly to the same data with the same comments.
fn keeps_meaning(before: &Document, text: &str, edits: &[TextEdit]) -> bool {
    let mut changed = text.to_owned();
    for edit in edits.iter().rev() {
        changed.replace_range(edit.span.start..edit.span.end, &edit.text);
    }
    let parsed = Document::parse(&changed);
    parsed.document.is_some_and(|after| {
        after.is_clean()
            && after.json() == before.json()
            && logicmd::format::comment_texts(&after) == logicmd::format::comment_texts(before)
    })
}
