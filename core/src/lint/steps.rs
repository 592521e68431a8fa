//! Rules about one step at a time: descriptions, thresholds, durations, tools, verification.

use super::context::{entries, field, At, LintContext, V};
use super::rules;
use crate::duration::parse_duration;
use crate::json::pointer_push;

pub fn check(cx: &mut LintContext<'_>) {
    let own = cx.own();
    for (pointer, name, step) in entries(own, &At::ROOT, "steps") {
        if field(step, "description").is_none() {
            cx.report_key(
                rules::MISSING_DESCRIPTION,
                &pointer.pointer(),
                format!("step `{name}` has no description"),
            );
            cx.help("a description is shown in the studio and compiled into the prompt scaffold");
        }
        confidence_order(cx, &pointer, step);
        durations(cx, &pointer, step);
        retry_intervals(cx, &pointer, step);
        tools(cx, &pointer, step);
        verification(cx, &pointer, step);
        join_without_parallel(cx, &pointer, name, step);
    }
    if let Some(global) = field(own, "global") {
        duration_field(cx, &At::Pointer("/global"), global, "max_total_time");
    }
    if let Some(capabilities) = field(own, "contracts").and_then(|c| field(c, "capabilities")) {
        duration_field(
            cx,
            &At::Pointer("/contracts/capabilities"),
            capabilities,
            "avg_response_time",
        );
    }
}

fn confidence_order(cx: &mut LintContext<'_>, pointer: &At<'_>, step: V<'_>) {
    let Some(confidence) = field(step, "confidence") else {
        return;
    };
    let at = &pointer.push("confidence");
    let value = |k: &str| field(confidence, k).and_then(V::as_f64);
    let (escalate, minimum, target) = (value("escalate_below"), value("minimum"), value("target"));
    if let (Some(e), Some(m)) = (escalate, minimum) {
        if e > m {
            cx.report(
                rules::CONFIDENCE_ORDER,
                &pointer_push(at, "escalate_below"),
                format!("escalate_below ({e}) is above minimum ({m}): the step would escalate outputs it accepts"),
            );
        }
    }
    if let (Some(m), Some(t)) = (minimum, target) {
        if m > t {
            cx.report(
                rules::CONFIDENCE_ORDER,
                &pointer_push(at, "minimum"),
                format!("minimum ({m}) is above target ({t}): the target could never be the aim"),
            );
        }
    } else if let (Some(e), None, Some(t)) = (escalate, minimum, target) {
        if e > t {
            cx.report(
                rules::CONFIDENCE_ORDER,
                &pointer_push(at, "escalate_below"),
                format!("escalate_below ({e}) is above target ({t})"),
            );
        }
    }
}

fn durations(cx: &mut LintContext<'_>, pointer: &At<'_>, step: V<'_>) {
    duration_field(cx, pointer, step, "timeout");
    duration_field(cx, pointer, step, "join_timeout");
    if let Some(retry) = field(step, "retry") {
        let at = pointer.push("retry");
        let at = At::Pointer(&at);
        duration_field(cx, &at, retry, "initial_interval");
        duration_field(cx, &at, retry, "maximum_interval");
    }
}

/// The durations that limit how long something may take: zero ends it before it starts.
const TIMEOUTS: &[&str] = &["timeout", "join_timeout", "max_total_time"];

fn duration_field(cx: &mut LintContext<'_>, pointer: &At<'_>, owner: V<'_>, name: &str) {
    let Some(text) = field(owner, name).and_then(V::as_str) else {
        return;
    };
    match parse_duration(text) {
        Err(why) => cx.report(rules::INVALID_DURATION, &pointer.push(name), why),
        Ok(_) if text.trim().parse::<f64>().is_ok() => {
            cx.report(
                rules::INVALID_DURATION,
                &pointer.push(name),
                format!("`{text}` has no unit: seconds, milliseconds or minutes?"),
            );
            cx.help(format!("write the unit: `\"{}s\"`", text.trim()));
        }
        Ok(duration) if duration.is_zero() && TIMEOUTS.contains(&name) => {
            cx.report(
                rules::INVALID_DURATION,
                &pointer.push(name),
                format!("a `{name}` of `{text}` ends what it limits before it starts"),
            );
            cx.help("leave it out for no limit, or give the time it may take");
        }
        Ok(_) => {}
    }
}

