//! Human-readable diagnostics in the style of rustc: message, location, source line, caret.

use std::fmt::Write;

use crate::diagnostic::Diagnostic;
use crate::source::LineIndex;
use unicode_width::UnicodeWidthChar;

/// Renders `diagnostic` about `file` (whose contents are `text`) with a source snippet.
pub fn render(diagnostic: &Diagnostic, file: &str, text: &str, index: &LineIndex) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{}[{}]: {}",
        diagnostic.severity.as_str(),
        diagnostic.code,
        diagnostic.message
    );
    if diagnostic.line == 0 {
        let _ = writeln!(out, "  --> {file}");
        append_notes(&mut out, diagnostic, "  ");
        return out;
    }
    let line_number = diagnostic.line.to_string();
    let gutter = " ".repeat(line_number.len());
    let _ = writeln!(
        out,
        "{gutter}--> {file}:{}:{}",
        diagnostic.line, diagnostic.column
    );
    let source_line = index.line_text(text, diagnostic.line as usize - 1);
    let chars: Vec<char> = source_line.chars().map(visible).collect();
    let start = diagnostic.column.saturating_sub(1) as usize;
    let shown = snippet(&chars, start, covered_chars(diagnostic, text));
    let _ = writeln!(out, "{gutter} |");
    let _ = writeln!(out, "{line_number} | {}", shown.line);
    let _ = writeln!(
        out,
        "{gutter} | {}{}",
        " ".repeat(shown.pad),
        "^".repeat(shown.marks)
    );
    append_notes(&mut out, diagnostic, &format!("{gutter} "));
    out
}

/// A character as a snippet shows it: a tab as a space, and any other control character (NUL,
/// ESC, ...) as a visible symbol of one column, so a snippet can neither drive the terminal nor
/// hide a line's width.
fn visible(c: char) -> char {
    match c {
        '\t' => ' ',
        '\u{0}'..='\u{1f}' => char::from_u32(0x2400 + c as u32).unwrap_or('\u{fffd}'),
        '\u{7f}' => '\u{2421}',
        c if c.is_control() => '\u{fffd}',
        c => c,
    }
}

/// The widest source line shown, in terminal columns; longer lines are cut around the caret.
const MAX_LINE_COLUMNS: usize = 120;
/// Columns of context kept before the caret when a line is cut.
const CONTEXT_BEFORE: usize = 40;
/// Marks the side where a line was cut.
const CUT: char = '…';

/// The part of a source line a snippet shows, and where its caret goes.
struct Snippet {
    line: String,
    /// Columns before the first `^`.
    pad: usize,
    /// How many `^`.
    marks: usize,
}

/// Shows `chars` (a line) with `covered` characters from `start` marked. A line wider than
/// [`MAX_LINE_COLUMNS`] is cut around the caret with `…` on each cut side. Everything is counted
/// in terminal columns, so wide characters (CJK, emoji) keep the caret under its character.
fn snippet(chars: &[char], start: usize, covered: usize) -> Snippet {
    let start = start.min(chars.len());
    let (left, right) = if columns(chars) <= MAX_LINE_COLUMNS {
        (0, chars.len())
    } else {
        window(chars, start)
    };
    let mut line = String::new();
    if left > 0 {
        line.push(CUT);
    }
    line.extend(&chars[left..right]);
    if right < chars.len() {
        line.push(CUT);
    }
    let end = start.saturating_add(covered).min(right).max(start);
    Snippet {
        line,
        pad: usize::from(left > 0) + columns(&chars[left..start]),
        marks: columns(&chars[start..end]).max(1),
    }
}

/// The characters `left..right` of an over-long line that fit in [`MAX_LINE_COLUMNS`] with the
/// `…` marks: up to [`CONTEXT_BEFORE`] columns before the caret, then as much as fits after it;
/// when that reaches the end of the line, the unused room goes to more context before.
fn window(chars: &[char], start: usize) -> (usize, usize) {
    let mut left = start;
    let mut before = 0;
    while left > 0 && before + width(chars[left - 1]) <= CONTEXT_BEFORE {
        left -= 1;
        before += width(chars[left]);
    }
    let budget = MAX_LINE_COLUMNS - usize::from(left > 0) - 1;
    let mut right = left;
    let mut used = 0;
    while right < chars.len() && used + width(chars[right]) <= budget {
        used += width(chars[right]);
        right += 1;
    }
    if right == chars.len() {
        // Nothing is cut on the right, so its `…` column is free; the line is wider than the
        // limit, so something is still cut on the left.
        let budget = MAX_LINE_COLUMNS - 1;
        while left > 0 && used + width(chars[left - 1]) <= budget {
            left -= 1;
            used += width(chars[left]);
        }
    }
    (left, right)
}

