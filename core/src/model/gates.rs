//! Quality gates (spec §6): pre- and post-output gates, invariants, self-verification.

use serde::Serialize;

use super::read::At;
use super::OnFail;

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct QualityGates {
    pub pre_output: Vec<Gate>,
    pub post_output: Vec<Gate>,
    pub invariants: Vec<Invariant>,
    pub self_verification: Option<SelfVerification>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    Error,
    Warning,
    Info,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Gate {
    pub pointer: String,
    pub name: String,
    pub check: String,
    pub message: Option<String>,
    /// Absent means `error`: a gate exists to stop bad output.
    pub severity: Severity,
    pub on_fail: Option<OnFail>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Invariant {
    pub pointer: String,
    pub name: String,
    pub check: String,
    pub message: Option<String>,
    pub on_breach: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SelfVerification {
    pub enabled: bool,
    pub strategy: Option<String>,
    pub reflection_prompt: Option<String>,
    pub max_revisions: Option<u64>,
    pub rubric: Vec<Criterion>,
    pub minimum_score: Option<f64>,
    pub checklist: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Criterion {
    pub name: String,
    pub weight: f64,
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
