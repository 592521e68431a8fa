//! Rules about references between steps: `needs`, `branches[].then`, `parallel_steps`, cycles,
//! and loops that branches create.

use std::collections::BTreeSet;

use rustc_hash::FxHashMap;

use super::context::{did_you_mean, entries, field, items, object, At, LintContext, V};
use super::rules;
use crate::dag::StepDag;

pub fn check(cx: &mut LintContext<'_>) {
    let own = cx.own();
    let known = cx.step_names();
    for (pointer, name, step) in entries(own, &At::ROOT, "steps") {
        for (at, need) in items(step, &pointer, "needs") {
            let Some(need) = need.as_str() else { continue };
            if !cx.has_step(need) {
                cx.report(
                    rules::UNKNOWN_NEED,
                    &at.pointer(),
                    format!("`needs` names `{need}`, which is not a step"),
                );
                // Never the step itself: that would suggest a cycle (and `--fix` applies it).
                let others = known.iter().copied().filter(|known| *known != name);
                if let Some(help) = did_you_mean(need, others) {
                    cx.help(help);
                }
            }
        }
        for (at, target) in items(step, &pointer, "parallel_steps") {
            let Some(target) = target.as_str() else {
                continue;
            };
            if !cx.has_step(target) {
                cx.report(
                    rules::UNKNOWN_PARALLEL_STEP,
                    &at.pointer(),
                    format!("`parallel_steps` names `{target}`, which is not defined as a step"),
                );
            }
        }
        for (at, branch) in items(step, &pointer, "branches") {
            let Some(target) = field(branch, "then").and_then(V::as_str) else {
                continue;
            };
            if !cx.has_step(target) {
                cx.report(
                    rules::UNKNOWN_BRANCH_TARGET,
                    &format!("{at}/then"),
                    format!("branch goes to `{target}`, which is not a step"),
                );
                if let Some(help) = did_you_mean(target, known.iter().copied()) {
                    cx.help(help);
                }
            }
        }
    }
    cycles(cx);
    loops(cx);
}

fn needs_of(step: V<'_>) -> Vec<&str> {
    field(step, "needs")
        .and_then(V::as_array)
        .map(|a| a.iter().filter_map(V::as_str).collect())
        .unwrap_or_default()
}

fn resolved_steps<'v>(cx: &LintContext<'v>) -> Vec<(&'v str, V<'v>)> {
    object(field(cx.resolved, "steps"))
        .map(|m| m.iter().collect())
        .unwrap_or_default()
}

fn cycles(cx: &mut LintContext<'_>) {
    let steps = resolved_steps(cx);
    let dag = StepDag::new(steps.iter().map(|(name, step)| (*name, needs_of(*step))));
    for cycle in dag.cycles() {
        let first = cycle.0.first().cloned().unwrap_or_default();
        let pointer = format!("/steps/{}/needs", crate::json::escape_token(&first));
        cx.report(
            rules::STEP_CYCLE,
            &pointer,
            format!("steps need each other in a cycle: {}", cycle.display()),
        );
        cx.help("`needs` must be acyclic; use a branch to loop back on purpose");
    }
}

/// Each step's `needs`, by name.
type Needs<'v> = FxHashMap<&'v str, Vec<&'v str>>;

/// A branch to the step itself or to a step it (transitively) needs is a loop; it must be
/// bounded by a retry limit, an iteration limit or a verification failure action.
fn loops(cx: &mut LintContext<'_>) {
    // Made for the first step with branches: most documents have none. The steps by name too:
    // a tree's mapping is a list, and a scan of it per loop was quadratic in the steps.
    let mut needs: Option<(Needs<'_>, FxHashMap<&str, V<'_>>)> = None;
    let globally_bounded = field(cx.resolved, "reasoning")
        .and_then(|r| field(r, "max_iterations"))
        .is_some();
    let own = cx.own();
    for (pointer, name, step) in entries(own, &At::ROOT, "steps") {
        let branches = items(step, &pointer, "branches");
        if branches.clone().next().is_none() {
            continue;
        }
        let (needs, steps) = needs.get_or_insert_with(|| {
            let steps = resolved_steps(cx);
            let needs = steps
                .iter()
                .map(|(n, step)| (*n, needs_of(*step)))
                .collect();
            (needs, steps.into_iter().collect())
        });
        let ancestors = ancestors(name, needs);
        for (at, branch) in branches {
            let Some(target) = field(branch, "then").and_then(V::as_str) else {
                continue;
            };
            if target != name && !ancestors.contains(target) {
                continue;
            }
            let bounded = |s: &str| {
                steps.get(s).is_some_and(|&s| {
                    field(s, "retry")
                        .and_then(|r| field(r, "max_attempts"))
                        .is_some()
                        || field(s, "verification")
                            .and_then(|v| field(v, "on_fail"))
                            .is_some()
                })
            };
            if !(globally_bounded || bounded(name) || bounded(target)) {
                cx.report(
                    rules::UNBOUNDED_LOOP,
                    &format!("{at}/then"),
                    format!("branch from `{name}` back to `{target}` forms a loop with no bound"),
                );
                cx.help("set `retry.max_attempts`, `reasoning.max_iterations` or a `verification.on_fail`");
            }
        }
    }
}

fn ancestors<'a>(start: &str, needs: &FxHashMap<&'a str, Vec<&'a str>>) -> BTreeSet<&'a str> {
    let mut seen = BTreeSet::new();
    let mut pending: Vec<&str> = needs.get(start).cloned().unwrap_or_default();
    while let Some(step) = pending.pop() {
        if seen.insert(step) {
            pending.extend(needs.get(step).cloned().unwrap_or_default());
        }
    }
    seen
}
