//! Making a synthetic output satisfy the simple checks a document states about it:
//! `output.items.length >= 3`, `output.confidence >= 0.7`, `output.kind == 'report'`,
//! `!output.contradicts`, `output.ok`, joined by `&&` (an `||` is met by its left side). Checks
//! of other shapes are left as they are: the run then shows what the document does with them.

use serde_json::{json, Map, Value};

use crate::expr::{BinaryOp, Expr, ExprKind, LogicalOp, Template, UnaryOp};

/// Adjusts `output` towards every check in `checks` (twice over, for checks that read each other).
pub(crate) fn satisfy(output: &mut Value, checks: &[String]) {
    let parsed: Vec<Template> = checks
        .iter()
        .filter_map(|c| Template::parse(c).ok())
        .collect();
    for _ in 0..2 {
        for template in &parsed {
            for expr in template.expressions() {
                meet(output, expr);
            }
        }
    }
}

fn meet(output: &mut Value, expr: &Expr) {
    match &expr.kind {
        ExprKind::Logical(LogicalOp::And, left, right) => {
            meet(output, left);
            meet(output, right);
        }
        ExprKind::Logical(LogicalOp::Or, left, _) => meet(output, left),
        ExprKind::Unary(UnaryOp::Not, inner) => {
            if let Some(path) = output_path(inner) {
                set(output, &path, Value::Bool(false));
            }
        }
        ExprKind::Binary(op, left, right) => compare(output, *op, left, right),
        _ => {
            if let Some(path) = output_path(expr) {
                if !get(output, &path).is_some_and(|v| crate::expr::JsValue::from_json(v).truthy())
                {
                    set(output, &path, Value::Bool(true));
                }
            }
        }
    }
}

/// `path op value`, or `value op path` mirrored.
fn compare(output: &mut Value, op: BinaryOp, left: &Expr, right: &Expr) {
    let (path, op, other) = match (output_path(left), output_path(right)) {
        (Some(path), _) => (path, op, right),
        (None, Some(path)) => (path, mirror(op), left),
        _ => return,
    };
    let Some(target) = evaluate(other, output) else {
        return;
    };
    if path.last().map(String::as_str) == Some("length") {
        let list = &path[..path.len() - 1];
        let current = match get(output, list) {
            Some(Value::Array(items)) => Some(items.len() as f64),
            Some(Value::String(text)) => Some(text.chars().count() as f64),
            _ => None,
        };
        if let Some(n) = target.as_f64() {
            if !current.is_some_and(|c| holds(op, c, n)) {
                resize(output, list, wanted_length(op, n));
            }
        }
        return;
    }
    match (&target, op) {
        (Value::Number(n), _) => {
            let Some(n) = n.as_f64() else { return };
            let current = get(output, &path).and_then(Value::as_f64);
            if current.is_some_and(|c| holds(op, c, n)) {
                return;
            }
            set(output, &path, number(wanted(op, n)));
        }
        (_, BinaryOp::LooseEqual | BinaryOp::StrictEqual) => set(output, &path, target),
        _ => {}
    }
}

/// A whole number as a JSON integer (`5`, not `5.0`), else as it is.
fn number(value: f64) -> Value {
    if value.fract() == 0.0 && value.abs() < 9.0e15 {
        json!(value as i64)
    } else {
        json!(value)
    }
}

fn holds(op: BinaryOp, value: f64, n: f64) -> bool {
    match op {
        BinaryOp::GreaterEqual => value >= n,
        BinaryOp::Greater => value > n,
        BinaryOp::LessEqual => value <= n,
        BinaryOp::Less => value < n,
        BinaryOp::LooseEqual | BinaryOp::StrictEqual => value == n,
        BinaryOp::LooseNotEqual | BinaryOp::StrictNotEqual => value != n,
        _ => true,
    }
}

/// A number that makes `x op n` true, as close to `n` as sensible.
fn wanted(op: BinaryOp, n: f64) -> f64 {
    let step = if n.fract() == 0.0 && n.abs() >= 1.0 {
        1.0
    } else {
        0.05
    };
    match op {
        BinaryOp::Greater => n + step,
        BinaryOp::Less => n - step,
        BinaryOp::LooseNotEqual | BinaryOp::StrictNotEqual => n + step,
        _ => n,
    }
}

/// A length (a whole number, at most 1,000) that makes `length op n` true, as short as sensible.
fn wanted_length(op: BinaryOp, n: f64) -> usize {
    let length = match op {
        BinaryOp::Greater => n.floor() + 1.0,
        BinaryOp::GreaterEqual => n.ceil(),
        BinaryOp::Less => n.ceil() - 1.0,
        BinaryOp::LessEqual => n.floor(),
        BinaryOp::LooseNotEqual | BinaryOp::StrictNotEqual if n.fract() == 0.0 => n + 1.0,
        _ => n.round(),
    };
    length.clamp(0.0, 1_000.0) as usize
}

