//! Range formatting (`textDocument/rangeFormatting`): the lines a range touches get `fmt`'s
//! text in place, widened to the enclosing YAML node when those lines alone would change the
//! meaning; the whole range is `fmt`; nothing given ever changes the data or a comment.

use logicmd::source::{LineIndex, Span};
use logicmd_ide::format::{format_document, format_range, format_range_region};
use logicmd_ide::TextEdit;
use proptest::prelude::*;

const ID: &str = "u.logic.md";

const UGLY: &str = "---\nname:   x\nspec_version: \"1.0\"\nsteps:\n    b:\n        needs: [ a ]\n        description:    B\n    a:\n          description: A   # keep\n---\nbody\n";

fn apply(text: &str, edits: &[TextEdit]) -> String {
    let mut out = text.to_owned();
    for edit in edits.iter().rev() {
        out.replace_range(edit.span.start..edit.span.end, &edit.text);
    }
    out
}

/// The span from the start of line `from` to the start of line `to` (or a column on it).
fn lines(text: &str, (from, from_col): (usize, usize), (to, to_col): (usize, usize)) -> Span {
    let index = LineIndex::new(text);
    let at = |line: usize, col: usize| {
        index
            .line_start(line)
            .map_or(text.len(), |start| (start + col).min(text.len()))
    };
    Span::new(at(from, from_col), at(to, to_col))
}

#[test]
fn a_selection_gets_fmt_on_its_lines_and_nothing_else() {
    let steps_formatted = "---\nname:   x\nspec_version: \"1.0\"\nsteps:\n  b:\n    description: B\n    needs: [ a ]\n  a:\n    description: A # keep\n---\nbody\n";
    let cases = [
        // A whole step: its sibling is indented with it (siblings share an indentation), and
        // the keys inside are put in the spec's order.
        (((4, 0), (7, 0)), steps_formatted),
        // All of `steps`.
        (((3, 0), (9, 0)), steps_formatted),
        // One line inside a step.
        (((5, 0), (5, 20)), steps_formatted),
        // The first line: its spacing, in place (`name` is not moved below `spec_version`:
        // that moves a line from outside the range).
        (((1, 0), (2, 0)), "---\nname: x\nspec_version: \"1.0\"\nsteps:\n    b:\n        needs: [ a ]\n        description:    B\n    a:\n          description: A   # keep\n---\nbody\n"),
    ];
    for ((from, to), expected) in cases {
        let edits = format_range(ID, UGLY, lines(UGLY, from, to)).unwrap();
        assert_eq!(apply(UGLY, &edits), expected, "{from:?}-{to:?}");
    }
    // A step's keys, in place but out of the spec's order: the step's lines are ordered.
    let tidy = "---\nspec_version: \"1.0\"\nname: x\nsteps:\n  a:\n    needs: [b]\n    description: A\n  b:\n    description: B\n---\n";
    let edits = format_range(ID, tidy, lines(tidy, (4, 0), (7, 0))).unwrap();
    assert_eq!(
        apply(tidy, &edits),
        tidy.replace(
            "    needs: [b]\n    description: A\n",
            "    description: A\n    needs: [b]\n"
        )
    );
    let whole = format_range(ID, UGLY, Span::new(0, UGLY.len())).unwrap();
    assert_eq!(whole, format_document(ID, UGLY).unwrap());
}

/// The LOGIC.md files of the examples and of the rules' fixtures.
#[allow(
    clippy::disallowed_methods,
    reason = "the test reads the repository's documents as its corpus; the layer reads no files"
)]
fn corpus() -> Vec<String> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut found = Vec::new();
    let mut pending = vec![root.join("examples"), root.join("tests/rules/logic")];
    while let Some(dir) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if path.is_dir() && name != "node_modules" {
                pending.push(path);
            } else if name.ends_with(".logic.md") {
                found.extend(std::fs::read_to_string(&path).ok());
            }
        }
    }
    found.sort();
    found.push(UGLY.to_owned());
    found
}

