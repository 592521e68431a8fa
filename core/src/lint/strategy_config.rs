//! `reasoning.strategy_config` is free-form in the canonical schema ("varies by strategy"); spec
//! §3 documents some of its keys and their values. Those keys are checked here; others pass.

use super::context::{shown, LintContext, V};
use super::rules;
use crate::json::pointer_push;

/// What spec §3 says a key holds.
enum Expected {
    /// An integer of at least this much.
    IntegerFrom(i64),
    /// A number from 0 to 1.
    Fraction,
    /// One of these words.
    Choice(&'static [&'static str]),
    /// A list of names.
    Names,
    Boolean,
}

const KEYS: &[(&str, Expected)] = &[
    ("branching_factor", Expected::IntegerFrom(1)),
    (
        "evaluation_method",
        Expected::Choice(&["vote", "score", "compare"]),
    ),
    ("pruning_threshold", Expected::Fraction),
    ("max_depth", Expected::IntegerFrom(1)),
    ("operations", Expected::Names),
    (
        "observation_source",
        Expected::Choice(&["tools", "memory", "both"]),
    ),
    ("max_actions_per_thought", Expected::IntegerFrom(1)),
    ("replan_on_failure", Expected::Boolean),
    ("max_replans", Expected::IntegerFrom(0)),
];

pub fn check(cx: &mut LintContext<'_>) {
    let pointer = "/reasoning/strategy_config";
    let Some(config) = cx.own().pointer(pointer).and_then(V::as_object) else {
        return;
    };
    for (key, expected) in KEYS {
        let Some(value) = config.get(key) else {
            continue;
        };
        if let Some(wanted) = problem(expected, value) {
            let at = pointer_push(pointer, key);
            cx.report(
                rules::INVALID_STRATEGY_CONFIG,
                &at,
                format!("`{key}` is {}; {wanted}", shown(value)),
            );
            if let (Expected::Choice(words), Some(word)) = (expected, value.as_str()) {
                if let Some(close) = crate::schema::closest(word, words.iter().copied()) {
                    cx.help(format!("did you mean `{close}`?"));
                }
            }
        }
    }
}

/// What the value should be, when it is not.
fn problem(expected: &Expected, value: V<'_>) -> Option<String> {
    let fits = match expected {
        Expected::IntegerFrom(least) => value
            .as_f64()
            .is_some_and(|n| n.fract() == 0.0 && n >= *least as f64),
        Expected::Fraction => value.as_f64().is_some_and(|n| (0.0..=1.0).contains(&n)),
        Expected::Choice(words) => value.as_str().is_some_and(|w| words.contains(&w)),
        Expected::Names => value
            .as_array()
            .is_some_and(|items| items.iter().all(V::is_string)),
        Expected::Boolean => value.is_boolean(),
    };
    (!fits).then(|| match expected {
        Expected::IntegerFrom(least) => format!("it must be an integer of at least {least}"),
        Expected::Fraction => "it must be a number from 0 to 1".to_owned(),
        Expected::Choice(words) => format!("spec §3 allows {}", words.join(", ")),
        Expected::Names => "it must be a list of operation names".to_owned(),
        Expected::Boolean => "it must be true or false".to_owned(),
    })
}
