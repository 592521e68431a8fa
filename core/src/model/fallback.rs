//! Fallback and escalation (spec §8).

use serde::Serialize;

use super::read::At;

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Fallback {
    pub strategy: Option<String>,
    /// Ordered as written; [`Fallback::chain`] orders by level.
    pub escalation: Vec<Escalation>,
    pub degradation: Vec<Degradation>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Escalation {
    pub pointer: String,
    pub level: i64,
    pub trigger: String,
    /// Free text; the spec names `retry_with_different_strategy`, `request_human_review`, `abort`.
    pub action: String,
    pub new_strategy: Option<String>,
    pub message: Option<String>,
    pub include_reasoning_trace: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Degradation {
    pub pointer: String,
    pub when: String,
    pub fallback_to: String,
    pub message: Option<String>,
    pub include_fields: Vec<String>,
    pub exclude_fields: Vec<String>,
}

impl Fallback {
    pub(super) fn read(at: Option<At<'_>>) -> Fallback {
        let Some(at) = at else {
            return Fallback::default();
        };
        Fallback {
            strategy: at.text("strategy"),
            escalation: at
                .items("escalation")
                .into_iter()
                .filter_map(|e| {
                    Some(Escalation {
                        level: e.get("level").and_then(serde_json::Value::as_i64)?,
                        trigger: e.text("trigger")?,
                        action: e.text("action")?,
                        new_strategy: e.text("new_strategy"),
                        message: e.text("message"),
                        include_reasoning_trace: e.flag("include_reasoning_trace").unwrap_or(false),
                        pointer: e.pointer,
                    })
                })
                .collect(),
            degradation: at
                .items("degradation")
                .into_iter()
                .filter_map(|d| {
                    Some(Degradation {
                        when: d.text("when")?,
                        fallback_to: d.text("fallback_to")?,
                        message: d.text("message"),
                        include_fields: d.strings("include_fields"),
                        exclude_fields: d.strings("exclude_fields"),
                        pointer: d.pointer,
                    })
                })
                .collect(),
        }
    }

    /// The escalation levels from the lowest up (stable for equal levels).
    pub fn chain(&self) -> Vec<&Escalation> {
        let mut chain: Vec<&Escalation> = self.escalation.iter().collect();
        chain.sort_by_key(|e| e.level);
        chain
    }
}
