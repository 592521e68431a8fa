//! Human-readable diagnostics in the style of rustc: message, location, source line, caret.

use std::fmt::Write;

use crate::diagnostic::Diagnostic;
use crate::source::LineIndex;

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
    let shown: String = source_line
        .chars()
        .map(|c| if c == '\t' { ' ' } else { c })
        .collect();
    let start = diagnostic.column.saturating_sub(1) as usize;
    let width = caret_width(diagnostic, text, &shown, start);
    let _ = writeln!(out, "{gutter} |");
    let _ = writeln!(out, "{line_number} | {shown}");
    let _ = writeln!(out, "{gutter} | {}{}", " ".repeat(start), "^".repeat(width));
    append_notes(&mut out, diagnostic, &format!("{gutter} "));
    out
}

/// How many characters of the line the span covers (at least one).
fn caret_width(diagnostic: &Diagnostic, text: &str, line: &str, start: usize) -> usize {
    let rest = line.chars().count().saturating_sub(start);
    let span_chars = diagnostic
        .span
        .and_then(|span| text.get(span.start..span.end))
        .map_or(1, |covered| {
            covered.lines().next().unwrap_or("").chars().count()
        });
    span_chars.min(rest).max(1)
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
}
