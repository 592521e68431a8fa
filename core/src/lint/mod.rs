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
mod view;
mod vocabulary;
mod workflow;

use serde_json::Value;

use crate::diagnostic::{sort_diagnostics, Diagnostic};
use crate::document::Document;
use crate::imports::{resolve_own, Contribution, Resolved};
use crate::loader::Loader;
use context::V;

pub use conditions::condition_patterns;
pub(crate) use context::LintContext;
pub use expressions::KNOWN_ROOTS;
pub use rules::LintRule;
pub use structure::FALLBACK_MODES;

/// Lints `document` (id `id` for relative imports), loading other files through `loader`.
/// Schema errors are not repeated here; call [`crate::validate()`] for those.
/// A document that imports nothing and parsed clean is read from its tree ([`view`]); else
/// from its JSON view, made for this call only when the document keeps none (see
/// [`Document::json_for_call`]).
pub fn lint(document: &Document, id: &str, loader: &dyn Loader) -> Vec<Diagnostic> {
    let root = document.root();
    if document.is_clean() && root.get("imports").is_none() {
        let own = V::Node(root);
        return lint_with(document, own, own, Vec::new(), &[], id, loader);
    }
    let own = document.json_for_call();
    let resolved = resolve_own(document, &own, id, loader);
    lint_json(document, &own, &resolved, id, loader)
}

/// Lints `document` whose imports are already `resolved` (what [`crate::imports::resolve`]
/// gave for the same `id` and `loader`).
pub fn lint_resolved(
    document: &Document,
    resolved: &Resolved<'_>,
    id: &str,
    loader: &dyn Loader,
) -> Vec<Diagnostic> {
    lint_json(document, document.json(), resolved, id, loader)
}

/// Lints `document` whose own frontmatter is the JSON `own` and whose imports are `resolved`.
fn lint_json(
    document: &Document,
    own: &Value,
    resolved: &Resolved<'_>,
    id: &str,
    loader: &dyn Loader,
) -> Vec<Diagnostic> {
    let diagnostics = resolved.diagnostics.clone();
    let (own, merged) = (V::Json(own), V::Json(&resolved.value));
    lint_with(
        document,
        own,
        merged,
        diagnostics,
        &resolved.contributed,
        id,
        loader,
    )
}

/// Lints `document` whose own frontmatter is `own`, with imports merged `resolved`, after the
/// imports' own `diagnostics`.
fn lint_with(
    document: &Document,
    own: V<'_>,
    resolved: V<'_>,
    mut diagnostics: Vec<Diagnostic>,
    contributed: &[Contribution],
    id: &str,
    loader: &dyn Loader,
) -> Vec<Diagnostic> {
    let mut cx = LintContext::new(document, own, resolved);
    run_rules(&mut cx);
    imports::check(&mut cx, contributed);
    workflow::check(&mut cx, id, loader);
    diagnostics.extend(cx.finish());
    finish(diagnostics)
}

/// Lints a document on its own, without loading anything (imports count as unresolved).
pub fn lint_value(document: &Document, resolved: &Value) -> Vec<Diagnostic> {
    let mut cx = LintContext::new(document, V::Json(document.json()), V::Json(resolved));
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
