//! Semantic checks beyond the schema: references, cycles, expressions, thresholds, durations,
//! decision trees, workflows, and what the canonical schema leaves open but a document cannot
//! work with (ranges, vocabularies, empty names, missing parts). Each rule has a stable code, a
//! severity and a reason ([`rules::ALL`]).

mod ambiguous;
mod branches;
mod conditions;
pub(crate) mod context;
mod empty;
mod expressions;
mod imports;
mod ranges;
mod references;
pub mod rules;
mod shapes;
mod step_reads;
mod steps;
mod strategy_config;
mod structure;
pub mod suppress;
mod trees;
mod vocabulary;
mod workflow;

use serde_json::Value;

use crate::diagnostic::{sort_diagnostics, Diagnostic};
use crate::document::Document;
use crate::imports::{resolve_own, Resolved};
use crate::loader::Loader;

pub use conditions::condition_patterns;
pub(crate) use context::LintContext;
pub use expressions::KNOWN_ROOTS;
pub use rules::LintRule;
pub use structure::FALLBACK_MODES;

/// Lints `document` (id `id` for relative imports), loading other files through `loader`.
/// Schema errors are not repeated here; call [`crate::validate()`] for those.
/// The document's JSON view is read for this call only, not kept in the document (see
/// [`Document::json_for_call`]).
pub fn lint(document: &Document, id: &str, loader: &dyn Loader) -> Vec<Diagnostic> {
    let own = document.json_for_call();
    let resolved = resolve_own(document, &own, id, loader);
    lint_with(document, &own, &resolved, id, loader)
}

/// Lints `document` whose imports are already `resolved` (what [`crate::imports::resolve`]
/// gave for the same `id` and `loader`).
pub fn lint_resolved(
    document: &Document,
    resolved: &Resolved<'_>,
    id: &str,
    loader: &dyn Loader,
) -> Vec<Diagnostic> {
    lint_with(document, document.json(), resolved, id, loader)
}

/// Lints `document` whose own frontmatter is `own` and whose imports are `resolved`.
fn lint_with(
    document: &Document,
    own: &Value,
    resolved: &Resolved<'_>,
    id: &str,
    loader: &dyn Loader,
) -> Vec<Diagnostic> {
    let mut diagnostics = resolved.diagnostics.clone();
    let mut cx = LintContext::new(document, own, &resolved.value);
    run_rules(&mut cx);
    imports::check(&mut cx, &resolved.contributed);
    workflow::check(&mut cx, id, loader);
    diagnostics.extend(cx.finish());
    finish(diagnostics)
}

/// Lints a document on its own, without loading anything (imports count as unresolved).
pub fn lint_value(document: &Document, resolved: &Value) -> Vec<Diagnostic> {
    let mut cx = LintContext::new(document, document.json(), resolved);
    run_rules(&mut cx);
    finish(cx.finish())
}

fn run_rules(cx: &mut LintContext<'_>) {
    references::check(cx);
    expressions::check(cx);
    conditions::check(cx);
    steps::check(cx);
    branches::check(cx);
    trees::check(cx);
    structure::check(cx);
    ranges::check(cx);
    vocabulary::check(cx);
    strategy_config::check(cx);
    empty::check(cx);
    shapes::check(cx);
    ambiguous::check(cx);
    step_reads::check(cx);
}

/// An empty name is one problem: other findings at its place (no step is called `""`, no file
/// `""` can be read) are dropped. Then everything is sorted by place.
fn finish(mut diagnostics: Vec<Diagnostic>) -> Vec<Diagnostic> {
    let empty: Vec<String> = diagnostics
        .iter()
        .filter(|d| empty::is_empty_rule(&d.code))
        .map(|d| d.path.clone())
        .collect();
    diagnostics.retain(|d| empty::is_empty_rule(&d.code) || !empty.contains(&d.path));
    sort_diagnostics(&mut diagnostics);
    diagnostics
}

#[cfg(test)]
mod tests;
