//! How `validate`, `lint` and `check` report: the formats (people, JSON, SARIF, GitHub
//! annotations), `--quiet`, `--statistics`, colour, and the exit status with `--max-warnings`
//! and `--exit-zero`.

mod color;
mod github;
mod human;
mod sarif;

use logicmd::diagnostic::{has_errors, Diagnostic};
use logicmd::Severity;

pub use color::{ColorChoice, Paint};

use crate::discover::OperandError;
use crate::output::{self, FileReport};
use crate::{EXIT_INVALID, EXIT_OK, EXIT_USAGE};

/// `--format` of the reporting commands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ReportFormat {
    /// Diagnostics with source snippets, for people.
    Human,
    /// One JSON array with an object per file, for tools.
    Json,
    /// A SARIF 2.1.0 log, for code scanning (GitHub, GitLab, Azure DevOps).
    Sarif,
    /// GitHub Actions workflow commands: an annotation on the line of each diagnostic.
    Github,
}

/// The reporting options every file-checking command takes.
#[derive(clap::Args, Debug, Clone)]
pub struct ReportArgs {
    /// Output format.
    #[arg(long, value_enum, default_value_t = ReportFormat::Human)]
    pub format: ReportFormat,
    /// Print the diagnostics and nothing else (no `ok` lines, no summary).
    #[arg(short, long)]
    pub quiet: bool,
    /// Print how many diagnostics each rule gave instead of the diagnostics (human or JSON).
    #[arg(long)]
    pub statistics: bool,
    /// Fail (exit 1) when there are more than N warnings, even without an error.
    #[arg(long, value_name = "N")]
    pub max_warnings: Option<usize>,
    /// Exit 0 even when a file has errors (usage and I/O problems still exit 2).
    #[arg(long)]
    pub exit_zero: bool,
    /// Colour the human report: `auto` on a terminal (NO_COLOR turns it off, CLICOLOR_FORCE on).
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
}

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

/// A file as the machine formats see it: its name, its text, its diagnostics.
pub struct Reported<'a> {
    pub name: &'a str,
    pub text: &'a str,
    pub diagnostics: &'a [Diagnostic],
}

/// Prints the report of `checked` (and of operands that named nothing) and gives the exit
/// status: 2 on usage or I/O problems; else 0 with `--exit-zero`; else 1 when a file has an
/// error or there are more warnings than `--max-warnings`; else 0.
pub fn emit(
    checked: &[Checked],
    operand_errors: &[&OperandError],
    args: &ReportArgs,
    tally: Tally,
) -> u8 {
    // An operand that named nothing readable is a record too: a tool reading the report sees
    // the failure, not an empty list.
    let unmatched: Vec<(String, Vec<Diagnostic>)> = operand_errors
        .iter()
        .map(|p| {
            (
                p.operand.clone(),
                vec![Diagnostic::error(p.code, p.message.clone())],
            )
        })
        .collect();
    let reported: Vec<Reported<'_>> = checked
        .iter()
        .map(|c| Reported {
            name: &c.file,
            text: &c.text,
            diagnostics: &c.diagnostics,
        })
        .chain(unmatched.iter().map(|(operand, diagnostics)| Reported {
            name: operand,
            text: "",
            diagnostics,
        }))
        .collect();
    match (args.format, args.statistics) {
        (ReportFormat::Human, false) => {
            human::print(checked, tally, args.quiet, args.color.for_stdout());
        }
        (ReportFormat::Human, true) => {
            human::statistics(&reported, args.color.for_stdout());
        }
        (ReportFormat::Json, true) => print_json(&human::counts_json(&reported)),
        (ReportFormat::Json, false) => {
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
            print_json(&serde_json::to_value(&reports).unwrap_or_default());
        }
        (ReportFormat::Sarif, false) => print_json(&sarif::log(&reported)),
        (ReportFormat::Github, false) => print!("{}", github::annotations(&reported)),
        (ReportFormat::Sarif | ReportFormat::Github, true) => {
            eprintln!("error: --statistics goes with --format human or json");
            return EXIT_USAGE;
        }
    }
    status(checked, operand_errors, args)
}

fn print_json(value: &serde_json::Value) {
    output::print(&serde_json::to_string_pretty(value).unwrap_or_default());
}

fn status(checked: &[Checked], operand_errors: &[&OperandError], args: &ReportArgs) -> u8 {
    if !operand_errors.is_empty() || checked.iter().any(|c| c.unreadable) {
        return EXIT_USAGE;
    }
    if args.exit_zero {
        return EXIT_OK;
    }
    if !checked.iter().all(Checked::passes) {
        return EXIT_INVALID;
    }
    let warnings = checked
        .iter()
        .flat_map(|c| &c.diagnostics)
        .filter(|d| d.severity == Severity::Warning)
        .count();
    match args.max_warnings {
        Some(most) if warnings > most => {
            eprintln!(
                "error: {warnings} warning{}, more than --max-warnings {most}",
                if warnings == 1 { "" } else { "s" }
            );
            EXIT_INVALID
        }
        _ => EXIT_OK,
    }
}
