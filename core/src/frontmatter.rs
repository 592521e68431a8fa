//! Splits a LOGIC.md file into its YAML frontmatter and markdown body (spec §1, §12).
//!
//! The file begins with a `---` line (after an optional UTF-8 BOM); the frontmatter ends at the
//! next line that is exactly `---` (trailing spaces or tabs allowed). LF and CRLF both work.

use crate::diagnostic::Diagnostic;
use crate::source::{LineIndex, Span};

/// Where the parts of a LOGIC.md file are, as byte ranges of the original text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sections {
    /// The opening `---` line (without its line break).
    pub open: Span,
    /// The YAML between the delimiters, including its final line break.
    pub yaml: Span,
    /// The closing `---` line (without its line break).
    pub close: Span,
    /// The markdown body after the closing line; may be empty.
    pub body: Span,
    /// 1-based line on which the body starts.
    pub body_line: u32,
}

const BOM: &str = "\u{feff}";

/// Whether `line` (without its line break) is a `---` delimiter.
fn is_delimiter(line: &str) -> bool {
    line.strip_prefix("---")
        .is_some_and(|rest| rest.chars().all(|c| c == ' ' || c == '\t' || c == '\r'))
}

/// How many bytes of `bytes` the frontmatter takes, through the line break after its closing
/// `---` line, when it is closed within `bytes`: what must be read of a file, and what its size
/// bound applies to (the markdown body is not validated, spec §15.1.8). A line ends at `\n` or
/// at a lone `\r`.
pub fn end(bytes: &[u8]) -> Option<usize> {
    let start = if bytes.starts_with(BOM.as_bytes()) {
        BOM.len()
    } else {
        0
    };
    let mut lines = LineBreaks { bytes, at: start };
    let (first_start, first_end) = lines.next()?;
    if !is_delimiter_bytes(&bytes[first_start..first_end]) {
        return None;
    }
    for (line_start, line_end) in lines.by_ref() {
        if is_delimiter_bytes(&bytes[line_start..line_end]) {
            let after_break = match bytes.get(line_end) {
                Some(b'\r') if bytes.get(line_end + 1) == Some(&b'\n') => line_end + 2,
                Some(_) => line_end + 1,
                None => line_end,
            };
            return Some(after_break);
        }
    }
    None
}

/// The lines of `bytes` from `at`, as (start, end) without their line breaks (`\n`, `\r\n`, or a
/// lone `\r`); the last line only when it ends with a break (or the bytes).
struct LineBreaks<'b> {
    bytes: &'b [u8],
    at: usize,
}

impl Iterator for LineBreaks<'_> {
    type Item = (usize, usize);

    fn next(&mut self) -> Option<(usize, usize)> {
        if self.at >= self.bytes.len() {
            return None;
        }
        let start = self.at;
        let end = memchr::memchr2(b'\n', b'\r', &self.bytes[start..])
            .map_or(self.bytes.len(), |i| start + i);
        self.at = match self.bytes.get(end) {
            Some(b'\r') if self.bytes.get(end + 1) == Some(&b'\n') => end + 2,
            Some(_) => end + 1,
            None => end,
        };
        Some((start, end))
    }
}

fn is_delimiter_bytes(line: &[u8]) -> bool {
    line.strip_prefix(b"---")
        .is_some_and(|rest| rest.iter().all(|&c| c == b' ' || c == b'\t'))
}

