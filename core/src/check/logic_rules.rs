//! Obligation rules on LOGIC.md documents.

use serde_json::Value;

use super::Finding;
use crate::diagnostic::Severity;
use crate::expr::{BinaryOp, Expr, ExprKind, LogicalOp, Template};
use crate::json::pointer_push;

/// Runs the LOGIC.md obligation rules on a (resolved) frontmatter.
pub fn check_document(spec: &Value) -> Vec<Finding> {
    let mut findings = Vec::new();
    let steps = spec
        .get("steps")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    let document_outputs = spec
        .pointer("/contracts/outputs")
        .and_then(Value::as_array)
        .is_some_and(|o| !o.is_empty());
    let gated = spec
        .pointer("/quality_gates/pre_output")
        .and_then(Value::as_array)
        .is_some_and(|g| !g.is_empty());
    for (name, step) in &steps {
        let contract = step.get("output_schema").is_some() || document_outputs;
        if contract && step.get("verification").is_none() && !gated {
            findings.push(Finding::new(
                "unverified-contract",
                Severity::Warning,
                format!("step `{name}` promises structured output but nothing checks it: add a `verification` or a `quality_gates.pre_output` gate"),
                vec![name.clone()],
                pointer_push("/steps", name),
            ));
        }
    }
    for (i, level) in spec
        .pointer("/fallback/escalation")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
    {
        let Some(trigger) = level.get("trigger").and_then(Value::as_str) else {
            continue;
        };
        let Ok(template) = Template::parse(trigger) else {
            continue;
        };
        if template.expressions().iter().any(|e| never_true(e)) {
            findings.push(Finding::new(
                "escalation-never-fires",
                Severity::Error,
                format!("escalation level {} can never fire: `{trigger}` is false for every confidence in [0, 1]", level.get("level").map_or_else(|| (i + 1).to_string(), |l| l.to_string())),
                vec![format!("fallback.escalation[{i}]")],
                format!("/fallback/escalation/{i}/trigger"),
            ));
        }
    }
    for (i, rule) in spec
        .pointer("/fallback/degradation")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
    {
        let Some(target) = rule.get("fallback_to").and_then(Value::as_str) else {
            continue;
        };
        if !crate::lint::FALLBACK_MODES.contains(&target) && !steps.contains_key(target) {
            findings.push(Finding::new(
                "unknown-fallback",
                Severity::Error,
                format!("degradation `{}` falls back to `{target}`, which is neither a fallback mode nor a step", rule.get("when").and_then(Value::as_str).unwrap_or("?")),
                vec![format!("fallback.degradation[{i}]"), target.to_owned()],
                format!("/fallback/degradation/{i}/fallback_to"),
            ));
        }
    }
    findings
}

/// Whether `expr` is false for every confidence in [0, 1]: a comparison of `confidence`
/// (or `*.confidence`) with a number outside what that range allows, possibly inside `&&`.
fn never_true(expr: &Expr) -> bool {
    match &expr.kind {
        ExprKind::Logical(LogicalOp::And, left, right) => never_true(left) || never_true(right),
        ExprKind::Logical(LogicalOp::Or, left, right) => never_true(left) && never_true(right),
        ExprKind::Binary(op, left, right) => {
            let is_confidence = |e: &Expr| match &e.kind {
                ExprKind::Identifier(name) | ExprKind::Member(_, name) => name == "confidence",
                _ => false,
            };
            let number = |e: &Expr| match e.kind {
                ExprKind::Number(n) => Some(n),
                _ => None,
            };
            let (op, limit) = match (
                is_confidence(left),
                number(right),
                number(left),
                is_confidence(right),
            ) {
                (true, Some(n), _, _) => (*op, n),
                (_, _, Some(n), true) => (mirror(*op), n),
                _ => return false,
            };
            match op {
                BinaryOp::Less => limit <= 0.0,
                BinaryOp::LessEqual => limit < 0.0,
                BinaryOp::Greater => limit >= 1.0,
                BinaryOp::GreaterEqual => limit > 1.0,
                BinaryOp::LooseEqual | BinaryOp::StrictEqual => !(0.0..=1.0).contains(&limit),
                _ => false,
            }
        }
        _ => false,
    }
}

/// `n < confidence` is `confidence > n`.
fn mirror(op: BinaryOp) -> BinaryOp {
    match op {
        BinaryOp::Less => BinaryOp::Greater,
        BinaryOp::LessEqual => BinaryOp::GreaterEqual,
        BinaryOp::Greater => BinaryOp::Less,
        BinaryOp::GreaterEqual => BinaryOp::LessEqual,
        other => other,
    }
}
