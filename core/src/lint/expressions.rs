//! Rules about `{{ }}` expressions: each one must parse (an error points at the offending token
//! inside the string), read only variables a runtime provides, and name only existing steps.

use super::context::{did_you_mean, pointer_from, LintContext, Token, V};
use super::rules;
use crate::expr::{ExprError, Template};
use crate::json::node_at;
use crate::source::Span;
use crate::yaml::value_span;

/// The variables a LOGIC.md runtime puts in scope for expressions.
pub const KNOWN_ROOTS: &[&str] = &[
    "steps",
    "input",
    "inputs",
    "output",
    "outputs",
    "reasoning",
    "contracts",
    "confidence",
    "attempts",
    "context",
    "state",
    "metadata",
    "global",
    "nodes",
    "error",
    "errors",
    "iteration",
    "workflow",
    "variables",
    "artifacts",
    "quality_gates",
    "fallback",
];

pub fn check(cx: &mut LintContext<'_>) {
    let mut strings = Vec::new();
    collect_strings(cx.own(), &mut Vec::new(), &mut strings);
    for (pointer, text) in strings {
        match Template::parse(&text) {
            Err(error) => syntax(cx, &pointer, &text, &error),
            Ok(template) => {
                for expr in template.expressions() {
                    for (root, range) in expr.roots() {
                        if !KNOWN_ROOTS.contains(&root.as_str()) {
                            let span = locate(cx, &pointer, &text, range.start, range.len());
                            cx.report_at(
                                rules::UNKNOWN_EXPRESSION_ROOT,
                                &pointer,
                                span,
                                format!("`{root}` is not a variable expressions can read"),
                            );
                            if let Some(help) = did_you_mean(&root, KNOWN_ROOTS.iter().copied()) {
                                cx.help(help);
                            }
                        }
                    }
                    for (path, range) in expr.paths() {
                        let [root, step, rest @ ..] = path.as_slice() else {
                            continue;
                        };
                        if root == "steps" && !cx.has_step(step) {
                            let span = locate(cx, &pointer, &text, range.start, range.len());
                            cx.report_at(
                                rules::UNKNOWN_STEP_REFERENCE,
                                &pointer,
                                span,
                                format!("`steps.{step}` names no step"),
                            );
                            if let Some(help) = unknown_step_help(cx, step, rest.first()) {
                                cx.help(help);
                            }
                        }
                    }
                }
            }
        }
    }
}

/// How to read the step meant: an imported step `as.name` is read as `steps['as.name']` (in
/// JavaScript `steps.as.name` reads a member `name` of a step `as`), else the closest name.
fn unknown_step_help(cx: &LintContext<'_>, step: &str, next: Option<&String>) -> Option<String> {
    if let Some(next) = next {
        let imported = format!("{step}.{next}");
        if cx.has_step(&imported) {
            return Some(format!(
                "an imported step is read with its full name in brackets: `steps[{}]`",
                crate::expr::quoted(&imported, '\'')
            ));
        }
    }
    did_you_mean(step, cx.step_names())
}

fn syntax(cx: &mut LintContext<'_>, pointer: &str, text: &str, error: &ExprError) {
    let span = locate(cx, pointer, text, error.offset, error.len);
    cx.report_at(
        rules::EXPRESSION_SYNTAX,
        pointer,
        span,
        format!("invalid expression: {}", error.message),
    );
}

/// Every string containing `{{` with its pointer (keys of open objects excluded). The path is
/// kept as tokens on the way down and written as a pointer only for the strings found: most
/// strings have no expression, and writing a pointer for each cost more than the search.
pub(super) fn collect_strings<'v>(
    value: V<'v>,
    path: &mut Vec<Token<'v>>,
    out: &mut Vec<(String, String)>,
) {
    if let Some(s) = value.as_str() {
        if has_expression(s) {
            out.push((pointer_from(path), s.to_owned()));
        }
    } else if let Some(items) = value.as_array() {
        for (i, item) in items.iter().enumerate() {
            path.push(Token::Index(i));
            collect_strings(item, path, out);
            path.pop();
        }
    } else if let Some(map) = value.as_object() {
        for (key, item) in map {
            path.push(Token::Key(key));
            collect_strings(item, path, out);
            path.pop();
        }
    }
}

/// Whether `text` holds `{{`: one vectorised search for `{` (most strings have none), then a
/// look at the byte after each.
fn has_expression(text: &str) -> bool {
    let bytes = text.as_bytes();
    memchr::memchr_iter(b'{', bytes).any(|at| bytes.get(at + 1) == Some(&b'{'))
}

/// The file span of bytes `offset..offset+len` of the string value at `pointer`.
pub(super) fn locate(
    cx: &LintContext<'_>,
    pointer: &str,
    value: &str,
    offset: usize,
    len: usize,
) -> Span {
    match node_at(cx.document.root(), pointer) {
        Some(node) => value_span(cx.document.text(), node, value, offset, len),
        None => cx.document.span_at(pointer),
    }
}
