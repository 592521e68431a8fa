//! Trace checks for JavaScript: `checkTrace(trace, rules, options)` runs the built-in obligations
//! and the caller's LTL formulas over a run's trace (JSON Lines text, or the events of
//! `EngineRun.events()`), exactly as `logicmd trace check` does.

use logicmd::diagnostic::Diagnostic;
use logicmd::trace::{self, Rule, TraceLimits};
use serde_json::{json, Value};
use wasm_bindgen::prelude::*;

use crate::convert::{json_arg, to_js};
use crate::text::js_text;

/// `checkTrace` (its documentation: `crate::engine`), run in the engine's module.
pub fn check_trace(trace: JsValue, rules: JsValue, options: JsValue) -> Result<JsValue, JsError> {
    let formulas = rule_texts(rules)?;
    let builtins = json_arg(options, "options")?
        .get("builtins")
        .and_then(Value::as_bool)
        .unwrap_or(true);
    let mut diagnostics = Vec::new();
    let mut checked = if builtins {
        Rule::builtins()
    } else {
        Vec::new()
    };
    for (i, text) in formulas.iter().enumerate() {
        match Rule::parse(text) {
            Ok(rule) => checked.push(rule),
            Err(error) => diagnostics.push(
                Diagnostic::error(
                    "trace-rule-invalid",
                    format!("rule {}: {}", i + 1, error.message),
                )
                .with_path(format!("/{i}"))
                .with_help(format!("{text}\n{}^", " ".repeat(error.column - 1))),
            ),
        }
    }
    let events = match events(trace) {
        Ok(events) => events,
        Err(diagnostic) => {
            diagnostics.push(diagnostic);
            Vec::new()
        }
    };
    if !diagnostics.is_empty() {
        return report(&[], &[], &[], 0, &diagnostics);
    }
    let violations = trace::check(&events, &checked);
    let violations: Vec<Value> = violations
        .iter()
        .map(|v| json!({"rule": v.rule, "index": v.index, "message": v.message}))
        .collect();
    let not_checked = trace::not_checked(&events, &checked);
    report(
        &violations,
        &not_checked,
        &checked,
        events.len(),
        &diagnostics,
    )
}

fn report(
    violations: &[Value],
    not_checked: &[trace::NotChecked],
    rules: &[Rule],
    events: usize,
    diagnostics: &[Diagnostic],
) -> Result<JsValue, JsError> {
    let names: Vec<&str> = rules.iter().map(Rule::name).collect();
    to_js(&json!({
        "violations": violations,
        "notChecked": not_checked,
        "rules": names,
        "events": events,
        "diagnostics": diagnostics,
    }))
}

/// The rule texts: absent means none; anything else must be an array of strings.
fn rule_texts(rules: JsValue) -> Result<Vec<String>, JsError> {
    match json_arg(rules, "rules")? {
        Value::Null => Ok(Vec::new()),
        Value::Array(items) => items
            .into_iter()
            .enumerate()
            .map(|(i, item)| match item {
                Value::String(text) => Ok(text),
                other => Err(JsError::new(&format!(
                    "rules[{i}] must be a formula string, got {other}"
                ))),
            })
            .collect(),
        other => Err(JsError::new(&format!(
            "rules must be an array of formula strings, got {other}"
        ))),
    }
}

/// The events of a JSON Lines text (bounded as the CLI bounds a file) or of an array of events.
fn events(trace: JsValue) -> Result<Vec<Value>, Diagnostic> {
    let limits = TraceLimits::DEFAULT;
    if let Some(text) = js_text(&trace) {
        return trace::read_jsonl(text.as_bytes(), limits)
            .map(|trace| trace.events)
            .map_err(|error| {
                let mut diagnostic = Diagnostic::error("trace-unreadable", error.message);
                diagnostic.line = error.line.map_or(0, |line| line as u32);
                diagnostic
            });
    }
    let unreadable = |message: String| Diagnostic::error("trace-unreadable", message);
    let value = serde_wasm_bindgen::from_value::<Value>(trace)
        .map_err(|e| unreadable(format!("the trace is not JSON data: {e}")))?;
    let Value::Array(events) = value else {
        return Err(unreadable(
            "the trace must be JSON Lines text or an array of events".to_owned(),
        ));
    };
    if events.len() > limits.max_events {
        return Err(unreadable(format!(
            "the trace has {} events; at most {} are read",
            events.len(),
            limits.max_events
        )));
    }
    if let Some(i) = events.iter().position(|e| !e.is_object()) {
        return Err(unreadable(format!("event {i} is not an object")).with_path(format!("/{i}")));
    }
    Ok(events)
}
