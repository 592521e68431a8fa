//! Strings with `{{ }}`: a whole-string expression evaluates to a JSON value; expressions inside
//! other text interpolate; text without `{{` is a literal.

use serde_json::Value;

use super::ast::Expr;
use super::eval::evaluate;
use super::parser::parse_expression;
use super::{ExprError, ExprLimits};

/// A piece of an interpolated template.
#[derive(Debug, Clone, PartialEq)]
pub enum Segment {
    /// Literal text, kept as written.
    Text(String),
    /// A `{{ }}` expression; its span is in the whole template's text.
    Expression(Expr),
}

/// A string parsed for `{{ }}` expressions (spec §9).
#[derive(Debug, Clone, PartialEq)]
pub enum Template {
    /// No `{{` at all.
    Literal(String),
    /// Exactly one `{{ expr }}`, with nothing but spaces around it.
    Expression(Expr),
    /// Text and expressions mixed.
    Interpolation(Vec<Segment>),
}

impl Template {
    /// Parses `text` with [`ExprLimits::DEFAULT`]; an unclosed `{{`, a `}}` that closes no `{{`
    /// (in a text that has one) or a bad expression is an error placed in `text`.
    pub fn parse(text: &str) -> Result<Template, ExprError> {
        Template::parse_with(text, ExprLimits::DEFAULT)
    }

    /// Parses `text` with the given limits.
    pub fn parse_with(text: &str, limits: ExprLimits) -> Result<Template, ExprError> {
        if !text.contains("{{") {
            return Ok(Template::Literal(text.to_owned()));
        }
        let mut segments = Vec::new();
        let mut rest_start = 0;
        while let Some(open) = text[rest_start..].find("{{").map(|i| rest_start + i) {
            stray_close(text, rest_start, open)?;
            if open > rest_start {
                segments.push(Segment::Text(text[rest_start..open].to_owned()));
            }
            let inner_start = open + 2;
            let Some(close) = find_close(text, inner_start) else {
                return Err(ExprError::new(
                    "expression-syntax",
                    "`{{` is never closed: expected `}}`",
                    open,
                    2,
                ));
            };
            let expr = parse_expression(&text[inner_start..close], inner_start, limits)?;
            segments.push(Segment::Expression(expr));
            rest_start = close + 2;
        }
        stray_close(text, rest_start, text.len())?;
        if rest_start < text.len() {
            segments.push(Segment::Text(text[rest_start..].to_owned()));
        }
        let only_spaces = |s: &Segment| matches!(s, Segment::Text(t) if t.trim().is_empty());
        let expressions = segments
            .iter()
            .filter(|s| matches!(s, Segment::Expression(_)))
            .count();
        if expressions == 1
            && segments
                .iter()
                .all(|s| matches!(s, Segment::Expression(_)) || only_spaces(s))
        {
            if let Some(Segment::Expression(expr)) = segments
                .into_iter()
                .find(|s| matches!(s, Segment::Expression(_)))
            {
                return Ok(Template::Expression(expr));
            }
            return Err(ExprError::new(
                "expression-syntax",
                "empty template",
                0,
                text.len(),
            ));
        }
        Ok(Template::Interpolation(segments))
    }

    /// The parsed expressions, in order.
    pub fn expressions(&self) -> Vec<&Expr> {
        match self {
            Template::Literal(_) => Vec::new(),
            Template::Expression(expr) => vec![expr],
            Template::Interpolation(segments) => segments
                .iter()
                .filter_map(|s| match s {
                    Segment::Expression(e) => Some(e),
                    Segment::Text(_) => None,
                })
                .collect(),
        }
    }

    /// Evaluates against `context` (a JSON object of the names in scope) with
    /// [`ExprLimits::DEFAULT`]: a literal gives its text, a whole-string expression its JSON value,
    /// an interpolation the text with each value inserted.
    pub fn evaluate(&self, context: &Value) -> Result<Value, ExprError> {
        self.evaluate_with(context, ExprLimits::DEFAULT)
    }

