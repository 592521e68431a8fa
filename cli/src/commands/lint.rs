//! `logicmd lint PATH...`: schema validation plus the semantic rules (references, cycles,
//! expressions, thresholds, durations, decision trees, workflows). Exit 1 only on errors.

use std::path::{Path, PathBuf};

use logicmd::diagnostic::{sort_diagnostics, Diagnostic};
use logicmd::lint::{lint, rules};
use logicmd::{validate_bytes, Limits};

use super::each_file;
use super::validate::text_of;
use crate::fs_loader::{FsLoader, Placed};
use crate::output::{self, Format};

#[derive(clap::Args)]
pub struct Args {
    /// Files, directories or glob patterns; `-` reads standard input.
    #[arg(value_name = "PATH", required_unless_present = "rules")]
    paths: Vec<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
    /// Directory imports and `logic_ref`s may read from (default: the nearest directory above
    /// the file with `.git`, `LOGIC.md` or `.logic/`, else the file's directory; for `-`, searched
    /// from the working directory).
    #[arg(long, value_name = "DIR")]
    root: Option<PathBuf>,
    /// List the rules and exit.
    #[arg(long)]
    rules: bool,
}

pub fn run(args: &Args) -> u8 {
    if args.rules {
        for rule in rules::ALL {
            output::print(&format!(
                "{:<26} {:<8} {}",
                rule.code,
                rule.severity.as_str(),
                rule.summary
            ));
        }
        return crate::EXIT_OK;
    }
    each_file::run(&args.paths, args.format, |path, bytes| {
        if let Some(drtl) = super::validate::drtl_report(path, bytes, true) {
            return drtl;
        }
        let report = validate_bytes(bytes, Limits::DEFAULT);
        let text = text_of(report.document.as_ref(), bytes);
        let mut diagnostics = report.diagnostics;
        if let Some(document) = &report.document {
            diagnostics.extend(lint_document(document, path, args.root.as_deref()));
        }
        sort_diagnostics(&mut diagnostics);
        (text, diagnostics)
    })
}

fn lint_document(
    document: &logicmd::Document,
    path: &Path,
    root: Option<&Path>,
) -> Vec<Diagnostic> {
    match FsLoader::place(path, root) {
        Ok(Placed { loader, id }) => lint(document, &id, &loader),
        Err(error) => vec![Diagnostic::error("io-error", error.message)],
    }
}
