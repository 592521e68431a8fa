//! The summary table printed when an eval ends: per variant, then per scorer, then what
//! regressed against the first variant.

use logicmd::evals::{compare, summarize, Row};

pub fn summary(rows: &[Row]) -> String {
    let summaries = summarize(rows);
    let width = summaries
        .iter()
        .map(|s| s.variant.len())
        .max()
        .unwrap_or(0)
        .max("variant".len());
    let mut lines = vec![format!(
        "{:width$}  {:>6}  {:>6}  {:>6}  {:>13}  {:>7}  {:>7}  {:>14}",
        "variant", "cases", "passed", "rate", "not completed", "p50 ms", "p95 ms", "tokens in/out"
    )];
    for s in &summaries {
        lines.push(format!(
            "{:width$}  {:>6}  {:>6}  {:>6}  {:>13}  {:>7}  {:>7}  {:>14}",
            s.variant,
            s.cases,
            s.passed,
            rate(s.passed, s.cases),
            s.not_completed,
            s.latency_ms_p50,
            s.latency_ms_p95,
            format!("{}/{}", s.tokens_input, s.tokens_output),
        ));
    }
    for s in &summaries {
        for tally in &s.scorers {
            lines.push(format!(
                "  {} · {}: {}/{} passed",
                s.variant, tally.scorer, tally.passed, tally.scored
            ));
        }
    }
    for s in &summaries {
        let warned: Vec<&str> = rows
            .iter()
            .filter(|r| r.variant == s.variant && !r.warnings.is_empty())
            .map(|r| r.id.as_str())
            .collect();
        if !warned.is_empty() {
            lines.push(format!(
                "  {} · {} went on past a broken contract (contracts.validation warns): {}",
                s.variant,
                counted(warned.len(), "run"),
                listed(&warned)
            ));
        }
    }
    if let Some((first, others)) = summaries.split_first() {
        let baseline: Vec<Row> = rows
            .iter()
            .filter(|r| r.variant == first.variant)
            .cloned()
            .collect();
        for other in others {
            let theirs: Vec<Row> = rows
                .iter()
                .filter(|r| r.variant == other.variant)
                .cloned()
                .collect();
            let comparison = compare(&baseline, &theirs);
            let ids: Vec<&str> = comparison
                .regressions
                .iter()
                .map(|c| c.id.as_str())
                .collect();
            lines.push(format!(
                "{} against {}: {} regressed{}, {} fixed",
                other.variant,
                first.variant,
                ids.len(),
                if ids.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", listed(&ids))
                },
                comparison.fixes.len()
            ));
        }
    }
    lines.join("\n")
}

/// Case ids for one line of the table: the first few, then how many more (the report and
/// `evals compare` list them all).
fn listed(ids: &[&str]) -> String {
    const SHOWN: usize = 10;
    match ids.len().checked_sub(SHOWN) {
        Some(more) if more > 0 => format!("{}, and {more} more", ids[..SHOWN].join(", ")),
        _ => ids.join(", "),
    }
}

fn counted(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

pub fn rate(passed: u64, cases: u64) -> String {
    if cases == 0 {
        return "-".to_owned();
    }
    format!("{:.1}%", passed as f64 * 100.0 / cases as f64)
}
