//! Evaluation with a step budget: every node visited and every item a method scans costs a step.

use serde_json::Value;

use super::ast::{BinaryOp, Expr, ExprKind, LogicalOp, UnaryOp};
use super::value::JsValue;
use super::{ExprError, ExprLimits};

struct Evaluator<'c> {
    context: &'c Value,
    limits: ExprLimits,
    steps: usize,
}

/// Evaluates `expr` with the identifiers of `context` (a JSON object) in scope.
pub fn evaluate(expr: &Expr, context: &Value, limits: ExprLimits) -> Result<JsValue, ExprError> {
    let mut evaluator = Evaluator {
        context,
        limits,
        steps: 0,
    };
    evaluator.eval(expr)
}

impl Evaluator<'_> {
    fn step(&mut self, expr: &Expr, count: usize) -> Result<(), ExprError> {
        self.steps = self.steps.saturating_add(count);
        if self.steps > self.limits.max_steps {
            return Err(ExprError::new(
                "expression-too-costly",
                format!("evaluation took more than {} steps", self.limits.max_steps),
                expr.span.start,
                expr.span.len(),
            ));
        }
        Ok(())
    }

    fn string(&self, text: String, expr: &Expr) -> Result<JsValue, ExprError> {
        if text.len() > self.limits.max_string {
            return Err(ExprError::new(
                "expression-too-costly",
                format!(
                    "a string grew beyond {}",
                    crate::limits::format_limit(self.limits.max_string)
                ),
                expr.span.start,
                expr.span.len(),
            ));
        }
        Ok(JsValue::String(text))
    }

    fn eval(&mut self, expr: &Expr) -> Result<JsValue, ExprError> {
        self.step(expr, 1)?;
        Ok(match &expr.kind {
            ExprKind::Number(n) => JsValue::Number(*n),
            ExprKind::String(s) => JsValue::String(s.clone()),
            ExprKind::Bool(b) => JsValue::Bool(*b),
            ExprKind::Null => JsValue::Null,
            ExprKind::Undefined => JsValue::Undefined,
            ExprKind::Array(items) => {
                let mut values = Vec::with_capacity(items.len());
                for item in items {
                    values.push(self.eval(item)?);
                }
                JsValue::Array(values)
            }
            ExprKind::Identifier(name) => match self.context.get(name) {
                Some(value) => {
                    self.step(expr, json_size_hint(value))?;
                    JsValue::from_json(value)
                }
                None => JsValue::Undefined,
            },
            ExprKind::Member(object, name) => {
                let object = self.eval(object)?;
                member(&object, &JsValue::String(name.clone()))
            }
            ExprKind::Index(object, index) => {
                let object = self.eval(object)?;
                let index = self.eval(index)?;
                member(&object, &index)
            }
            ExprKind::Call(object, method, args) => {
                let receiver = self.eval(object)?;
                let mut values = Vec::with_capacity(args.len());
                for arg in args {
                    values.push(self.eval(arg)?);
                }
                self.call(expr, &receiver, method, &values)?
            }
            ExprKind::Unary(op, operand) => {
                let value = self.eval(operand)?;
                match op {
                    UnaryOp::Not => JsValue::Bool(!value.truthy()),
                    UnaryOp::Negate => JsValue::Number(-value.to_number()),
                    UnaryOp::Plus => JsValue::Number(value.to_number()),
                }
            }
            ExprKind::Logical(op, left, right) => {
                let left_value = self.eval(left)?;
                let take_left = match op {
                    LogicalOp::And => !left_value.truthy(),
                    LogicalOp::Or => left_value.truthy(),
                    LogicalOp::Nullish => !left_value.is_nullish(),
                };
                if take_left {
                    left_value
                } else {
                    self.eval(right)?
                }
            }
            ExprKind::Conditional(condition, then, otherwise) => {
                if self.eval(condition)?.truthy() {
                    self.eval(then)?
                } else {
                    self.eval(otherwise)?
                }
            }
            ExprKind::Binary(op, left, right) => {
                let left = self.eval(left)?;
                let right = self.eval(right)?;
                self.binary(expr, *op, &left, &right)?
            }
        })
    }

    fn binary(
        &self,
        expr: &Expr,
        op: BinaryOp,
        left: &JsValue,
        right: &JsValue,
    ) -> Result<JsValue, ExprError> {
        let number =
            |f: fn(f64, f64) -> f64| JsValue::Number(f(left.to_number(), right.to_number()));
        Ok(match op {
            BinaryOp::Add => {
                let (a, b) = (left.to_primitive(), right.to_primitive());
                if matches!(a, JsValue::String(_)) || matches!(b, JsValue::String(_)) {
                    let mut text = a.to_js_string();
                    text.push_str(&b.to_js_string());
                    return self.string(text, expr);
                }
                JsValue::Number(a.to_number() + b.to_number())
            }
            BinaryOp::Subtract => number(|a, b| a - b),
            BinaryOp::Multiply => number(|a, b| a * b),
            BinaryOp::Divide => number(|a, b| a / b),
            BinaryOp::Remainder => number(|a, b| a % b),
            BinaryOp::Less => JsValue::Bool(left.less_than(right) == Some(true)),
            BinaryOp::Greater => JsValue::Bool(right.less_than(left) == Some(true)),
            BinaryOp::LessEqual => JsValue::Bool(right.less_than(left) == Some(false)),
            BinaryOp::GreaterEqual => JsValue::Bool(left.less_than(right) == Some(false)),
            BinaryOp::LooseEqual => JsValue::Bool(left.loose_equals(right)),
            BinaryOp::LooseNotEqual => JsValue::Bool(!left.loose_equals(right)),
            BinaryOp::StrictEqual => JsValue::Bool(left.strict_equals(right)),
            BinaryOp::StrictNotEqual => JsValue::Bool(!left.strict_equals(right)),
        })
    }

    fn call(
        &mut self,
        expr: &Expr,
        receiver: &JsValue,
        method: &str,
        args: &[JsValue],
    ) -> Result<JsValue, ExprError> {
        // Reading through missing data gives undefined; so does calling a method on it.
        if receiver.is_nullish() {
            return Ok(JsValue::Undefined);
        }
        let arg = |i: usize| args.get(i).cloned().unwrap_or(JsValue::Undefined);
        let wrong_receiver = || {
            ExprError::new(
                "expression-type",
                format!("`{method}` cannot be called on a {}", receiver.type_name()),
                expr.span.start,
                expr.span.len(),
            )
        };
        Ok(match (method, receiver) {
            ("includes" | "contains", JsValue::Array(items)) => {
                self.step(expr, items.len())?;
                JsValue::Bool(items.iter().any(|item| item.same_value_zero(&arg(0))))
            }
            ("includes" | "contains", JsValue::String(text)) => {
                JsValue::Bool(text.contains(arg(0).to_js_string().as_str()))
            }
            ("every" | "some", JsValue::Array(items)) => {
                self.step(expr, items.len())?;
                let property = match arg(0) {
                    JsValue::Undefined => None,
                    JsValue::String(name) => Some(name),
                    other => {
                        return Err(ExprError::new(
                            "expression-type",
                            format!(
                                "`{method}` takes a property name (a string), not a {}",
                                other.type_name()
                            ),
                            expr.span.start,
                            expr.span.len(),
                        ))
                    }
                };
                let test = |item: &JsValue| match &property {
                    None => item.truthy(),
                    Some(name) => member(item, &JsValue::String(name.clone())).truthy(),
                };
                JsValue::Bool(if method == "every" {
                    items.iter().all(test)
                } else {
                    items.iter().any(test)
                })
            }
            ("startsWith", JsValue::String(text)) => {
                JsValue::Bool(text.starts_with(arg(0).to_js_string().as_str()))
            }
            ("endsWith", JsValue::String(text)) => {
                JsValue::Bool(text.ends_with(arg(0).to_js_string().as_str()))
            }
            ("toLowerCase", JsValue::String(text)) => JsValue::String(text.to_lowercase()),
            ("toUpperCase", JsValue::String(text)) => JsValue::String(text.to_uppercase()),
            ("trim", JsValue::String(text)) => {
                JsValue::String(text.trim_matches(is_js_whitespace).to_owned())
            }
            _ => return Err(wrong_receiver()),
        })
    }
}

