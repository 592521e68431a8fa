//! The verification rules core runs itself, because they need nothing outside the values
//! (§3.4's "deterministic execution" and "schema/regex validation"): `std.check_protocol` (the
//! target is there and well formed) and `std.check_compute` (arithmetic claims recomputed with the
//! expression language; the claims it cannot read — dates, hashes, free text — go to the tool
//! with what core found, and the tool's verdict decides those). Every other rule needs the world
//! and is a tool call.

use serde_json::{json, Value};

use crate::expr::eval_str;

/// A rule's outcome: passed or not, with the evidence.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Outcome {
    pub passed: bool,
    pub evidence: Value,
}

/// What core makes of a rule.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Local {
    /// Core decided.
    Decided(Outcome),
    /// Core checked what it could (`evidence`); the tool decides these `values`.
    Ask { values: Value, evidence: Value },
}

/// Runs core rule `rule` on `values`; `None` when the rule is not one of core's.
pub(super) fn run(rule: &str, values: &Value) -> Option<Local> {
    match rule {
        "std.check_protocol" => Some(Local::Decided(protocol(values))),
        "std.check_compute" => Some(compute(values)),
        _ => None,
    }
}

/// The evidence of a compute rule whose tool judged the claims core could not read (`asked`):
/// what core found, and what the tool said (`tool`). Core found nothing wrong (else the tool
/// is not asked), so the tool's verdict decides.
pub(super) fn with_tool(core: &Value, asked: &Value, tool: &Value) -> Value {
    let mut evidence = core.clone();
    if let Value::Object(fields) = &mut evidence {
        fields.insert("unreadable".into(), json!([]));
        fields.insert("by_tool".into(), asked.clone());
        fields.insert("tool".into(), tool.clone());
    }
    evidence
}

/// Present, not empty, and a list's items all present, not empty and of one JSON type.
fn protocol(values: &Value) -> Outcome {
    let mut problems = Vec::new();
    if is_empty(values) {
        problems.push("the value is empty".to_owned());
    }
    if let Value::Array(items) = values {
        for (index, item) in items.iter().enumerate() {
            if is_empty(item) {
                problems.push(format!("item {index} is empty"));
            }
        }
        let kinds: Vec<&str> = items.iter().map(json_type).collect();
        if kinds.windows(2).any(|w| w[0] != w[1]) {
            problems.push(format!("the items mix types ({})", kinds.join(", ")));
        }
    }
    Outcome {
        passed: problems.is_empty(),
        evidence: if problems.is_empty() {
            json!("well formed")
        } else {
            json!({ "problems": problems })
        },
    }
}

fn is_empty(value: &Value) -> bool {
    match value {
        Value::Null => true,
        Value::String(text) => text.trim().is_empty(),
        Value::Array(items) => items.is_empty(),
        Value::Object(map) => map.is_empty(),
        _ => false,
    }
}

fn json_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// Each claim `"2 + 2 = 4"`, or `{expression, result}` (also `expr`/`calculation` and
/// `value`/`answer`/`claimed`), recomputed. A wrong claim fails the rule whatever a tool would
/// say; claims core cannot read go to the tool (when nothing is wrong).
fn compute(values: &Value) -> Local {
    let claims: Vec<&Value> = match values {
        Value::Array(items) => items.iter().collect(),
        other => vec![other],
    };
    let mut wrong = Vec::new();
    let mut unreadable = Vec::new();
    for claim in &claims {
        match recompute(claim) {
            Some((claimed, computed)) if same_number(claimed, computed) => {}
            Some((_, computed)) => {
                wrong.push(json!({"claim": claim, "computed": number_json(computed)}))
            }
            None => unreadable.push((*claim).clone()),
        }
    }
    let evidence = json!({"checked": claims.len(), "wrong": wrong, "unreadable": unreadable});
    if wrong.is_empty() && !unreadable.is_empty() {
        return Local::Ask {
            values: Value::Array(unreadable),
            evidence,
        };
    }
    Local::Decided(Outcome {
        passed: wrong.is_empty() && !claims.is_empty(),
        evidence,
    })
}

