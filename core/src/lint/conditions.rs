//! Conditions are expressions (spec §4.1.1, §4.2, §6, §7, §8): the fields the canonical schema
//! types as `Expression` hold one `{{ }}` expression. Written without `{{ }}`, or as text around
//! one, such a field is read as text: a constant, so a check always passes, a gate never
//! blocks, a branch always fires and a tree condition matches no branch's value. That is an
//! error here, not a surprise at run time.

use super::context::{places, LintContext};
use super::expressions::locate;
use super::rules;
use crate::expr::{parse_expression, ExprLimits, Template};

/// A field the canonical schema types as `Expression`, and what a constant there does.
struct Place {
    pattern: &'static str,
    /// What text (truthy) makes of it.
    when_text: &'static str,
    /// What the empty text (falsy) makes of it.
    when_empty: &'static str,
}

/// The fields whose value is a condition, as JSON Pointer patterns (`*` any key or index): the
/// places of this rule, and of its fix (`fix::wrap_condition`).
pub fn condition_patterns() -> impl Iterator<Item = &'static str> {
    PLACES.iter().map(|place| place.pattern)
}

const PLACES: &[Place] = &[
    Place {
        pattern: "/steps/*/verification/check",
        when_text: "this check always passes",
        when_empty: "this check always fails",
    },
    Place {
        pattern: "/steps/*/branches/*/if",
        when_text: "this branch is always taken",
        when_empty: "this branch is never taken",
    },
    Place {
        pattern: "/quality_gates/pre_output/*/check",
        when_text: "this gate never blocks",
        when_empty: "this gate always blocks",
    },
    Place {
        pattern: "/quality_gates/post_output/*/check",
        when_text: "this gate never fails",
        when_empty: "this gate always fails",
    },
    Place {
        pattern: "/quality_gates/invariants/*/check",
        when_text: "this invariant always holds",
        when_empty: "this invariant is always breached",
    },
    Place {
        pattern: "/fallback/escalation/*/trigger",
        when_text: "this escalation always fires",
        when_empty: "this escalation never fires",
    },
    Place {
        pattern: "/decision_trees/*/nodes/*/condition",
        when_text: "this node compares the same text with its branches' values every time",
        when_empty: "this node compares the empty text with its branches' values every time",
    },
];

pub fn check(cx: &mut LintContext<'_>) {
    let own = cx.own();
    for place in PLACES {
        let found = places(own, place.pattern);
        for (at, value) in found.iter() {
            if let Some(text) = value.as_str() {
                condition(cx, &at.pointer(), text, place);
            }
        }
    }
}

fn condition(cx: &mut LintContext<'_>, pointer: &str, text: &str, place: &Place) {
    if text.contains("{{") {
        // A template that does not parse is `expression-syntax` (expressions.rs).
        if let Ok(Template::Interpolation(_)) = Template::parse(text) {
            cx.report(
                rules::CONDITION_IS_TEXT,
                pointer,
                format!(
                    "a condition is one `{{{{ }}}}` expression, not text around one: the runtime reads text, so {}",
                    place.when_text
                ),
            );
            cx.help("put the whole condition inside one `{{ }}`, e.g. `{{ output.ok && output.count > 0 }}`");
        }
        return;
    }
    let trimmed = text.trim();
    if let Some(at) = text.find("}}") {
        let span = locate(cx, pointer, text, at, 2);
        cx.report_at(
            rules::EXPRESSION_SYNTAX,
            pointer,
            span,
            "invalid expression: `}}` closes no `{{`",
        );
        cx.help("a condition is written `{{ expression }}`");
    } else if trimmed.is_empty() {
        cx.report(
            rules::CONDITION_IS_TEXT,
            pointer,
            format!("the condition is empty: {}", place.when_empty),
        );
        cx.help("write an expression over the output, e.g. `{{ output.sources.length > 0 }}`");
    } else if parse_expression(trimmed, 0, ExprLimits::DEFAULT).is_ok() {
        cx.report(
            rules::UNBRACED_CONDITION,
            pointer,
            format!(
                "`{trimmed}` has no `{{{{ }}}}`, so the runtime reads it as text, not as an expression: {}",
                place.when_text
            ),
        );
        cx.help(format!("wrap it in `{{{{ }}}}`: `{{{{ {trimmed} }}}}`"));
    } else {
        cx.report(
            rules::CONDITION_IS_TEXT,
            pointer,
            format!(
                "the condition is prose, not a `{{{{ }}}}` expression: the runtime reads text, so {}",
                place.when_text
            ),
        );
        cx.help(
            "write it as an expression over the output, e.g. `{{ output.sources.length > 0 }}`",
        );
    }
}
