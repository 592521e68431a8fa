//! Precedence-climbing parser. Recursion is bounded by `ExprLimits::max_depth`, so a deeply
//! nested expression is an error, not a stack overflow.

use super::ast::{BinaryOp, Expr, ExprKind, LogicalOp, UnaryOp};
use super::lexer::{tokenize, Lexeme, Token};
use super::{ExprError, ExprLimits, METHODS};

struct Parser {
    tokens: Vec<Lexeme>,
    position: usize,
    depth: usize,
    limits: ExprLimits,
}

/// Parses `source` (which starts at byte `base` of the template it came from).
pub fn parse_expression(source: &str, base: usize, limits: ExprLimits) -> Result<Expr, ExprError> {
    if source.len() > limits.max_source {
        return Err(ExprError::new(
            "expression-too-long",
            format!(
                "the expression is {} bytes, more than the limit of {}",
                source.len(),
                limits.max_source
            ),
            base,
            source.len(),
        ));
    }
    let mut parser = Parser {
        tokens: tokenize(source, base)?,
        position: 0,
        depth: 0,
        limits,
    };
    if matches!(parser.peek().token, Token::End) {
        return Err(ExprError::new(
            "expression-syntax",
            "empty expression",
            base,
            source.len(),
        ));
    }
    let expr = parser.conditional()?;
    let next = parser.peek();
    if !matches!(next.token, Token::End) {
        return Err(parser.unexpected(next.clone(), "an operator or the end of the expression"));
    }
    Ok(expr)
}

fn span(start: &Expr, end: &Expr) -> std::ops::Range<usize> {
    start.span.start..end.span.end
}

impl Parser {
    fn peek(&self) -> &Lexeme {
        &self.tokens[self.position.min(self.tokens.len() - 1)]
    }

    fn next(&mut self) -> Lexeme {
        let lexeme = self.peek().clone();
        if self.position < self.tokens.len() - 1 {
            self.position += 1;
        }
        lexeme
    }

    fn at(&self, punct: &str) -> bool {
        matches!(self.peek().token, Token::Punct(p) if p == punct)
    }

    fn eat(&mut self, punct: &str) -> bool {
        let found = self.at(punct);
        if found {
            self.next();
        }
        found
    }

    fn unexpected(&self, lexeme: Lexeme, expected: &str) -> ExprError {
        let found = match &lexeme.token {
            Token::End => "the end of the expression".to_owned(),
            Token::Number(n) => format!("the number `{n}`"),
            Token::String(_) => "a string".to_owned(),
            Token::Identifier(name) => format!("`{name}`"),
            Token::Punct(p) => format!("`{p}`"),
        };
        ExprError::new(
            "expression-syntax",
            format!("expected {expected}, found {found}"),
            lexeme.start,
            (lexeme.end - lexeme.start).max(1),
        )
    }

    fn enter(&mut self) -> Result<(), ExprError> {
        self.depth += 1;
        if self.depth > self.limits.max_depth {
            let at = self.peek().start;
            return Err(ExprError::new(
                "expression-too-deep",
                format!(
                    "the expression nests deeper than {} levels",
                    self.limits.max_depth
                ),
                at,
                1,
            ));
        }
        Ok(())
    }

    fn conditional(&mut self) -> Result<Expr, ExprError> {
        self.enter()?;
        let condition = self.nullish()?;
        let result = if self.eat("?") {
            let then = self.conditional()?;
            if !self.eat(":") {
                let lexeme = self.peek().clone();
                return Err(self.unexpected(lexeme, "`:` of the `? :` conditional"));
            }
            // Right-associative: `a ? b : c ? d : e` is `a ? b : (c ? d : e)`.
            let otherwise = self.conditional()?;
            Expr {
                span: span(&condition, &otherwise),
                kind: ExprKind::Conditional(
                    Box::new(condition),
                    Box::new(then),
                    Box::new(otherwise),
                ),
            }
        } else {
            condition
        };
        self.depth -= 1;
        Ok(result)
    }

    fn nullish(&mut self) -> Result<Expr, ExprError> {
        let mut left = self.or()?;
        while self.eat("??") {
            let right = self.or()?;
            left = logical(LogicalOp::Nullish, left, right);
        }
        Ok(left)
    }

    fn or(&mut self) -> Result<Expr, ExprError> {
        let mut left = self.and()?;
        while self.eat("||") {
            let right = self.and()?;
            left = logical(LogicalOp::Or, left, right);
        }
        Ok(left)
    }

    fn and(&mut self) -> Result<Expr, ExprError> {
        let mut left = self.binary(0)?;
        while self.eat("&&") {
            let right = self.binary(0)?;
            left = logical(LogicalOp::And, left, right);
        }
        Ok(left)
    }

    /// Levels 0..4: equality, relational, additive, multiplicative; then unary.
    fn binary(&mut self, level: usize) -> Result<Expr, ExprError> {
        const LEVELS: &[&[(&str, BinaryOp)]] = &[
            &[
                ("===", BinaryOp::StrictEqual),
                ("!==", BinaryOp::StrictNotEqual),
                ("==", BinaryOp::LooseEqual),
                ("!=", BinaryOp::LooseNotEqual),
            ],
            &[
                ("<=", BinaryOp::LessEqual),
                (">=", BinaryOp::GreaterEqual),
                ("<", BinaryOp::Less),
                (">", BinaryOp::Greater),
            ],
            &[("+", BinaryOp::Add), ("-", BinaryOp::Subtract)],
            &[
                ("*", BinaryOp::Multiply),
                ("/", BinaryOp::Divide),
                ("%", BinaryOp::Remainder),
            ],
        ];
        let Some(operators) = LEVELS.get(level) else {
            return self.unary();
        };
        let mut left = self.binary(level + 1)?;
        loop {
            let Some((_, op)) = operators.iter().find(|(p, _)| self.at(p)) else {
                return Ok(left);
            };
            self.next();
            let right = self.binary(level + 1)?;
            left = Expr {
                span: span(&left, &right),
                kind: ExprKind::Binary(*op, Box::new(left), Box::new(right)),
            };
        }
    }