    /// Evaluates with the given limits.
    pub fn evaluate_with(&self, context: &Value, limits: ExprLimits) -> Result<Value, ExprError> {
        match self {
            Template::Literal(text) => Ok(Value::String(text.clone())),
            Template::Expression(expr) => {
                evaluate(expr, context, limits)?.to_json(expr.span.start, expr.span.len())
            }
            Template::Interpolation(segments) => {
                let mut out = String::new();
                for segment in segments {
                    match segment {
                        Segment::Text(text) => out.push_str(text),
                        Segment::Expression(expr) => {
                            let value = evaluate(expr, context, limits)?
                                .to_json(expr.span.start, expr.span.len())?;
                            match value {
                                Value::String(s) => out.push_str(&s),
                                other => out.push_str(&other.to_string()),
                            }
                        }
                    }
                    if out.len() > limits.max_string {
                        return Err(ExprError::new(
                            "expression-too-costly",
                            format!(
                                "the interpolated text grew beyond {}",
                                crate::limits::format_limit(limits.max_string)
                            ),
                            0,
                            0,
                        ));
                    }
                }
                Ok(Value::String(out))
            }
        }
    }
}

/// A `}}` in the text between two expressions closes nothing: in a string that uses `{{ }}` it is
/// a typo (`{{ a }} }}`, a condition with one brace pair too many), not text to keep; a literal
/// `}}` is written `{{ '}}' }}`.
fn stray_close(text: &str, from: usize, to: usize) -> Result<(), ExprError> {
    match text[from..to].find("}}") {
        Some(at) => Err(ExprError::new(
            "expression-syntax",
            "`}}` closes no `{{` (a literal `}}` is written `{{ '}}' }}`)",
            from + at,
            2,
        )),
        None => Ok(()),
    }
}

/// The `}}` that closes an expression starting at `from`, skipping `}}` inside string literals.
fn find_close(text: &str, from: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut quote: Option<u8> = None;
    let mut i = from;
    while i < bytes.len() {
        let b = bytes[i];
        match quote {
            Some(_) if b == b'\\' => i += 1,
            Some(q) if b == q => quote = None,
            Some(_) => {}
            None if b == b'\'' || b == b'"' => quote = Some(b),
            None if b == b'}' && bytes.get(i + 1) == Some(&b'}') => return Some(i),
            None => {}
        }
        i += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn whole_expression_keeps_its_type() {
        let t = Template::parse("{{ steps.a.output.count + 1 }}").unwrap();
        assert_eq!(
            t.evaluate(&json!({"steps": {"a": {"output": {"count": 2}}}}))
                .unwrap(),
            json!(3)
        );
        assert_eq!(
            Template::parse("  {{ [1, 'x'] }} ")
                .unwrap()
                .evaluate(&json!({}))
                .unwrap(),
            json!([1, "x"])
        );
    }

    #[test]
    fn interpolation_renders_non_strings_as_json() {
        let t = Template::parse("n={{ n }} list={{ xs }} s={{ s }} missing={{ nope }}").unwrap();
        let out = t
            .evaluate(&json!({"n": 2.5, "xs": [1, 2], "s": "hi"}))
            .unwrap();
        assert_eq!(out, json!("n=2.5 list=[1,2] s=hi missing=null"));
        assert_eq!(
            Template::parse("plain text").unwrap(),
            Template::Literal("plain text".into())
        );
    }

    #[test]
    fn errors_point_into_the_template() {
        let err = Template::parse("ok {{ a + }} rest").unwrap_err();
        assert_eq!(err.offset, 10, "{err:?}");
        let err = Template::parse("{{ a.b").unwrap_err();
        assert_eq!((err.offset, err.len), (0, 2));
        let err = Template::parse("{{ '}}' == x }}").unwrap();
        assert!(matches!(err, Template::Expression(_)));
    }

    #[test]
    fn a_close_without_an_open_is_a_syntax_error() {
        for (text, offset) in [
            ("{{ a }} }}", 8),
            ("}} {{ a }}", 0),
            ("x {{ a }} y }} z {{ b }}", 12),
            ("{{ 1 }} 2 }}", 10),
        ] {
            let err = Template::parse(text).unwrap_err();
            assert_eq!(
                (err.code, err.offset, err.len),
                ("expression-syntax", offset, 2),
                "{text}"
            );
        }
        assert_eq!(
            Template::parse("{{ '}}' }} and {{ a }}")
                .unwrap()
                .expressions()
                .len(),
            2
        );
        assert!(matches!(
            Template::parse("plain }} text"),
            Ok(Template::Literal(_))
        ));
    }
}
