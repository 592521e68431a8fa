//! Multi-line strings written as literal block scalars (`|`), the way a person writes a step's
//! instructions, when the block reads back as exactly the same string; otherwise the caller keeps
//! double quotes.

/// A literal block scalar: the header after `key: ` or `- ` (`|`, `|-`, `|2`), and the content
/// lines, each after a line break, so a comment can sit between them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Literal {
    pub header: String,
    pub body: String,
}

/// `text` as a literal block scalar whose content lines start at column `indent`.
/// `indicator` is that column less the parent's indentation, written when the first non-empty
/// line starts with a space (auto-detection would take those spaces as indentation); `None`
/// where the caller cannot know it, and such text stays quoted.
///
/// `None` also when a block cannot hold the text exactly: no line break (one line reads better
/// quoted), more than one final line break (a keep block `|+` would also take the blank lines
/// after it), only line breaks, a line ending in a space or tab (editors strip them, and a line
/// of spaces reads as an empty line), a line starting with a tab (readers differ), a carriage
/// return, another control character, or a character YAML 1.1 readers break lines at
/// (U+0085, U+2028, U+2029) or drop (U+FEFF).
pub fn literal(text: &str, indent: usize, indicator: Option<usize>) -> Option<Literal> {
    if !text.contains('\n') || text.ends_with("\n\n") || !representable(text) {
        return None;
    }
    let content = text.strip_suffix('\n').unwrap_or(text);
    let lines: Vec<&str> = content.split('\n').collect();
    if lines
        .iter()
        .any(|line| line.ends_with([' ', '\t']) || line.starts_with('\t'))
    {
        return None;
    }
    let first = lines.iter().find(|line| !line.is_empty())?;
    let indicator = if first.starts_with(' ') {
        Some(indicator.filter(|i| (1..=9).contains(i))?.to_string())
    } else {
        None
    };
    let chomping = if text.ends_with('\n') { "" } else { "-" };
    let pad = " ".repeat(indent);
    let body: String = lines
        .iter()
        .map(|line| {
            if line.is_empty() {
                "\n".to_owned()
            } else {
                format!("\n{pad}{line}")
            }
        })
        .collect();
    Some(Literal {
        header: format!("|{}{chomping}", indicator.unwrap_or_default()),
        body,
    })
}

fn representable(text: &str) -> bool {
    !text.chars().any(|c| {
        (c.is_control() && c != '\n' && c != '\t')
            || matches!(c, '\u{85}' | '\u{2028}' | '\u{2029}' | '\u{feff}')
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn written(text: &str, indicator: Option<usize>) -> String {
        literal(text, 2, indicator).map_or_else(
            || "(quoted)".to_owned(),
            |l| format!("key: {}{}", l.header, l.body),
        )
    }

    #[test]
    fn chomping_and_indicator_follow_the_text() {
        let cases = [
            "Find sources.\nKeep notes.",
            "Find sources.\nKeep notes.\n",
            "First\n\nafter a blank line",
            "\nleading break",
            "  indented first line\nnext",
            "# not a comment\n- not a list",
        ];
        let out: Vec<String> = cases
            .iter()
            .map(|c| format!("{c:?}\n{}", written(c, Some(2))))
            .collect();
        insta::assert_snapshot!(out.join("\n\n"));
    }

    #[test]
    fn text_a_block_cannot_hold_stays_quoted() {
        for text in [
            "one line",
            "two breaks\n\n",
            "\n\n",
            "trailing space \nx",
            "trailing tab\t\nx",
            "a\n\tleading tab",
            "carriage\r\nreturn",
            "bell\u{7}\nx",
            "next line\u{85}\nx",
            "line sep\u{2028}\nx",
            "bom\u{feff}\nx",
        ] {
            assert_eq!(literal(text, 2, Some(2)), None, "{text:?}");
        }
        assert_eq!(literal(" indented\nx", 4, None), None);
        assert!(
            literal("a\tb\nc", 2, None).is_some(),
            "a tab inside a line is text"
        );
    }
}