fn is_js_whitespace(c: char) -> bool {
    c.is_whitespace() || c == '\u{feff}'
}

/// A rough size of a JSON value, so reading a huge context value costs steps.
fn json_size_hint(value: &Value) -> usize {
    match value {
        Value::Array(items) => items.len(),
        Value::Object(map) => map.len(),
        _ => 0,
    }
}

/// Property access with null-safe reads: `undefined` where JavaScript would throw.
fn member(object: &JsValue, key: &JsValue) -> JsValue {
    match object {
        JsValue::Array(items) => match key {
            JsValue::Number(n) => index(*n)
                .and_then(|i| items.get(i))
                .cloned()
                .unwrap_or(JsValue::Undefined),
            JsValue::String(name) if name == "length" => JsValue::Number(items.len() as f64),
            JsValue::String(name) => name
                .parse::<usize>()
                .ok()
                .filter(|i| i.to_string() == *name)
                .and_then(|i| items.get(i))
                .cloned()
                .unwrap_or(JsValue::Undefined),
            _ => JsValue::Undefined,
        },
        JsValue::String(text) => match key {
            JsValue::String(name) if name == "length" => {
                JsValue::Number(text.encode_utf16().count() as f64)
            }
            JsValue::Number(n) => index(*n)
                .and_then(|i| text.encode_utf16().nth(i))
                .map_or(JsValue::Undefined, |unit| {
                    JsValue::String(String::from_utf16_lossy(&[unit]))
                }),
            _ => JsValue::Undefined,
        },
        JsValue::Object(map) => map
            .get(&key.to_js_string())
            .map_or(JsValue::Undefined, JsValue::from_json),
        _ => JsValue::Undefined,
    }
}

fn index(n: f64) -> Option<usize> {
    (n >= 0.0 && n.fract() == 0.0 && n < 4_294_967_295.0).then_some(n as usize)
}
