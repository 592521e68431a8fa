//! The markdown of a scaffold, one function per section. Sections with nothing to say are left
//! out; maps are walked in document order, so output is byte-for-byte deterministic.

use std::fmt::Write;

use serde_json::{json, Map, Value};

use super::strategy;
use crate::model::{Gate, Severity, Spec, Step};

/// What a step's scaffold is made from.
pub struct StepContext<'a> {
    pub spec: &'a Spec,
    pub step: &'a Step,
    /// The step produces the document's output: the document's pre-output gates apply to it.
    pub is_final: bool,
    pub output_schema: Option<&'a Value>,
    pub rules: &'a [String],
}

fn text(value: Option<&String>) -> Option<&str> {
    value.map(|s| s.trim()).filter(|s| !s.is_empty())
}

/// A number as prose reads it: `2`, `0.6`, `1e21`.
fn number(n: f64) -> String {
    if n.fract() == 0.0 && n.abs() < 1e15 {
        format!("{}", n as i64)
    } else {
        serde_json::Number::from_f64(n).map_or_else(|| n.to_string(), |n| n.to_string())
    }
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
pub fn global_rules(spec: &Spec) -> Vec<String> {
    let gates = &spec.quality_gates;
    let mut rules = Vec::new();
    for gate in &gates.post_output {
        let mut rule = format!(
            "After producing output, `{}` must hold ({})",
            gate.check,
            name_or_unnamed(&gate.name)
        );
        if let Some(message) = text(gate.message.as_ref()) {
            let _ = write!(rule, ": {message}");
        }
        if let Some(action) = gate.on_fail {
            let _ = write!(rule, " — on failure: {}", action.as_str());
        }
        rules.push(rule);
    }
    for invariant in &gates.invariants {
        let mut rule = format!(
            "Throughout reasoning, `{}` must hold ({})",
            invariant.check,
            name_or_unnamed(&invariant.name)
        );
        if let Some(message) = text(invariant.message.as_ref()) {
            let _ = write!(rule, ": {message}");
        }
        if let Some(action) = text(invariant.on_breach.as_ref()) {
            let _ = write!(rule, " — if it breaks: {action}");
        }
        rules.push(rule);
    }
    rules
}

fn name_or_unnamed(name: &str) -> &str {
    if name.is_empty() {
        "unnamed"
    } else {
        name
    }
}

/// The document's `contracts.outputs` as the JSON Schema of an object with one property per
/// output (`required: true` outputs are required; a list-valued `required` stays on the output).
pub fn contract_schema(spec: &Spec) -> Option<Value> {
    let outputs = &spec.contracts.outputs;
    if outputs.is_empty() {
        return None;
    }
    let mut properties = Map::new();
    let mut required = Vec::new();
    for output in outputs {
        let mut schema = output.raw.clone();
        schema.remove("name");
        schema.remove("description");
        if let Some(Value::Bool(is_required)) = schema.remove("required") {
            if is_required {
                required.push(json!(output.name));
            }
        } else if let Some(fields) = output.raw.get("required").filter(|r| r.is_array()) {
            schema.insert("required".to_owned(), fields.clone());
        }
        schema.remove("constraints");
        properties.insert(output.name.clone(), Value::Object(schema));
    }
    let mut schema = json!({ "type": "object", "properties": properties });
    if !required.is_empty() {
        schema["required"] = Value::Array(required);
    }
    Some(schema)
}

fn strategy_section(spec: &Spec, heading: &str, out: &mut String) {
    let reasoning = &spec.reasoning;
    let Some(name) = reasoning.strategy.as_deref() else {
        return;
    };
    let _ = writeln!(
        out,
        "{heading} Reasoning strategy: {name}\n\n{}\n",
        strategy::instruction(name)
    );
    let mut limits = Vec::new();
    if let Some(n) = reasoning.max_iterations {
        limits.push(format!(
            "- At most {n} reasoning iterations; then give your best output."
        ));
    }
    if let Some(t) = reasoning.temperature {
        limits.push(format!("- Suggested temperature: {}.", number(t)));
    }
    if let Some(b) = reasoning.thinking_budget {
        limits.push(format!("- Thinking budget: {b} tokens."));
    }
    for (key, value) in &reasoning.strategy_config {
        limits.push(format!("- {key}: {}", show(value)));
    }
    if !limits.is_empty() {
        out.push_str(&limits.join("\n"));
        out.push_str("\n\n");
    }
}

fn gate_line(gate: &Gate, out: &mut String) {
    let severity = match gate.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "info",
    };
    let _ = write!(out, "- [{severity}] `{}`", gate.check);
    if let Some(message) = text(gate.message.as_ref()) {
        let _ = write!(out, " — {message}");
    }
    if let Some(action) = gate.on_fail {
        let _ = write!(out, " (on failure: {})", action.as_str());
    }
    out.push('\n');
}

