//! Numbers the canonical schema leaves unbounded but that only work inside a range: counts
//! below 1, negative budgets, a temperature providers refuse, a backoff that speeds retries up.

use super::context::{places, LintContext};
use super::rules::{self, LintRule};

/// One range: where the numbers are, what is wrong with them, and how to say so.
struct Range {
    pattern: &'static str,
    rule: LintRule,
    /// Whether the number is out of the range that works.
    wrong: fn(f64) -> bool,
    /// The message, given the field name and the number as written.
    message: fn(&str, &str) -> String,
}

const RANGES: &[Range] = &[
    Range {
        pattern: "/reasoning/max_iterations",
        rule: rules::MAX_ITERATIONS_ZERO,
        wrong: |n| n < 1.0,
        message: |field, n| {
            format!("`{field}: {n}` stops reasoning before its first loop; it must be at least 1")
        },
    },
    Range {
        pattern: "/reasoning/temperature",
        rule: rules::TEMPERATURE_OUT_OF_RANGE,
        wrong: |n| !(0.0..=2.0).contains(&n),
        message: |_, n| {
            format!("temperature {n} is outside 0 to 2, the range model providers accept")
        },
    },
    Range {
        pattern: "/steps/*/retry/max_attempts",
        rule: rules::COUNT_BELOW_ONE,
        wrong: |n| n < 1.0,
        message: |field, n| {
            format!("`{field}: {n}`: the first attempt counts, so at least 1 is needed for the step to run")
        },
    },
    Range {
        pattern: "/global/max_parallelism",
        rule: rules::COUNT_BELOW_ONE,
        wrong: |n| n < 1.0,
        message: |field, n| {
            format!("`{field}: {n}`: no node could ever run; it must be at least 1")
        },
    },
    Range {
        pattern: "/contracts/capabilities/max_input_tokens",
        rule: rules::COUNT_BELOW_ONE,
        wrong: |n| n < 1.0,
        message: |field, n| {
            format!("`{field}: {n}`: the agent would accept no input; it must be at least 1")
        },
    },
    Range {
        pattern: "/reasoning/thinking_budget",
        rule: rules::NEGATIVE_VALUE,
        wrong: |n| n < 0.0,
        message: negative,
    },
    Range {
        pattern: "/quality_gates/self_verification/reflection/max_revisions",
        rule: rules::NEGATIVE_VALUE,
        wrong: |n| n < 0.0,
        message: negative,
    },
    Range {
        pattern: "/global/max_total_cost",
        rule: rules::NEGATIVE_VALUE,
        wrong: |n| n < 0.0,
        message: negative,
    },
    Range {
        pattern: "/steps/*/retry/backoff_coefficient",
        rule: rules::BACKOFF_BELOW_ONE,
        wrong: |n| n < 1.0,
        message: |field, n| {
            format!("`{field}: {n}` shortens the wait after each attempt; use 1 for a constant interval, more to back off")
        },
    },
    Range {
        pattern: "/fallback/escalation/*/level",
        rule: rules::ESCALATION_LEVEL_BELOW_ONE,
        wrong: |n| n < 1.0,
        message: |_, n| format!("escalation level {n} is below 1; levels count up from 1"),
    },
    Range {
        pattern: "/visual/inspector/*/step",
        rule: rules::INSPECTOR_STEP_NOT_POSITIVE,
        wrong: |n| n <= 0.0,
        message: |field, n| {
            format!("`{field}: {n}` cannot move the control; it must be greater than 0")
        },
    },
];

fn negative(field: &str, n: &str) -> String {
    format!("`{field}: {n}` is negative; it must be 0 or more (0 for none)")
}

pub fn check(cx: &mut LintContext<'_>) {
    let own = cx.own();
    for range in RANGES {
        let field = range.pattern.rsplit('/').next().unwrap_or_default();
        for (at, value) in places(own, range.pattern).iter() {
            let wrong = value.as_f64().is_some_and(range.wrong);
            if wrong {
                // The number as JSON writes it (`2.0`, `-1`), as the message always showed it.
                let message = (range.message)(field, &value.json().to_string());
                cx.report(range.rule, &at.pointer(), message);
            }
        }
    }
}
