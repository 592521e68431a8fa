//! Property: wherever an expression with a syntax error is written — a DRTL gate condition, a
//! DRTL template, a LOGIC.md template — and in whatever YAML scalar style (plain, folded plain,
//! single- or double-quoted with escapes and line folding, literal or folded block), the
//! `expression-syntax` diagnostic's line and column are those of the character the parser blamed.
//!
//! Each case writes the value itself, so the test knows where every character of the value is
//! in the file; a rendering YAML reads back differently is discarded, not guessed at.

use logicmd::expr::{parse_expression, ExprLimits, Template};
use logicmd::loader::MemoryLoader;
use logicmd::{drtl, lint, Document};
use proptest::prelude::*;

#[derive(Debug, Clone, Copy)]
enum Style {
    Plain,
    SingleQuoted,
    DoubleQuoted,
    Literal,
    Folded,
}

/// Where the expression is written.
#[derive(Debug, Clone, Copy)]
enum Place {
    DrtlCondition,
    DrtlPrompt,
    DrtlOperationValue,
    LogicInstructions,
}

impl Place {
    /// The document with `scalar` as the value, the byte offset where `scalar` starts, and the
    /// indentation continuation lines of the scalar need.
    fn document(self, scalar: &str) -> (String, usize) {
        let (before, after) = match self {
            Place::DrtlCondition => (
                "name: places\nnodes:\n  - {id: draft, type: generate, prompt: Write., output_key: text}\n  - id: gate\n    type: gate\n    input: draft.text\n    condition: ",
                "\n    on_pass: done\n    on_fail: done\n  - {id: done, type: transform, operations: [{set: state.variables.x, value: true}]}\nedges:\n  - {from: draft, to: gate}\n",
            ),
            Place::DrtlPrompt => (
                "name: places\nnodes:\n  - id: draft\n    type: generate\n    prompt: ",
                "\n    output_key: text\n",
            ),
            Place::DrtlOperationValue => (
                "name: places\nnodes:\n  - id: done\n    type: transform\n    operations:\n      - set: state.variables.x\n        value: ",
                "\n",
            ),
            Place::LogicInstructions => (
                "---\nspec_version: \"1.0\"\nname: places\nsteps:\n  a:\n    description: a\n    instructions: ",
                "\n---\n",
            ),
        };
        (format!("{before}{scalar}{after}"), before.len())
    }

    fn indent(self) -> usize {
        match self {
            Place::DrtlOperationValue => 10,
            _ => 6,
        }
    }

    fn bare(self) -> bool {
        matches!(self, Place::DrtlCondition)
    }

    /// The string value at the place, as the parser read it, and the expression-syntax
    /// diagnostics as (line, column).
    fn read(self, text: &str) -> (Option<String>, Vec<(u32, u32)>) {
        let syntax = |diagnostics: &[logicmd::Diagnostic]| {
            diagnostics
                .iter()
                .filter(|d| d.code == "expression-syntax")
                .map(|d| (d.line, d.column))
                .collect()
        };
        if let Place::LogicInstructions = self {
            let parsed = Document::parse(text);
            let Some(document) = parsed.document else {
                return (None, Vec::new());
            };
            let value = document
                .json()
                .pointer("/steps/a/instructions")
                .and_then(|v| v.as_str())
                .map(str::to_owned);
            let diagnostics = lint::lint(&document, "main.logic.md", &MemoryLoader::new());
            return (value, syntax(&diagnostics));
        }
        let pointer = match self {
            Place::DrtlCondition => "/nodes/1/condition",
            Place::DrtlPrompt => "/nodes/0/prompt",
            _ => "/nodes/0/operations/0/value",
        };
        let report = drtl::validate(text);
        let value = report
            .topology
            .as_ref()
            .and_then(|t| t.json().pointer(pointer))
            .and_then(|v| v.as_str())
            .map(str::to_owned);
        (value, syntax(&report.diagnostics))
    }
}

