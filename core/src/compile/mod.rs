//! The prompt compiler (spec §10.2, §15.2): a document becomes a deterministic reasoning
//! scaffold per step — strategy, instructions, context, thresholds, checks, tools and, whenever
//! output contracts exist, the execution mandate — plus the step DAG's levels and order.

mod scaffold;
mod strategy;

use serde::Serialize;
use serde_json::{Map, Value};

use crate::dag::StepDag;
use crate::diagnostic::Diagnostic;
use crate::document::Document;
use crate::json::{escape_token, pointer_push};

/// One step, compiled.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CompiledStep {
    pub name: String,
    /// Parallel execution level (0 runs first).
    pub level: usize,
    pub needs: Vec<String>,
    /// The markdown injected between the identity and the task layers.
    pub scaffold: String,
    /// The JSON Schema the step's output must satisfy, when any output contract applies.
    pub output_schema: Option<Value>,
    pub allowed_tools: Vec<String>,
    pub denied_tools: Vec<String>,
}

/// A whole document, compiled.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CompiledWorkflow {
    pub name: String,
    pub description: Option<String>,
    pub strategy: Option<String>,
    pub levels: Vec<Vec<String>>,
    pub order: Vec<String>,
    pub steps: Vec<CompiledStep>,
    /// Rules that hold for every step: post-output gates and invariants.
    pub global_rules: Vec<String>,
    /// The workflow-level scaffold (strategy, gates, fallback), for documents used as a whole.
    pub scaffold: String,
}

/// Compiles a schema-valid (imports merged) frontmatter. A `needs` cycle is an error.
pub fn compile(spec: &Value) -> Result<CompiledWorkflow, Vec<Diagnostic>> {
    let empty = Map::new();
    let steps = spec
        .get("steps")
        .and_then(Value::as_object)
        .unwrap_or(&empty);
    let needs_of = |step: &Value| -> Vec<String> {
        step.get("needs")
            .and_then(Value::as_array)
            .map(|n| {
                n.iter()
                    .filter_map(Value::as_str)
                    .map(str::to_owned)
                    .collect()
            })
            .unwrap_or_default()
    };
    let dag = StepDag::new(steps.iter().map(|(name, step)| {
        let needs = step
            .get("needs")
            .and_then(Value::as_array)
            .map(|n| n.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        (name.as_str(), needs)
    }));
    let levels = dag.levels().map_err(|cycles| {
        cycles
            .iter()
            .map(|cycle| {
                let first = cycle.0.first().cloned().unwrap_or_default();
                Diagnostic::error(
                    crate::lint::rules::STEP_CYCLE.code,
                    format!(
                        "cannot compile: steps need each other in a cycle: {}",
                        cycle.display()
                    ),
                )
                .with_path(format!("/steps/{}/needs", escape_token(&first)))
            })
            .collect::<Vec<_>>()
    })?;
    let order: Vec<String> = levels.iter().flatten().cloned().collect();
    let global_rules = scaffold::global_rules(spec);
    let mut compiled_steps = Vec::with_capacity(order.len());
    let level_of: std::collections::HashMap<&str, usize> = levels
        .iter()
        .enumerate()
        .flat_map(|(i, level)| level.iter().map(move |name| (name.as_str(), i)))
        .collect();
    for name in &order {
        let Some(step) = steps.get(name) else {
            continue;
        };
        let level = level_of.get(name.as_str()).copied().unwrap_or(0);
        let output_schema = scaffold::output_schema(spec, step);
        compiled_steps.push(CompiledStep {
            name: name.clone(),
            level,
            needs: needs_of(step),
            scaffold: scaffold::step(spec, name, step, output_schema.as_ref(), &global_rules),
            output_schema,
            allowed_tools: strings(step.get("allowed_tools")),
            denied_tools: strings(step.get("denied_tools")),
        });
    }
    Ok(CompiledWorkflow {
        name: spec
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned(),
        description: spec
            .get("description")
            .and_then(Value::as_str)
            .map(str::to_owned),
        strategy: spec
            .get("reasoning")
            .and_then(|r| r.get("strategy"))
            .and_then(Value::as_str)
            .map(str::to_owned),
        scaffold: scaffold::workflow(spec, &global_rules),
        levels,
        order,
        steps: compiled_steps,
        global_rules,
    })
}

/// Compiles one step; an unknown name lists the steps there are.
pub fn compile_step(spec: &Value, name: &str) -> Result<CompiledStep, Vec<Diagnostic>> {
    let workflow = compile(spec)?;
    let known = workflow.order.join(", ");
    workflow
        .steps
        .into_iter()
        .find(|s| s.name == name)
        .ok_or_else(|| {
            vec![Diagnostic::error(
                "unknown-step",
                format!(
                    "there is no step `{name}` (steps: {})",
                    if known.is_empty() { "none" } else { &known }
                ),
            )
            .with_path(pointer_push("/steps", name))]
        })
}

/// Compiles a parsed document, placing any diagnostic in its file.
pub fn compile_document(
    document: &Document,
    spec: &Value,
) -> Result<CompiledWorkflow, Vec<Diagnostic>> {
    compile(spec).map_err(|diagnostics| place(document, diagnostics))
}

/// Places diagnostics that carry only a path at that path's node.
pub fn place(document: &Document, diagnostics: Vec<Diagnostic>) -> Vec<Diagnostic> {
    diagnostics
        .into_iter()
        .map(|d| {
            let span = document.span_at(&d.path);
            document.locate(d, span)
        })
        .collect()
}

fn strings(value: Option<&Value>) -> Vec<String> {
    value
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default()
}

impl CompiledWorkflow {
    /// The whole workflow as markdown: header, levels, then every step's scaffold in order.
    pub fn to_markdown(&self) -> String {
        let mut out = format!("# Reasoning scaffold: {}\n\n", self.name);
        if let Some(description) = &self.description {
            out.push_str(description.trim());
            out.push_str("\n\n");
        }
        out.push_str(&self.scaffold);
        if !self.levels.is_empty() {
            out.push_str("## Execution order\n\n");
            for (i, level) in self.levels.iter().enumerate() {
                let parallel = if level.len() > 1 {
                    " (in parallel)"
                } else {
                    ""
                };
                out.push_str(&format!("{}. {}{parallel}\n", i + 1, level.join(", ")));
            }
            out.push('\n');
        }
        for step in &self.steps {
            out.push_str(&step.scaffold);
        }
        out
    }
}

#[cfg(test)]
mod tests;
