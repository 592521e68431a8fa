//! The prompt compiler (spec §10.2, §15.2): a document becomes a deterministic reasoning
//! scaffold per step — strategy, instructions, context, thresholds, checks, tools and, for the
//! steps that produce the document's output, its output contract as an execution mandate — plus
//! the execution levels and order over every edge kind ([`crate::flow`]). A multi-agent workflow
//! (§9.1) compiles to its nodes in edge order with its global constraints.

mod nodes;
mod scaffold;
mod strategy;

use serde::Serialize;
use serde_json::Value;

use crate::diagnostic::Diagnostic;
use crate::document::Document;
use crate::flow::{Cycle, Flow, UnitKind};
use crate::json::{escape_token, pointer_push};
use crate::model::Spec;

pub use nodes::{compile_nodes, CompiledNode, NodeInput};

/// One step, compiled.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CompiledStep {
    /// The step's name.
    pub name: String,
    /// Parallel execution level (0 runs first).
    pub level: usize,
    /// The steps it needs, as written.
    pub needs: Vec<String>,
    /// Steps whose branches choose this one (it runs only when chosen), and decision trees that
    /// route to it as `tree:NAME`.
    pub chosen_by: Vec<String>,
    /// The markdown injected between the identity and the task layers.
    pub scaffold: String,
    /// The JSON Schema the step's output must satisfy: its own `output_schema`, or, for a step
    /// that produces the document's output, the document's `contracts.outputs`.
    pub output_schema: Option<Value>,
    /// The tools the step may use.
    pub allowed_tools: Vec<String>,
    /// The tools the step must not use.
    pub denied_tools: Vec<String>,
}

/// A branch that goes back to a step that ran before: it repeats work (bounded by
/// `reasoning.max_iterations` or the steps' retry policies).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Loop {
    /// The step the branch leaves.
    pub from: String,
    /// The step it goes back to.
    pub to: String,
}

/// A whole document, compiled.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CompiledWorkflow {
    /// The document's `name`.
    pub name: String,
    /// The document's `description`.
    pub description: Option<String>,
    /// `reasoning.strategy`, when given.
    pub strategy: Option<String>,
    /// Step names per level.
    pub levels: Vec<Vec<String>>,
    /// Step names in execution order: the levels one after the other.
    pub order: Vec<String>,
    /// The branches that go back, in declaration order.
    pub loops: Vec<Loop>,
    /// The steps nothing runs after: they produce what the document gives back.
    pub final_steps: Vec<String>,
    /// Every step, in execution order.
    pub steps: Vec<CompiledStep>,
    /// The nodes of a multi-agent workflow in edge order, each with its level ([`compile_nodes`]
    /// fills in what each node's own document compiles to).
    pub nodes: Vec<CompiledNode>,
    /// Rules that hold for every step: post-output gates and invariants.
    pub global_rules: Vec<String>,
    /// The workflow-level scaffold (strategy, gates, fallback, global constraints).
    pub scaffold: String,
}

/// Compiles a (imports merged) frontmatter. A `needs` cycle, or a cycle of workflow edges, is
/// an error.
pub fn compile(json: &Value) -> Result<CompiledWorkflow, Vec<Diagnostic>> {
    let spec = Spec::read(json);
    let global_rules = scaffold::global_rules(&spec);
    let mut compiled = CompiledWorkflow {
        name: spec.name.clone(),
        description: spec.description.clone(),
        strategy: spec.reasoning.strategy.clone(),
        scaffold: scaffold::workflow(&spec, &global_rules),
        levels: Vec::new(),
        order: Vec::new(),
        loops: Vec::new(),
        final_steps: Vec::new(),
        steps: Vec::new(),
        nodes: Vec::new(),
        global_rules,
    };
    if spec.is_workflow() {
        let flow =
            Flow::of_workflow(&spec).map_err(|c| cycle_errors(&c, "node-cycle", "/nodes"))?;
        compiled.levels = flow.level_names(UnitKind::Node);
        compiled.order = compiled.levels.iter().flatten().cloned().collect();
        compiled.nodes = nodes::outline(&spec, &flow);
    }
    if spec.steps.is_empty() {
        return Ok(compiled);
    }
    let flow = Flow::of_steps(&spec)
        .map_err(|c| cycle_errors(&c, crate::lint::rules::STEP_CYCLE.code, "/steps"))?;
    let step_levels = flow.level_names(UnitKind::Step);
    let finals = flow.final_names(UnitKind::Step);
    let level_of: std::collections::HashMap<&str, usize> = step_levels
        .iter()
        .enumerate()
        .flat_map(|(i, level)| level.iter().map(move |name| (name.as_str(), i)))
        .collect();
    // Indexed once: looking each step and its choosers up by scanning made compiling
    // quadratic in the steps (the runtime compiles every document it starts).
    let steps_by_name: std::collections::HashMap<&str, &crate::model::Step> =
        spec.steps.iter().map(|s| (s.name.as_str(), s)).collect();
    let choosers = choosers_by_step(&flow);
    for name in step_levels.iter().flatten() {
        let Some(step) = steps_by_name.get(name.as_str()).copied() else {
            continue;
        };
        let is_final = finals.contains(name);
        let output_schema = step
            .output_schema
            .clone()
            .or_else(|| is_final.then(|| scaffold::contract_schema(&spec)).flatten());
        let context = scaffold::StepContext {
            spec: &spec,
            step,
            is_final,
            output_schema: output_schema.as_ref(),
            rules: &compiled.global_rules,
        };
        compiled.steps.push(CompiledStep {
            name: name.clone(),
            level: level_of.get(name.as_str()).copied().unwrap_or(0),
            needs: step.needs.clone(),
            chosen_by: choosers.get(name.as_str()).cloned().unwrap_or_default(),
            scaffold: scaffold::step(&context),
            output_schema,
            allowed_tools: step.allowed_tools.clone(),
            denied_tools: step.denied_tools.clone(),
        });
    }
    compiled.loops = flow
        .loops
        .iter()
        .map(|e| Loop {
            from: flow.units[e.from].name.clone(),
            to: flow.units[e.to].name.clone(),
        })
        .collect();
    compiled.final_steps = finals;
    compiled.order = step_levels.iter().flatten().cloned().collect();
    compiled.levels = step_levels;
    Ok(compiled)
}

