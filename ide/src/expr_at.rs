//! Expressions inside a YAML string: where each `{{ }}` is, what names it reads, and where
//! those names are in the file.

use std::ops::Range;

use logicmd::expr::{Expr, ExprKind, Template};

/// The names `root.NAME` (or `root['NAME']`) an expression reads, with the range of NAME in
/// the expression's text.
pub(crate) fn members_of(expr: &Expr, root: &str) -> Vec<(String, Range<usize>)> {
    let mut found = Vec::new();
    expr.visit(&mut |node| {
        let (object, name, range) = match &node.kind {
            ExprKind::Member(object, name) => (
                object,
                name.clone(),
                node.span.end.saturating_sub(name.len())..node.span.end,
            ),
            ExprKind::Index(object, index) => match &index.kind {
                ExprKind::String(name) => (
                    object,
                    name.clone(),
                    index.span.start + 1..index.span.end.saturating_sub(1),
                ),
                _ => return,
            },
            _ => return,
        };
        if matches!(&object.kind, ExprKind::Identifier(id) if id == root) {
            found.push((name, range));
        }
    });
    found
}

/// The expressions of a string value that holds `{{`: `None` when it holds none or does not
/// parse.
pub(crate) fn expressions(value: &str) -> Option<Vec<Expr>> {
    if !value.contains("{{") {
        return None;
    }
    Template::parse(value)
        .ok()
        .map(|t| t.expressions().into_iter().cloned().collect())
}

/// The `{{ … }}` regions of a string value: the byte ranges of the text between each `{{` and
/// its `}}` (or the end of the string when it is not closed yet), in the value's text.
pub(crate) fn regions(value: &str) -> Vec<Range<usize>> {
    let mut found = Vec::new();
    let mut at = 0;
    while let Some(open) = value[at..].find("{{").map(|i| at + i + 2) {
        let close = value[open..].find("}}").map_or(value.len(), |i| open + i);
        found.push(open..close);
        at = (close + 2).min(value.len());
        if close >= value.len() {
            break;
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn members_are_found_in_dot_and_bracket_form() {
        let template = Template::parse("{{ steps.a.output.x && steps['b-c'].output }}").unwrap();
        let expr = template.expressions()[0];
        let text = "{{ steps.a.output.x && steps['b-c'].output }}";
        let found: Vec<(String, &str)> = members_of(expr, "steps")
            .into_iter()
            .map(|(name, range)| (name, &text[range]))
            .collect();
        assert_eq!(
            found,
            vec![("a".to_owned(), "a"), ("b-c".to_owned(), "b-c")]
        );
    }

    #[test]
    fn regions_include_an_unclosed_one() {
        assert_eq!(regions("a {{ x }} b {{ y"), vec![4..7, 14..16]);
        assert_eq!(regions("none"), Vec::<Range<usize>>::new());
    }
}
