//! Tab and Shift+Tab in the source text: YAML is indented with spaces, so Tab writes two of
//! them (at the caret, or before every line of a selection) and Shift+Tab takes up to two away.
//! Offsets are UTF-16 code units, as a textarea counts them.

use crate::source::window::utf16_to_byte;

/// Spaces one Tab adds.
const STEP: &str = "  ";

/// The text after the edit and the selection to set (UTF-16 offsets).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Indented {
    pub text: String,
    pub start: usize,
    pub end: usize,
}

/// What Tab (`outdent` false) or Shift+Tab does to `text` with the selection `start..end`.
/// `None` when nothing changes (Shift+Tab on lines without leading spaces).
pub fn indent(text: &str, start: usize, end: usize, outdent: bool) -> Option<Indented> {
    let (start, end) = (start.min(end), start.max(end));
    let (from, to) = (utf16_to_byte(text, start), utf16_to_byte(text, end));
    if from == to && !outdent {
        let text = [&text[..from], STEP, &text[from..]].concat();
        let caret = start + STEP.len();
        return Some(Indented {
            text,
            start: caret,
            end: caret,
        });
    }
    let first = text[..from].rfind('\n').map_or(0, |i| i + 1);
    // A selection ending at the start of a line does not take that line along.
    let last_end = if to > from && text[..to].ends_with('\n') {
        to - 1
    } else {
        to
    };
    let mut out = String::with_capacity(text.len() + STEP.len() * 8);
    out.push_str(&text[..first]);
    let (mut shift_start, mut shift_end) = (0isize, 0isize);
    let mut at = first;
    for line in text[first..].split_inclusive('\n') {
        if at > last_end {
            break;
        }
        let change = if outdent {
            let removed = line.len() - line.trim_start_matches(' ').len();
            let removed = removed.min(STEP.len());
            out.push_str(&line[removed..]);
            -(removed as isize)
        } else {
            out.push_str(STEP);
            out.push_str(line);
            STEP.len() as isize
        };
        // The selection's ends move with their line, but never before its start.
        if at <= from {
            shift_start += change.max(at as isize - from as isize);
        }
        if at <= to {
            shift_end += change.max(at as isize - to as isize);
        }
        at += line.len();
    }
    out.push_str(&text[at.min(text.len())..]);
    if out == text {
        return None;
    }
    let moved = |offset: usize, by: isize| offset.saturating_add_signed(by);
    Some(Indented {
        text: out,
        start: moved(start, shift_start),
        end: moved(end, shift_end),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn apply(text: &str, start: usize, end: usize, outdent: bool) -> (String, usize, usize) {
        indent(text, start, end, outdent)
            .map_or((text.to_owned(), start, end), |i| (i.text, i.start, i.end))
    }

    #[test]
    fn tab_at_the_caret_writes_two_spaces() {
        assert_eq!(apply("a:\nb", 3, 3, false), ("a:\n  b".into(), 5, 5));
    }

    #[test]
    fn tab_over_lines_indents_each_line_the_selection_touches() {
        let text = "steps:\na:\n  x: 1\nb: 2\n";
        // From inside `a:` to the start of `b: 2`: that last line is not taken along.
        assert_eq!(
            apply(text, 8, 17, false),
            ("steps:\n  a:\n    x: 1\nb: 2\n".into(), 10, 21)
        );
    }

    #[test]
    fn shift_tab_takes_up_to_two_spaces_away_and_keeps_the_caret_on_its_line() {
        assert_eq!(apply("    a\n b\n", 0, 8, true), ("  a\nb\n".into(), 0, 5));
        assert_eq!(apply("   a", 1, 1, true), (" a".into(), 0, 0));
        assert_eq!(indent("a\nb", 0, 3, true), None);
    }

    #[test]
    fn offsets_are_utf16_units() {
        // `é` is one UTF-16 unit and two bytes; `😀` two units and four bytes.
        assert_eq!(apply("é😀\nx", 3, 3, false), ("é😀  \nx".into(), 5, 5));
        assert_eq!(apply("é\n😀x", 1, 5, false), ("  é\n  😀x".into(), 3, 9));
        assert_eq!(apply("é\n😀x", 2, 5, false), ("é\n  😀x".into(), 4, 7));
    }
}
