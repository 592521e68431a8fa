//! One module per subcommand, and what they share.

pub mod check;
pub mod compile;
pub mod completion;
pub mod config;
pub mod diff;
pub mod each_file;
pub mod edit;
pub mod eval;
pub mod eval_tree;
pub mod fmt;
pub(crate) mod front;
pub mod graph;
pub mod init;
pub mod lint;
mod lint_fix;
pub mod next_action;
pub mod run;
pub mod trace;
pub mod validate;
pub mod watch;

use std::path::Path;

use logicmd::analysis::{Depth, Kind, Parsed};
use logicmd::{Diagnostic, Document, Limits};
use serde_json::Value;

use crate::input::{read_bounded, tell_true_size};
use crate::output;
use crate::{EXIT_INVALID, EXIT_USAGE};

/// Reads and validates one LOGIC.md file; on failure prints why and gives the exit status.
pub fn load_document(path: &Path) -> Result<Document, u8> {
    let file = each_file::display_name(path);
    let bytes = crate::input::read_document(path, Limits::DEFAULT.max_bytes)
        .map_err(|error| {
            eprintln!("error: cannot read {file}: {error}");
            EXIT_USAGE
        })?
        .bytes;
    let mut analysis = front::analyze_file(path, &bytes, Depth::Validate, None);
    tell_true_size(path, Limits::DEFAULT.max_bytes, &mut analysis.diagnostics);
    let document = match &analysis.parsed {
        Some(Parsed::Logic(document)) if analysis.valid => Some(Document::clone(document)),
        _ => None,
    };
    document.ok_or_else(|| {
        let mut diagnostics = analysis.diagnostics.clone();
        if analysis.kind == Kind::Drtl && analysis.valid {
            diagnostics.push(Diagnostic::error(
                "not-logic-md",
                format!("{file} is a DRTL topology; this command reads LOGIC.md files"),
            ));
        }
        let text = front::text_of(&analysis, &bytes);
        eprintln!("{}", output::human(&file, &text, &diagnostics));
        EXIT_INVALID
    })
}

/// Reads a document's text (within the size limit, UTF-8); on failure prints why and gives the
/// exit status.
pub fn read_text(path: &Path) -> Result<String, u8> {
    read_document_text(path).map(|(text, _)| text)
}

/// [`read_text`], with the unread tail of a body longer than the bound (for commands that write
/// the document back).
pub fn read_document_text(path: &Path) -> Result<(String, Option<crate::input::Tail>), u8> {
    let file = each_file::display_name(path);
    let read = crate::input::read_document(path, Limits::DEFAULT.max_bytes).map_err(|error| {
        eprintln!("error: cannot read {file}: {error}");
        EXIT_USAGE
    })?;
    let bytes = read.bytes;
    match logicmd::document::text_of_bytes(&bytes, Limits::DEFAULT) {
        Ok(text) => Ok((text.to_owned(), read.tail)),
        Err(problem) => {
            let mut problems = vec![*problem];
            tell_true_size(path, Limits::DEFAULT.max_bytes, &mut problems);
            let shown = String::from_utf8_lossy(&bytes);
            eprintln!("{}", output::human(&file, &shown, &problems));
            Err(EXIT_INVALID)
        }
    }
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

/// `--root DIR` must name a directory: a usage error (exit 2) otherwise, before anything is read.
pub fn existing_dir(text: &str) -> Result<std::path::PathBuf, String> {
    let path = std::path::PathBuf::from(text);
    if path.is_dir() {
        Ok(path)
    } else if path.exists() {
        Err(format!("`{text}` is not a directory"))
    } else {
        Err(format!("no directory `{text}`"))
    }
}
