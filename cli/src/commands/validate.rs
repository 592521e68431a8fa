//! `logicmd validate PATH...`: parse and check against the LOGIC.md v1.0 schema.

use logicmd::{validate_bytes, Limits};

use super::each_file;
use crate::output::Format;

#[derive(clap::Args)]
pub struct Args {
    /// Files, directories (searched for LOGIC.md, *.logic.md, .logic/index.md) or glob patterns;
    /// `-` reads standard input.
    #[arg(required = true, value_name = "PATH")]
    paths: Vec<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
}

pub fn run(args: &Args) -> u8 {
    each_file::run(&args.paths, args.format, |_, bytes| {
        let report = validate_bytes(bytes, Limits::DEFAULT);
        (text_of(report.document.as_ref(), bytes), report.diagnostics)
    })
}

/// The text diagnostics point into: the document's, or the raw bytes when it did not parse.
pub fn text_of(document: Option<&logicmd::Document>, bytes: &[u8]) -> String {
    document
        .map(|d| d.text().to_owned())
        .unwrap_or_else(|| String::from_utf8_lossy(bytes).into_owned())
}
