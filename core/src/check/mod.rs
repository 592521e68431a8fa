//! Static obligation analysis: before anything runs, show that a topology cannot publish an
//! unverified claim and always terminates (the deontic and temporal obligations of the formal
//! specification: claims are verified before the next step, and eventually all complete or the
//! run is abandoned). Each finding names its rule, the offending path of node ids, and the place
//! in the file it is about, so it can be reported as a [`Diagnostic`].

mod drtl_rules;
mod logic_rules;

use serde::Serialize;
use serde_json::Value;

use crate::diagnostic::{sort_diagnostics, Diagnostic, Severity};
use crate::document::Document;
use crate::drtl::Topology;
use crate::json::entry_at;
use crate::schema::Source;

pub(crate) use drtl_rules::branch_kind;
pub use drtl_rules::check_topology;
pub(crate) use logic_rules::check_document;

/// One obligation that a document or topology does not meet, found before anything runs.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Finding {
    /// `unverified-output`, `human-override`, `unbounded-cycle`, `no-exit`, `unreachable`,
    /// `cannot-terminate`, `gate-branch-missing`, `unverified-contract`,
    /// `escalation-never-fires`, `unknown-fallback`.
    pub rule: &'static str,
    /// How serious it is.
    pub severity: Severity,
    /// What is wrong, for a person to read.
    pub message: String,
    /// Node ids (or step names) along the offending path.
    pub path: Vec<String>,
    /// JSON Pointer of the place in the file the finding is about.
    pub pointer: String,
    /// How to fix it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub help: Option<String>,
}

impl Finding {
    pub(crate) fn new(
        rule: crate::lint::rules::LintRule,
        message: String,
        path: Vec<String>,
        pointer: String,
    ) -> Finding {
        Finding {
            rule: rule.code,
            severity: rule.severity,
            message,
            path,
            pointer,
            help: None,
        }
    }

    pub(crate) fn help(mut self, help: &str) -> Finding {
        self.help = Some(help.to_owned());
        self
    }

    /// The finding as a diagnostic placed at its pointer in `source`: at the key of a named
    /// collection (a step), else at the value (the nearest existing ancestor when the pointer
    /// names something only an import defines).
    pub fn to_diagnostic(&self, source: &dyn Source) -> Diagnostic {
        let mut diagnostic = Diagnostic::new(self.severity, self.rule, self.message.clone())
            .with_path(self.pointer.clone());
        diagnostic.help = self.help.clone();
        let span = match entry_at(source.root(), &self.pointer) {
            Some(entry) if entry.value.style.is_none() => entry.key_span(),
            _ => source.span_at(&self.pointer),
        };
        source.locate(diagnostic, span)
    }
}

/// Whether any finding is an error.
pub fn has_errors(findings: &[Finding]) -> bool {
    findings.iter().any(|f| f.severity == Severity::Error)
}

/// The obligation analysis of a topology, as diagnostics in its file, sorted by place.
pub fn topology_diagnostics(topology: &Topology) -> Vec<Diagnostic> {
    place_findings(&check_topology(topology), topology)
}

/// The obligation analysis of a LOGIC.md document whose frontmatter, imports merged, is
/// `resolved`, as diagnostics in the document's file, sorted by place.
pub fn document_diagnostics(document: &Document, resolved: &Value) -> Vec<Diagnostic> {
    place_findings(&check_document(resolved), document)
}

/// Findings as diagnostics placed in `source`'s file, sorted by place.
pub fn place_findings(findings: &[Finding], source: &dyn Source) -> Vec<Diagnostic> {
    let mut diagnostics: Vec<Diagnostic> =
        findings.iter().map(|f| f.to_diagnostic(source)).collect();
    sort_diagnostics(&mut diagnostics);
    diagnostics
}
