//! The numbers a run ends with, read from its trace events (so a resumed run, which replays its
//! events, sums up the whole run): node runs, retries, tokens, time, obligations.

use std::collections::BTreeMap;

use logicmd::evals::{obligation_word, ObligationWord};
use serde::Serialize;
use serde_json::Value;

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Summary {
    /// Node runs that finished (a node a loop runs twice counts twice), failures included.
    pub nodes_run: u64,
    pub nodes_skipped: u64,
    pub nodes_failed: u64,
    pub model_calls: u64,
    pub retries: u64,
    pub tokens: Tokens,
    /// The run's clock from its start to its last event, in milliseconds.
    pub time_ms: u64,
    pub obligations: Obligations,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Tokens {
    pub input: u64,
    pub output: u64,
}

/// Obligations by their last word: met (`satisfied`), unmet, and discharged (unmet, then a
/// review decided to go on: not met, but not open either).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Obligations {
    pub met: u64,
    pub unmet: u64,
    #[serde(skip_serializing_if = "is_zero")]
    pub discharged: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

impl Summary {
    pub fn of(events: &[Value]) -> Summary {
        let mut summary = Summary::default();
        // The last word on each obligation (node, rule, target) counts.
        let mut obligations: BTreeMap<(String, String, String), ObligationWord> = BTreeMap::new();
        for event in events {
            let text = |key: &str| event.get(key).and_then(Value::as_str).unwrap_or("");
            summary.time_ms = summary
                .time_ms
                .max(event.get("t").and_then(Value::as_u64).unwrap_or(0));
            match text("event") {
                "node_finished" => {
                    summary.nodes_run += 1;
                    summary.nodes_failed += u64::from(text("status") == "failed");
                }
                "node_skipped" => summary.nodes_skipped += 1,
                "model_requested" => summary.model_calls += 1,
                "retried" => summary.retries += 1,
                "model_responded" => {
                    let count = |key: &str| {
                        event
                            .get("usage")
                            .and_then(|usage| usage.get(key))
                            .and_then(Value::as_u64)
                            .unwrap_or(0)
                    };
                    summary.tokens.input += count("input_tokens");
                    summary.tokens.output += count("output_tokens");
                }
                "obligation_updated" => {
                    let key = (
                        text("node").to_owned(),
                        text("rule").to_owned(),
                        text("target").to_owned(),
                    );
                    obligations.insert(key, obligation_word(event));
                }
                _ => {}
            }
        }
        for word in obligations.values() {
            match word {
                ObligationWord::Met => summary.obligations.met += 1,
                ObligationWord::Unmet => summary.obligations.unmet += 1,
                ObligationWord::Discharged => summary.obligations.discharged += 1,
            }
        }
        summary
    }

    /// One line per figure, for people.
    pub fn lines(&self) -> Vec<String> {
        let seconds = self.time_ms as f64 / 1000.0;
        vec![
            format!(
                "nodes: {} run, {} skipped, {} failed",
                self.nodes_run, self.nodes_skipped, self.nodes_failed
            ),
            format!(
                "model calls: {}, retries: {}",
                self.model_calls, self.retries
            ),
            format!(
                "tokens: {} ({} in, {} out)",
                self.tokens.input + self.tokens.output,
                self.tokens.input,
                self.tokens.output
            ),
            format!("time: {seconds:.3}s"),
            format!(
                "obligations: {} met, {} unmet{}",
                self.obligations.met,
                self.obligations.unmet,
                match self.obligations.discharged {
                    0 => String::new(),
                    n => format!(", {n} discharged by a review"),
                }
            ),
        ]
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn sums_a_trace() {
        let events = [
            json!({"seq": 0, "event": "run_started", "t": 0}),
            json!({"seq": 1, "event": "model_requested", "t": 0, "node": "a"}),
            json!({"seq": 2, "event": "model_responded", "t": 5, "node": "a", "usage": {"input_tokens": 10, "output_tokens": 3}}),
            json!({"seq": 3, "event": "retried", "t": 5, "node": "a"}),
            json!({"seq": 4, "event": "model_requested", "t": 1005, "node": "a"}),
            json!({"seq": 5, "event": "model_responded", "t": 1010, "node": "a", "usage": {"input_tokens": 12, "output_tokens": 4}}),
            json!({"seq": 6, "event": "node_finished", "t": 1010, "node": "a", "status": "completed"}),
            json!({"seq": 7, "event": "node_skipped", "t": 1010, "node": "b"}),
            json!({"seq": 8, "event": "obligation_updated", "t": 1010, "node": "v", "rule": "r", "target": "x", "verdict": {"passed": false}}),
            json!({"seq": 9, "event": "obligation_updated", "t": 1010, "node": "v", "rule": "r", "target": "x", "status": "met"}),
            json!({"seq": 10, "event": "obligation_updated", "t": 1010, "node": "v", "rule": "r", "target": "y", "passed": false}),
            json!({"seq": 10, "event": "obligation_updated", "t": 1010, "node": "w", "rule": "std.check_existence", "target": "names", "status": "satisfied"}),
            json!({"seq": 10, "event": "obligation_updated", "t": 1010, "node": "w", "rule": "std.check_links", "target": "urls", "status": "failed"}),
            json!({"seq": 10, "event": "obligation_updated", "t": 1010, "node": "w", "rule": "std.check_links", "target": "urls", "status": "discharged"}),
            json!({"seq": 11, "event": "node_finished", "t": 1020, "node": "v", "status": "failed"}),
            json!({"seq": 12, "event": "run_finished", "t": 1020, "status": "failed"}),
        ];
        let summary = Summary::of(&events);
        assert_eq!(
            summary,
            Summary {
                nodes_run: 2,
                nodes_skipped: 1,
                nodes_failed: 1,
                model_calls: 2,
                retries: 1,
                tokens: Tokens {
                    input: 22,
                    output: 7
                },
                time_ms: 1020,
                obligations: Obligations {
                    met: 2,
                    unmet: 1,
                    discharged: 1
                },
            }
        );
        assert_eq!(
            summary.lines(),
            [
                "nodes: 2 run, 1 skipped, 1 failed",
                "model calls: 2, retries: 1",
                "tokens: 29 (22 in, 7 out)",
                "time: 1.020s",
                "obligations: 2 met, 1 unmet, 1 discharged by a review"
            ]
        );
    }
}
