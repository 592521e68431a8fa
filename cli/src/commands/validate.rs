//! `logicmd validate PATH...`: parse and check against the LOGIC.md v1.0 schema.

use logicmd::analysis::Depth;

use super::each_file::{self, Outcome, Tally};
use super::front;

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    operands: crate::discover::Operands,
    #[command(flatten)]
    report: crate::report::ReportArgs,
}

pub fn run(args: &Args) -> u8 {
    each_file::run(
        &args.operands,
        &args.report,
        Tally::VALIDITY,
        |path, bytes, _settings| {
            let analysis = front::analyze_file(path, bytes, Depth::Validate, None);
            Outcome {
                text: front::text_of(&analysis, bytes),
                valid: analysis.valid,
                diagnostics: analysis.diagnostics,
                ..Outcome::default()
            }
        },
    )
}
