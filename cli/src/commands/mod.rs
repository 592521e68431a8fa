//! One module per subcommand, and what they share.

pub mod check;
pub mod compile;
mod each_file;
pub mod edit;
pub mod eval;
pub mod eval_tree;
pub mod fmt;
pub mod graph;
pub mod lint;
pub mod validate;

use std::path::Path;

use logicmd::{validate_bytes, Document, Limits};
use serde_json::Value;

use crate::input::read_bounded;
use crate::output;
use crate::{EXIT_INVALID, EXIT_USAGE};

/// Reads and validates one LOGIC.md file; on failure prints why and gives the exit status.
pub fn load_document(path: &Path) -> Result<Document, u8> {
    let file = path.display().to_string();
    let bytes = read_bounded(path, Limits::DEFAULT.max_bytes).map_err(|error| {
        eprintln!("error: cannot read {file}: {error}");
        EXIT_USAGE
    })?;
    let report = validate_bytes(&bytes, Limits::DEFAULT);
    let text = validate::text_of(report.document.as_ref(), &bytes);
    if !report.valid {
        eprintln!("{}", output::human(&file, &text, &report.diagnostics));
        return Err(EXIT_INVALID);
    }
    report.document.ok_or(EXIT_INVALID)
}

/// Reads a JSON file (within the size limit).
pub fn read_json(path: &Path) -> Result<Value, String> {
    let bytes = read_bounded(path, Limits::DEFAULT.max_bytes)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    serde_json::from_slice(&bytes).map_err(|e| {
        format!(
            "{}:{}:{}: invalid JSON: {e}",
            path.display(),
            e.line(),
            e.column()
        )
    })
}
