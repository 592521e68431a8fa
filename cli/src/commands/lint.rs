//! `logicmd lint PATH...`: schema validation plus the semantic rules (references, cycles,
//! expressions, thresholds, durations, decision trees, workflows). Exit 1 only on errors.

use std::path::PathBuf;

use logicmd::analysis::Depth;
use logicmd::lint::rules;

use super::each_file::{self, Outcome, Tally};
use super::front;
use crate::output::{self, Format};

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    operands: crate::discover::Operands,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
    /// Directory imports and `logic_ref`s may read from (default: the nearest directory above
    /// the file with `.git`, `LOGIC.md` or `.logic/`, else the file's directory; for `-`, searched
    /// from the working directory).
    #[arg(long, value_name = "DIR", value_parser = super::existing_dir)]
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
    each_file::run(&args.operands, args.format, Tally::OUTCOME, |path, bytes| {
        let analysis = front::analyze_file(path, bytes, Depth::Lint, args.root.as_deref());
        Outcome {
            text: front::text_of(&analysis, bytes),
            valid: analysis.valid,
            diagnostics: analysis.diagnostics,
        }
    })
}
