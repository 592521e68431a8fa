//! `logicmd check PATH...`: the obligation analysis (unverified outputs, human overrides,
//! unbounded cycles, termination, gate branches) of LOGIC.md files and DRTL topologies, printed
//! like `lint`: rustc-style `file:line:col` for people, one object per file in JSON. A file that
//! does not validate is reported with its errors instead: the analysis needs a sound document.

use std::path::PathBuf;

use super::each_file::{self, Outcome, Tally};
use super::front;

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    operands: crate::discover::Operands,
    #[command(flatten)]
    report: crate::report::ReportArgs,
    /// Directory imports may read from (default: as for `lint`).
    #[arg(long, value_name = "DIR", value_parser = super::existing_dir)]
    root: Option<PathBuf>,
}

pub fn run(args: &Args) -> u8 {
    each_file::run(
        &args.operands,
        &args.report,
        Tally::OUTCOME,
        |path, bytes, found| {
            let root = crate::config::root_for(args.root.as_deref(), found);
            let analysis = front::obligations_of_file(path, bytes, root.as_deref());
            Outcome {
                text: front::text_of(&analysis, bytes),
                valid: analysis.valid,
                diagnostics: crate::config::applied(found, path, analysis.diagnostics),
                ..Outcome::default()
            }
        },
    )
}
