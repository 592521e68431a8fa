//! `logicmd lint PATH...`: schema validation plus the semantic rules (references, cycles,
//! expressions, thresholds, durations, decision trees, workflows). Exit 1 only on errors.

use std::path::PathBuf;

use logicmd::analysis::Depth;
use logicmd::lint::rules;

use super::each_file::{self, Outcome, Tally};
use super::{front, lint_fix};
use crate::config;
use crate::output::{self, Format};
use crate::report::ReportFormat;

#[derive(clap::Args, Clone)]
pub struct Args {
    #[command(flatten)]
    operands: crate::discover::Operands,
    #[command(flatten)]
    report: crate::report::ReportArgs,
    /// Directory imports and `logic_ref`s may read from (default: the nearest directory above
    /// the file with `.git`, `LOGIC.md` or `.logic/`, else the file's directory; for `-`, searched
    /// from the working directory).
    #[arg(long, value_name = "DIR", value_parser = super::existing_dir)]
    root: Option<PathBuf>,
    /// List every rule — LOGIC.md's and DRTL's (lint) and the obligation rules (check) — with its
    /// severity, what it finds, why, and the fixture in the repository that triggers it; then exit.
    #[arg(long)]
    rules: bool,
    /// Apply the safe fixes (those the language server offers as quick fixes and marks safe),
    /// write the files back with comments and layout kept, then report what is left.
    #[arg(long, conflicts_with = "rules")]
    fix: bool,
    /// Also apply the unsafe fixes (guesses and choices: a did-you-mean rename, a step added to
    /// `needs`) with --fix or --diff; without them, the report counts the problems they repair.
    #[arg(long)]
    unsafe_fixes: bool,
    /// Print a unified diff of what --fix would change, and change nothing (exit 1 if anything
    /// would change).
    #[arg(long, conflicts_with_all = ["rules", "fix", "format", "statistics"])]
    diff: bool,
}

pub fn run(args: &Args) -> u8 {
    if args.rules {
        return match args.report.format {
            ReportFormat::Human => list_rules(Format::Human),
            ReportFormat::Json => list_rules(Format::Json),
            _ => {
                eprintln!("error: --rules prints --format human or json");
                crate::EXIT_USAGE
            }
        };
    }
    if args.unsafe_fixes && !args.fix && !args.diff {
        eprintln!("error: --unsafe-fixes goes with --fix or --diff");
        return crate::EXIT_USAGE;
    }
    let safety = lint_fix::safety(args.unsafe_fixes);
    if args.diff {
        let paint = args.report.color.for_stdout();
        return lint_fix::diff(&args.operands, args.root.as_deref(), safety, paint);
    }
    if args.fix {
        if args.operands.paths.iter().any(|p| p == "-") {
            eprintln!("error: --fix writes files back; for standard input use --diff");
            return crate::EXIT_USAGE;
        }
        let tally = Tally {
            fixing: true,
            ..Tally::OUTCOME
        };
        return each_file::run(&args.operands, &args.report, tally, |path, _, found| {
            lint_fix::fix_and_lint(path, args.root.as_deref(), found, safety)
        });
    }
    each_file::run(
        &args.operands,
        &args.report,
        Tally::OUTCOME,
        |path, bytes, found| {
            let root = config::root_for(args.root.as_deref(), found);
            let analysis = front::analyze_file(path, bytes, Depth::Lint, root.as_deref());
            Outcome {
                text: front::text_of(&analysis, bytes),
                valid: analysis.valid,
                diagnostics: config::applied(found, path, analysis.diagnostics),
                ..Outcome::default()
            }
        },
    )
}

/// `lint --rules`: every family's rules, in the format asked for.
fn list_rules(format: Format) -> u8 {
    if format == Format::Json {
        let listed: Vec<serde_json::Value> = rules::FAMILIES
            .iter()
            .flat_map(|family| {
                family.rules.iter().map(move |rule| {
                    serde_json::json!({
                        "family": family.name,
                        "code": rule.code,
                        "severity": rule.severity.as_str(),
                        "summary": rule.summary,
                        "reason": rule.reason,
                        "fixture": family.fixture(rule),
                    })
                })
            })
            .collect();
        output::print(&serde_json::to_string_pretty(&listed).unwrap_or_default());
        return crate::EXIT_OK;
    }
    let width = rules::FAMILIES
        .iter()
        .flat_map(|f| f.rules)
        .map(|r| r.code.len())
        .max()
        .unwrap_or(0);
    for (index, family) in rules::FAMILIES.iter().enumerate() {
        if index > 0 {
            output::print("");
        }
        output::print(&format!("{} ({} rules)", family.title, family.rules.len()));
        for rule in family.rules {
            output::print(&format!(
                "{:<width$} {:<8} {}\n{:width$} why: {}\n{:width$} fixture: {}",
                rule.code,
                rule.severity.as_str(),
                rule.summary,
                "",
                rule.reason,
                "",
                family.fixture(rule)
            ));
        }
    }
    crate::EXIT_OK
}

impl Args {
    /// The same options on other files (what `watch` re-checks).
    pub fn on(&self, paths: Vec<String>) -> Args {
        let mut args = self.clone();
        args.operands.paths = paths;
        args
    }

    /// The files and exclusions it was given.
    pub fn operands(&self) -> &crate::discover::Operands {
        &self.operands
    }

    /// `--root`.
    pub fn root(&self) -> Option<&std::path::Path> {
        self.root.as_deref()
    }

    /// `--rules` or `--diff`: a report that is not a check of the files.
    pub fn is_not_a_check(&self) -> bool {
        self.rules || self.diff
    }
}
