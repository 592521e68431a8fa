//! Where a scalar's value is in the file: the byte range of part of a string value (an
//! expression's offending token, a reference) in the text the scalar was written as.
//!
//! The scalar's source is decoded again with a note of where each character came from: quotes
//! and escapes (`''`, `\"`, `\u00e9`, escaped line breaks), line folding of flow scalars, block
//! indentation and folding. The decoding is trusted only when it gives the value the YAML parser
//! read; otherwise the place is found by searching for the value's line in the source.

use super::{Node, ScalarStyle};
use crate::source::Span;

/// The file span of bytes `offset..offset + len` of `value`, the string value of the scalar
/// `node` in `text`; the scalar's whole span when the place cannot be found. A caller placing
/// many offsets of one value makes one [`ValuePlaces`] instead: each call decodes the scalar.
pub fn value_span(text: &str, node: &Node, value: &str, offset: usize, len: usize) -> Span {
    ValuePlaces::new(text, node, value).span(offset, len)
}

/// The places of one scalar's value in the file, the scalar decoded once. *Why:* decoding is as
/// long as the value, so placing each of the thousands of `{{ }}` of one block scalar by itself
/// took seconds (semantic tokens 7.5 s, diagnostics 1.3 s at 4,000 expressions).
pub struct ValuePlaces<'a> {
    text: &'a str,
    node: &'a Node,
    value: &'a str,
    how: How,
}

/// How a value's offsets become file offsets.
enum How {
    /// Written as it reads, from this file offset.
    Direct(usize),
    /// The file offset of every byte of the value, and of its end.
    Decoded(Vec<usize>),
    /// Neither: each offset's line is searched for in the scalar's source.
    Search,
}

impl<'a> ValuePlaces<'a> {
    /// The places of `value`, the string value of the scalar `node` in `text`.
    pub fn new(text: &'a str, node: &'a Node, value: &'a str) -> ValuePlaces<'a> {
        let how = if let Some(start) = written_start(text, node, value) {
            How::Direct(start)
        } else if let Some(map) = decoded_map(text, node, value) {
            How::Decoded(map)
        } else {
            How::Search
        };
        ValuePlaces {
            text,
            node,
            value,
            how,
        }
    }

    /// The file span of bytes `offset..offset + len` of the value (clamped to it); the
    /// scalar's whole span when the place cannot be found.
    pub fn span(&self, offset: usize, len: usize) -> Span {
        let offset = offset.min(self.value.len());
        let end = offset.saturating_add(len).min(self.value.len());
        match &self.how {
            How::Direct(start) => Span::new(start + offset, start + end),
            How::Decoded(map) => Span::new(map[offset], map[end].max(map[offset])),
            How::Search => match searched_offset(self.text, self.node, self.value, offset) {
                Some(start) => {
                    let end =
                        searched_offset(self.text, self.node, self.value, end).unwrap_or(start);
                    Span::new(start, end.max(start))
                }
                None => self.node.span(),
            },
        }
    }
}

/// Where `value` starts in the file when the scalar is written exactly as it reads (its bytes,
/// or a quoted scalar's bytes inside its quotes): then every offset maps directly. *Why:* the
/// decoded map is as long as the value, so a value holding thousands of `{{ }}` took seconds to
/// place them one call at a time; a caller placing many offsets of one value asks this once.
pub fn written_start(text: &str, node: &Node, value: &str) -> Option<usize> {
    let span = node.span();
    let raw = text.get(span.start..span.end)?;
    if raw == value {
        return Some(span.start);
    }
    let quoted = matches!(
        node.style,
        Some(ScalarStyle::SingleQuoted | ScalarStyle::DoubleQuoted)
    );
    (quoted && raw.get(1..raw.len().saturating_sub(1)) == Some(value)).then_some(span.start + 1)
}

/// For every byte offset of `value` (and its end), the file offset of its character, when
/// decoding the scalar's source gives `value`.
fn decoded_map(text: &str, node: &Node, value: &str) -> Option<Vec<usize>> {
    let style = node.style?;
    let block_style = matches!(style, ScalarStyle::Literal | ScalarStyle::Folded);
    // A block scalar's span stops at its last non-blank character: the last line's trailing
    // blanks are content too, and chomped line breaks are in the value but not in the span.
    let end = if block_style {
        let rest = text.get(node.span().end..)?;
        let line = &rest[..rest.find('\n').unwrap_or(rest.len())];
        node.span().end + line.strip_suffix('\r').unwrap_or(line).len()
    } else {
        node.span().end
    };
    let raw = text.get(node.span().start..end)?;
    if block_style && !raw[node.span().len()..].trim().is_empty() {
        return None;
    }
    let decoded = match style {
        ScalarStyle::Plain => flow(raw, node.span().start, style)?,
        ScalarStyle::SingleQuoted | ScalarStyle::DoubleQuoted => {
            let inner = raw.get(1..raw.len().checked_sub(1)?)?;
            flow(inner, node.span().start + 1, style)?
        }
        ScalarStyle::Literal | ScalarStyle::Folded => block(text, node.span().start, raw, style)?,
    };
    let fits = decoded.text == value
        || (block_style
            && value.starts_with(&decoded.text)
            && value[decoded.text.len()..].trim().is_empty());
    if !fits {
        return None;
    }
    let mut map = decoded.map;
    map.resize(value.len() + 1, end);
    Some(map)
}

/// Decoded text, and the file offset of each of its bytes plus one for its end.
struct Decoded {
    text: String,
    map: Vec<usize>,
}

impl Decoded {
    fn new() -> Decoded {
        Decoded {
            text: String::new(),
            map: Vec::new(),
        }
    }

