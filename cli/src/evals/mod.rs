//! `logicmd evals run | compare`: a document (and its variants) over a dataset of cases on a
//! pool of threads, each case driven as `logicmd run` drives one, scored and summed up by core
//! (`logicmd::evals`); results as JSON Lines, a summary table and a self-contained HTML report.

mod cache;
mod compare;
mod html;
mod interrupt;
mod pool;
mod progress;
mod ray;
mod results;
mod run;
mod runner;
mod streak;
mod table;

/// `logicmd evals`.
#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Subcommand)]
enum Command {
    /// Run a document and its variants over a dataset of cases, score each output.
    Run(Box<run::Args>),
    /// Compare two results (`evals run --out`): what regressed, what was fixed. Exit 1 when a
    /// case regressed or is missing from AFTER.
    Compare(compare::Args),
}

pub fn run(args: &Args) -> u8 {
    match &args.command {
        Command::Run(args) => run::run(args),
        Command::Compare(args) => compare::run(args),
    }
}
