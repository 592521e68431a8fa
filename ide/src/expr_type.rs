//! The type an expression resolves to, as far as the document tells: a member chain through a
//! step's `output_schema`, `contracts.inputs` or the enclosing step's output; operators by what
//! they give (comparisons and `!` a boolean, arithmetic a number).

use logicmd::expr::{BinaryOp, Expr, ExprKind, LogicalOp, UnaryOp};
use serde_json::Value;

use crate::completion::{counter_schema, descend, inputs_schema, json_type, output_schema};
use crate::workspace::FileAnalysis;

/// What an expression reads from (the document's data) and where it is (the enclosing step).
pub(crate) struct Scope<'a> {
    pub file: &'a FileAnalysis,
    pub step: Option<&'a str>,
    /// The `output_schema` of each imported step (`alias.step`) the expression names, read from
    /// the file that defines it.
    pub imported: Vec<(String, Value)>,
}

/// The innermost expression node holding `offset` (an offset in the expression's text).
pub(crate) fn innermost(expr: &Expr, offset: usize) -> Option<&Expr> {
    if !(expr.span.start <= offset && offset <= expr.span.end) {
        return None;
    }
    let children: Vec<&Expr> = match &expr.kind {
        ExprKind::Array(items) => items.iter().collect(),
        ExprKind::Member(object, _) => vec![object],
        ExprKind::Index(object, index) => vec![object, index],
        ExprKind::Call(object, _, args) => std::iter::once(&**object).chain(args).collect(),
        ExprKind::Unary(_, operand) => vec![operand],
        ExprKind::Binary(_, left, right) | ExprKind::Logical(_, left, right) => vec![left, right],
        ExprKind::Conditional(c, t, e) => vec![c, t, e],
        _ => Vec::new(),
    };
    // A member chain is one thing to a person: the chain, not its object, answers inside it,
    // except where the object itself ends (hovering `steps` of `steps.a`).
    let chain = matches!(expr.kind, ExprKind::Member(..) | ExprKind::Index(..));
    for child in children {
        if let Some(found) = innermost(child, offset) {
            if chain && child.span.end < offset {
                return Some(expr);
            }
            return Some(found);
        }
    }
    Some(expr)
}

/// The written form of a member chain (`steps.a.output.x`), when `expr` is one.
pub(crate) fn chain(expr: &Expr) -> Option<Vec<String>> {
    match &expr.kind {
        ExprKind::Identifier(name) => Some(vec![name.clone()]),
        ExprKind::Member(object, name) => {
            let mut path = chain(object)?;
            path.push(name.clone());
            Some(path)
        }
        ExprKind::Index(object, index) => {
            let mut path = chain(object)?;
            match &index.kind {
                ExprKind::String(name) => path.push(name.clone()),
                ExprKind::Number(n) => path.push(format!("{n}")),
                _ => return None,
            }
            Some(path)
        }
        _ => None,
    }
}

/// A chain as the language writes it: a name that is not an identifier in brackets
/// (`steps['lib.helper'].output.items[0]`).
pub(crate) fn written(path: &[String]) -> String {
    let mut out = String::new();
    for (i, segment) in path.iter().enumerate() {
        let identifier = segment
            .chars()
            .next()
            .is_some_and(|c| c.is_alphabetic() || c == '_' || c == '$')
            && segment
                .chars()
                .all(|c| c.is_alphanumeric() || c == '_' || c == '$');
        if i > 0 && segment.chars().all(|c| c.is_ascii_digit()) {
            out.push_str(&format!("[{segment}]"));
        } else if i > 0 && !identifier {
            out.push_str(&format!("['{segment}']"));
        } else {
            if i > 0 {
                out.push('.');
            }
            out.push_str(segment);
        }
    }
    out
}

/// The type of `expr`, when the document says.
pub(crate) fn type_of(expr: &Expr, scope: &Scope<'_>) -> Option<String> {
    Some(match &expr.kind {
        ExprKind::Number(_) => "number".to_owned(),
        ExprKind::String(_) => "string".to_owned(),
        ExprKind::Bool(_) => "boolean".to_owned(),
        ExprKind::Null => "null".to_owned(),
        ExprKind::Undefined => "undefined".to_owned(),
        ExprKind::Array(_) => "array".to_owned(),
        ExprKind::Unary(UnaryOp::Not, _) => "boolean".to_owned(),
        ExprKind::Unary(_, _) => "number".to_owned(),
        ExprKind::Binary(op, left, right) => match op {
            BinaryOp::Add => {
                let (l, r) = (type_of(left, scope), type_of(right, scope));
                if l.as_deref() == Some("string") || r.as_deref() == Some("string") {
                    "string".to_owned()
                } else if l.as_deref() == Some("number") && r.as_deref() == Some("number") {
                    "number".to_owned()
                } else {
                    "number | string".to_owned()
                }
            }
            BinaryOp::Subtract | BinaryOp::Multiply | BinaryOp::Divide | BinaryOp::Remainder => {
                "number".to_owned()
            }
            _ => "boolean".to_owned(),
        },
        ExprKind::Logical(op, left, right) => {
            let (l, r) = (type_of(left, scope)?, type_of(right, scope)?);
            match op {
                LogicalOp::And | LogicalOp::Or if l == r => l,
                _ => format!("{l} | {r}"),
            }
        }
        ExprKind::Conditional(_, then, otherwise) => {
            let (t, o) = (type_of(then, scope)?, type_of(otherwise, scope)?);
            if t == o {
                t
            } else {
                format!("{t} | {o}")
            }
        }
        ExprKind::Call(_, method, _) => match method.as_str() {
            "toLowerCase" | "toUpperCase" | "trim" => "string".to_owned(),
            _ => "boolean".to_owned(),
        },
        ExprKind::Member(_, name) if name == "length" => "number".to_owned(),
        ExprKind::Identifier(_) | ExprKind::Member(..) | ExprKind::Index(..) => {
            let path = chain(expr)?;
            json_type(&schema_of_chain(&path, scope)?)
        }
    })
}

/// The JSON Schema a member chain reads, when the document declares it.
pub(crate) fn schema_of_chain(path: &[String], scope: &Scope<'_>) -> Option<Value> {
    let fields: Vec<&str> = path.iter().map(String::as_str).collect();
    match fields.as_slice() {
        ["steps", step, "output", rest @ ..] => {
            let imported = || {
                scope
                    .imported
                    .iter()
                    .find(|(name, _)| name == step)
                    .map(|(_, schema)| schema.clone())
            };
            descend(&output_schema(scope.file, step).or_else(imported)?, rest)
        }
        ["input" | "inputs", rest @ ..] => descend(&inputs_schema(scope.file), rest),
        ["output", rest @ ..] => descend(&output_schema(scope.file, scope.step?)?, rest),
        [root] => counter_schema(root),
        _ => None,
    }
}
