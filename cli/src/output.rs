//! Output formats shared by the subcommands.

use std::io::{self, Write};

use clap::ValueEnum;
use logicmd::diagnostic::Diagnostic;
use logicmd::render::render;
use logicmd::source::LineIndex;
use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Diagnostics with source snippets, for people.
    Human,
    /// One JSON array with an object per file, for tools.
    Json,
}

/// One file's result in `--format json`.
#[derive(Serialize)]
pub struct FileReport<'a> {
    pub file: &'a str,
    /// The document parsed and its schema accepts it.
    pub valid: bool,
    /// The command's verdict on the file: readable and without an error (lint's rules, check's
    /// findings included); what the exit status sums up.
    pub passed: bool,
    pub diagnostics: &'a [Diagnostic],
    /// The fixes `lint --fix` applied (only with `--fix`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fixed: Option<&'a [crate::commands::each_file::FixRecord]>,
}

/// A file's diagnostics, rustc-style.
pub fn human(file: &str, text: &str, diagnostics: &[Diagnostic]) -> String {
    let index = LineIndex::new(text);
    diagnostics
        .iter()
        .map(|d| render(d, file, text, &index))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Writes `text` and a newline to stdout. A closed pipe (`logicmd ... | head`) is not an error
/// worth a panic: the reader has what it wanted.
pub fn print(text: &str) {
    let mut stdout = io::stdout().lock();
    let _ = writeln!(stdout, "{text}");
}
