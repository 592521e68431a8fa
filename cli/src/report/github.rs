//! `--format github`: one GitHub Actions workflow command per diagnostic
//! (`::error file=F,line=L,col=C,endLine=…,endColumn=…,title=CODE::MESSAGE`), which the runner
//! shows as an annotation on the line; infos are `notice`s.

use logicmd::source::LineIndex;
use logicmd::Severity;

use super::Reported;

/// The annotations of `files`, one line each.
pub fn annotations(files: &[Reported<'_>]) -> String {
    let mut out = String::new();
    for file in files {
        let index = LineIndex::new(file.text);
        for diagnostic in file.diagnostics {
            let command = match diagnostic.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
                Severity::Info => "notice",
            };
            let mut properties = vec![format!("file={}", property(file.name))];
            if diagnostic.line > 0 {
                properties.push(format!("line={}", diagnostic.line));
                properties.push(format!("col={}", diagnostic.column));
                if let Some(span) = diagnostic.span.filter(|span| span.end > span.start) {
                    let end = index.line_col(file.text, span.end);
                    properties.push(format!("endLine={}", end.line));
                    properties.push(format!("endColumn={}", end.column));
                }
            }
            properties.push(format!("title={}", property(&diagnostic.code)));
            let mut message = diagnostic.message.clone();
            if let Some(help) = &diagnostic.help {
                message.push_str(&format!("\nhelp: {help}"));
            }
            out.push_str(&format!(
                "::{command} {}::{}\n",
                properties.join(","),
                data(&message)
            ));
        }
    }
    out
}

/// A message as a workflow command's data: `%`, CR and LF escaped.
fn data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// A property value: also `:` and `,` escaped.
fn property(text: &str) -> String {
    data(text).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    #[test]
    fn commands_escape_what_the_runner_would_read_as_syntax() {
        assert_eq!(super::data("50% done\nnext"), "50%25 done%0Anext");
        assert_eq!(super::property("a,b:c.logic.md"), "a%2Cb%3Ac.logic.md");
    }
}