/// The claimed and the computed result of a claim.
fn recompute(claim: &Value) -> Option<(f64, f64)> {
    match claim {
        Value::String(text) => {
            let at = equals_sign(text)?;
            let (expression, result) = (&text[..at], &text[at + 1..]);
            Some((number(result)?, number(expression)?))
        }
        Value::Object(map) => {
            let field = |names: &[&str]| names.iter().find_map(|n| map.get(*n));
            let expression = field(&["expression", "expr", "calculation"])?.as_str()?;
            let claimed = match field(&["result", "value", "answer", "claimed"])? {
                Value::Number(n) => n.as_f64()?,
                Value::String(text) => number(text)?,
                _ => return None,
            };
            Some((claimed, number(expression)?))
        }
        _ => None,
    }
}

/// The last `=` that is not part of `==`, `<=`, `>=` or `!=`.
fn equals_sign(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    (0..bytes.len()).rev().find(|&i| {
        bytes[i] == b'='
            && !matches!(bytes.get(i + 1), Some(b'='))
            && !matches!(
                i.checked_sub(1).map(|j| bytes[j]),
                Some(b'=' | b'<' | b'>' | b'!')
            )
    })
}

/// An arithmetic expression's value, evaluated with nothing in scope.
fn number(text: &str) -> Option<f64> {
    let value = eval_str(text.trim(), &json!({})).ok()?;
    match value {
        Value::Number(n) => n.as_f64(),
        _ => None,
    }
}

/// Equal up to rounding (a relative 1e-9, or 1e-9 near zero).
fn same_number(a: f64, b: f64) -> bool {
    let scale = a.abs().max(b.abs()).max(1.0);
    (a - b).abs() <= 1e-9 * scale
}

/// An integral number as an integer, as the expression language prints it.
pub(super) fn number_json(n: f64) -> Value {
    if n.fract() == 0.0 && n.abs() < 9_007_199_254_740_992.0 {
        json!(n as i64)
    } else {
        json!(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decided(rule: &str, values: Value) -> Outcome {
        match run(rule, &values) {
            Some(Local::Decided(outcome)) => outcome,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn protocol_checks_presence_and_shape() {
        assert!(decided("std.check_protocol", json!(["a", "b"])).passed);
        let outcome = decided("std.check_protocol", json!(["a", "", 3]));
        assert_eq!(
            outcome,
            Outcome {
                passed: false,
                evidence: json!({"problems": ["item 1 is empty", "the items mix types (string, string, number)"]})
            }
        );
        assert!(!decided("std.check_protocol", json!(null)).passed);
    }

    #[test]
    fn compute_recomputes_each_claim_and_asks_the_tool_for_the_rest() {
        let readable =
            json!(["2 + 2 = 4", "10 / 4 = 2.5", {"expression": "3 * (2 + 1)", "result": 9}]);
        assert!(decided("std.check_compute", readable).passed);
        let asked = run(
            "std.check_compute",
            &json!(["2 + 2 = 4", "1 + 1 == 2 = true"]),
        );
        assert_eq!(
            asked,
            Some(Local::Ask {
                values: json!(["1 + 1 == 2 = true"]),
                evidence: json!({"checked": 2, "wrong": [], "unreadable": ["1 + 1 == 2 = true"]})
            })
        );
        let wrong = decided(
            "std.check_compute",
            json!(["7 * 6 = 41", "0.1 + 0.2 = 0.3", "March 1 was a Friday"]),
        );
        assert_eq!(
            wrong,
            Outcome {
                passed: false,
                evidence: json!({"checked": 3, "wrong": [{"claim": "7 * 6 = 41", "computed": 42}], "unreadable": ["March 1 was a Friday"]})
            }
        );
        assert!(
            !decided("std.check_compute", json!([])).passed,
            "nothing checked"
        );
        assert_eq!(run("std.check_links", &json!([])), None);
    }
}