/// Pre-output gates and self-verification: they apply to what leaves the document, so only the
/// workflow scaffold and the steps that produce the output carry them.
fn quality_section(spec: &Spec, heading: &str, out: &mut String) {
    let gates = &spec.quality_gates;
    let verification = gates.self_verification.as_ref().filter(|v| v.enabled);
    if gates.pre_output.is_empty() && verification.is_none() {
        return;
    }
    let _ = writeln!(out, "{heading} Quality gates\n");
    if !gates.pre_output.is_empty() {
        out.push_str("Before giving output, make sure that:\n");
        for gate in &gates.pre_output {
            gate_line(gate, out);
        }
        out.push('\n');
    }
    if let Some(verification) = verification {
        let strategy = verification.strategy.as_deref().unwrap_or("reflection");
        let _ = writeln!(
            out,
            "Verify your own output ({strategy}) before delivering it:"
        );
        match strategy {
            "rubric" => {
                for criterion in &verification.rubric {
                    let _ = write!(
                        out,
                        "- {} (weight {})",
                        criterion.name,
                        number(criterion.weight)
                    );
                    if let Some(description) = text(criterion.description.as_ref()) {
                        let _ = write!(out, ": {description}");
                    }
                    out.push('\n');
                }
                if let Some(minimum) = verification.minimum_score {
                    let _ = writeln!(
                        out,
                        "- The weighted score must be at least {}.",
                        number(minimum)
                    );
                }
            }
            "checklist" => {
                for item in &verification.checklist {
                    let _ = writeln!(out, "- [ ] {item}");
                }
            }
            _ => {
                if let Some(prompt) = text(verification.reflection_prompt.as_ref()) {
                    for line in prompt.lines() {
                        let _ = writeln!(out, "> {line}");
                    }
                } else {
                    out.push_str(
                        "- Review the output critically and revise what does not hold up.\n",
                    );
                }
                if let Some(max) = verification.max_revisions {
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
pub fn workflow(spec: &Spec, rules: &[String]) -> String {
    let mut out = String::new();
    strategy_section(spec, "##", &mut out);
    quality_section(spec, "##", &mut out);
    rules_section(rules, "##", &mut out);
    fallback_section(spec, &mut out);
    global_section(spec, &mut out);
    out
}

fn fallback_section(spec: &Spec, out: &mut String) {
    let fallback = &spec.fallback;
    let mut lines = Vec::new();
    if let Some(strategy) = text(fallback.strategy.as_ref()) {
        lines.push(format!("- Strategy: {strategy}"));
    }
    for level in &fallback.escalation {
        lines.push(format!(
            "- Level {}: when `{}`, {}{}",
            level.level,
            level.trigger,
            level.action,
            text(level.message.as_ref())
                .map(|m| format!(" — {m}"))
                .unwrap_or_default()
        ));
    }
    for rule in &fallback.degradation {
        lines.push(format!(
            "- If {}: fall back to {}{}",
            rule.when,
            rule.fallback_to,
            text(rule.message.as_ref())
                .map(|m| format!(" — {m}"))
                .unwrap_or_default()
        ));
    }
    if !lines.is_empty() {
        let _ = writeln!(out, "## Fallback and escalation\n\n{}\n", lines.join("\n"));
    }
}

/// `global` (§9.1): the constraints every node of a multi-agent workflow runs under.
fn global_section(spec: &Spec, out: &mut String) {
    let global = &spec.global;
    let mut lines = Vec::new();
    if let Some(time) = text(global.max_total_time.as_ref()) {
        lines.push(format!("- The whole workflow must finish within {time}."));
    }
    if let Some(cost) = global.max_total_cost {
        lines.push(format!("- It may cost at most {} USD.", number(cost)));
    }
    match global.fail_fast {
        Some(true) => lines
            .push("- When a node fails, every other branch stops (fail_fast: true).".to_owned()),
        Some(false) => lines.push(
            "- When a node fails, the other branches continue (fail_fast: false).".to_owned(),
        ),
        None => {}
    }
    if let Some(n) = global.max_parallelism {
        lines.push(format!("- At most {n} nodes run at the same time."));
    }
    if !lines.is_empty() {
        let _ = writeln!(out, "## Global constraints\n\n{}\n", lines.join("\n"));
    }
}

/// The scaffold of one step.
pub fn step(cx: &StepContext<'_>) -> String {
    let step = cx.step;
    let mut out = format!("## Step: {}\n\n", step.name);
    if let Some(description) = text(step.description.as_ref()) {
        let _ = writeln!(out, "{description}\n");
    }
    strategy_section(cx.spec, "###", &mut out);
    if let Some(instructions) = text(step.instructions.as_ref()) {
        let _ = writeln!(out, "### Instructions\n\n{instructions}\n");
    }
    if !step.needs.is_empty() {
        out.push_str("### Context\n\nThe outputs of the steps this one needs are available:\n");
        for need in &step.needs {
            let _ = writeln!(out, "- `{}`", step_output_path(need));
        }
        out.push('\n');
    }
    if step.execution.as_deref() == Some("parallel") {
        let join = step.join.as_deref().unwrap_or("all");
        let _ = writeln!(out, "### Parallel execution\n\nRuns {} in parallel and continues when {join} of them finish.\n", step.parallel_steps.join(", "));
    }
    branches_section(step, &mut out);
    retry_section(step, &mut out);
    confidence_section(step, &mut out);
    if let Some(verification) = &step.verification {
        out.push_str("### Verification\n\nYour output will be checked:\n");
        let _ = writeln!(out, "- [ ] `{}`", verification.check);
        let _ = write!(
            out,
            "- If the check fails: {}",
            verification.on_fail.as_str()
        );
        if let Some(message) = text(verification.on_fail_message.as_ref()) {
            let _ = write!(out, " — {message}");
        }
        out.push_str("\n\n");
    }
    if cx.is_final {
        quality_section(cx.spec, "###", &mut out);
    }
    tools_section(step, &mut out);
    if let Some(timeout) = text(step.timeout.as_ref()) {
        let _ = writeln!(out, "Time limit for this step: {timeout}.\n");
    }
    rules_section(cx.rules, "###", &mut out);
    if let Some(schema) = cx.output_schema {
        let pretty = serde_json::to_string_pretty(schema).unwrap_or_default();
        let _ = writeln!(
            out,
            "### Output format (execution mandate)\n\nYou MUST respond with a single JSON value that conforms to this JSON Schema, with no text before or after it:\n\n```json\n{pretty}\n```\n"
        );
    }
    out
}

fn branches_section(step: &Step, out: &mut String) {
    if step.branches.is_empty() {
        return;
    }
    out.push_str("### Branching\n\nAfter this step:\n");
    for branch in &step.branches {
        let then = branch.then.as_deref().unwrap_or_default();
        match &branch.condition {
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

fn retry_section(step: &Step, out: &mut String) {
    let Some(retry) = &step.retry else {
        return;
    };
    let mut parts = Vec::new();
    if let Some(n) = retry.max_attempts {
        parts.push(format!("up to {n} attempts"));
    }
    if let Some(i) = text(retry.initial_interval.as_ref()) {
        parts.push(format!("waiting {i} at first"));
    }
    if let Some(b) = retry.backoff_coefficient {
        parts.push(format!("multiplied by {} each time", number(b)));
    }
    if let Some(m) = text(retry.maximum_interval.as_ref()) {
        parts.push(format!("at most {m}"));
    }
    let _ = writeln!(
        out,
        "### Retry\n\nThis step may be retried: {}.",
        parts.join(", ")
    );
    if !retry.non_retryable_errors.is_empty() {
        let _ = writeln!(
            out,
            "These errors are final, never retried: {}.",
            retry.non_retryable_errors.join(", ")
        );
    }
    out.push('\n');
}

fn confidence_section(step: &Step, out: &mut String) {
    let confidence = &step.confidence;
    if confidence.minimum.is_none()
        && confidence.target.is_none()
        && confidence.escalate_below.is_none()
    {
        return;
    }
    out.push_str("### Confidence\n\nReport a confidence between 0 and 1 with your output.\n");
    if let Some(m) = confidence.minimum {
        let _ = writeln!(out, "- Below {} the step fails.", number(m));
    }
    if let Some(t) = confidence.target {
        let _ = writeln!(out, "- Aim for {}.", number(t));
    }
    if let Some(e) = confidence.escalate_below {
        let _ = writeln!(
            out,
            "- Below {} the step is escalated for review.",
            number(e)
        );
    }
    out.push('\n');
}

fn tools_section(step: &Step, out: &mut String) {
    if step.allowed_tools.is_empty() && step.denied_tools.is_empty() {
        return;
    }
    out.push_str("### Tools\n\n");
    if !step.allowed_tools.is_empty() {
        let _ = writeln!(
            out,
            "- You may use only: {}.",
            step.allowed_tools.join(", ")
        );
    }
    if !step.denied_tools.is_empty() {
        let _ = writeln!(out, "- You must not use: {}.", step.denied_tools.join(", "));
    }
    out.push('\n');
}

/// How an expression reads step `name`'s output: `steps.name.output`, or `steps['as.name'].output`
/// for a name that is not an identifier (an imported step).
fn step_output_path(name: &str) -> String {
    if crate::expr::is_identifier(name) {
        format!("steps.{name}.output")
    } else {
        format!("steps[{}].output", crate::expr::quoted(name, '\''))
    }
}