fn retry_intervals(cx: &mut LintContext<'_>, pointer: &At<'_>, step: V<'_>) {
    let Some(retry) = field(step, "retry") else {
        return;
    };
    let parse = |k: &str| {
        field(retry, k)
            .and_then(V::as_str)
            .and_then(|t| parse_duration(t).ok())
    };
    if let (Some(initial), Some(maximum)) = (parse("initial_interval"), parse("maximum_interval")) {
        if initial > maximum {
            cx.report(
                rules::RETRY_INTERVAL_ORDER,
                &format!("{pointer}/retry/initial_interval"),
                format!(
                    "initial_interval ({}s) is longer than maximum_interval ({}s)",
                    initial.as_secs_f64(),
                    maximum.as_secs_f64()
                ),
            );
        }
    }
}

fn tools(cx: &mut LintContext<'_>, pointer: &At<'_>, step: V<'_>) {
    let list = |k: &str| -> Vec<&str> {
        field(step, k)
            .and_then(V::as_array)
            .map(|a| a.iter().filter_map(V::as_str).collect())
            .unwrap_or_default()
    };
    let allowed = list("allowed_tools");
    for (index, denied) in list("denied_tools").into_iter().enumerate() {
        if allowed.contains(&denied) {
            cx.report(
                rules::TOOL_ALLOWED_AND_DENIED,
                &format!("{pointer}/denied_tools/{index}"),
                format!("`{denied}` is in both allowed_tools and denied_tools"),
            );
            cx.help("denied wins at run time; remove it from one of the lists");
        }
    }
}

fn verification(cx: &mut LintContext<'_>, pointer: &At<'_>, step: V<'_>) {
    let Some(verification) = field(step, "verification") else {
        return;
    };
    let revise = field(verification, "on_fail").and_then(V::as_str) == Some("revise");
    if revise && field(verification, "on_fail_message").is_none() {
        cx.report(
            rules::REVISE_WITHOUT_MESSAGE,
            &format!("{pointer}/verification/on_fail"),
            "`on_fail: revise` re-prompts the model with feedback, but no `on_fail_message` says what to fix",
        );
    }
}

fn join_without_parallel(cx: &mut LintContext<'_>, pointer: &At<'_>, name: &str, step: V<'_>) {
    let parallel = field(step, "execution").and_then(V::as_str) == Some("parallel");
    if parallel {
        parallel_steps(cx, pointer, name, step);
        return;
    }
    for name in ["join", "parallel_steps"] {
        if field(step, name).is_some() {
            cx.report(
                rules::JOIN_WITHOUT_PARALLEL,
                &pointer.push(name),
                format!("`{name}` has no effect unless `execution: parallel`"),
            );
        }
    }
}

/// A parallel step's `parallel_steps`: present, and not the step itself.
fn parallel_steps(cx: &mut LintContext<'_>, pointer: &At<'_>, name: &str, step: V<'_>) {
    let Some(list) = field(step, "parallel_steps").and_then(V::as_array) else {
        cx.report(
            rules::PARALLEL_WITHOUT_STEPS,
            &pointer.push("execution"),
            format!("step `{name}` is `execution: parallel` but has no `parallel_steps`: nothing runs in parallel"),
        );
        cx.help("list the steps to run at once in `parallel_steps`, or leave `execution` out");
        return;
    };
    if list.is_empty() {
        cx.report(
            rules::PARALLEL_WITHOUT_STEPS,
            &pointer.push("parallel_steps"),
            format!("step `{name}` has an empty `parallel_steps`: nothing runs in parallel"),
        );
    }
    for (index, item) in list.iter().enumerate() {
        if item.as_str() == Some(name) {
            cx.report(
                rules::PARALLEL_STEP_IS_ITSELF,
                &format!("{}/{index}", pointer.push("parallel_steps")),
                format!("step `{name}` lists itself in `parallel_steps`: it would wait for itself and never start"),
            );
        }
    }
}
