//! DRTL expressions, parsed with the `{{ }}` language's parser and checked like LOGIC.md's. A
//! gate's `condition` is one expression, bare (`input.blocking_failures == 0`, as the spec writes
//! it) or alone inside `{{ }}`; every other string with `{{` is a template (`value`, `input`,
//! prompts, review inputs, messages, edge labels). A syntax error is placed at the offending token
//! inside the YAML scalar; a root that is neither a node nor a variable in scope is a warning.

use std::collections::BTreeSet;

use serde_json::Value;

use super::checks::Checker;
use crate::expr::{parse_expression, Expr, ExprError, ExprLimits, Template};
use crate::json::{node_at, pointer_push};
use crate::lint::rules::{EXPRESSION_SYNTAX, UNKNOWN_EXPRESSION_ROOT};
use crate::schema::{closest, Source};
use crate::source::Span;
use crate::yaml::value_span;

/// What every expression may read besides node ids and `state_defaults` names: the node's
/// `input` (§3.5), the `state` packet (§2.3), and what the gate that routed here `inject`ed
/// (§3.8's `{{injected}}`).
pub const VARIABLES: &[&str] = &["input", "state", "injected"];

/// A parsed expression and the string it was found in.
pub(super) struct Found {
    /// The node whose definition holds the string (`None` for edges and other top-level parts).
    pub reader: Option<String>,
    pub pointer: String,
    pub text: String,
    pub expr: Expr,
}

/// Parses every expression of the topology, reports syntax errors and unknown roots, and returns
/// the expressions that parsed.
pub(super) fn check(checker: &mut Checker<'_>, node_ids: &[&str]) -> Vec<Found> {
    let json = checker.topology.json();
    let mut scope: BTreeSet<&str> = VARIABLES.iter().copied().collect();
    scope.extend(node_ids.iter().copied());
    if let Some(defaults) = json.get("state_defaults").and_then(Value::as_object) {
        scope.extend(defaults.keys().map(String::as_str));
    }
    let mut strings = Vec::new();
    for (key, value) in json.as_object().into_iter().flatten() {
        // Canvas positions and other metadata are not the topology's.
        if key != "metadata" {
            collect(value, &pointer_push("", key), &mut strings);
        }
    }
    let mut found = Vec::new();
    for (pointer, text) in strings {
        let reader = reader_of(json, &pointer);
        let parsed = if pointer.ends_with("/condition") && pointer.starts_with("/nodes/") {
            condition(checker, &pointer, &text)
        } else if text.contains("{{") {
            Template::parse(&text).map(|t| t.expressions().into_iter().cloned().collect())
        } else {
            continue;
        };
        match parsed {
            Ok(expressions) => {
                for expr in expressions {
                    unknown_roots(checker, &scope, &pointer, &text, &expr);
                    found.push(Found {
                        reader: reader.clone(),
                        pointer: pointer.clone(),
                        text: text.clone(),
                        expr,
                    });
                }
            }
            Err(error) => syntax(checker, &pointer, &text, &error),
        }
    }
    found
}

/// A gate condition: one expression, bare or alone inside `{{ }}`.
fn condition(checker: &mut Checker<'_>, pointer: &str, text: &str) -> Result<Vec<Expr>, ExprError> {
    if !text.contains("{{") {
        return parse_expression(text, 0, ExprLimits::DEFAULT).map(|e| vec![e]);
    }
    match Template::parse(text)? {
        Template::Expression(expr) => Ok(vec![expr]),
        template => {
            let span = checker.topology.span_at(pointer);
            checker.report_at(
                EXPRESSION_SYNTAX,
                pointer,
                span,
                "a gate condition is one expression, not text around `{{ }}`: this one is always true"
                    .to_owned(),
                Some(
                    "write the condition as one expression, e.g. `input.blocking_failures == 0`"
                        .to_owned(),
                ),
            );
            Ok(template.expressions().into_iter().cloned().collect())
        }
    }
}

fn syntax(checker: &mut Checker<'_>, pointer: &str, text: &str, error: &ExprError) {
    let span = locate(checker, pointer, text, error.offset, error.len);
    checker.report_at(
        EXPRESSION_SYNTAX,
        pointer,
        span,
        format!("invalid expression: {}", error.message),
        None,
    );
}

fn unknown_roots(
    checker: &mut Checker<'_>,
    scope: &BTreeSet<&str>,
    pointer: &str,
    text: &str,
    expr: &Expr,
) {
    for (root, range) in expr.roots() {
        if scope.contains(root.as_str()) {
            continue;
        }
        let span = locate(checker, pointer, text, range.start, range.len());
        let help = closest(&root, scope.iter().copied()).map_or_else(
            || {
                "in scope: input, state, injected, the node ids and the `state_defaults` names"
                    .to_owned()
            },
            |close| format!("did you mean `{close}`?"),
        );
        checker.report_at(
            UNKNOWN_EXPRESSION_ROOT,
            pointer,
            span,
            format!("`{root}` is neither a node nor a variable DRTL expressions can read"),
            Some(help),
        );
    }
}

/// The file span of bytes `offset..offset + len` of the string `value` at `pointer`.
pub(super) fn locate(
    checker: &Checker<'_>,
    pointer: &str,
    value: &str,
    offset: usize,
    len: usize,
) -> Span {
    let topology = checker.topology;
    match node_at(topology.root(), pointer) {
        Some(node) => value_span(topology.text(), node, value, offset, len),
        None => topology.span_at(pointer),
    }
}

/// Every string in `value`, with its pointer.
fn collect(value: &Value, pointer: &str, out: &mut Vec<(String, String)>) {
    match value {
        Value::String(text) => out.push((pointer.to_owned(), text.clone())),
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                collect(item, &format!("{pointer}/{i}"), out);
            }
        }
        Value::Object(map) => {
            for (key, item) in map {
                collect(item, &pointer_push(pointer, key), out);
            }
        }
        _ => {}
    }
}

/// The id of the node whose definition contains `pointer` (`/nodes/INDEX/...`).
fn reader_of(json: &Value, pointer: &str) -> Option<String> {
    let index = pointer.strip_prefix("/nodes/")?.split('/').next()?;
    json.pointer(&format!("/nodes/{index}/id"))?
        .as_str()
        .map(str::to_owned)
}
