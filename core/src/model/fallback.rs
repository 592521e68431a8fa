//! Fallback and escalation (spec §8).

use serde::Serialize;

use super::read::At;

/// `fallback` (§8): what happens when a step cannot succeed. Empty when the document has none.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Fallback {
    /// `strategy`, as written.
    pub strategy: Option<String>,
    /// Ordered as written; [`Fallback::chain`] orders by level.
    pub escalation: Vec<Escalation>,
    /// `degradation` rules, in order.
    pub degradation: Vec<Degradation>,
}

/// One `escalation` level; entries without `level`, `trigger` and `action` are left out.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Escalation {
    /// JSON Pointer of the level's entry.
    pub pointer: String,
    /// `level`: lower levels are tried first.
    pub level: i64,
    /// `trigger`: the condition that escalates to this level, as written.
    pub trigger: String,
    /// Free text; the spec names `retry_with_different_strategy`, `request_human_review`, `abort`.
    pub action: String,
    /// `new_strategy`: the reasoning strategy to retry with.
    pub new_strategy: Option<String>,
    /// `message`, shown with the escalation.
    pub message: Option<String>,
    /// `include_reasoning_trace`: hand the reasoning so far to whoever takes over.
    pub include_reasoning_trace: bool,
}

/// One `degradation` rule: a reduced output to give when the full one cannot be had; entries
/// without `when` and `fallback_to` are left out.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Degradation {
    /// JSON Pointer of the rule's entry.
    pub pointer: String,
    /// `when`: the condition under which output degrades, as written.
    pub when: String,
    /// `fallback_to`: what the output degrades to, as written.
    pub fallback_to: String,
    /// `message`, given with the degraded output.
    pub message: Option<String>,
    /// `include_fields`: the output fields kept.
    pub include_fields: Vec<String>,
    /// `exclude_fields`: the output fields dropped.
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
        crate::sorting::sort_by_key(&mut chain, |e| e.level);
        chain
    }
}
