//! A step (spec §4.1): what it needs, how it is prompted, checked, retried and routed.

use serde::Serialize;
use serde_json::Value;

use super::read::At;
use super::OnFail;

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Step {
    pub name: String,
    /// JSON Pointer of the step's entry (`/steps/NAME`).
    pub pointer: String,
    pub description: Option<String>,
    pub needs: Vec<String>,
    pub instructions: Option<String>,
    pub input_schema: Option<Value>,
    pub output_schema: Option<Value>,
    pub confidence: Confidence,
    pub branches: Vec<Branch>,
    pub retry: Option<Retry>,
    pub verification: Option<Verification>,
    /// As written (`"120s"`); [`crate::duration::parse_duration`] reads it.
    pub timeout: Option<String>,
    pub allowed_tools: Vec<String>,
    pub denied_tools: Vec<String>,
    pub execution: Option<String>,
    pub parallel_steps: Vec<String>,
    pub join: Option<String>,
    pub join_timeout: Option<String>,
}

/// Confidence thresholds (§4.1): each in [0, 1] when present.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Confidence {
    pub minimum: Option<f64>,
    pub target: Option<f64>,
    pub escalate_below: Option<f64>,
}

/// One entry of `branches`: `if` → `then`, or the `default`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Branch {
    pub pointer: String,
    pub condition: Option<String>,
    pub default: bool,
    pub then: Option<String>,
}

/// `retry` (§4.1), with its durations as written.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Retry {
    pub max_attempts: Option<u64>,
    pub initial_interval: Option<String>,
    pub backoff_coefficient: Option<f64>,
    pub maximum_interval: Option<String>,
    pub non_retryable_errors: Vec<String>,
}

/// `verification` (§4.1.1).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Verification {
    pub check: String,
    /// Absent means `retry` (§4.1.1), though the canonical schema requires it.
    pub on_fail: OnFail,
    pub on_fail_message: Option<String>,
}

impl Step {
    pub(super) fn read(name: String, at: &At<'_>) -> Step {
        Step {
            pointer: at.pointer.clone(),
            description: at.text("description"),
            needs: at.strings("needs"),
            instructions: at.text("instructions"),
            input_schema: at.get("input_schema").filter(|v| v.is_object()).cloned(),
            output_schema: at.get("output_schema").filter(|v| v.is_object()).cloned(),
            confidence: at
                .child("confidence")
                .map(|c| Confidence {
                    minimum: c.number("minimum"),
                    target: c.number("target"),
                    escalate_below: c.number("escalate_below"),
                })
                .unwrap_or_default(),
            branches: at
                .items("branches")
                .into_iter()
                .map(|b| Branch {
                    condition: b.text("if"),
                    default: b.flag("default").unwrap_or(false),
                    then: b.text("then"),
                    pointer: b.pointer,
                })
                .collect(),
            retry: at.child("retry").map(|r| Retry {
                max_attempts: r.count("max_attempts"),
                initial_interval: r.text("initial_interval"),
                backoff_coefficient: r.number("backoff_coefficient"),
                maximum_interval: r.text("maximum_interval"),
                non_retryable_errors: r.strings("non_retryable_errors"),
            }),
            verification: at.child("verification").and_then(|v| {
                Some(Verification {
                    check: v.text("check")?,
                    on_fail: v
                        .text("on_fail")
                        .and_then(|s| OnFail::parse(&s))
                        .unwrap_or(OnFail::Retry),
                    on_fail_message: v.text("on_fail_message"),
                })
            }),
            timeout: at.text("timeout"),
            allowed_tools: at.strings("allowed_tools"),
            denied_tools: at.strings("denied_tools"),
            execution: at.text("execution"),
            parallel_steps: at.strings("parallel_steps"),
            join: at.text("join"),
            join_timeout: at.text("join_timeout"),
            name,
        }
    }

    /// Whether the step runs other steps in parallel (§4.3).
    pub fn is_parallel(&self) -> bool {
        self.execution.as_deref() == Some("parallel") && !self.parallel_steps.is_empty()
    }

    /// The `then` targets of its branches, in order.
    pub fn branch_targets(&self) -> impl Iterator<Item = &str> {
        self.branches.iter().filter_map(|b| b.then.as_deref())
    }
}
