//! `logicmd evals compare BEFORE AFTER`: what regressed from one result to the other. Exit 1
//! when something regressed.

use std::path::PathBuf;

use logicmd::evals::{compare, Change};

use super::results;
use crate::{output, EXIT_INVALID, EXIT_OK, EXIT_USAGE};

#[derive(clap::Args)]
pub struct Args {
    /// The earlier result (`evals run --out`).
    #[arg(value_name = "BEFORE")]
    before: PathBuf,
    /// The later result.
    #[arg(value_name = "AFTER")]
    after: PathBuf,
    /// Print the comparison as one JSON object.
    #[arg(long)]
    json: bool,
}

pub fn run(args: &Args) -> u8 {
    let read = |path: &PathBuf| results::read(path, false).map(|(rows, _)| rows);
    let (before, after) = match (read(&args.before), read(&args.after)) {
        (Ok(before), Ok(after)) => (before, after),
        (Err(error), _) | (_, Err(error)) => {
            eprintln!("error: {error}");
            return EXIT_USAGE;
        }
    };
    let comparison = compare(&before, &after);
    if args.json {
        output::print(&serde_json::to_string_pretty(&comparison).unwrap_or_default());
    } else {
        let mut lines = vec![format!(
            "{} regressed, {} fixed, {} still passing, {} still failing",
            comparison.regressions.len(),
            comparison.fixes.len(),
            comparison.still_passing,
            comparison.still_failing
        )];
        lines.extend(
            comparison
                .regressions
                .iter()
                .map(|c| format!("  regressed: {}", described(c))),
        );
        lines.extend(
            comparison
                .fixes
                .iter()
                .map(|c| format!("  fixed: {}", described(c))),
        );
        if !comparison.only_before.is_empty() {
            lines.push(format!(
                "  only in {}: {}",
                args.before.display(),
                comparison.only_before.join(", ")
            ));
        }
        if !comparison.only_after.is_empty() {
            lines.push(format!(
                "  only in {}: {}",
                args.after.display(),
                comparison.only_after.join(", ")
            ));
        }
        output::print(&lines.join("\n"));
    }
    if comparison.regressions.is_empty() {
        EXIT_OK
    } else {
        EXIT_INVALID
    }
}

fn described(change: &Change) -> String {
    let mut text = change.id.clone();
    if let Some((from, to)) = &change.status {
        text.push_str(&format!(" ({from} → {to})"));
    }
    if !change.scorers.is_empty() {
        text.push_str(&format!(" [{}]", change.scorers.join(", ")));
    }
    text
}
