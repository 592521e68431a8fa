//! A step (spec §4.1): what it needs, how it is prompted, checked, retried and routed.

use serde::Serialize;
use serde_json::Value;

use super::read::At;
use super::OnFail;

/// One entry of `steps` (§4.1), read leniently: fields with the wrong type read as absent (the
/// schema reports them).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Step {
    /// The step's key in `steps`.
    pub name: String,
    /// JSON Pointer of the step's entry (`/steps/NAME`).
    pub pointer: String,
    /// `description`: what the step does, for people and the prompt.
    pub description: Option<String>,
    /// `needs`: the steps that must finish first, as written.
    pub needs: Vec<String>,
    /// `instructions`: what the model is told to do.
    pub instructions: Option<String>,
    /// `input_schema`, when it is an object (a JSON Schema).
    pub input_schema: Option<Value>,
    /// `output_schema`, when it is an object (a JSON Schema the answer must satisfy).
    pub output_schema: Option<Value>,
    /// `confidence` thresholds; all absent when the step has none.
    pub confidence: Confidence,
    /// `branches`, in order.
    pub branches: Vec<Branch>,
    /// `retry`, when present.
    pub retry: Option<Retry>,
    /// `verification`, when present with a `check`.
    pub verification: Option<Verification>,
    /// As written (`"120s"`); [`crate::duration::parse_duration`] reads it.
    pub timeout: Option<String>,
    /// `allowed_tools`: the tools the step may use.
    pub allowed_tools: Vec<String>,
    /// `denied_tools`: the tools the step must not use.
    pub denied_tools: Vec<String>,
    /// `execution` (`sequential` or `parallel`), as written.
    pub execution: Option<String>,
    /// `parallel_steps`: the steps a parallel step runs together.
    pub parallel_steps: Vec<String>,
    /// `join` (how parallel results are waited for: `all`, `any`, ...), as written.
    pub join: Option<String>,
    /// `join_timeout`, as written (`"30s"`).
    pub join_timeout: Option<String>,
}

/// Confidence thresholds (§4.1): each in [0, 1] when present.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Confidence {
    /// `minimum`: below it the answer has failed.
    pub minimum: Option<f64>,
    /// `target`: the confidence the step aims for.
    pub target: Option<f64>,
    /// `escalate_below`: below it the step escalates.
    pub escalate_below: Option<f64>,
}

/// One entry of `branches`: `if` → `then`, or the `default`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Branch {
    /// JSON Pointer of the branch's entry.
    pub pointer: String,
    /// `if`: the expression (spec §9) that selects this branch.
    pub condition: Option<String>,
    /// `default: true`: taken when no `if` holds.
    pub default: bool,
    /// `then`: the step to go to.
    pub then: Option<String>,
}

/// `retry` (§4.1), with its durations as written.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Retry {
    /// `max_attempts`: calls allowed in total, the first one included.
    pub max_attempts: Option<u64>,
    /// `initial_interval`, as written (`"1s"`): the wait before the first retry.
    pub initial_interval: Option<String>,
    /// `backoff_coefficient`: each wait is the previous one times this.
    pub backoff_coefficient: Option<f64>,
    /// `maximum_interval`, as written: the longest wait between attempts.
    pub maximum_interval: Option<String>,
    /// `non_retryable_errors`: error classes that are never retried (see
    /// [`crate::run::ModelFailure`]).
    pub non_retryable_errors: Vec<String>,
}

/// `verification` (§4.1.1).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Verification {
    /// `check`: the expression (spec §9) the step's output must satisfy.
    pub check: String,
    /// Absent means `retry` (§4.1.1), though the canonical schema requires it.
    pub on_fail: OnFail,
    /// `on_fail_message`: what to report when the check fails.
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