    fn push(&mut self, c: char, at: usize) {
        self.text.push(c);
        self.map.extend(std::iter::repeat_n(at, c.len_utf8()));
    }

    fn finish(mut self, end: usize) -> Decoded {
        self.map.push(end);
        self
    }
}

/// One character of a flow scalar's content and where it is written.
#[derive(Clone, Copy)]
struct Unit {
    c: char,
    at: usize,
    /// A space or tab written as such (escaped whitespace is content, never trimmed).
    blank: bool,
}

/// A source line of a flow scalar: its characters, whether it ends in an escaped line break,
/// and where its line break is.
struct FlowLine {
    units: Vec<Unit>,
    escaped_break: bool,
    break_at: usize,
}

/// Decodes a plain or quoted scalar's content (`raw`, starting at file offset `base`): escapes,
/// then line folding (a single break is a space, a break followed by empty lines is one line
/// feed per empty line, white space around breaks is dropped).
fn flow(raw: &str, base: usize, style: ScalarStyle) -> Option<Decoded> {
    let mut lines = Vec::new();
    let mut start = 0;
    loop {
        let end = raw[start..].find('\n').map_or(raw.len(), |i| start + i);
        let content = raw[start..end]
            .strip_suffix('\r')
            .unwrap_or(&raw[start..end]);
        // The line break starts at its `\r` in a CRLF line: a place ending at it stays on its line.
        let break_at = base + start + content.len();
        lines.push(flow_line(content, base + start, break_at, style)?);
        if end == raw.len() {
            break;
        }
        start = end + 1;
    }
    let last = lines.len() - 1;
    for (i, line) in lines.iter_mut().enumerate() {
        if i > 0 {
            let leading = line.units.iter().take_while(|u| u.blank).count();
            line.units.drain(..leading);
        }
        if i < last && !line.escaped_break {
            while line.units.last().is_some_and(|u| u.blank) {
                line.units.pop();
            }
        }
    }
    let mut out = Decoded::new();
    let mut empty_lines = 0usize;
    let mut previous: Option<(bool, usize)> = None;
    for (i, line) in lines.iter().enumerate() {
        if i > 0 && i < last && line.units.is_empty() && !line.escaped_break {
            empty_lines += 1;
            continue;
        }
        if let Some((escaped, break_at)) = previous {
            match (escaped, empty_lines) {
                (true, n) | (false, n @ 1..) => {
                    (0..n).for_each(|_| out.push('\n', break_at));
                }
                (false, 0) => out.push(' ', break_at),
            }
        }
        for unit in &line.units {
            out.push(unit.c, unit.at);
        }
        empty_lines = 0;
        previous = Some((line.escaped_break, line.break_at));
    }
    Some(out.finish(base + raw.len()))
}

fn flow_line(content: &str, base: usize, break_at: usize, style: ScalarStyle) -> Option<FlowLine> {
    let mut units = Vec::new();
    let mut escaped_break = false;
    let mut chars = content.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let at = base + i;
        match (style, c) {
            (ScalarStyle::SingleQuoted, '\'') => {
                chars.next_if(|&(_, next)| next == '\'')?;
                units.push(Unit {
                    c,
                    at,
                    blank: false,
                });
            }
            (ScalarStyle::DoubleQuoted, '\\') => match chars.next() {
                None => escaped_break = true,
                Some((_, escape)) => {
                    let c = unescape(escape, &mut chars)?;
                    units.push(Unit {
                        c,
                        at,
                        blank: false,
                    });
                }
            },
            _ => units.push(Unit {
                c,
                at,
                blank: c == ' ' || c == '\t',
            }),
        }
    }
    Some(FlowLine {
        units,
        escaped_break,
        break_at,
    })
}

