//! Line arithmetic on the original text, for edits that must leave every other byte alone.

/// Start of the line holding `offset`.
pub fn line_start(text: &str, offset: usize) -> usize {
    text[..offset].rfind('\n').map_or(0, |i| i + 1)
}

/// End of the line holding `offset` (the index of its `\n`, or the text's end). A `\r` before
/// the `\n` counts as part of the line break.
pub fn line_end(text: &str, offset: usize) -> usize {
    let end = text[offset..].find('\n').map_or(text.len(), |i| offset + i);
    if end > 0 && text.as_bytes().get(end - 1) == Some(&b'\r') && end > offset {
        end - 1
    } else {
        end
    }
}

/// Start of the line after the one holding `offset` (or the text's end).
pub fn next_line_start(text: &str, offset: usize) -> usize {
    text[offset..]
        .find('\n')
        .map_or(text.len(), |i| offset + i + 1)
}

/// The line break the file uses.
pub fn newline(text: &str) -> &'static str {
    if text.contains("\r\n") {
        "\r\n"
    } else {
        "\n"
    }
}

/// Whether only spaces precede `offset` on its line.
pub fn first_on_line(text: &str, offset: usize) -> bool {
    text[line_start(text, offset)..offset]
        .chars()
        .all(|c| c == ' ')
}

/// Spaces before `offset` on its line (its indentation when it is first on the line).
pub fn column(text: &str, offset: usize) -> usize {
    text[line_start(text, offset)..offset].chars().count()
}

/// The start of the comment lines directly above the line of `offset` (no blank line between),
/// or that line's start when there are none. `in_scalar` says whether an offset is inside a
/// scalar (a block scalar's line starting with `#` is text).
pub fn leading_comments_start(
    text: &str,
    offset: usize,
    in_scalar: impl Fn(usize) -> bool,
) -> usize {
    let mut start = line_start(text, offset);
    while start > 0 {
        let previous = line_start(text, start - 1);
        let line = &text[previous..start];
        let hash = previous + (line.len() - line.trim_start().len());
        if line.trim().starts_with('#') && !in_scalar(hash) {
            start = previous;
        } else {
            break;
        }
    }
    start
}

/// The offset of the `-` indicator of a block sequence item whose content starts at `offset`.
pub fn dash_before(text: &str, offset: usize) -> Option<usize> {
    let before = &text[line_start(text, offset)..offset];
    let trimmed = before.trim_end();
    trimmed
        .ends_with('-')
        .then(|| line_start(text, offset) + trimmed.len() - 1)
}

/// The offset just after the `:` that follows a key ending at `key_end`.
pub fn after_colon(text: &str, key_end: usize) -> Option<usize> {
    let rest = &text[key_end..];
    let colon = rest.find(':')?;
    rest[..colon]
        .chars()
        .all(|c| c == ' ' || c == '"' || c == '\'')
        .then_some(key_end + colon + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_helpers() {
        let text = "a: 1\r\n# c1\n# c2\nb: 2\n";
        let b = text.find("b:").unwrap();
        assert_eq!(line_start(text, b), b);
        assert_eq!(line_end(text, 0), 4);
        assert_eq!(next_line_start(text, 0), 6);
        assert_eq!(leading_comments_start(text, b, |_| false), 6);
        assert_eq!(newline(text), "\r\n");
        assert_eq!(after_colon(text, 1), Some(2));
        let items = "x:\n  - name: q\n";
        let name = items.find("name").unwrap();
        assert_eq!(dash_before(items, name), Some(name - 2));
        assert!(!first_on_line(items, name));
        assert_eq!(column(items, name), 4);
    }
}
