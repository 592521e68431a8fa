//! Byte offsets ↔ (line, UTF-16 column): what the Language Server Protocol and browser editors
//! count. Lines are 0-based; a line ends at `\n` (a `\r` before it belongs to the line's end).

use logicmd::source::LineIndex;

/// A 0-based line and a column in UTF-16 code units.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
pub struct Position {
    /// 0-based line.
    pub line: u32,
    /// 0-based column, in UTF-16 code units.
    pub character: u32,
}

/// The position of byte `offset` of `text` (clamped to the text and to a character boundary).
pub fn position(text: &str, index: &LineIndex, offset: usize) -> Position {
    let offset = logicmd::source::clamp_to_char_boundary(text, offset);
    let line = index.line_of(offset);
    let start = index.line_start(line).unwrap_or(0).min(offset);
    let character: usize = text[start..offset].chars().map(char::len_utf16).sum();
    Position {
        line: line as u32,
        character: character as u32,
    }
}

/// The byte offset of `position` in `text`: a column past the line's end is its end (before
/// its line break), a line past the last is the text's end.
pub fn offset(text: &str, index: &LineIndex, position: Position) -> usize {
    let Some(start) = index.line_start(position.line as usize) else {
        return text.len();
    };
    let line = index.line_text(text, position.line as usize);
    let mut units = 0usize;
    for (at, c) in line.char_indices() {
        if units >= position.character as usize {
            return start + at;
        }
        units += c.len_utf16();
    }
    start + line.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf16_columns_round_trip() {
        let text = "a: é𝄞x\nb: c\r\nd";
        let index = LineIndex::new(text);
        let x = text.find('x').unwrap();
        let at = position(text, &index, x);
        assert_eq!(
            at,
            Position {
                line: 0,
                character: 6
            }
        );
        assert_eq!(offset(text, &index, at), x);
        let d = text.find('d').unwrap();
        assert_eq!(
            position(text, &index, d),
            Position {
                line: 2,
                character: 0
            }
        );
        assert_eq!(
            offset(
                text,
                &index,
                Position {
                    line: 1,
                    character: 99
                }
            ),
            text.find('\r').unwrap()
        );
        assert_eq!(
            offset(
                text,
                &index,
                Position {
                    line: 9,
                    character: 0
                }
            ),
            text.len()
        );
    }
}