fn mirror(op: BinaryOp) -> BinaryOp {
    match op {
        BinaryOp::Less => BinaryOp::Greater,
        BinaryOp::LessEqual => BinaryOp::GreaterEqual,
        BinaryOp::Greater => BinaryOp::Less,
        BinaryOp::GreaterEqual => BinaryOp::LessEqual,
        other => other,
    }
}

/// The path under `output` an expression reads: `output.a.b` → `[a, b]`; `confidence` → the
/// output's `confidence`.
fn output_path(expr: &Expr) -> Option<Vec<String>> {
    match &expr.kind {
        ExprKind::Identifier(name) if name == "confidence" => Some(vec![name.clone()]),
        ExprKind::Member(object, name) => {
            if let ExprKind::Identifier(root) = &object.kind {
                return (root == "output").then(|| vec![name.clone()]);
            }
            let mut path = output_path(object)?;
            path.push(name.clone());
            Some(path)
        }
        _ => None,
    }
}

/// The value of an expression over the current output (for checks comparing two fields).
fn evaluate(expr: &Expr, output: &Value) -> Option<Value> {
    let context = json!({ "output": output, "confidence": output.get("confidence") });
    crate::expr::evaluate(expr, &context, crate::expr::ExprLimits::DEFAULT)
        .ok()?
        .to_json(0, 0)
        .ok()
}

fn get<'v>(value: &'v Value, path: &[String]) -> Option<&'v Value> {
    path.iter().try_fold(value, |v, key| v.get(key))
}

pub(super) fn set(value: &mut Value, path: &[String], new: Value) {
    let Some((last, parents)) = path.split_last() else {
        return;
    };
    let mut at = value;
    for key in parents {
        if !at.is_object() {
            *at = Value::Object(Map::new());
        }
        let Some(map) = at.as_object_mut() else {
            return;
        };
        at = map
            .entry(key.clone())
            .or_insert_with(|| Value::Object(Map::new()));
    }
    if !at.is_object() {
        *at = Value::Object(Map::new());
    }
    if let Some(map) = at.as_object_mut() {
        map.insert(last.clone(), new);
    }
}

/// Makes the list at `path` exactly `length` long (repeating its items, or strings when empty).
fn resize(output: &mut Value, path: &[String], length: usize) {
    let current = get(output, path).cloned();
    let mut items = match current {
        Some(Value::Array(items)) => items,
        Some(Value::String(text)) => {
            let mut text: String = text.chars().take(length).collect();
            while text.chars().count() < length {
                text.push('x');
            }
            set(output, path, Value::String(text));
            return;
        }
        _ => Vec::new(),
    };
    let name = path.last().cloned().unwrap_or_else(|| "item".into());
    let template = items.first().cloned();
    while items.len() < length {
        let item = match &template {
            Some(Value::String(_)) | None => Value::String(format!(
                "{} {}",
                super::values::singular(&name),
                items.len() + 1
            )),
            Some(other) => other.clone(),
        };
        items.push(item);
    }
    items.truncate(length);
    set(output, path, Value::Array(items));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(output: Value, checks: &[&str]) -> Value {
        let mut output = output;
        let checks: Vec<String> = checks.iter().map(|c| c.to_string()).collect();
        satisfy(&mut output, &checks);
        for check in &checks {
            let holds = Template::parse(check)
                .and_then(|t| {
                    t.evaluate(&json!({"output": output, "confidence": output.get("confidence")}))
                })
                .map(|v| crate::expr::JsValue::from_json(&v).truthy());
            assert_eq!(holds, Ok(true), "{check} on {output}");
        }
        output
    }

    #[test]
    fn simple_checks_are_met() {
        check(
            json!({"findings": ["a"], "confidence": 0.2}),
            &["{{ output.findings.length >= 3 && output.confidence >= 0.6 }}"],
        );
        check(
            json!("text"),
            &["{{ output.opportunities.length >= 3 && output.confidence >= 0.7 }}"],
        );
        check(
            json!({}),
            &[
                "{{ !output.contradicts_previous }}",
                "{{ output.format == 'report' }}",
                "{{ output.ok }}",
            ],
        );
        check(
            json!({"competitors": [{"n": 1}, {"n": 2}]}),
            &[
                "{{ output.sources_cited >= output.competitors.length }}",
                "{{ output.competitors.length >= 5 }}",
            ],
        );
        check(
            json!({}),
            &[
                "{{ output.findings.length > 0 }}",
                "{{ output.citations.length > 0.5 }}",
                "{{ output.notes.length < 2.5 }}",
                "{{ output.title.length > 0 }}",
            ],
        );
        check(
            json!({"n": 9}),
            &[
                "{{ output.n < 3 || output.m > 1 }}",
                "{{ confidence > 0.5 }}",
            ],
        );
    }
}
