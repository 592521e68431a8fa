//! Strings that must name something: names, branch targets, references and actions. The
//! canonical schema accepts `""` there; nothing can be done with it.

use super::context::{is_blank, places, LintContext};
use super::rules::{self, LintRule};

/// Where a string must not be empty, and what to say when it is.
struct Required {
    pattern: &'static str,
    rule: LintRule,
    message: &'static str,
}

const fn required(pattern: &'static str, rule: LintRule, message: &'static str) -> Required {
    Required {
        pattern,
        rule,
        message,
    }
}

const REQUIRED: &[Required] = &[
    required(
        "/imports/*/as",
        rules::EMPTY_NAME,
        "`as` is empty: an import needs a namespace for what it brings in",
    ),
    required(
        "/contracts/inputs/*/name",
        rules::EMPTY_NAME,
        "`name` is empty: a contract field needs a name",
    ),
    required(
        "/contracts/outputs/*/name",
        rules::EMPTY_NAME,
        "`name` is empty: a contract field needs a name",
    ),
    required(
        "/quality_gates/pre_output/*/name",
        rules::EMPTY_NAME,
        "`name` is empty: a quality gate needs a name",
    ),
    required(
        "/quality_gates/post_output/*/name",
        rules::EMPTY_NAME,
        "`name` is empty: a quality gate needs a name",
    ),
    required(
        "/quality_gates/invariants/*/name",
        rules::EMPTY_NAME,
        "`name` is empty: an invariant needs a name",
    ),
    required(
        "/quality_gates/self_verification/rubric/criteria/*/name",
        rules::EMPTY_NAME,
        "`name` is empty: a rubric criterion needs a name",
    ),
    required(
        "/visual/ports/inputs/*/name",
        rules::EMPTY_NAME,
        "`name` is empty: a port needs a name",
    ),
    required(
        "/visual/ports/outputs/*/name",
        rules::EMPTY_NAME,
        "`name` is empty: a port needs a name",
    ),
    required(
        "/steps/*/branches/*/then",
        rules::EMPTY_BRANCH_TARGET,
        "`then` is empty: a branch must name the step it goes to",
    ),
    required(
        "/decision_trees/*/nodes/*/branches/*/next",
        rules::EMPTY_BRANCH_TARGET,
        "`next` is empty: a branch must name the node, terminal or step it goes to",
    ),
    required(
        "/imports/*/ref",
        rules::EMPTY_REFERENCE,
        "`ref` is empty: an import must name the file it loads",
    ),
    required(
        "/steps/*/needs/*",
        rules::EMPTY_REFERENCE,
        "`needs` has an empty step name",
    ),
    required(
        "/decision_trees/*/root",
        rules::EMPTY_REFERENCE,
        "`root` is empty: a decision tree must name the node it starts at",
    ),
    required(
        "/fallback/degradation/*/fallback_to",
        rules::EMPTY_REFERENCE,
        "`fallback_to` is empty: name a fallback mode or a step",
    ),
    required(
        "/nodes/*/logic_ref",
        rules::EMPTY_REFERENCE,
        "`logic_ref` is empty: a workflow node must name the LOGIC.md file it runs",
    ),
    required(
        "/nodes/*/depends_on/*",
        rules::EMPTY_REFERENCE,
        "`depends_on` has an empty node name",
    ),
    required(
        "/edges/*/from",
        rules::EMPTY_REFERENCE,
        "`from` is empty: an edge must name its source node",
    ),
    required(
        "/edges/*/to",
        rules::EMPTY_REFERENCE,
        "`to` is empty: an edge must name its target node",
    ),
    required(
        "/visual/inspector/*/key",
        rules::EMPTY_REFERENCE,
        "`key` is empty: an inspector control must name the field it edits",
    ),
    required(
        "/decision_trees/*/terminals/*/action",
        rules::EMPTY_ACTION,
        "`action` is empty: a terminal must say what happens",
    ),
    required(
        "/fallback/escalation/*/action",
        rules::EMPTY_ACTION,
        "`action` is empty: an escalation level must say what happens",
    ),
    required(
        "/fallback/degradation/*/when",
        rules::EMPTY_ACTION,
        "`when` is empty: a degradation rule must say when it applies",
    ),
];

pub fn check(cx: &mut LintContext<'_>) {
    let own = cx.own();
    for required in REQUIRED {
        for (at, value) in places(own, required.pattern).iter() {
            if value.as_str().is_some_and(is_blank) {
                cx.report(required.rule, &at.pointer(), required.message);
            }
        }
    }
}

/// Whether `code` is one of this module's rules: a finding at the same place by another rule
/// (an unknown step named `""`, a file `""` that cannot be read) says the same thing less clearly.
pub fn is_empty_rule(code: &str) -> bool {
    [
        rules::EMPTY_NAME,
        rules::EMPTY_BRANCH_TARGET,
        rules::EMPTY_REFERENCE,
        rules::EMPTY_ACTION,
    ]
    .iter()
    .any(|rule| rule.code == code)
}