/// The character a double-quoted escape stands for (YAML 1.2 §5.7), reading `\x`, `\u`, `\U`
/// digits from `rest`.
fn unescape(
    escape: char,
    rest: &mut std::iter::Peekable<std::str::CharIndices<'_>>,
) -> Option<char> {
    let digits = match escape {
        'x' => 2,
        'u' => 4,
        'U' => 8,
        _ => {
            return Some(match escape {
                '0' => '\0',
                'a' => '\u{7}',
                'b' => '\u{8}',
                't' | '\t' => '\t',
                'n' => '\n',
                'v' => '\u{b}',
                'f' => '\u{c}',
                'r' => '\r',
                'e' => '\u{1b}',
                ' ' => ' ',
                '"' => '"',
                '/' => '/',
                '\\' => '\\',
                'N' => '\u{85}',
                '_' => '\u{a0}',
                'L' => '\u{2028}',
                'P' => '\u{2029}',
                _ => return None,
            })
        }
    };
    let mut code = 0;
    for _ in 0..digits {
        let (_, digit) = rest.next()?;
        code = code * 16 + digit.to_digit(16)?;
    }
    char::from_u32(code)
}

/// Decodes a literal or folded block scalar whose content starts at file offset `start` (the
/// first line's indentation is before it).
fn block(text: &str, start: usize, raw: &str, style: ScalarStyle) -> Option<Decoded> {
    let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
    let indent = start - line_start;
    if !text[line_start..start].bytes().all(|b| b == b' ') {
        return None;
    }
    // (content, file offset of the content, file offset of the line break after it)
    let mut lines: Vec<(&str, usize, usize)> = Vec::new();
    let mut offset = 0;
    loop {
        let end = raw[offset..].find('\n').map_or(raw.len(), |i| offset + i);
        let line = raw[offset..end]
            .strip_suffix('\r')
            .unwrap_or(&raw[offset..end]);
        let skip = if lines.is_empty() {
            0
        } else {
            let spaces = line.bytes().take_while(|&b| b == b' ').count();
            if spaces < indent && spaces < line.len() {
                return None;
            }
            spaces.min(indent)
        };
        // The line break starts at its `\r` in a CRLF line.
        lines.push((
            &line[skip..],
            start + offset + skip,
            start + offset + line.len(),
        ));
        if end == raw.len() {
            break;
        }
        offset = end + 1;
    }
    let mut out = Decoded::new();
    let more_indented = |line: &str| line.starts_with([' ', '\t']);
    let mut empty_lines = 0usize;
    let mut previous: Option<(&str, usize)> = None;
    for &(content, at, break_at) in &lines {
        if content.is_empty() {
            empty_lines += 1;
            continue;
        }
        if let Some((before, previous_break)) = previous {
            let folds =
                style == ScalarStyle::Folded && !more_indented(before) && !more_indented(content);
            let breaks = match (folds, empty_lines) {
                (true, 0) => {
                    out.push(' ', previous_break);
                    0
                }
                (true, n) => n,
                (false, n) => n + 1,
            };
            (0..breaks).for_each(|_| out.push('\n', previous_break));
        } else {
            (0..empty_lines).for_each(|_| out.push('\n', at));
        }
        for (i, c) in content.char_indices() {
            out.push(c, at + i);
        }
        empty_lines = 0;
        previous = Some((content, break_at));
    }
    Some(out.finish(start + raw.len()))
}

