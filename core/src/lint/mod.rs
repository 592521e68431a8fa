//! Semantic checks beyond the schema: references, cycles, expressions, thresholds, durations,
//! decision trees, workflows. Each rule has a stable code and severity ([`rules::ALL`]).

mod context;
mod expressions;
mod imports;
mod references;
pub mod rules;
mod steps;
mod structure;
mod trees;
mod workflow;

use serde_json::Value;

use crate::diagnostic::{sort_diagnostics, Diagnostic};
use crate::document::Document;
use crate::imports::{resolve, Resolved};
use crate::loader::Loader;

pub use context::LintContext;
pub use rules::Rule;
pub use structure::FALLBACK_MODES;

/// Lints `document` (id `id` for relative imports), loading other files through `loader`.
/// Schema errors are not repeated here; call [`crate::validate`] for those.
pub fn lint(document: &Document, id: &str, loader: &dyn Loader) -> Vec<Diagnostic> {
    lint_resolved(document, &resolve(document, id, loader), id, loader)
}

/// Lints `document` whose imports are already `resolved` (what [`crate::imports::resolve`]
/// gave for the same `id` and `loader`).
pub fn lint_resolved(
    document: &Document,
    resolved: &Resolved,
    id: &str,
    loader: &dyn Loader,
) -> Vec<Diagnostic> {
    let mut diagnostics = resolved.diagnostics.clone();
    let mut cx = LintContext::new(document, &resolved.value);
    run_rules(&mut cx);
    imports::check(&mut cx, &resolved.contributed);
    workflow::check(&mut cx, id, loader);
    diagnostics.extend(cx.finish());
    sort_diagnostics(&mut diagnostics);
    diagnostics
}

/// Lints a document on its own, without loading anything (imports count as unresolved).
pub fn lint_value(document: &Document, resolved: &Value) -> Vec<Diagnostic> {
    let mut cx = LintContext::new(document, resolved);
    run_rules(&mut cx);
    let mut diagnostics = cx.finish();
    sort_diagnostics(&mut diagnostics);
    diagnostics
}

fn run_rules(cx: &mut LintContext<'_>) {
    references::check(cx);
    expressions::check(cx);
    steps::check(cx);
    trees::check(cx);
    structure::check(cx);
}

#[cfg(test)]
mod tests;
