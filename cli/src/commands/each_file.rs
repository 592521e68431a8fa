//! The shape `validate` and `lint` share: discover files, check each, print, choose the exit status.

use std::path::Path;

use logicmd::diagnostic::{has_errors, Diagnostic};
use logicmd::Limits;

use crate::config::{self, Finder, Found};
use crate::discover;
use crate::input::{read_document, tell_true_size};
use crate::output::{self, FileReport, Format};
use crate::{EXIT_INVALID, EXIT_OK, EXIT_USAGE};

/// One file's outcome.
pub struct Checked {
    pub file: String,
    pub text: String,
    pub diagnostics: Vec<Diagnostic>,
    /// What the JSON report's `valid` says (the schema's verdict, for the front door's commands).
    pub verdict: bool,
    pub unreadable: bool,
    /// What `lint --fix` changed in the file, and how many problems an unsafe fix would repair.
    pub fixes: Fixes,
}

impl Checked {
    /// The file passes: readable and without errors.
    pub fn passes(&self) -> bool {
        !self.unreadable && !has_errors(&self.diagnostics)
    }
}

/// What `lint --fix` did to one file.
#[derive(Debug, Default)]
pub struct Fixes {
    /// The fixes applied, in order.
    pub applied: Vec<FixRecord>,
    /// Problems left that a fix marked unsafe would repair (`--unsafe-fixes`).
    pub unsafe_fixable: usize,
}

/// One applied fix as reported.
#[derive(Debug, serde::Serialize)]
pub struct FixRecord {
    pub code: String,
    pub title: String,
    pub safety: logicmd::fix::Safety,
}

/// The words the human summary counts files with.
#[derive(Clone, Copy)]
pub struct Tally {
    pub good: &'static str,
    pub bad: &'static str,
    /// Whether fixes were applied (`lint --fix`): the report says what was fixed and what is left.
    pub fixing: bool,
}

impl Tally {
    /// `validate`: every error is a schema (or parse) error, so passing means valid.
    pub const VALIDITY: Tally = Tally {
        good: "valid",
        bad: "invalid",
        fixing: false,
    };
    /// `lint`, `check`: a schema-valid file can still fail on its rules.
    pub const OUTCOME: Tally = Tally {
        good: "passed",
        bad: "failed",
        fixing: false,
    };
}

/// What checking one file gives: the text the diagnostics point into, the diagnostics, and
/// the verdict reported as `valid`.
#[derive(Default)]
pub struct Outcome {
    pub text: String,
    pub diagnostics: Vec<Diagnostic>,
    pub valid: bool,
    pub fixes: Fixes,
}