/// The file offset of byte `offset` of the value, found by searching for the value's line in the
/// scalar's source (for what the decoding above does not reproduce).
fn searched_offset(text: &str, node: &Node, value: &str, offset: usize) -> Option<usize> {
    let raw = text.get(node.span().start..node.span().end)?;
    let line_start = value[..offset].rfind('\n').map_or(0, |i| i + 1);
    let line_end = value[offset..]
        .find('\n')
        .map_or(value.len(), |i| offset + i);
    let line = &value[line_start..line_end];
    if line.is_empty() {
        return None;
    }
    raw.find(line)
        .map(|at| node.span().start + at + (offset - line_start))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::yaml::parse_file;
    use crate::Limits;

    /// The file text at the place of `needle` in the value of `key`.
    fn placed(text: &str, key: &str, needle: &str) -> String {
        let file = parse_file(text, Limits::DEFAULT);
        let root = file.root.expect("parses");
        let entry = root
            .as_map()
            .unwrap()
            .iter()
            .find(|e| e.key == key)
            .unwrap();
        let value = entry.value.as_str().unwrap();
        let offset = value.find(needle).expect("needle in value");
        let span = value_span(text, &entry.value, value, offset, needle.len());
        text[span.start..span.end].to_owned()
    }

    #[test]
    fn every_scalar_style_maps_back_to_its_source() {
        let text = "plain: a b\n  c d\nsingle: 'it''s\n\n  x'\ndouble: \"caf\\u00e9 \\\"q\\\" \\\n  tail z\"\nliteral: |\n  one\n    two\n  three\nfolded: >-\n  alpha\n  beta\n\n  gamma\n";
        assert_eq!(placed(text, "plain", "c d"), "c d");
        assert_eq!(placed(text, "single", "x"), "x");
        assert_eq!(placed(text, "single", "it's"), "it''s");
        assert_eq!(placed(text, "double", "é"), "\\u00e9");
        assert_eq!(placed(text, "double", "\"q\""), "\\\"q\\\"");
        assert_eq!(placed(text, "double", "tail"), "tail");
        assert_eq!(placed(text, "literal", "three"), "three");
        assert_eq!(placed(text, "literal", "two"), "two");
        assert_eq!(placed(text, "folded", "beta"), "beta");
        assert_eq!(placed(text, "folded", "gamma"), "gamma");
    }

    #[test]
    fn a_place_at_a_crlf_line_end_stops_before_the_line_break() {
        let text = "folded: >-\r\n  alpha >\r\n  beta }}\r\nliteral: |\r\n  one >\r\n  two }}\r\ndouble: \"x >\r\n  y }}\"\r\n";
        for key in ["folded", "literal", "double"] {
            assert_eq!(placed(text, key, ">"), ">", "{key}");
            assert_eq!(placed(text, key, "}}"), "}}", "{key}");
        }
    }

    #[test]
    fn a_repeated_line_is_found_where_it_is() {
        // The old search found the first `x` line: inside `ax`.
        let text = "literal: |\n  ax\n  x\n";
        let file = parse_file(text, Limits::DEFAULT);
        let root = file.root.unwrap();
        let node = &root.as_map().unwrap()[0].value;
        let value = node.as_str().unwrap();
        let span = value_span(text, node, value, 3, 1);
        assert_eq!(span.start, text.rfind('x').unwrap());
    }

    proptest::proptest! {
        /// One `ValuePlaces` puts every word of a scalar where it is written, in each style
        /// (literal and folded blocks, a multi-line plain scalar, quoted ones).
        #[test]
        fn one_placer_finds_every_word_where_it_is_written(
            lines in proptest::collection::vec(
                proptest::collection::vec("[a-z]{1,6}", 1..5), 1..8),
            style in 0usize..5,
        ) {
            let body: Vec<String> = lines.iter().map(|words| words.join(" ")).collect();
            let text = match style {
                0 => format!("k: |\n  {}\n", body.join("\n  ")),
                1 => format!("k: >\n  {}\n", body.join("\n\n  ")),
                2 => format!("k: {}\n", body.join("\n  ")),
                3 => format!("k: '{}'\n", body.join("\n  ")),
                _ => format!("k: \"{}\"\n", body.join("\n  ")),
            };
            let file = parse_file(&text, Limits::DEFAULT);
            let root = file.root.expect("parses");
            let node = &root.as_map().expect("a map")[0].value;
            let value = node.as_str().expect("a string");
            let places = ValuePlaces::new(&text, node, value);
            let mut from = 0;
            for word in lines.iter().flatten() {
                let at = value[from..].find(word.as_str()).expect("the word") + from;
                let span = places.span(at, word.len());
                proptest::prop_assert_eq!(&text[span.start..span.end], word.as_str());
                proptest::prop_assert_eq!(span, value_span(&text, node, value, at, word.len()));
                from = at + word.len();
            }
        }
    }
}
