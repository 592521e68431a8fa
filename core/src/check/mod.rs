//! Static obligation analysis: before anything runs, show that a topology cannot publish an
//! unverified claim and always terminates (the deontic and temporal obligations of the formal
//! specification: claims are verified before the next step, and eventually all complete or the
//! run is abandoned). Each finding names its rule and the offending path of node ids.

mod drtl_rules;
mod logic_rules;

use serde::Serialize;

use crate::diagnostic::Severity;

pub use drtl_rules::check_topology;
pub use logic_rules::check_document;

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Finding {
    /// `unverified-output`, `unbounded-cycle`, `no-exit`, `unreachable`, `cannot-terminate`,
    /// `gate-branch-missing`, `unverified-contract`, `escalation-never-fires`, `unknown-fallback`.
    pub rule: &'static str,
    pub severity: Severity,
    pub message: String,
    /// Node ids (or step names) along the offending path.
    pub path: Vec<String>,
}

impl Finding {
    pub(crate) fn error(rule: &'static str, message: String, path: Vec<String>) -> Finding {
        Finding {
            rule,
            severity: Severity::Error,
            message,
            path,
        }
    }

    pub(crate) fn warning(rule: &'static str, message: String, path: Vec<String>) -> Finding {
        Finding {
            rule,
            severity: Severity::Warning,
            message,
            path,
        }
    }
}

/// Whether any finding is an error.
pub fn has_errors(findings: &[Finding]) -> bool {
    findings.iter().any(|f| f.severity == Severity::Error)
}