/// Finds the frontmatter of `text`. Errors name the line at fault.
/// The error is boxed: a diagnostic is large and the success path should stay small.
pub fn split(text: &str, index: &LineIndex) -> Result<Sections, Box<Diagnostic>> {
    let start = if text.starts_with(BOM) { BOM.len() } else { 0 };
    let first_end = text[start..].find('\n').map_or(text.len(), |i| start + i);
    let first_line = &text[start..first_end];
    if !is_delimiter(first_line) {
        let what = if text[start..].trim().is_empty() {
            "the file is empty"
        } else {
            "the file does not start with a `---` line"
        };
        return Err(Box::new(
            Diagnostic::error(
                "frontmatter-missing-open",
                format!("{what}: a LOGIC.md file begins with YAML frontmatter between `---` lines"),
            )
            .with_help("add a line `---` before the frontmatter and another after it")
            .at(text, index, Span::new(start, first_end)),
        ));
    }
    let open = Span::new(start, first_end.min(start + first_line.trim_end().len()));
    let yaml_start = (first_end + 1).min(text.len());

    // Walk the line index rather than searching for each line break again.
    let starts = index.line_starts();
    let first = index.line_of(yaml_start);
    for (number, &line_start) in starts.iter().enumerate().skip(first) {
        if line_start >= text.len() {
            break;
        }
        // Only a line starting with `-` can be a delimiter: most lines are passed here.
        if line_start < yaml_start || text.as_bytes()[line_start] != b'-' {
            continue;
        }
        let line_end = starts.get(number + 1).map_or(text.len(), |next| next - 1);
        let line = &text[line_start..line_end];
        if is_delimiter(line) {
            let yaml = Span::new(yaml_start, line_start);
            let close = Span::new(line_start, line_start + line.trim_end().len());
            let body_start = (line_end + 1).min(text.len());
            let body_line = index.line_of(body_start) as u32 + 1;
            let body_line = if body_start == line_end {
                body_line + 1
            } else {
                body_line
            };
            return Ok(Sections {
                open,
                yaml,
                close,
                body: Span::new(body_start, text.len()),
                body_line,
            });
        }
    }
    Err(Box::new(
        Diagnostic::error(
            "frontmatter-missing-close",
            "the frontmatter opened here is never closed: expected a line `---` after it",
        )
        .with_help("add a line `---` where the YAML frontmatter ends")
        .at(text, index, open),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sections(text: &str) -> Result<Sections, Box<Diagnostic>> {
        split(text, &LineIndex::new(text))
    }

    #[test]
    fn the_frontmatter_ends_after_its_closing_line() {
        for (text, end_at) in [
            ("---\na: 1\n---\n# Body\n", Some(13)),
            ("---\r\na: 1\r\n---\r\nbody", Some(16)),
            ("---\ra: 1\r---\rbody", Some(13)),
            ("---\na: 1\n---", Some(12)),
            ("\u{feff}---\n---\n", Some(11)),
            ("---\na: 1\n", None),
            ("a: 1\n---\n", None),
            ("", None),
        ] {
            assert_eq!(end(text.as_bytes()), end_at, "{text:?}");
        }
    }

    #[test]
    fn finds_yaml_and_body() {
        let text = "---\na: 1\n---\n# Body\n";
        let s = sections(text).unwrap();
        assert_eq!(&text[s.yaml.start..s.yaml.end], "a: 1\n");
        assert_eq!(&text[s.body.start..s.body.end], "# Body\n");
        assert_eq!(s.body_line, 4);
    }

    #[test]
    fn accepts_bom_crlf_and_trailing_spaces() {
        let text = "\u{feff}---  \r\na: 1\r\n--- \t\r\nbody";
        let s = sections(text).unwrap();
        assert_eq!(&text[s.yaml.start..s.yaml.end], "a: 1\r\n");
        assert_eq!(&text[s.body.start..s.body.end], "body");
    }

    #[test]
    fn closing_delimiter_at_end_of_file_without_newline() {
        let text = "---\na: 1\n---";
        let s = sections(text).unwrap();
        assert!(s.body.is_empty());
    }

    #[test]
    fn missing_open_is_reported_on_line_one() {
        let err = sections("a: 1\n---\n").unwrap_err();
        assert_eq!(err.code, "frontmatter-missing-open");
        assert_eq!((err.line, err.column), (1, 1));
    }

    #[test]
    fn empty_file_is_reported() {
        let err = sections("").unwrap_err();
        assert!(err.message.contains("empty"), "{}", err.message);
    }

    #[test]
    fn lone_delimiter_is_unclosed() {
        for text in ["---", "---\n", "---\na: 1\n"] {
            let err = sections(text).unwrap_err();
            assert_eq!(err.code, "frontmatter-missing-close", "{text:?}");
            assert_eq!(err.line, 1);
        }
    }

    #[test]
    fn a_longer_dash_line_is_not_a_delimiter() {
        let err = sections("----\na: 1\n---\n").unwrap_err();
        assert_eq!(err.code, "frontmatter-missing-open");
        let err = sections("---\na: 1\n----\n").unwrap_err();
        assert_eq!(err.code, "frontmatter-missing-close");
    }

    /// The frontmatter's ranges found line by line from the text itself, the plain way.
    fn found_line_by_line(text: &str) -> Option<(Span, Span, Span)> {
        let start = if text.starts_with(BOM) { BOM.len() } else { 0 };
        let mut lines = text[start..].split_inclusive('\n');
        let first = lines.next().unwrap_or("");
        if !is_delimiter(first.strip_suffix('\n').unwrap_or(first)) {
            return None;
        }
        let yaml_start = start + first.len();
        let mut offset = yaml_start;
        for line in lines {
            let content = line.strip_suffix('\n').unwrap_or(line);
            if is_delimiter(content) {
                let close = Span::new(offset, offset + content.trim_end().len());
                let body = Span::new((offset + content.len() + 1).min(text.len()), text.len());
                return Some((Span::new(yaml_start, offset), close, body));
            }
            offset += line.len();
        }
        None
    }

    proptest::proptest! {
        /// The walk over the line index finds what reading the lines one by one finds.
        #[test]
        fn finds_the_delimiters_a_line_by_line_reading_finds(
            lines in proptest::collection::vec(
                "(---|--- |---\r|----|-- -|-a|a: -|- x|\u{feff}---|)", 0..8
            ),
            end in proptest::bool::ANY,
        ) {
            let mut text = lines.join("\n");
            if end {
                text.push('\n');
            }
            let found = sections(&text).ok().map(|s| (s.yaml, s.close, s.body));
            proptest::prop_assert_eq!(found, found_line_by_line(&text), "{:?}", text);
        }
    }
}