/// Terminal columns of a character: 2 for wide ones, 0 for combining marks and controls.
fn width(c: char) -> usize {
    UnicodeWidthChar::width(c).unwrap_or(0)
}

fn columns(chars: &[char]) -> usize {
    chars.iter().map(|c| width(*c)).sum()
}

/// How many characters of its first line the span covers (at least one).
fn covered_chars(diagnostic: &Diagnostic, text: &str) -> usize {
    diagnostic
        .span
        .and_then(|span| text.get(span.start..span.end))
        .map_or(1, |covered| {
            covered.lines().next().unwrap_or("").chars().count()
        })
        .max(1)
}

fn append_notes(out: &mut String, diagnostic: &Diagnostic, indent: &str) {
    if !diagnostic.path.is_empty() || diagnostic.keyword.is_some() {
        let _ = write!(out, "{indent}= at `{}`", display_path(&diagnostic.path));
        if let Some(keyword) = &diagnostic.keyword {
            let _ = write!(out, " (schema keyword `{keyword}`)");
        }
        out.push('\n');
    }
    if let Some(help) = &diagnostic.help {
        let _ = writeln!(out, "{indent}= help: {help}");
    }
}

fn display_path(path: &str) -> &str {
    if path.is_empty() {
        "/"
    } else {
        path
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::Span;

    #[test]
    fn renders_snippet_with_caret_under_the_span() {
        let text = "---\nsteps:\n  a:\n    neds: [b]\n---\n";
        let index = LineIndex::new(text);
        let start = text.find("neds").unwrap();
        let diagnostic = Diagnostic::error("schema-unknown-property", "unknown property `neds`")
            .with_path("/steps/a")
            .with_keyword("additionalProperties")
            .with_help("did you mean `needs`?")
            .at(text, &index, Span::new(start, start + 4));
        let shown = render(&diagnostic, "x.logic.md", text, &index);
        let expected = "\
error[schema-unknown-property]: unknown property `neds`
 --> x.logic.md:4:5
  |
4 |     neds: [b]
  |     ^^^^
  = at `/steps/a` (schema keyword `additionalProperties`)
  = help: did you mean `needs`?
";
        assert_eq!(shown, expected);
    }

    /// The diagnostic `code` at `covered` (the first occurrence in `text`).
    fn at(text: &str, covered: &str) -> String {
        let index = LineIndex::new(text);
        let start = text.find(covered).expect("the covered text occurs");
        let diagnostic = Diagnostic::error("code", "message").at(
            text,
            &index,
            Span::new(start, start + covered.len()),
        );
        render(&diagnostic, "f.logic.md", text, &index)
    }

    #[test]
    fn a_long_line_is_cut_on_both_sides_around_the_caret() {
        let line = format!("description: {}BAD{}", "a".repeat(150), "b".repeat(150));
        let shown = at(&format!("---\nname: x\n{line}\n---\n"), "BAD");
        let expected = format!(
            "error[code]: message\n --> f.logic.md:3:164\n  |\n3 | …{}BAD{}…\n  | {}^^^\n",
            "a".repeat(40),
            "b".repeat(75),
            " ".repeat(41)
        );
        assert_eq!(shown, expected);
    }

    #[test]
    fn a_long_line_is_cut_on_the_right_when_the_caret_is_near_its_start() {
        let line = format!("name{}", "x".repeat(296));
        let shown = at(&format!("---\n{line}\n---\n"), "name");
        let expected = format!(
            "error[code]: message\n --> f.logic.md:2:1\n  |\n2 | name{}…\n  | ^^^^\n",
            "x".repeat(115)
        );
        assert_eq!(shown, expected);
    }

    #[test]
    fn a_long_line_is_cut_on_the_left_when_the_caret_is_near_its_end() {
        let line = format!("{}END", "x".repeat(297));
        let shown = at(&format!("---\n{line}\n---\n"), "END");
        let expected = format!(
            "error[code]: message\n --> f.logic.md:2:298\n  |\n2 | …{}END\n  | {}^^^\n",
            "x".repeat(116),
            " ".repeat(117)
        );
        assert_eq!(shown, expected);
    }

    #[test]
    fn a_span_longer_than_the_window_is_marked_to_the_cut() {
        let line = format!("k: {}", "v".repeat(297));
        let shown = at(&format!("---\n{line}\n---\n"), &line[3..]);
        let expected = format!(
            "error[code]: message\n --> f.logic.md:2:4\n  |\n2 | k: {}…\n  |    {}\n",
            "v".repeat(116),
            "^".repeat(116)
        );
        assert_eq!(shown, expected);
    }

    #[test]
    fn control_characters_are_shown_as_symbols_and_count_their_column() {
        let line = format!("x: {}", "\u{0}".repeat(300));
        let text = format!("{line}\n");
        let index = LineIndex::new(&text);
        let diagnostic = Diagnostic::error("c", "m").at(&text, &index, Span::new(0, 1));
        let shown = render(&diagnostic, "f", &text, &index);
        assert_eq!(
            shown,
            format!(
                "error[c]: m\n --> f:1:1\n  |\n1 | x: {}…\n  | ^\n",
                "\u{2400}".repeat(116)
            )
        );
        let escape = "a: \u{1b}[31mred\n";
        let index = LineIndex::new(escape);
        let diagnostic = Diagnostic::error("c", "m").at(escape, &index, Span::new(0, 1));
        assert!(render(&diagnostic, "f", escape, &index).contains("a: \u{241b}[31mred"));
    }

    #[test]
    fn the_caret_counts_wide_characters_as_two_columns() {
        let shown = at("---\nname: 名前名前 bad\n---\n", "bad");
        let expected = "error[code]: message\n --> f.logic.md:2:12\n  |\n2 | name: 名前名前 bad\n  |                ^^^\n";
        assert_eq!(shown, expected);
        let wide = at("---\nname: 名前\n---\n", "名前");
        assert!(wide.ends_with("2 | name: 名前\n  |       ^^^^\n"), "{wide}");
    }

    #[test]
    fn a_long_line_of_wide_characters_is_cut_by_columns() {
        let line = format!("d: {}X{}", "字".repeat(100), "字".repeat(100));
        let shown = at(&format!("---\n{line}\n---\n"), "X");
        let expected = format!(
            "error[code]: message\n --> f.logic.md:2:104\n  |\n2 | …{}X{}…\n  | {}^\n",
            "字".repeat(20),
            "字".repeat(38),
            " ".repeat(41)
        );
        assert_eq!(shown, expected);
    }

    proptest::proptest! {
        /// Any line (ASCII, accented, wide and emoji characters, tabs) and any caret: the shown
        /// line fits in 120 columns, is a piece of the line with `…` where it was cut, and the
        /// caret stands under the diagnostic's character.
        #[test]
        fn the_caret_points_at_its_character_in_any_cut(
            line in "[a-z é\t名字😀]{1,400}",
            pick in 0usize..400,
        ) {
            let chars: Vec<char> = line.chars().collect();
            let column = pick % chars.len();
            let start = 4 + chars[..column].iter().map(|c| c.len_utf8()).sum::<usize>();
            let text = format!("---\n{line}\n---\n");
            let index = LineIndex::new(&text);
            let diagnostic = Diagnostic::error("code", "message")
                .at(&text, &index, Span::new(start, start + chars[column].len_utf8()));
            let shown = render(&diagnostic, "f", &text, &index);
            let lines: Vec<&str> = shown.lines().collect();
            let source = lines[3].strip_prefix("2 | ").expect("the source line");
            let caret = lines[4].strip_prefix("  | ").expect("the caret line");
            proptest::prop_assert!(columns(source) <= 120, "{}", source);
            let (cut_left, cut_right) = (source.starts_with('…'), source.ends_with('…'));
            let inner = source.strip_prefix('…').unwrap_or(source);
            let inner: Vec<char> = inner.strip_suffix('…').unwrap_or(inner).chars().collect();
            let spaced: Vec<char> = chars.iter().map(|c| if *c == '\t' { ' ' } else { *c }).collect();
            let pad = caret.chars().take_while(|c| *c == ' ').count();
            let marks = caret.trim_start().chars().count();
            let width_of = |part: &[char]| columns(&part.iter().collect::<String>());
            // Some window `left..left + n` of the line: the caret's character inside it, `…`
            // exactly where it was cut, and the caret padded by the columns before the character.
            let n = inner.len();
            let window = (0..=spaced.len().saturating_sub(n)).find(|&left| {
                spaced[left..left + n] == inner[..]
                    && (left > 0) == cut_left
                    && (left + n < spaced.len()) == cut_right
                    && (left..left + n).contains(&column)
                    && pad == usize::from(cut_left) + width_of(&spaced[left..column])
            });
            proptest::prop_assert!(window.is_some(), "{}\n{}", source, caret);
            let expected = spaced[column];
            proptest::prop_assert_eq!(marks, columns(&expected.to_string()));
        }
    }

    fn columns(text: &str) -> usize {
        unicode_width::UnicodeWidthStr::width(text)
    }
}
