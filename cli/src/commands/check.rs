//! `logicmd check PATH...`: the obligation analysis (unverified outputs, human overrides,
//! unbounded cycles, termination, gate branches) of LOGIC.md files and DRTL topologies, printed
//! like `lint`: rustc-style `file:line:col` for people, one object per file in JSON. A file that
//! does not validate is reported with its errors instead: the analysis needs a sound document.

use std::path::{Path, PathBuf};

use logicmd::check::{document_diagnostics, topology_diagnostics};
use logicmd::diagnostic::Diagnostic;
use logicmd::imports::resolve;
use logicmd::{validate_bytes, Document, Limits};

use super::each_file;
use super::validate::{drtl_report, text_of};
use crate::fs_loader::FsLoader;
use crate::output::Format;

#[derive(clap::Args)]
pub struct Args {
    /// LOGIC.md files, DRTL topologies (`*.drtl.yaml`), directories or glob patterns; `-` reads
    /// standard input.
    #[arg(required = true, value_name = "PATH")]
    paths: Vec<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
    /// Directory imports may read from (default: as for `lint`).
    #[arg(long, value_name = "DIR")]
    root: Option<PathBuf>,
}

pub fn run(args: &Args) -> u8 {
    each_file::run(&args.paths, args.format, |path, bytes| {
        check_file(path, bytes, args.root.as_deref())
    })
}

fn check_file(path: &Path, bytes: &[u8], root: Option<&Path>) -> (String, Vec<Diagnostic>) {
    if let Some((text, diagnostics)) = drtl_report(path, bytes, true) {
        if diagnostics.iter().any(Diagnostic::is_error) {
            return (text, errors(diagnostics));
        }
        let findings = logicmd::drtl::parse(&text)
            .0
            .map(|topology| topology_diagnostics(&topology))
            .unwrap_or_default();
        return (text, findings);
    }
    let report = validate_bytes(bytes, Limits::DEFAULT);
    let text = text_of(report.document.as_ref(), bytes);
    match report.document.filter(|_| report.valid) {
        Some(document) => {
            let resolved = resolved(&document, path, root);
            (text, document_diagnostics(&document, &resolved))
        }
        None => (text, errors(report.diagnostics)),
    }
}

fn errors(diagnostics: Vec<Diagnostic>) -> Vec<Diagnostic> {
    diagnostics
        .into_iter()
        .filter(Diagnostic::is_error)
        .collect()
}

/// The frontmatter with its imports merged (standard input, or a file outside any project
/// root, imports nothing).
fn resolved(document: &Document, path: &Path, root: Option<&Path>) -> serde_json::Value {
    if path.as_os_str() == "-" {
        return document.json().clone();
    }
    FsLoader::for_file(path, root)
        .ok()
        .and_then(|loader| {
            loader
                .id_of(path)
                .ok()
                .map(|id| resolve(document, &id, &loader).value)
        })
        .unwrap_or_else(|| document.json().clone())
}
