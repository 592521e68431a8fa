//! Strings the canonical schema leaves free that tools read from a known list: the type of a
//! contract field or a port, the control of an inspector field, an edge's contract-violation
//! action. A value outside the list is reported with the closest known one.

use super::context::{places, LintContext};
use super::rules::{self, LintRule};

/// JSON Schema's types, plus `any` (spec §5.1, §10.1).
pub const VALUE_TYPES: &[&str] = &[
    "string", "number", "integer", "boolean", "object", "array", "null", "any",
];

/// The inspector controls of spec §10.1.
pub const INSPECTOR_CONTROLS: &[&str] = &["select", "number", "boolean", "slider", "text"];

/// What a workflow does when data breaks an edge contract (spec §9.1).
pub const CONTRACT_VIOLATION_ACTIONS: &[&str] = &["retry_source", "skip", "abort"];

/// One vocabulary: where its words are used and how to name what is wrong.
struct Vocabulary {
    patterns: &'static [&'static str],
    rule: LintRule,
    words: &'static [&'static str],
    /// What the value is, as the message names it.
    what: &'static str,
}

const VOCABULARIES: &[Vocabulary] = &[
    Vocabulary {
        patterns: &["/contracts/inputs/*/type", "/contracts/outputs/*/type"],
        rule: rules::UNKNOWN_CONTRACT_TYPE,
        words: VALUE_TYPES,
        what: "contract field type",
    },
    Vocabulary {
        patterns: &[
            "/visual/ports/inputs/*/type",
            "/visual/ports/outputs/*/type",
        ],
        rule: rules::UNKNOWN_PORT_TYPE,
        words: VALUE_TYPES,
        what: "port type",
    },
    Vocabulary {
        patterns: &["/visual/inspector/*/type"],
        rule: rules::UNKNOWN_INSPECTOR_TYPE,
        words: INSPECTOR_CONTROLS,
        what: "inspector control type",
    },
    Vocabulary {
        patterns: &["/edges/*/on_contract_violation"],
        rule: rules::UNKNOWN_CONTRACT_VIOLATION_ACTION,
        words: CONTRACT_VIOLATION_ACTIONS,
        what: "on_contract_violation",
    },
];

pub fn check(cx: &mut LintContext<'_>) {
    let own = cx.own();
    for vocabulary in VOCABULARIES {
        for pattern in vocabulary.patterns {
            for (at, value) in places(own, pattern).iter() {
                let Some(word) = value.as_str() else {
                    continue;
                };
                if vocabulary.words.contains(&word) {
                    continue;
                }
                cx.report(
                    vocabulary.rule,
                    &at.pointer(),
                    format!(
                        "{} `{word}` is not one of {}",
                        vocabulary.what,
                        vocabulary.words.join(", ")
                    ),
                );
                if let Some(close) = crate::schema::closest(word, vocabulary.words.iter().copied())
                {
                    cx.help(format!("did you mean `{close}`?"));
                }
            }
        }
    }
}
