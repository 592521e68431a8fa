//! Rules about named lists and the visual section: duplicate names, rubric weights, escalation
//! order, inspector keys, post-output revisions.

use std::collections::BTreeMap;

use super::context::V;
use super::context::{did_you_mean, items, object, At, LintContext};
use super::rules;
use crate::fieldpath::FieldPath;
use crate::json::pointer_tokens;
use crate::schema::{allows_path, schema};

pub fn check(cx: &mut LintContext<'_>) {
    let own = cx.own();
    let lists = [
        ("/visual/ports", "inputs"),
        ("/visual/ports", "outputs"),
        ("/contracts", "inputs"),
        ("/contracts", "outputs"),
        ("/quality_gates", "pre_output"),
        ("/quality_gates", "post_output"),
        ("/quality_gates", "invariants"),
        ("/quality_gates/self_verification/rubric", "criteria"),
    ];
    for (parent, field) in lists {
        if let Some(owner) = own.pointer(parent) {
            duplicate_names(cx, owner, parent, field);
        }
    }
    rubric_weights(cx, own);
    escalation_order(cx, own);
    fallback_targets(cx, own);
    post_output_revise(cx, own);
    inspector_keys(cx, own);
}

fn duplicate_names(cx: &mut LintContext<'_>, owner: V<'_>, parent: &str, field: &str) {
    let mut first: BTreeMap<&str, String> = BTreeMap::new();
    for (at, item) in items(owner, &At::Pointer(parent), field) {
        let Some(name) = item.get("name").and_then(V::as_str) else {
            continue;
        };
        match first.get(name) {
            Some(earlier) => {
                let message =
                    format!("`{name}` is already used by {earlier} in `{parent}/{field}`");
                cx.report(rules::DUPLICATE_NAME, &format!("{at}/name"), message);
            }
            None => {
                first.insert(name, at.pointer());
            }
        }
    }
}

fn rubric_weights(cx: &mut LintContext<'_>, own: V<'_>) {
    let pointer = "/quality_gates/self_verification/rubric";
    let Some(criteria) = own
        .pointer(&format!("{pointer}/criteria"))
        .and_then(V::as_array)
    else {
        return;
    };
    let weights: Vec<f64> = criteria
        .iter()
        .filter_map(|c| c.get("weight").and_then(V::as_f64))
        .collect();
    if weights.len() == criteria.len() && !weights.is_empty() {
        let sum: f64 = weights.iter().sum();
        if (sum - 1.0).abs() > 1e-6 {
            cx.report(
                rules::RUBRIC_WEIGHTS,
                &format!("{pointer}/criteria"),
                format!(
                    "rubric weights sum to {}, not 1; scores against minimum_score are skewed",
                    round(sum)
                ),
            );
        }
    }
}

fn round(value: f64) -> f64 {
    (value * 1e6).round() / 1e6
}

fn escalation_order(cx: &mut LintContext<'_>, own: V<'_>) {
    let mut previous: Option<f64> = None;
    let Some(fallback) = own.get("fallback") else {
        return;
    };
    for (at, level) in items(fallback, &At::Pointer("/fallback"), "escalation") {
        let Some(number) = level.get("level").and_then(V::as_f64) else {
            continue;
        };
        if let Some(before) = previous {
            if number <= before {
                cx.report(
                    rules::ESCALATION_ORDER,
                    &format!("{at}/level"),
                    format!(
                        "escalation level {number} follows level {before}; levels should increase"
                    ),
                );
            }
        }
        previous = Some(number);
    }
}

fn post_output_revise(cx: &mut LintContext<'_>, own: V<'_>) {
    let Some(gates) = own.get("quality_gates") else {
        return;
    };
    for (at, gate) in items(gates, &At::Pointer("/quality_gates"), "post_output") {
        let revise = gate.get("on_fail").and_then(V::as_str) == Some("revise");
        if revise && gate.get("message").is_none() {
            cx.report(
                rules::REVISE_WITHOUT_MESSAGE,
                &format!("{at}/on_fail"),
                "`on_fail: revise` without a `message` gives the model nothing to revise by",
            );
        }
    }
}

/// An inspector key must name a field of the spec, from the root (`reasoning.strategy`) or from
/// a step (`confidence.minimum`, the spec's own example).
fn inspector_keys(cx: &mut LintContext<'_>, own: V<'_>) {
    let Some(visual) = own.get("visual") else {
        return;
    };
    for (at, field) in items(visual, &At::Pointer("/visual"), "inspector") {
        let Some(key) = field.get("key").and_then(V::as_str) else {
            continue;
        };
        let path = match FieldPath::parse(key) {
            Ok(path) => path,
            Err(why) => {
                cx.report(rules::UNKNOWN_INSPECTOR_KEY, &format!("{at}/key"), why);
                continue;
            }
        };
        let tokens = pointer_tokens(&path.to_pointer());
        let mut in_step = vec!["steps".to_owned(), "step".to_owned()];
        in_step.extend(tokens.iter().cloned());
        if !allows_path(schema(), &tokens) && !allows_path(schema(), &in_step) {
            cx.report(
                rules::UNKNOWN_INSPECTOR_KEY,
                &format!("{at}/key"),
                format!("`{key}` names no field of a LOGIC.md document or step"),
            );
        } else if let [collection, name, ..] = tokens.as_slice() {
            missing_entry(cx, &format!("{at}/key"), key, collection, name);
        }
    }
}

/// An inspector key into a named collection (`steps.NAME...`, `nodes.NAME...`,
/// `decision_trees.NAME...`) whose entry does not exist binds a control to nothing.
fn missing_entry(cx: &mut LintContext<'_>, pointer: &str, key: &str, collection: &str, name: &str) {
    let (kind, known): (&str, Vec<&str>) = match collection {
        "steps" => ("step", cx.step_names()),
        "nodes" | "decision_trees" => (
            if collection == "nodes" {
                "node"
            } else {
                "decision tree"
            },
            object(cx.resolved.get(collection))
                .map(|m| m.keys().collect())
                .unwrap_or_default(),
        ),
        _ => return,
    };
    if known.contains(&name) {
        return;
    }
    cx.report(
        rules::UNKNOWN_INSPECTOR_KEY,
        pointer,
        format!("`{key}` names the {kind} `{name}`, which does not exist"),
    );
    if let Some(help) = did_you_mean(name, known) {
        cx.help(help);
    }
}

/// The fallback modes a runtime provides without a step (spec §8 names the first two).
pub const FALLBACK_MODES: &[&str] = &[
    "reasoning_only",
    "partial_output",
    "cached_output",
    "default_output",
    "human_review",
    "abort",
    "skip",
];

fn fallback_targets(cx: &mut LintContext<'_>, own: V<'_>) {
    let Some(fallback) = own.get("fallback") else {
        return;
    };
    for (at, rule) in items(fallback, &At::Pointer("/fallback"), "degradation") {
        let Some(target) = rule.get("fallback_to").and_then(V::as_str) else {
            continue;
        };
        if !FALLBACK_MODES.contains(&target) && !cx.has_step(target) {
            cx.report(
                rules::UNKNOWN_FALLBACK_TARGET,
                &format!("{at}/fallback_to"),
                format!(
                    "`{target}` is not a fallback mode ({}) or a step",
                    FALLBACK_MODES.join(", ")
                ),
            );
        }
    }
}