/// Runs `check(path, bytes)` on every file `operands` name, prints the results in `format`,
/// and returns the exit status: 2 on usage/I/O errors, else 1 when any file has errors, else 0.
pub fn run(
    operands: &crate::discover::Operands,
    format: Format,
    tally: Tally,
    check: impl Fn(&Path, &[u8], Option<&Found>) -> Outcome,
) -> u8 {
    let finder = Finder::default();
    let operands = match config::with_project_excludes(operands, &finder) {
        Ok(operands) => operands,
        Err(shown) => {
            eprintln!("{shown}");
            return EXIT_USAGE;
        }
    };
    let (files, problems) = discover::files(&operands);
    for problem in &problems {
        eprintln!("{}", problem.line());
    }
    let settings = match config::for_each(&files, &finder) {
        Ok(settings) => settings,
        Err(shown) => {
            eprintln!("{shown}");
            return EXIT_USAGE;
        }
    };
    let operand_errors: Vec<&discover::OperandError> =
        problems.iter().filter(|p| p.is_error()).collect();
    let checked: Vec<Checked> = files
        .iter()
        .zip(&settings)
        .map(|(path, found)| {
            let file = display_name(path);
            match read_document(path, Limits::DEFAULT.max_bytes) {
                Ok(read) => {
                    let bytes = read.bytes;
                    let Outcome {
                        text,
                        mut diagnostics,
                        valid,
                        fixes,
                    } = check(path, &bytes, found.as_deref());
                    tell_true_size(path, Limits::DEFAULT.max_bytes, &mut diagnostics);
                    Checked {
                        file,
                        text,
                        diagnostics,
                        verdict: valid,
                        unreadable: false,
                        fixes,
                    }
                }
                Err(error) => Checked {
                    diagnostics: vec![Diagnostic::error(
                        "io-error",
                        format!("cannot read {file}: {error}"),
                    )],
                    file,
                    text: String::new(),
                    verdict: false,
                    unreadable: true,
                    fixes: Fixes::default(),
                },
            }
        })
        .collect();
    match format {
        Format::Json => {
            // An operand that named nothing readable is a record too: a tool reading the JSON
            // sees the failure, not an empty list.
            let unmatched: Vec<(String, Vec<Diagnostic>)> = operand_errors
                .iter()
                .map(|p| {
                    let diagnostic = Diagnostic::error(p.code, p.message.clone());
                    (p.operand.clone(), vec![diagnostic])
                })
                .collect();
            let reports: Vec<FileReport<'_>> = checked
                .iter()
                .map(|c| FileReport {
                    file: &c.file,
                    valid: c.verdict && !c.unreadable,
                    passed: c.passes(),
                    diagnostics: &c.diagnostics,
                    fixed: tally.fixing.then_some(&c.fixes.applied[..]),
                })
                .chain(unmatched.iter().map(|(operand, diagnostics)| FileReport {
                    file: operand,
                    valid: false,
                    passed: false,
                    diagnostics,
                    fixed: None,
                }))
                .collect();
            match serde_json::to_string_pretty(&reports) {
                Ok(json) => output::print(&json),
                Err(error) => {
                    eprintln!("error: cannot write JSON: {error}");
                    return EXIT_USAGE;
                }
            }
        }
        Format::Human => print_human(&checked, tally),
    }
    if !operand_errors.is_empty() || checked.iter().any(|c| c.unreadable) {
        EXIT_USAGE
    } else if checked.iter().all(Checked::passes) {
        EXIT_OK
    } else {
        EXIT_INVALID
    }
}

pub fn display_name(path: &Path) -> String {
    if path.as_os_str() == "-" {
        "<stdin>".to_owned()
    } else {
        path.display().to_string()
    }
}

fn print_human(checked: &[Checked], tally: Tally) {
    let mut failed = 0;
    for c in checked {
        for fix in &c.fixes.applied {
            output::print(&format!("fixed {}: {} [{}]", c.file, fix.title, fix.code));
        }
        if !c.diagnostics.is_empty() {
            output::print(&output::human(&c.file, &c.text, &c.diagnostics));
        }
        let count = |severity: logicmd::Severity| {
            c.diagnostics
                .iter()
                .filter(|d| d.severity == severity)
                .count()
        };
        let (errors, warnings) = (
            count(logicmd::Severity::Error),
            count(logicmd::Severity::Warning),
        );
        let counts = match (errors, warnings) {
            (0, 0) => String::new(),
            (e, 0) => format!(" ({e} error{})", plural(e)),
            (0, w) => format!(" ({w} warning{})", plural(w)),
            (e, w) => format!(" ({e} error{}, {w} warning{})", plural(e), plural(w)),
        };
        if c.passes() {
            output::print(&format!("ok    {}{counts}", c.file));
        } else {
            failed += 1;
            output::print(&format!("FAIL  {}{counts}", c.file));
        }
    }
    output::print(&format!(
        "\n{} file{} checked: {} {}, {failed} {}",
        checked.len(),
        plural(checked.len()),
        checked.len() - failed,
        tally.good,
        tally.bad
    ));
    if tally.fixing {
        output::print(&fix_summary(checked));
    }
}

/// `3 problems fixed in 2 files; 1 left (1 fixable with --unsafe-fixes)`.
fn fix_summary(checked: &[Checked]) -> String {
    let fixed: usize = checked.iter().map(|c| c.fixes.applied.len()).sum();
    let files = checked
        .iter()
        .filter(|c| !c.fixes.applied.is_empty())
        .count();
    let left: usize = checked.iter().map(|c| c.diagnostics.len()).sum();
    let fixable: usize = checked.iter().map(|c| c.fixes.unsafe_fixable).sum();
    let more = if fixable > 0 {
        format!(" ({fixable} fixable with --unsafe-fixes)")
    } else {
        String::new()
    };
    format!(
        "{fixed} problem{} fixed in {files} file{}; {left} left{more}",
        plural(fixed),
        plural(files)
    )
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}
