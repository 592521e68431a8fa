//! The `{{ }}` expression language (spec §4.2): a small, bounded subset of JavaScript
//! expressions over JSON data. Member reads through missing values give `null` instead of
//! failing; there is no assignment, no loops and no calls beyond a fixed list of methods.

mod ast;
mod eval;
mod lexer;
mod parser;
mod rename;
mod template;
mod value;

pub use ast::{BinaryOp, Expr, ExprKind, LogicalOp, UnaryOp};
pub(crate) use eval::evaluate;
pub use lexer::{tokenize, Lexeme, Token};
pub use parser::parse_expression;
pub use rename::is_identifier;
pub(crate) use rename::quoted;
pub use rename::rename_step_reads;
pub use template::{Segment, Template};
pub(crate) use value::JsValue;

/// Bounds on untrusted expressions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExprLimits {
    /// Longest expression source, in bytes.
    pub max_source: usize,
    /// Deepest nesting of the syntax tree.
    pub max_depth: usize,
    /// Most evaluation steps (nodes visited, items scanned by methods).
    pub max_steps: usize,
    /// Longest string a computation may build, in bytes.
    pub max_string: usize,
}

impl ExprLimits {
    /// 4 KiB of source, depth 64, 100,000 steps, 1 MiB strings.
    pub const DEFAULT: ExprLimits = ExprLimits {
        max_source: 4096,
        max_depth: 64,
        max_steps: 100_000,
        max_string: 1 << 20,
    };
}

impl Default for ExprLimits {
    fn default() -> Self {
        ExprLimits::DEFAULT
    }
}

/// Why an expression did not parse or evaluate; `offset`/`len` locate the offending token in
/// the text the expression was parsed from (the whole template string).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExprError {
    /// Stable code: `expression-syntax`, `expression-type`, `expression-too-deep`,
    /// `expression-too-long`, `expression-too-costly`, `expression-not-finite`, `expression-call`
    /// or `expression-unknown-method`.
    pub code: &'static str,
    /// What went wrong, for a person to read.
    pub message: String,
    /// Byte offset of the offending token in the template text.
    pub offset: usize,
    /// Length of the offending token in bytes.
    pub len: usize,
}

impl ExprError {
    pub(crate) fn new(
        code: &'static str,
        message: impl Into<String>,
        offset: usize,
        len: usize,
    ) -> Self {
        ExprError {
            code,
            message: message.into(),
            offset,
            len,
        }
    }
}

impl std::fmt::Display for ExprError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// The methods an expression may call.
pub const METHODS: &[&str] = &[
    "includes",
    "contains",
    "every",
    "some",
    "startsWith",
    "endsWith",
    "toLowerCase",
    "toUpperCase",
    "trim",
];

/// Evaluates what a person typed (`logicmd eval`, npm `evaluate`): text without `{{` is one
/// expression, so a `}}` in it is a syntax error; text with `{{` is a template (one `{{ }}` alone
/// keeps its value's type, text around expressions interpolates). Offsets in errors are into
/// `text` itself.
pub fn eval_input(text: &str, context: &serde_json::Value) -> Result<serde_json::Value, ExprError> {
    if text.contains("{{") {
        Template::parse(text)?.evaluate(context)
    } else {
        eval_str(text, context)
    }
}

/// Parses and evaluates one expression (without `{{ }}`) against `context`.
pub fn eval_str(source: &str, context: &serde_json::Value) -> Result<serde_json::Value, ExprError> {
    let expr = parse_expression(source, 0, ExprLimits::DEFAULT)?;
    evaluate(&expr, context, ExprLimits::DEFAULT)?.to_json(0, source.len())
}
