//! `logicmd evals compare BEFORE AFTER`: what regressed from one result to the other. Exit 1
//! when something regressed or a case of BEFORE is missing from AFTER (nothing says it still
//! passes); results scored by other scorers, or holding a case twice, are not compared.

use std::collections::BTreeSet;
use std::path::PathBuf;

use logicmd::evals::{compare, Change, Row};

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
    if let Err(error) = comparable((&args.before, &before), (&args.after, &after)) {
        eprintln!("error: {error}");
        return EXIT_USAGE;
    }
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
        for (path, ids) in [
            (&args.before, &comparison.only_before),
            (&args.after, &comparison.only_after),
        ] {
            lines.extend(
                ids.iter()
                    .map(|id| format!("  only in {}: {id}", path.display())),
            );
        }
        output::print(&lines.join("\n"));
    }
    if comparison.regressions.is_empty() && comparison.only_before.is_empty() {
        EXIT_OK
    } else {
        EXIT_INVALID
    }
}

/// Two results compare when each holds a case (by variant) once and both were scored alike.
fn comparable(before: (&PathBuf, &[Row]), after: (&PathBuf, &[Row])) -> Result<(), String> {
    for (path, rows) in [before, after] {
        let mut seen = BTreeSet::new();
        if let Some(row) = rows.iter().find(|r| !seen.insert((&r.id, &r.variant))) {
            return Err(format!(
                "{} holds case `{}` of variant `{}` twice",
                path.display(),
                row.id,
                row.variant
            ));
        }
    }
    let scorers = |rows: &[Row]| -> Option<Vec<String>> {
        rows.first().map(|r| r.scores.keys().cloned().collect())
    };
    match (scorers(before.1), scorers(after.1)) {
        (Some(a), Some(b)) if a != b => Err(format!(
            "{} was scored by [{}] and {} by [{}]: compare results scored alike",
            before.0.display(),
            a.join(", "),
            after.0.display(),
            b.join(", ")
        )),
        _ => Ok(()),
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
