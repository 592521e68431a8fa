//! The results file: one row a line, appended and flushed as rows come, so an interrupted eval
//! keeps every row it finished; reading it back drops a last line cut short.

use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Write};
use std::path::Path;

use logicmd::evals::Row;

/// Reads the rows of a results file, and how many of its bytes they take. With `lenient` (a
/// resumed eval), a last line cut short by an interruption (no line end) is dropped: its case
/// runs again.
pub fn read(path: &Path, lenient: bool) -> Result<(Vec<Row>, u64), String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut rows = Vec::new();
    let mut kept = 0u64;
    for (index, line) in text.split_inclusive('\n').enumerate() {
        if lenient && !line.ends_with('\n') {
            break;
        }
        if !line.trim().is_empty() {
            let row = row(line).map_err(|error| {
                // serde's own place is within the line: the file's line and column say it.
                let text = error.to_string();
                let what = text
                    .rfind(" at line ")
                    .map_or(text.as_str(), |at| &text[..at]);
                format!(
                    "{}:{}:{}: not a result row: {what}",
                    path.display(),
                    index + 1,
                    error.column().max(1)
                )
            })?;
            rows.push(row);
        }
        kept += line.len() as u64;
    }
    Ok((rows, kept))
}

/// One row's line.
pub fn row(line: &str) -> Result<Row, serde_json::Error> {
    serde_json::from_str(line)
}

/// Writes `rows` as the whole results file (beside it, then renamed: an interruption leaves
/// the old file or the new one, never half of it); the bytes written.
pub fn rewrite(path: &Path, rows: &[Row]) -> Result<u64, String> {
    let mut text = String::new();
    for row in rows {
        text.push_str(&serde_json::to_string(row).map_err(|e| e.to_string())?);
        text.push('\n');
    }
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".partial");
    let beside = path.with_file_name(name);
    std::fs::write(&beside, &text)
        .and_then(|()| std::fs::rename(&beside, path))
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(text.len() as u64)
}

/// Appends rows to a results file.
pub struct Writer {
    out: BufWriter<File>,
}

impl Writer {
    /// Opens `path` to append after its first `keep` bytes (what [`read`] kept), or afresh.
    pub fn open(path: &Path, keep: Option<u64>) -> Result<Writer, String> {
        let failed = |e: std::io::Error| format!("cannot write {}: {e}", path.display());
        let file = match keep {
            Some(bytes) => {
                let file = OpenOptions::new().append(true).open(path).map_err(failed)?;
                file.set_len(bytes).map_err(failed)?;
                file
            }
            None => File::create(path).map_err(failed)?,
        };
        Ok(Writer {
            out: BufWriter::new(file),
        })
    }

    pub fn append(&mut self, row: &Row) -> Result<(), String> {
        let line = serde_json::to_string(row).map_err(|e| e.to_string())?;
        writeln!(self.out, "{line}")
            .and_then(|()| self.out.flush())
            .map_err(|e| format!("cannot write a row: {e}"))
    }
}
