//! Obligation rules on LOGIC.md documents.

use serde_json::Value;

use super::Finding;
use crate::expr::{BinaryOp, Expr, ExprKind, LogicalOp, Template};
use crate::flow::{Flow, UnitKind};
use crate::json::pointer_push;
use crate::lint::rules;
use crate::model::Spec;

/// Runs the LOGIC.md obligation rules on a (resolved) frontmatter.
pub fn check_document(spec: &Value) -> Vec<Finding> {
    let mut findings = unverified_contracts(&Spec::read(spec));
    let steps = spec
        .get("steps")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
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
                    rules::ESCALATION_NEVER_FIRES,
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
                    rules::UNKNOWN_FALLBACK,
                format!("degradation `{}` falls back to `{target}`, which is neither a fallback mode nor a step", rule.get("when").and_then(Value::as_str).unwrap_or("?")),
                vec![format!("fallback.degradation[{i}]"), target.to_owned()],
                format!("/fallback/degradation/{i}/fallback_to"),
            ));
        }
    }
    findings
}

/// Steps that promise structured output that nothing checks. A step's own `output_schema` is
/// its promise, checked by its `verification`; the document's `contracts.outputs` is the promise
/// of the steps that produce the output (as the compiler says), which the document's pre- and
/// post-output gates check too.
fn unverified_contracts(spec: &Spec) -> Vec<Finding> {
    let finals = Flow::of_steps(spec)
        .map(|flow| flow.final_names(UnitKind::Step))
        .unwrap_or_default();
    let document_outputs = !spec.contracts.outputs.is_empty();
    let gated = spec.quality_gates.checks_output();
    spec.steps
        .iter()
        .filter(|step| {
            let is_final = finals.contains(&step.name);
            let promises = step.output_schema.is_some() || (is_final && document_outputs);
            let checked = step.verification.is_some() || (is_final && gated);
            promises && !checked
        })
        .map(|step| {
            Finding::new(
                    rules::UNVERIFIED_CONTRACT,
                format!("step `{}` promises structured output but nothing checks it: add a `verification`{}", step.name,
                    if finals.contains(&step.name) { " or a `quality_gates.pre_output`/`post_output` gate" } else { "" }),
                vec![step.name.clone()],
                pointer_push("/steps", &step.name),
            )
        })
        .collect()
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

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn rules(spec: serde_json::Value) -> Vec<(String, String)> {
        check_document(&spec)
            .into_iter()
            .map(|f| (f.rule.to_owned(), f.path.join(" ")))
            .collect()
    }

    /// Issue #13 defect 3: the document's output contract binds only the steps that produce
    /// the output, and post-output gates check it too.
    #[test]
    fn only_final_steps_promise_the_document_contract() {
        let spec = json!({
            "steps": {
                "notes": {},
                "report": {"needs": ["notes"], "verification": {"check": "{{ output.ok }}", "on_fail": "retry"}}
            },
            "contracts": {"outputs": [{"name": "report", "type": "object"}]}
        });
        assert_eq!(rules(spec), []);
        let gated_after = json!({
            "steps": {"notes": {}, "report": {"needs": ["notes"]}},
            "contracts": {"outputs": [{"name": "report", "type": "object"}]},
            "quality_gates": {"post_output": [{"name": "c", "check": "{{ output.ok }}"}]}
        });
        assert_eq!(rules(gated_after), []);
        let unchecked = json!({
            "steps": {"extract": {"output_schema": {"type": "array"}}, "report": {"needs": ["extract"]}},
            "contracts": {"outputs": [{"name": "report", "type": "object"}]},
            "quality_gates": {"pre_output": [{"name": "c", "check": "{{ output.ok }}"}]}
        });
        assert_eq!(
            rules(unchecked),
            [("unverified-contract".to_owned(), "extract".to_owned())]
        );
    }
}
