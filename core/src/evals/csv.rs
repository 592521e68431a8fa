//! RFC 4180 records: cells separated by commas, quoted with `"` (a `""` inside is one quote),
//! quoted cells may span lines; each cell keeps its line and column for errors.

use super::case::DatasetError;

pub(super) struct Cell {
    pub text: String,
    pub column: usize,
}

pub(super) struct Record {
    pub line: usize,
    pub cells: Vec<Cell>,
}

pub(super) fn records(text: &str) -> Result<Vec<Record>, DatasetError> {
    let mut records = Vec::new();
    let mut chars = text.chars().peekable();
    let (mut line, mut column) = (1usize, 1usize);
    while chars.peek().is_some() {
        let record_line = line;
        let mut cells = Vec::new();
        loop {
            let start = column;
            let mut cell = String::new();
            if chars.peek() == Some(&'"') {
                chars.next();
                column += 1;
                loop {
                    match chars.next() {
                        None => {
                            return Err(DatasetError::at(
                                record_line,
                                start,
                                "a quoted cell is never closed: expected `\"`",
                            ))
                        }
                        Some('"') if chars.peek() == Some(&'"') => {
                            chars.next();
                            column += 2;
                            cell.push('"');
                        }
                        Some('"') => {
                            column += 1;
                            break;
                        }
                        Some('\n') => {
                            line += 1;
                            column = 1;
                            cell.push('\n');
                        }
                        Some(c) => {
                            column += 1;
                            cell.push(c);
                        }
                    }
                }
                if !matches!(chars.peek(), None | Some(',') | Some('\n') | Some('\r')) {
                    return Err(DatasetError::at(
                        line,
                        column,
                        "expected `,` or the end of the line after a quoted cell",
                    ));
                }
            } else {
                while let Some(&c) = chars.peek() {
                    if matches!(c, ',' | '\n' | '\r') {
                        break;
                    }
                    if c == '"' {
                        return Err(DatasetError::at(line, column, "a `\"` inside an unquoted cell: quote the whole cell and double the quote"));
                    }
                    chars.next();
                    column += 1;
                    cell.push(c);
                }
            }
            cells.push(Cell {
                text: cell,
                column: start,
            });
            match chars.next() {
                Some(',') => column += 1,
                Some('\r') => {
                    if chars.peek() == Some(&'\n') {
                        chars.next();
                    }
                    break;
                }
                _ => break,
            }
        }
        line += 1;
        column = 1;
        let blank = cells.len() == 1 && cells[0].text.is_empty();
        if !blank {
            records.push(Record {
                line: record_line,
                cells,
            });
        }
    }
    Ok(records)
}