/// Who chooses each step through a branch or a decision tree, by step name.
fn choosers_by_step(flow: &Flow) -> std::collections::HashMap<&str, Vec<String>> {
    let mut choosers: std::collections::HashMap<&str, Vec<String>> = Default::default();
    for edge in flow.edges.iter().filter(|e| e.kind.is_choice()) {
        let (source, target) = (&flow.units[edge.from], &flow.units[edge.to]);
        if target.kind != UnitKind::Step {
            continue;
        }
        choosers
            .entry(target.name.as_str())
            .or_default()
            .push(match source.kind {
                UnitKind::Tree => format!("tree:{}", source.name),
                _ => source.name.clone(),
            });
    }
    choosers
}

fn cycle_errors(cycles: &[Cycle], code: &'static str, base: &str) -> Vec<Diagnostic> {
    cycles
        .iter()
        .map(|cycle| {
            let first = cycle.0.first().cloned().unwrap_or_default();
            let field = if base == "/steps" {
                "needs"
            } else {
                "depends_on"
            };
            Diagnostic::error(
                code,
                format!("cannot compile: a cycle: {}", cycle.display()),
            )
            .with_path(format!("{base}/{}/{field}", escape_token(&first)))
        })
        .collect()
}

/// Compiles one step; an unknown name lists the steps there are.
pub fn compile_step(spec: &Value, name: &str) -> Result<CompiledStep, Vec<Diagnostic>> {
    let workflow = compile(spec)?;
    let known: Vec<&str> = workflow.steps.iter().map(|s| s.name.as_str()).collect();
    let known = known.join(", ");
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

impl CompiledWorkflow {
    /// The compiled step `name` (`compile --step`, npm `compile(text, step)`), or the error that
    /// names the steps there are.
    pub fn step(&self, name: &str) -> Result<&CompiledStep, Diagnostic> {
        self.steps.iter().find(|s| s.name == name).ok_or_else(|| {
            Diagnostic::error(
                "unknown-step",
                format!(
                    "there is no step `{name}` (steps: {})",
                    self.order.join(", ")
                ),
            )
        })
    }

    /// A level's steps as the groups that can run together: the steps the same branches or
    /// decision trees choose among are one group (`b or c (chosen by a)`), as only one of them
    /// runs; every other step is a group of its own.
    fn alternatives(&self, level: &[String]) -> Vec<String> {
        let chosen_by = |name: &String| -> &[String] {
            self.steps
                .iter()
                .find(|s| &s.name == name)
                .map_or(&[], |s| s.chosen_by.as_slice())
        };
        let mut groups: Vec<(&[String], Vec<&str>)> = Vec::new();
        for name in level {
            let choosers = chosen_by(name);
            match groups
                .iter_mut()
                .find(|(c, _)| !choosers.is_empty() && *c == choosers)
            {
                Some((_, members)) => members.push(name),
                None => groups.push((choosers, vec![name])),
            }
        }
        groups
            .into_iter()
            .map(|(choosers, members)| match members.as_slice() {
                [one] => (*one).to_owned(),
                _ => format!(
                    "{} (chosen by {})",
                    members.join(" or "),
                    choosers
                        .iter()
                        .map(|c| format!("`{c}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            })
            .collect()
    }

    /// The whole workflow as markdown: header, levels, then every step's scaffold in order,
    /// then every workflow node.
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
                let groups = self.alternatives(level);
                let parallel = if groups.len() > 1 {
                    " (in parallel)"
                } else {
                    ""
                };
                out.push_str(&format!("{}. {}{parallel}\n", i + 1, groups.join(", ")));
            }
            for repeat in &self.loops {
                out.push_str(&format!(
                    "- `{}` may go back to `{}` (a loop)\n",
                    repeat.from, repeat.to
                ));
            }
            out.push('\n');
        }
        for step in &self.steps {
            out.push_str(&step.scaffold);
        }
        if !self.nodes.is_empty() {
            out.push_str("## Node order\n\n");
            let depth = self.nodes.iter().map(|n| n.level + 1).max().unwrap_or(0);
            for level in 0..depth {
                let names: Vec<&str> = self
                    .nodes
                    .iter()
                    .filter(|n| n.level == level)
                    .map(|n| n.name.as_str())
                    .collect();
                let parallel = if names.len() > 1 {
                    " (in parallel)"
                } else {
                    ""
                };
                out.push_str(&format!("{}. {}{parallel}\n", level + 1, names.join(", ")));
            }
            out.push('\n');
        }
        for node in &self.nodes {
            out.push_str(&node.to_markdown());
        }
        out
    }
}

#[cfg(test)]
mod tests;