    fn unary(&mut self) -> Result<Expr, ExprError> {
        let op = if self.at("!") {
            Some(UnaryOp::Not)
        } else if self.at("-") {
            Some(UnaryOp::Negate)
        } else if self.at("+") {
            Some(UnaryOp::Plus)
        } else {
            None
        };
        let Some(op) = op else {
            return self.postfix();
        };
        let start = self.next().start;
        self.enter()?;
        let operand = self.unary()?;
        self.depth -= 1;
        Ok(Expr {
            span: start..operand.span.end,
            kind: ExprKind::Unary(op, Box::new(operand)),
        })
    }

    fn postfix(&mut self) -> Result<Expr, ExprError> {
        let mut expr = self.primary()?;
        loop {
            if self.at(".") || self.at("?.") {
                self.next();
                let name = self.next();
                let Token::Identifier(member) = name.token.clone() else {
                    return Err(self.unexpected(name, "a property name after `.`"));
                };
                if self.at("(") {
                    expr = self.call(expr, member, name.start, name.end)?;
                } else {
                    expr = Expr {
                        span: expr.span.start..name.end,
                        kind: ExprKind::Member(Box::new(expr), member),
                    };
                }
            } else if self.at("[") {
                self.next();
                self.enter()?;
                let index = self.conditional()?;
                self.depth -= 1;
                let close = self.next();
                if !matches!(close.token, Token::Punct("]")) {
                    let message = "`]` to close the `[`".to_owned();
                    return Err(self.unexpected(close, &message));
                }
                expr = Expr {
                    span: expr.span.start..close.end,
                    kind: ExprKind::Index(Box::new(expr), Box::new(index)),
                };
            } else if self.at("(") {
                let paren = self.peek().clone();
                return Err(ExprError::new(
                    "expression-call",
                    format!("only methods can be called ({})", METHODS.join(", ")),
                    paren.start,
                    1,
                ));
            } else {
                return Ok(expr);
            }
        }
    }

    fn call(
        &mut self,
        object: Expr,
        method: String,
        start: usize,
        end: usize,
    ) -> Result<Expr, ExprError> {
        if !METHODS.contains(&method.as_str()) {
            return Err(ExprError::new(
                "expression-unknown-method",
                format!("unknown method `{method}`; allowed: {}", METHODS.join(", ")),
                start,
                end - start,
            ));
        }
        self.next();
        let mut args = Vec::new();
        if !self.at(")") {
            loop {
                self.enter()?;
                args.push(self.conditional()?);
                self.depth -= 1;
                if !self.eat(",") {
                    break;
                }
            }
        }
        let close = self.next();
        if !matches!(close.token, Token::Punct(")")) {
            return Err(self.unexpected(close, &format!("`)` to close the call of `{method}`")));
        }
        Ok(Expr {
            span: object.span.start..close.end,
            kind: ExprKind::Call(Box::new(object), method, args),
        })
    }

    fn primary(&mut self) -> Result<Expr, ExprError> {
        let lexeme = self.next();
        let kind = match &lexeme.token {
            Token::Number(n) => ExprKind::Number(*n),
            Token::String(s) => ExprKind::String(s.clone()),
            Token::Identifier(name) => match name.as_str() {
                "true" => ExprKind::Bool(true),
                "false" => ExprKind::Bool(false),
                "null" => ExprKind::Null,
                "undefined" => ExprKind::Undefined,
                _ => ExprKind::Identifier(name.clone()),
            },
            Token::Punct("(") => {
                self.enter()?;
                let inner = self.conditional()?;
                self.depth -= 1;
                let close = self.next();
                if !matches!(close.token, Token::Punct(")")) {
                    let message = "`)` to close the `(`".to_owned();
                    return Err(self.unexpected(close, &message));
                }
                return Ok(Expr {
                    span: lexeme.start..close.end,
                    kind: inner.kind,
                });
            }
            Token::Punct("[") => {
                self.enter()?;
                let mut items = Vec::new();
                while !self.at("]") {
                    items.push(self.conditional()?);
                    if !self.eat(",") {
                        break;
                    }
                }
                self.depth -= 1;
                let close = self.next();
                if !matches!(close.token, Token::Punct("]")) {
                    return Err(self.unexpected(close, "`,` or `]` in the list"));
                }
                return Ok(Expr {
                    span: lexeme.start..close.end,
                    kind: ExprKind::Array(items),
                });
            }
            _ => return Err(self.unexpected(lexeme, "a value")),
        };
        Ok(Expr {
            span: lexeme.start..lexeme.end,
            kind,
        })
    }
}

fn logical(op: LogicalOp, left: Expr, right: Expr) -> Expr {
    Expr {
        span: span(&left, &right),
        kind: ExprKind::Logical(op, Box::new(left), Box::new(right)),
    }
}
