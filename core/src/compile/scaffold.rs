//! The markdown of a scaffold, one function per section. Sections with nothing to say are left
//! out; maps are walked in document order, so output is byte-for-byte deterministic.

use std::fmt::Write;

use serde_json::{json, Map, Value};

use super::strategy;

fn text(value: Option<&Value>) -> Option<&str> {
    value
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|s| !s.is_empty())
}

fn list(value: Option<&Value>) -> Vec<&Value> {
    value
        .and_then(Value::as_array)
        .map(|a| a.iter().collect())
        .unwrap_or_default()
}

/// A scalar as it should read in prose: strings bare, expressions in backticks.
fn show(value: &Value) -> String {
    match value {
        Value::String(s) if s.contains("{{") => format!("`{s}`"),
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The rules that hold for every step: post-output gates and invariants.
pub fn global_rules(spec: &Value) -> Vec<String> {
    let gates = spec.get("quality_gates");
    let mut rules = Vec::new();
    for gate in list(gates.and_then(|g| g.get("post_output"))) {
        let mut rule = format!(
            "After producing output, `{}` must hold ({})",
            gate.get("check")
                .and_then(Value::as_str)
                .unwrap_or_default(),
            gate.get("name")
                .and_then(Value::as_str)
                .unwrap_or("unnamed")
        );
        if let Some(message) = text(gate.get("message")) {
            let _ = write!(rule, ": {message}");
        }
        if let Some(action) = text(gate.get("on_fail")) {
            let _ = write!(rule, " — on failure: {action}");
        }
        rules.push(rule);
    }
    for invariant in list(gates.and_then(|g| g.get("invariants"))) {
        let mut rule = format!(
            "Throughout reasoning, `{}` must hold ({})",
            invariant
                .get("check")
                .and_then(Value::as_str)
                .unwrap_or_default(),
            invariant
                .get("name")
                .and_then(Value::as_str)
                .unwrap_or("unnamed")
        );
        if let Some(message) = text(invariant.get("message")) {
            let _ = write!(rule, ": {message}");
        }
        if let Some(action) = text(invariant.get("on_breach")) {
            let _ = write!(rule, " — if it breaks: {action}");
        }
        rules.push(rule);
    }
    rules
}

/// The JSON Schema a step's output must satisfy: its `output_schema`, else the document's
/// `contracts.outputs` as an object with one property per output.
pub fn output_schema(spec: &Value, step: &Value) -> Option<Value> {
    if let Some(schema) = step.get("output_schema") {
        return Some(schema.clone());
    }
    let outputs = list(spec.get("contracts").and_then(|c| c.get("outputs")));
    if outputs.is_empty() {
        return None;
    }
    let mut properties = Map::new();
    let mut required = Vec::new();
    for output in outputs {
        let Some(name) = output.get("name").and_then(Value::as_str) else {
            continue;
        };
        let mut schema = output.as_object().cloned().unwrap_or_default();
        schema.remove("name");
        schema.remove("description");
        if let Some(Value::Bool(is_required)) = schema.remove("required") {
            if is_required {
                required.push(json!(name));
            }
        } else if let Some(fields) = output.get("required").filter(|r| r.is_array()) {
            schema.insert("required".to_owned(), fields.clone());
        }
        schema.remove("constraints");
        properties.insert(name.to_owned(), Value::Object(schema));
    }
    let mut schema = json!({ "type": "object", "properties": properties });
    if !required.is_empty() {
        schema["required"] = Value::Array(required);
    }
    Some(schema)
}

fn strategy_section(spec: &Value, heading: &str, out: &mut String) {
    let Some(reasoning) = spec.get("reasoning") else {
        return;
    };
    let name = reasoning
        .get("strategy")
        .and_then(Value::as_str)
        .unwrap_or("cot");
    let _ = writeln!(
        out,
        "{heading} Reasoning strategy: {name}\n\n{}\n",
        strategy::instruction(name)
    );
    let mut limits = Vec::new();
    if let Some(n) = reasoning.get("max_iterations") {
        limits.push(format!(
            "- At most {n} reasoning iterations; then give your best output."
        ));
    }
    if let Some(t) = reasoning.get("temperature") {
        limits.push(format!("- Suggested temperature: {t}."));
    }
    if let Some(b) = reasoning.get("thinking_budget") {
        limits.push(format!("- Thinking budget: {b} tokens."));
    }
    if let Some(Value::Object(config)) = reasoning.get("strategy_config") {
        for (key, value) in config {
            limits.push(format!("- {key}: {}", show(value)));
        }
    }
    if !limits.is_empty() {
        out.push_str(&limits.join("\n"));
        out.push_str("\n\n");
    }
}

fn quality_section(spec: &Value, heading: &str, out: &mut String) {
    let gates = spec.get("quality_gates");
    let pre = list(gates.and_then(|g| g.get("pre_output")));
    let verification = gates.and_then(|g| g.get("self_verification"));
    let enabled =
        verification.is_some_and(|v| v.get("enabled").and_then(Value::as_bool) != Some(false));
    if pre.is_empty() && !enabled {
        return;
    }
    let _ = writeln!(out, "{heading} Quality gates\n");
    if !pre.is_empty() {
        out.push_str("Before giving output, make sure that:\n");
        for gate in pre {
            let severity = gate
                .get("severity")
                .and_then(Value::as_str)
                .unwrap_or("error");
            let _ = write!(
                out,
                "- [{severity}] `{}`",
                gate.get("check")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
            );
            if let Some(message) = text(gate.get("message")) {
                let _ = write!(out, " — {message}");
            }
            if let Some(action) = text(gate.get("on_fail")) {
                let _ = write!(out, " (on failure: {action})");
            }
            out.push('\n');
        }
        out.push('\n');
    }
    if let Some(verification) = verification.filter(|_| enabled) {
        let strategy = verification
            .get("strategy")
            .and_then(Value::as_str)
            .unwrap_or("reflection");
        let _ = writeln!(
            out,
            "Verify your own output ({strategy}) before delivering it:"
        );
        match strategy {
            "rubric" => {
                let rubric = verification.get("rubric");
                for criterion in list(rubric.and_then(|r| r.get("criteria"))) {
                    let _ = write!(
                        out,
                        "- {}",
                        criterion
                            .get("name")
                            .and_then(Value::as_str)
                            .unwrap_or("criterion")
                    );
                    if let Some(weight) = criterion.get("weight") {
                        let _ = write!(out, " (weight {weight})");
                    }
                    if let Some(description) = text(criterion.get("description")) {
                        let _ = write!(out, ": {description}");
                    }
                    out.push('\n');
                }
                if let Some(minimum) = rubric.and_then(|r| r.get("minimum_score")) {
                    let _ = writeln!(out, "- The weighted score must be at least {minimum}.");
                }
            }
            "checklist" => {
                for item in list(verification.get("checklist")) {
                    let _ = writeln!(out, "- [ ] {}", show(item));
                }
            }
            _ => {
                if let Some(prompt) =
                    text(verification.get("reflection").and_then(|r| r.get("prompt")))
                {
                    for line in prompt.lines() {
                        let _ = writeln!(out, "> {line}");
                    }
                } else {
                    out.push_str(
                        "- Review the output critically and revise what does not hold up.\n",
                    );
                }
                if let Some(max) = verification
                    .get("reflection")
                    .and_then(|r| r.get("max_revisions"))
                {
                    let _ = writeln!(out, "- At most {max} revisions.");
                }
            }
        }
        out.push('\n');
    }
}

fn rules_section(rules: &[String], heading: &str, out: &mut String) {
    if rules.is_empty() {
        return;
    }
    let _ = writeln!(out, "{heading} Rules\n");
    for rule in rules {
        let _ = writeln!(out, "- {rule}");
    }
    out.push('\n');
}

/// The workflow-level scaffold.
pub fn workflow(spec: &Value, rules: &[String]) -> String {
    let mut out = String::new();
    strategy_section(spec, "##", &mut out);
    quality_section(spec, "##", &mut out);
    rules_section(rules, "##", &mut out);
    if let Some(fallback) = spec.get("fallback") {
        let mut lines = Vec::new();
        if let Some(strategy) = text(fallback.get("strategy")) {
            lines.push(format!("- Strategy: {strategy}"));
        }
        for level in list(fallback.get("escalation")) {
            lines.push(format!(
                "- Level {}: when `{}`, {}{}",
                level.get("level").map(show).unwrap_or_default(),
                level
                    .get("trigger")
                    .and_then(Value::as_str)
                    .unwrap_or_default(),
                level
                    .get("action")
                    .and_then(Value::as_str)
                    .unwrap_or_default(),
                text(level.get("message"))
                    .map(|m| format!(" — {m}"))
                    .unwrap_or_default()
            ));
        }
        for rule in list(fallback.get("degradation")) {
            lines.push(format!(
                "- If {}: fall back to {}{}",
                rule.get("when").and_then(Value::as_str).unwrap_or_default(),
                rule.get("fallback_to")
                    .and_then(Value::as_str)
                    .unwrap_or_default(),
                text(rule.get("message"))
                    .map(|m| format!(" — {m}"))
                    .unwrap_or_default()
            ));
        }
        if !lines.is_empty() {
            let _ = writeln!(out, "## Fallback and escalation\n\n{}\n", lines.join("\n"));
        }
    }
    out
}

/// The scaffold of one step.
pub fn step(
    spec: &Value,
    name: &str,
    step: &Value,
    schema: Option<&Value>,
    rules: &[String],
) -> String {
    let mut out = format!("## Step: {name}\n\n");
    if let Some(description) = text(step.get("description")) {
        let _ = writeln!(out, "{description}\n");
    }
    strategy_section(spec, "###", &mut out);
    if let Some(instructions) = text(step.get("instructions")) {
        let _ = writeln!(out, "### Instructions\n\n{instructions}\n");
    }
    let needs = list(step.get("needs"));
    if !needs.is_empty() {
        out.push_str("### Context\n\nThe outputs of the steps this one needs are available:\n");
        for need in needs {
            let _ = writeln!(out, "- `steps.{}.output`", show(need));
        }
        out.push('\n');
    }
    if step.get("execution").and_then(Value::as_str) == Some("parallel") {
        let parallel: Vec<String> = list(step.get("parallel_steps"))
            .iter()
            .map(|s| show(s))
            .collect();
        let join = step.get("join").and_then(Value::as_str).unwrap_or("all");
        let _ = writeln!(out, "### Parallel execution\n\nRuns {} in parallel and continues when {join} of them finish.\n", parallel.join(", "));
    }
    let branches = list(step.get("branches"));
    if !branches.is_empty() {
        out.push_str("### Branching\n\nAfter this step:\n");
        for branch in branches {
            let then = branch
                .get("then")
                .and_then(Value::as_str)
                .unwrap_or_default();
            match branch.get("if").and_then(Value::as_str) {
                Some(condition) => {
                    let _ = writeln!(out, "- if `{condition}`, continue with `{then}`");
                }
                None => {
                    let _ = writeln!(out, "- otherwise, continue with `{then}`");
                }
            }
        }
        out.push('\n');
    }
    if let Some(retry) = step.get("retry") {
        let mut parts = Vec::new();
        if let Some(n) = retry.get("max_attempts") {
            parts.push(format!("up to {n} attempts"));
        }
        if let Some(i) = text(retry.get("initial_interval")) {
            parts.push(format!("waiting {i} at first"));
        }
        if let Some(b) = retry.get("backoff_coefficient") {
            parts.push(format!("multiplied by {b} each time"));
        }
        if let Some(m) = text(retry.get("maximum_interval")) {
            parts.push(format!("at most {m}"));
        }
        let _ = writeln!(
            out,
            "### Retry\n\nThis step may be retried: {}.",
            parts.join(", ")
        );
        let errors: Vec<String> = list(retry.get("non_retryable_errors"))
            .iter()
            .map(|e| show(e))
            .collect();
        if !errors.is_empty() {
            let _ = writeln!(
                out,
                "These errors are final, never retried: {}.",
                errors.join(", ")
            );
        }
        out.push('\n');
    }
    if let Some(confidence) = step.get("confidence") {
        out.push_str("### Confidence\n\nReport a confidence between 0 and 1 with your output.\n");
        if let Some(m) = confidence.get("minimum") {
            let _ = writeln!(out, "- Below {m} the step fails.");
        }
        if let Some(t) = confidence.get("target") {
            let _ = writeln!(out, "- Aim for {t}.");
        }
        if let Some(e) = confidence.get("escalate_below") {
            let _ = writeln!(out, "- Below {e} the step is escalated for review.");
        }
        out.push('\n');
    }
    if let Some(verification) = step.get("verification") {
        out.push_str("### Verification\n\nYour output will be checked:\n");
        let _ = writeln!(
            out,
            "- [ ] `{}`",
            verification
                .get("check")
                .and_then(Value::as_str)
                .unwrap_or_default()
        );
        let on_fail = verification
            .get("on_fail")
            .and_then(Value::as_str)
            .unwrap_or("retry");
        let _ = write!(out, "- If the check fails: {on_fail}");
        if let Some(message) = text(verification.get("on_fail_message")) {
            let _ = write!(out, " — {message}");
        }
        out.push_str("\n\n");
    }
    quality_section(spec, "###", &mut out);
    let allowed: Vec<String> = list(step.get("allowed_tools"))
        .iter()
        .map(|t| show(t))
        .collect();
    let denied: Vec<String> = list(step.get("denied_tools"))
        .iter()
        .map(|t| show(t))
        .collect();
    if !allowed.is_empty() || !denied.is_empty() {
        out.push_str("### Tools\n\n");
        if !allowed.is_empty() {
            let _ = writeln!(out, "- You may use only: {}.", allowed.join(", "));
        }
        if !denied.is_empty() {
            let _ = writeln!(out, "- You must not use: {}.", denied.join(", "));
        }
        out.push('\n');
    }
    if let Some(timeout) = text(step.get("timeout")) {
        let _ = writeln!(out, "Time limit for this step: {timeout}.\n");
    }
    rules_section(rules, "###", &mut out);
    if let Some(schema) = schema {
        let pretty = serde_json::to_string_pretty(schema).unwrap_or_default();
        let _ = writeln!(
            out,
            "### Output format (execution mandate)\n\nYou MUST respond with a single JSON value that conforms to this JSON Schema, with no text before or after it:\n\n```json\n{pretty}\n```\n"
        );
    }
    out
}
