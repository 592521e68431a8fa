//! Renaming the steps a template reads: `steps.NAME`, `steps?.NAME` and `steps['NAME']` name a
//! step; a new name is written in the form the old one was, or in brackets when it is not an
//! identifier (`steps['lib.a']`). Used by `--rename-step` and by imports, which give an imported
//! file's steps their namespace (spec §2.2).

use std::ops::Range;

use super::ast::{Expr, ExprKind};
use super::template::Template;

/// `text` (a template) with every step read renamed by `rename` (`None`: kept), or `None` when
/// nothing changed or the template does not parse (its syntax error is reported elsewhere).
pub fn rename_step_reads(text: &str, rename: impl Fn(&str) -> Option<String>) -> Option<String> {
    let template = Template::parse(text).ok()?;
    let mut edits: Vec<(Range<usize>, String)> = Vec::new();
    for expr in template.expressions() {
        expr.visit(&mut |node| {
            if let Some(edit) = step_read_edit(text, node, &rename) {
                edits.push(edit);
            }
        });
    }
    if edits.is_empty() {
        return None;
    }
    crate::sorting::sort_by_key(&mut edits, |(range, _)| std::cmp::Reverse(range.start));
    let mut rewritten = text.to_owned();
    for (range, replacement) in edits {
        rewritten.replace_range(range, &replacement);
    }
    Some(rewritten)
}

/// The edit renaming the step `node` reads, when it is `steps.NAME` or `steps['NAME']` and
/// `rename` gives NAME a new name.
fn step_read_edit(
    text: &str,
    node: &Expr,
    rename: &impl Fn(&str) -> Option<String>,
) -> Option<(Range<usize>, String)> {
    match &node.kind {
        ExprKind::Member(object, name) if is_steps(object) => {
            let to = rename(name)?;
            let name_start = node.span.end - name.len();
            if is_identifier(&to) {
                return Some((name_start..node.span.end, to));
            }
            let accessor = text.get(object.span.end..name_start)?;
            let optional = if accessor.contains("?.") { "?." } else { "" };
            Some((
                object.span.end..node.span.end,
                format!("{optional}[{}]", quoted(&to, '\'')),
            ))
        }
        ExprKind::Index(object, index) if is_steps(object) => {
            let ExprKind::String(name) = &index.kind else {
                return None;
            };
            let to = rename(name)?;
            let quote = text.get(index.span.clone())?.chars().next()?;
            Some((index.span.clone(), quoted(&to, quote)))
        }
        _ => None,
    }
}

fn is_steps(expr: &Expr) -> bool {
    matches!(&expr.kind, ExprKind::Identifier(root) if root == "steps")
}

/// Whether `name` can be written after a `.` in an expression (else it is read in brackets:
/// `steps['my-step']`).
pub fn is_identifier(name: &str) -> bool {
    name.chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_' || c == '$')
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '$')
}

/// `text` as a string literal in `quote`s.
pub(crate) fn quoted(text: &str, quote: char) -> String {
    let escaped = text
        .replace('\\', "\\\\")
        .replace(quote, &format!("\\{quote}"));
    format!("{quote}{escaped}{quote}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lib(name: &str) -> Option<String> {
        (name == "a").then(|| "lib.a".to_owned())
    }

    #[test]
    fn every_form_of_a_step_read_is_renamed() {
        for (text, expected) in [
            ("{{ steps.a.output }}", "{{ steps['lib.a'].output }}"),
            ("{{ steps?.a.output }}", "{{ steps?.['lib.a'].output }}"),
            ("{{ steps['a'].ok }}", "{{ steps['lib.a'].ok }}"),
            ("{{ steps[\"a\"].ok }}", "{{ steps[\"lib.a\"].ok }}"),
            (
                "x {{ steps.a.n + steps.b.n }} y {{ steps . a }}",
                "x {{ steps['lib.a'].n + steps.b.n }} y {{ steps['lib.a'] }}",
            ),
            (
                "{{ steps.a.list.some(steps.a.x) }}",
                "{{ steps['lib.a'].list.some(steps['lib.a'].x) }}",
            ),
        ] {
            assert_eq!(
                rename_step_reads(text, lib).as_deref(),
                Some(expected),
                "{text}"
            );
        }
    }

    #[test]
    fn other_reads_and_broken_templates_are_left_alone() {
        for text in [
            "{{ steps.b.output }}",
            "{{ output.a }}",
            "{{ a.steps.a }}",
            "{{ steps.a +",
            "no template",
        ] {
            assert_eq!(rename_step_reads(text, lib), None, "{text}");
        }
        let plain = |n: &str| (n == "a").then(|| "b_2".to_owned());
        assert_eq!(
            rename_step_reads("{{ steps?.a.x }}", plain).as_deref(),
            Some("{{ steps?.b_2.x }}")
        );
    }
}
