//! `logicmd validate PATH...`

use std::path::Path;

use logicmd::diagnostic::Diagnostic;
use logicmd::{validate_bytes, Limits};

use crate::discover;
use crate::input::read_bounded;
use crate::output::{self, FileReport, Format};
use crate::{EXIT_INVALID, EXIT_OK, EXIT_USAGE};

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

struct Checked {
    file: String,
    text: String,
    valid: bool,
    diagnostics: Vec<Diagnostic>,
    unreadable: bool,
}

pub fn run(args: &Args) -> u8 {
    let (files, operand_errors) = discover::files(&args.paths);
    for error in &operand_errors {
        eprintln!("error: {}: {}", error.operand, error.message);
    }
    let checked: Vec<Checked> = files.iter().map(|path| check(path)).collect();
    match args.format {
        Format::Json => {
            let reports: Vec<FileReport<'_>> = checked
                .iter()
                .map(|c| FileReport {
                    file: &c.file,
                    valid: c.valid,
                    diagnostics: &c.diagnostics,
                })
                .collect();
            match serde_json::to_string_pretty(&reports) {
                Ok(json) => output::print(&json),
                Err(error) => {
                    eprintln!("error: cannot write JSON: {error}");
                    return EXIT_USAGE;
                }
            }
        }
        Format::Human => print_human(&checked),
    }
    if !operand_errors.is_empty() || checked.iter().any(|c| c.unreadable) {
        EXIT_USAGE
    } else if checked.iter().all(|c| c.valid) {
        EXIT_OK
    } else {
        EXIT_INVALID
    }
}

fn check(path: &Path) -> Checked {
    let file = if path.as_os_str() == "-" {
        "<stdin>".to_owned()
    } else {
        path.display().to_string()
    };
    let limits = Limits::DEFAULT;
    match read_bounded(path, limits.max_bytes) {
        Ok(bytes) => {
            let report = validate_bytes(&bytes, limits);
            let text = report
                .document
                .as_ref()
                .map(|d| d.text().to_owned())
                .unwrap_or_else(|| String::from_utf8_lossy(&bytes).into_owned());
            Checked {
                file,
                text,
                valid: report.valid,
                diagnostics: report.diagnostics,
                unreadable: false,
            }
        }
        Err(error) => Checked {
            diagnostics: vec![Diagnostic::error(
                "io-error",
                format!("cannot read {file}: {error}"),
            )],
            file,
            text: String::new(),
            valid: false,
            unreadable: true,
        },
    }
}

fn print_human(checked: &[Checked]) {
    let mut invalid = 0;
    for c in checked {
        if !c.diagnostics.is_empty() {
            output::print(&output::human(&c.file, &c.text, &c.diagnostics));
        }
        if c.valid {
            output::print(&format!("ok    {}", c.file));
        } else {
            invalid += 1;
            let errors = c.diagnostics.iter().filter(|d| d.is_error()).count();
            output::print(&format!(
                "FAIL  {} ({errors} error{})",
                c.file,
                if errors == 1 { "" } else { "s" }
            ));
        }
    }
    output::print(&format!(
        "\n{} file{} checked: {} valid, {invalid} invalid",
        checked.len(),
        if checked.len() == 1 { "" } else { "s" },
        checked.len() - invalid
    ));
}
