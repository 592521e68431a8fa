//! Quality gates (spec §6): pre- and post-output gates, invariants, self-verification.

use serde::{Deserialize, Serialize};

use super::read::At;
use super::OnFail;

/// `quality_gates` (§6): the checks a document's output must pass. Empty when the document has
/// none.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct QualityGates {
    /// `pre_output` gates, in document order: checked before output is produced.
    pub pre_output: Vec<Gate>,
    /// `post_output` gates, in document order: checked on the output.
    pub post_output: Vec<Gate>,
    /// `invariants`, in document order: conditions that must hold throughout the run.
    pub invariants: Vec<Invariant>,
    /// `self_verification`, when present.
    pub self_verification: Option<SelfVerification>,
}

/// How serious a failed gate is (`severity`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    /// The output is stopped.
    Error,
    /// The failure is reported and the output goes on.
    Warning,
    /// The failure is noted for information only.
    Info,
}

/// One `pre_output` or `post_output` gate. Entries without a `check` are left out.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Gate {
    /// JSON Pointer of the gate's entry.
    pub pointer: String,
    /// The gate's `name`; empty when the document gives none.
    pub name: String,
    /// The `check` expression (spec §9) that must be truthy for the gate to pass.
    pub check: String,
    /// The `message` to report when the gate fails.
    pub message: Option<String>,
    /// Absent means `error`: a gate exists to stop bad output.
    pub severity: Severity,
    /// What to do when the gate fails (`on_fail`), if given.
    pub on_fail: Option<OnFail>,
}

/// One entry of `invariants`. Entries without a `check` are left out.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Invariant {
    /// JSON Pointer of the invariant's entry.
    pub pointer: String,
    /// The invariant's `name`; empty when the document gives none.
    pub name: String,
    /// The `check` expression (spec §9) that must stay truthy.
    pub check: String,
    /// The `message` to report when it is breached.
    pub message: Option<String>,
    /// What to do on a breach (`on_breach`), as written.
    pub on_breach: Option<String>,
}

/// `self_verification` (§6): the model checks and revises its own answer.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SelfVerification {
    /// `enabled`; absent means `true`.
    pub enabled: bool,
    /// `strategy`, as written.
    pub strategy: Option<String>,
    /// `reflection.prompt`: what the model is asked when it reviews its answer.
    pub reflection_prompt: Option<String>,
    /// `reflection.max_revisions`: how many revisions the model may make.
    pub max_revisions: Option<u64>,
    /// `rubric.criteria`, in order; entries without a `name` are left out.
    pub rubric: Vec<Criterion>,
    /// `rubric.minimum_score`: the weighted score the answer must reach.
    pub minimum_score: Option<f64>,
    /// `checklist`: items the model confirms, in order.
    pub checklist: Vec<String>,
}

/// One rubric criterion.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Criterion {
    /// The criterion's `name`.
    pub name: String,
    /// Its `weight` in the rubric's score; absent means 0.
    pub weight: f64,
    /// Its `description`, shown to the model.
    pub description: Option<String>,
}

impl QualityGates {
    pub(super) fn read(at: Option<At<'_>>) -> QualityGates {
        let Some(at) = at else {
            return QualityGates::default();
        };
        QualityGates {
            pre_output: gates(&at, "pre_output"),
            post_output: gates(&at, "post_output"),
            invariants: at
                .items("invariants")
                .into_iter()
                .filter_map(|i| {
                    Some(Invariant {
                        name: i.text("name").unwrap_or_default(),
                        check: i.text("check")?,
                        message: i.text("message"),
                        on_breach: i.text("on_breach"),
                        pointer: i.pointer,
                    })
                })
                .collect(),
            self_verification: at.child("self_verification").map(|s| {
                let rubric = s.child("rubric");
                SelfVerification {
                    enabled: s.flag("enabled").unwrap_or(true),
                    strategy: s.text("strategy"),
                    reflection_prompt: s.child("reflection").and_then(|r| r.text("prompt")),
                    max_revisions: s.child("reflection").and_then(|r| r.count("max_revisions")),
                    rubric: rubric
                        .as_ref()
                        .map(|r| {
                            r.items("criteria")
                                .into_iter()
                                .filter_map(|c| {
                                    Some(Criterion {
                                        name: c.text("name")?,
                                        weight: c.number("weight").unwrap_or(0.0),
                                        description: c.text("description"),
                                    })
                                })
                                .collect()
                        })
                        .unwrap_or_default(),
                    minimum_score: rubric.as_ref().and_then(|r| r.number("minimum_score")),
                    checklist: s.strings("checklist"),
                }
            }),
        }
    }

    /// Whether anything checks output before it leaves: a pre- or post-output gate.
    pub fn checks_output(&self) -> bool {
        !self.pre_output.is_empty() || !self.post_output.is_empty()
    }
}

fn gates(at: &At<'_>, key: &str) -> Vec<Gate> {
    at.items(key)
        .into_iter()
        .filter_map(|g| {
            Some(Gate {
                name: g.text("name").unwrap_or_default(),
                check: g.text("check")?,
                message: g.text("message"),
                severity: match g.text("severity").as_deref() {
                    Some("warning") => Severity::Warning,
                    Some("info") => Severity::Info,
                    _ => Severity::Error,
                },
                on_fail: g.text("on_fail").and_then(|s| OnFail::parse(&s)),
                pointer: g.pointer,
            })
        })
        .collect()
}
