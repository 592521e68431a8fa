//! `logicmd lint PATH...`: schema validation plus the semantic rules (references, cycles,
//! expressions, thresholds, durations, decision trees, workflows). Exit 1 only on errors.

use std::path::{Path, PathBuf};

use logicmd::diagnostic::{sort_diagnostics, Diagnostic};
use logicmd::lint::{lint, rules};
use logicmd::loader::MemoryLoader;
use logicmd::{validate_bytes, Limits};

use super::each_file;
use super::validate::text_of;
use crate::fs_loader::FsLoader;
use crate::output::{self, Format};

#[derive(clap::Args)]
pub struct Args {
    /// Files, directories or glob patterns; `-` reads standard input.
    #[arg(value_name = "PATH", required_unless_present = "rules")]
    paths: Vec<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
    /// Directory imports and `logic_ref`s may read from (default: the current directory when
    /// the file is inside it, else the file's directory).
    #[arg(long, value_name = "DIR")]
    root: Option<PathBuf>,
    /// List the rules and exit.
    #[arg(long)]
    rules: bool,
}

pub fn run(args: &Args) -> u8 {
    if args.rules {
        let width = rules::ALL.iter().map(|r| r.code.len()).max().unwrap_or(0);
        for rule in rules::ALL {
            output::print(&format!(
                "{:<width$} {:<8} {}\n{:width$} why: {}",
                rule.code,
                rule.severity.as_str(),
                rule.summary,
                "",
                rule.reason
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
    if path.as_os_str() == "-" {
        // Standard input has no place in a project: nothing can be imported from it.
        return lint(document, "<stdin>", &MemoryLoader::new());
    }
    match FsLoader::for_file(path, root) {
        Ok(loader) => match loader.id_of(path) {
            Ok(id) => lint(document, &id, &loader),
            Err(error) => vec![Diagnostic::error("io-error", error.message)],
        },
        Err(error) => vec![Diagnostic::error(
            "io-error",
            format!("cannot open the project root: {error}"),
        )],
    }
}
