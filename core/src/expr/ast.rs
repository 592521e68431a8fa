//! The syntax tree; every node knows its byte range in the source text.

use std::ops::Range;

/// A parsed expression node: what it is and where it stands in the source.
#[derive(Debug, Clone, PartialEq)]
pub struct Expr {
    /// The node's kind and children.
    pub kind: ExprKind,
    /// Byte range of the node in the expression text.
    pub span: Range<usize>,
}

/// The kinds of expression node (the JavaScript subset of spec §9).
#[derive(Debug, Clone, PartialEq)]
pub enum ExprKind {
    /// A number literal (all numbers are IEEE doubles, as in JavaScript).
    Number(f64),
    /// A string literal, escapes resolved.
    String(String),
    /// `true` or `false`.
    Bool(bool),
    /// `null`.
    Null,
    /// `undefined`.
    Undefined,
    /// An array literal `[a, b]`.
    Array(Vec<Expr>),
    /// A bare name, looked up in the evaluation context.
    Identifier(String),
    /// `object.name`
    Member(Box<Expr>, String),
    /// `object[index]`
    Index(Box<Expr>, Box<Expr>),
    /// `object.method(args)`
    Call(Box<Expr>, String, Vec<Expr>),
    /// A prefix operator applied to its operand.
    Unary(UnaryOp, Box<Expr>),
    /// An arithmetic, comparison or equality operator with its left and right operands.
    Binary(BinaryOp, Box<Expr>, Box<Expr>),
    /// A short-circuiting operator with its left and right operands.
    Logical(LogicalOp, Box<Expr>, Box<Expr>),
    /// `condition ? then : otherwise`.
    Conditional(Box<Expr>, Box<Expr>, Box<Expr>),
}

/// Prefix operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnaryOp {
    /// `!x`: logical negation of `x`'s truthiness.
    Not,
    /// `-x`: numeric negation.
    Negate,
    /// `+x`: conversion to a number.
    Plus,
}

/// Binary operators, with JavaScript's semantics.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinaryOp {
    /// `*`: numeric multiplication.
    Multiply,
    /// `/` (division by zero gives an infinity or NaN, as in JavaScript).
    Divide,
    /// `%`: the remainder with the sign of the dividend.
    Remainder,
    /// `+`: numeric addition, or concatenation when either side is a string.
    Add,
    /// `-`: numeric subtraction.
    Subtract,
    /// `<`: less than (numbers by value, two strings by code unit).
    Less,
    /// `<=`: less than or equal.
    LessEqual,
    /// `>`: greater than.
    Greater,
    /// `>=`: greater than or equal.
    GreaterEqual,
    /// `==`: equality after JavaScript's type coercions.
    LooseEqual,
    /// `!=`: the negation of `==`.
    LooseNotEqual,
    /// `===`: equality without coercion.
    StrictEqual,
    /// `!==`: the negation of `===`.
    StrictNotEqual,
}

/// Short-circuiting operators; each yields one of its operands, not a boolean.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LogicalOp {
    /// `&&`: the left operand if it is falsy, else the right.
    And,
    /// `||`: the left operand if it is truthy, else the right.
    Or,
    /// `??`: the left operand unless it is `null` or `undefined`, else the right.
    Nullish,
}

impl Expr {
    /// Static member chains read from a root identifier, e.g. `steps.gather.output` as
    /// `["steps", "gather", "output"]`, with the range of the whole chain. `a['x-y']` counts as
    /// a member. Chains inside other chains' indices are listed too.
    pub fn paths(&self) -> Vec<(Vec<String>, Range<usize>)> {
        let mut out = Vec::new();
        self.collect_paths(&mut out, true);
        out
    }

    /// The root identifiers this expression reads, with their ranges.
    pub fn roots(&self) -> Vec<(String, Range<usize>)> {
        let mut out = Vec::new();
        self.visit(&mut |expr| {
            if let ExprKind::Identifier(name) = &expr.kind {
                out.push((name.clone(), expr.span.clone()));
            }
        });
        out
    }

    /// Calls `f` on every node, parents first.
    pub fn visit(&self, f: &mut impl FnMut(&Expr)) {
        f(self);
        match &self.kind {
            ExprKind::Array(items) => items.iter().for_each(|i| i.visit(f)),
            ExprKind::Member(object, _) => object.visit(f),
            ExprKind::Index(object, index) => {
                object.visit(f);
                index.visit(f);
            }
            ExprKind::Call(object, _, args) => {
                object.visit(f);
                args.iter().for_each(|a| a.visit(f));
            }
            ExprKind::Unary(_, e) => e.visit(f),
            ExprKind::Binary(_, l, r) | ExprKind::Logical(_, l, r) => {
                l.visit(f);
                r.visit(f);
            }
            ExprKind::Conditional(c, t, e) => {
                c.visit(f);
                t.visit(f);
                e.visit(f);
            }
            _ => {}
        }
    }

    /// The chain of names from the root identifier, when this is a static member chain.
    fn chain(&self) -> Option<Vec<String>> {
        match &self.kind {
            ExprKind::Identifier(name) => Some(vec![name.clone()]),
            ExprKind::Member(object, name) => object.chain().map(|mut c| {
                c.push(name.clone());
                c
            }),
            ExprKind::Index(object, index) => match &index.kind {
                ExprKind::String(key) => object.chain().map(|mut c| {
                    c.push(key.clone());
                    c
                }),
                _ => None,
            },
            _ => None,
        }
    }

    fn collect_paths(&self, out: &mut Vec<(Vec<String>, Range<usize>)>, outermost: bool) {
        if outermost {
            if let Some(chain) = self.chain() {
                out.push((chain, self.span.clone()));
                // Still look inside indices for further chains.
                self.visit_indices(out);
                return;
            }
        }
        match &self.kind {
            ExprKind::Array(items) => items.iter().for_each(|i| i.collect_paths(out, true)),
            ExprKind::Member(object, _) => object.collect_paths(out, true),
            ExprKind::Index(object, index) => {
                object.collect_paths(out, true);
                index.collect_paths(out, true);
            }
            ExprKind::Call(object, _, args) => {
                object.collect_paths(out, true);
                args.iter().for_each(|a| a.collect_paths(out, true));
            }
            ExprKind::Unary(_, e) => e.collect_paths(out, true),
            ExprKind::Binary(_, l, r) | ExprKind::Logical(_, l, r) => {
                l.collect_paths(out, true);
                r.collect_paths(out, true);
            }
            ExprKind::Conditional(c, t, e) => {
                c.collect_paths(out, true);
                t.collect_paths(out, true);
                e.collect_paths(out, true);
            }
            _ => {}
        }
    }

    fn visit_indices(&self, out: &mut Vec<(Vec<String>, Range<usize>)>) {
        match &self.kind {
            ExprKind::Member(object, _) => object.visit_indices(out),
            ExprKind::Index(object, index) => {
                object.visit_indices(out);
                if !matches!(index.kind, ExprKind::String(_)) {
                    index.collect_paths(out, true);
                }
            }
            _ => {}
        }
    }
}
