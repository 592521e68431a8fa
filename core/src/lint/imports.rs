//! Rules about imports: an import whose names are never used.

use super::context::LintContext;
use super::rules;
use crate::imports::Contribution;

/// An import is used when it contributes a section other than steps (those merge in and apply),
/// or when one of its steps is named by a `needs`, branch, `parallel_steps` or expression.
pub fn check(cx: &mut LintContext<'_>, contributed: &[Contribution]) {
    let own = cx.own();
    for contribution in contributed {
        if !contribution.loaded || !contribution.sections.is_empty() {
            continue;
        }
        // Only a document with imports has contributions, and it is read as JSON.
        if !crate::imports::refers_to(&own.json(), &contribution.alias) {
            let what = if contribution.steps.is_empty() {
                "contributes nothing".to_owned()
            } else {
                format!(
                    "defines steps ({}) that nothing in this file refers to, so they are not run",
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