/// `value` written in `style`: the scalar's text, and for every byte offset of the value (and
/// its end) the offset in the scalar's text where that character is written. `folds` are the
/// byte offsets of spaces in the value written as line breaks instead.
fn render(value: &str, style: Style, indent: usize, folds: &[usize]) -> (String, Vec<usize>) {
    let pad = " ".repeat(indent);
    let mut out = String::new();
    let mut map = vec![0; value.len() + 1];
    let (open, close) = match style {
        Style::Plain => ("", ""),
        Style::SingleQuoted => ("'", "'"),
        Style::DoubleQuoted => ("\"", "\""),
        Style::Literal => ("|-\n", ""),
        Style::Folded => (">-\n", ""),
    };
    out.push_str(open);
    if matches!(style, Style::Literal | Style::Folded) {
        out.push_str(&pad);
    }
    for (at, c) in value.char_indices() {
        for byte in 0..c.len_utf8() {
            map[at + byte] = out.len();
        }
        match (style, c) {
            (_, ' ') if folds.contains(&at) => {
                out.push('\n');
                out.push_str(&pad);
            }
            (Style::Literal, '\n') => {
                out.push('\n');
                out.push_str(&pad);
            }
            (Style::SingleQuoted, '\'') => out.push_str("''"),
            (Style::DoubleQuoted, '"') => out.push_str("\\\""),
            (Style::DoubleQuoted, '\\') => out.push_str("\\\\"),
            (Style::DoubleQuoted, '\t') => out.push_str("\\t"),
            (Style::DoubleQuoted, c) if (c as u32) > 0xFFFF => {
                out.push_str(&format!("\\U{:08X}", c as u32));
            }
            (Style::DoubleQuoted, c) if !c.is_ascii() => {
                out.push_str(&format!("\\u{:04X}", c as u32));
            }
            (_, c) => out.push(c),
        }
    }
    map[value.len()] = out.len();
    out.push_str(close);
    (out, map)
}

/// Pieces of expressions, many of them wrong, with the characters YAML quotes and escapes.
fn expression() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("input.x"),
        Just("state.variables.n"),
        Just("draft.text"),
        Just(" == "),
        Just(" = "),
        Just(" && "),
        Just(" + "),
        Just("("),
        Just(")"),
        Just("1"),
        Just("0.5"),
        Just("'s'"),
        Just("\"d\""),
        Just("'a\"b'"),
        Just("é"),
        Just("😀"),
        Just("\\"),
        Just("\t"),
        Just("."),
        Just("["),
        Just("]"),
        Just(", "),
        Just(" ? "),
        Just(":"),
        Just("`"),
        Just("#"),
        Just("@"),
        Just(" "),
    ];
    prop::collection::vec(piece, 1..8).prop_map(|pieces| pieces.concat())
}

fn words() -> impl Strategy<Value = String> {
    let word = prop_oneof![
        Just("Write"),
        Just("about"),
        Just("naïve"),
        Just("it's"),
        Just("\"quoted\""),
        Just("a\\b"),
        Just("x:y"),
    ];
    prop::collection::vec(word, 0..4).prop_map(|w| w.join(" "))
}

fn style() -> impl Strategy<Value = Style> {
    prop_oneof![
        Just(Style::Plain),
        Just(Style::SingleQuoted),
        Just(Style::DoubleQuoted),
        Just(Style::Literal),
        Just(Style::Folded),
    ]
}

fn place() -> impl Strategy<Value = Place> {
    prop_oneof![
        Just(Place::DrtlCondition),
        Just(Place::DrtlPrompt),
        Just(Place::DrtlOperationValue),
        Just(Place::LogicInstructions),
    ]
}

/// (line, column) of byte `offset` of `text`, 1-based, the column in characters.
fn line_column(text: &str, offset: usize) -> (u32, u32) {
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = text[line_start..offset].chars().count() + 1;
    (line as u32, column as u32)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1500))]

    #[test]
    fn expression_syntax_errors_point_at_the_blamed_character(
        place in place(),
        style in style(),
        body in expression(),
        before in words(),
        after in words(),
        second_line in any::<bool>(),
        fold_choice in prop::collection::vec(any::<bool>(), 12),
    ) {
        let value = if place.bare() {
            body
        } else {
            let joint = if second_line && matches!(style, Style::Literal) { "\n" } else { " " };
            format!("{before}{joint}{{{{ {body} }}}} {after}").trim().to_owned()
        };
        let blamed = if place.bare() {
            parse_expression(&value, 0, ExprLimits::DEFAULT).err()
        } else {
            Template::parse(&value).err()
        };
        prop_assume!(blamed.is_some());
        let blamed = blamed.unwrap().offset;
        // Fold at single spaces chosen by `fold_choice` (flow styles and folded blocks only).
        let foldable = matches!(style, Style::Plain | Style::SingleQuoted | Style::DoubleQuoted | Style::Folded);
        let folds: Vec<usize> = value
            .char_indices()
            .filter(|&(i, c)| {
                c == ' '
                    && i > 0
                    && !value[..i].ends_with([' ', '\t', '\n'])
                    && !value[i + 1..].starts_with([' ', '\t', '\n'])
                    && i + 1 < value.len()
            })
            .map(|(i, _)| i)
            .enumerate()
            .filter(|(n, _)| foldable && fold_choice.get(*n).copied().unwrap_or(false))
            .map(|(_, i)| i)
            .collect();
        let (scalar, map) = render(&value, style, place.indent(), &folds);
        let (text, start) = place.document(&scalar);
        let (read, syntax) = place.read(&text);
        prop_assume!(read.as_deref() == Some(value.as_str()));
        let expected = line_column(&text, start + map[blamed]);
        prop_assert_eq!(syntax, vec![expected], "value {:?} in\n{}", value, text);
    }
}
