//! Rules about imports: an import whose names are never used.

use serde_json::Value;

use super::context::LintContext;
use super::rules;
use crate::imports::Contribution;

/// An import is used when it contributes a section other than steps (those merge in and apply),
/// or when one of its steps is named by a `needs`, branch, `parallel_steps` or expression.
pub fn check(cx: &mut LintContext<'_>, contributed: &[Contribution]) {
    let own = cx.own();
    let text_of = |section: &str| {
        serde_json::to_string(own.get(section).unwrap_or(&Value::Null)).unwrap_or_default()
    };
    // Written once, and only when an import has to be looked for (most documents have none).
    let mut texts: Option<(String, String)> = None;
    for contribution in contributed {
        if !contribution.loaded || !contribution.sections.is_empty() {
            continue;
        }
        let (own_text, trees) =
            texts.get_or_insert_with(|| (text_of("steps"), text_of("decision_trees")));
        let prefix = format!("{}.", contribution.alias);
        let mentioned = own_text.contains(&prefix) || trees.contains(&prefix);
        if !mentioned {
            let what = if contribution.steps.is_empty() {
                "contributes nothing".to_owned()
            } else {
                format!(
                    "defines steps ({}) that nothing in this file refers to",
                    contribution.steps.join(", ")
                )
            };
            cx.report(
                rules::UNUSED_IMPORT,
                &format!("/imports/{}", contribution.index),
                format!("import `{}` {what}", contribution.alias),
            );
        }
    }
}