/// `text` made untidy as people write: indentation times `widen`, extra spaces after some
/// keys' colons, and the first two top-level keys swapped when `swap`.
fn untidy(text: &str, widen: usize, spaces: usize, swap: bool) -> String {
    let Some(end) = text[3..].find("\n---").map(|i| i + 4) else {
        return text.to_owned();
    };
    let (head, tail) = text.split_at(end);
    let mut lines: Vec<String> = head
        .split_inclusive('\n')
        .enumerate()
        .map(|(n, line)| {
            let indent = line.len() - line.trim_start_matches(' ').len();
            let mut out = " ".repeat(indent * widen) + &line[indent..];
            let key = out.trim_start().split(": ").next().unwrap_or("");
            let plain_key =
                !key.is_empty() && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
            if n % 3 == 1 && plain_key && out.contains(": ") {
                out = out.replacen(": ", &format!(":{}", " ".repeat(spaces + 1)), 1);
            }
            out
        })
        .collect();
    if swap {
        let top: Vec<usize> = (1..lines.len())
            .filter(|&i| {
                let line = &lines[i];
                !line.starts_with([' ', '#', '-', '\n']) && line.contains(": ")
            })
            .take(2)
            .collect();
        if let [a, b] = top[..] {
            if b == a + 1 {
                lines.swap(a, b);
            }
        }
    }
    lines.concat() + tail
}

fn meaning(text: &str) -> Option<(serde_json::Value, Vec<String>)> {
    let parsed = logicmd::Document::parse(text).document?;
    parsed.is_clean().then(|| {
        (
            parsed.json().clone(),
            logicmd::format::comment_texts(&parsed),
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 160, ..ProptestConfig::default() })]

    #[test]
    fn a_range_keeps_the_meaning_and_edits_only_its_lines(
        pick in any::<prop::sample::Index>(),
        widen in 1usize..3,
        spaces in 0usize..3,
        swap in any::<bool>(),
        crlf in any::<bool>(),
        from in 0.0f64..1.0,
        length in 0.0f64..0.5,
    ) {
        let documents = corpus();
        let text = untidy(pick.get(&documents).as_str(), widen, spaces, swap);
        let text = if crlf { text.replace("\r\n", "\n").replace('\n', "\r\n") } else { text };
        let Some(before) = meaning(&text) else {
            return Ok(());
        };
        let Ok(whole) = format_document(ID, &text) else {
            return Ok(());
        };
        let formatted = apply(&text, &whole);
        let index = LineIndex::new(&text);
        let count = index.line_count();
        let first = ((count as f64) * from) as usize;
        let last = (first + ((count as f64) * length) as usize).min(count);
        let range = lines(&text, (first, 0), (last, 0));
        let Some(result) = format_range_region(ID, &text, range).unwrap() else {
            return Ok(());
        };
        let after = apply(&text, &result.edits);
        // The meaning is kept: the same data, every comment.
        prop_assert_eq!(meaning(&after), Some(before), "{:?} of\n{}\ngave\n{}", range, text, after);
        // The lines formatted hold the range's lines, and every edit is inside them.
        let touched = lines(&text, (first, 0), (last.max(first + 1), 0));
        prop_assert!(result.lines.start <= touched.start && touched.end <= result.lines.end);
        for edit in &result.edits {
            prop_assert!(result.lines.start <= edit.span.start && edit.span.end <= result.lines.end);
            // Each line written is one of `fmt`'s (`fmt`'s own edit, for a range over all of
            // its changes, is the smallest replacement, not whole lines).
            if result.edits == whole {
                continue;
            }
            for line in edit.text.split_inclusive('\n') {
                prop_assert!(formatted.split_inclusive('\n').any(|l| l == line), "{:?} is not fmt's", line);
            }
        }
        // Outside the lines formatted, the text is as it was.
        prop_assert_eq!(&after[..result.lines.start], &text[..result.lines.start]);
        let tail = text.len() - result.lines.end;
        prop_assert_eq!(&after[after.len() - tail..], &text[result.lines.end..]);
        // The whole range is `fmt`.
        let all = format_range(ID, &text, Span::new(0, text.len())).unwrap();
        prop_assert_eq!(apply(&text, &all), formatted);
    }
}
