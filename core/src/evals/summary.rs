//! The summary of a result: per variant, how many cases passed, by scorer, and the figures the
//! rows measured.

use serde::Serialize;

use super::row::Row;

/// One variant's figures.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct VariantSummary {
    /// The variant's name.
    pub variant: String,
    /// Cases run.
    pub cases: u64,
    /// Cases (or outputs) that passed.
    pub passed: u64,
    /// Runs that did not complete (refused, failed, paused, invalid input).
    pub not_completed: u64,
    /// Each scorer's tally, in the order first seen.
    pub scorers: Vec<ScorerTally>,
    /// Median wall time of a run.
    pub latency_ms_p50: u64,
    /// 95th percentile wall time of a run.
    pub latency_ms_p95: u64,
    /// Input tokens, summed.
    pub tokens_input: u64,
    /// Output tokens, summed.
    pub tokens_output: u64,
    /// Reported costs summed; null when no row reported one.
    pub cost: Option<f64>,
}

/// How many outputs one scorer passed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ScorerTally {
    /// The scorer's name.
    pub scorer: String,
    /// Cases (or outputs) that passed.
    pub passed: u64,
    /// Outputs it scored.
    pub scored: u64,
}

/// Per variant, in the order variants first appear in `rows`.
pub fn summarize(rows: &[Row]) -> Vec<VariantSummary> {
    let mut order: Vec<&str> = Vec::new();
    for row in rows {
        if !order.contains(&row.variant.as_str()) {
            order.push(&row.variant);
        }
    }
    order
        .into_iter()
        .map(|variant| {
            of_variant(
                variant,
                rows.iter().filter(|r| r.variant == variant).collect(),
            )
        })
        .collect()
}

fn of_variant(variant: &str, rows: Vec<&Row>) -> VariantSummary {
    let mut scorers: Vec<ScorerTally> = Vec::new();
    for row in &rows {
        for (name, score) in &row.scores {
            let index = match scorers.iter().position(|t| &t.scorer == name) {
                Some(index) => index,
                None => {
                    scorers.push(ScorerTally {
                        scorer: name.clone(),
                        passed: 0,
                        scored: 0,
                    });
                    scorers.len() - 1
                }
            };
            scorers[index].scored += 1;
            scorers[index].passed +=
                u64::from(score.get("pass").and_then(serde_json::Value::as_bool) == Some(true));
        }
    }
    let mut latencies: Vec<u64> = rows.iter().map(|r| r.latency_ms).collect();
    latencies.sort_unstable();
    let costs: Vec<f64> = rows.iter().filter_map(|r| r.cost).collect();
    VariantSummary {
        variant: variant.to_owned(),
        cases: rows.len() as u64,
        passed: rows.iter().filter(|r| r.pass).count() as u64,
        not_completed: rows.iter().filter(|r| r.status != "completed").count() as u64,
        scorers,
        latency_ms_p50: percentile(&latencies, 50),
        latency_ms_p95: percentile(&latencies, 95),
        tokens_input: rows.iter().map(|r| r.tokens.input).sum(),
        tokens_output: rows.iter().map(|r| r.tokens.output).sum(),
        cost: (!costs.is_empty()).then(|| costs.iter().sum()),
    }
}

/// The nearest-rank percentile of sorted values (0 for none).
fn percentile(sorted: &[u64], p: usize) -> u64 {
    if sorted.is_empty() {
        return 0;
    }
    let rank = (p * sorted.len()).div_ceil(100).max(1);
    sorted[rank - 1]
}
