//! The nodes of a multi-agent workflow (spec §9.1), compiled in edge order: what each node
//! receives and under which contract, and what its own document compiles to.

use std::fmt::Write;

use serde::Serialize;
use serde_json::Value;

use super::CompiledWorkflow;
use crate::flow::{Flow, UnitKind};
use crate::loader::Loader;
use crate::model::Spec;

/// Data a node receives over an edge.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NodeInput {
    /// The node the data comes from.
    pub from: String,
    /// The edge's `contract`: what the data must look like.
    pub contract: Option<Value>,
    /// The edge's `on_contract_violation`, as written.
    pub on_contract_violation: Option<String>,
}

/// A node of a multi-agent workflow, compiled.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CompiledNode {
    /// The node's name.
    pub name: String,
    /// Its execution level (0 runs first).
    pub level: usize,
    /// `logic_ref`: the path of the document it runs.
    pub logic_ref: Option<String>,
    /// Every node this one runs after (`depends_on` and edge sources).
    pub after: Vec<String>,
    /// The data it receives over edges, in edge order.
    pub inputs: Vec<NodeInput>,
    /// The node's own document with its overrides applied, compiled; `None` until
    /// [`compile_nodes`] loads it, or when it cannot be loaded (see `problem`).
    pub workflow: Option<Box<CompiledWorkflow>>,
    /// Why the node's document could not be loaded or compiled, when it could not.
    pub problem: Option<String>,
}

/// The nodes in flow order, without their documents.
pub(super) fn outline(spec: &Spec, flow: &Flow) -> Vec<CompiledNode> {
    let level_of = flow.level_of();
    flow.levels
        .iter()
        .flatten()
        .filter(|&&u| flow.units[u].kind == UnitKind::Node)
        .filter_map(|&unit| {
            let name = &flow.units[unit].name;
            let node = spec.nodes.iter().find(|n| &n.name == name)?;
            let mut after: Vec<String> = Vec::new();
            for edge in flow.incoming(unit) {
                let source = &flow.units[edge.from].name;
                if !after.contains(source) {
                    after.push(source.clone());
                }
            }
            Some(CompiledNode {
                name: name.clone(),
                level: level_of[unit],
                logic_ref: node.logic_ref.clone(),
                after,
                inputs: spec
                    .edges
                    .iter()
                    .filter(|e| &e.to == name)
                    .map(|e| NodeInput {
                        from: e.from.clone(),
                        contract: e.contract.clone(),
                        on_contract_violation: e.on_contract_violation.clone(),
                    })
                    .collect(),
                workflow: None,
                problem: None,
            })
        })
        .collect()
}

/// Loads and compiles every node's document (its `logic_ref`, resolved from `id`, overrides
/// applied). A node that cannot be loaded keeps the reason in `problem`.
pub fn compile_nodes(compiled: &mut CompiledWorkflow, json: &Value, id: &str, loader: &dyn Loader) {
    let nodes = json.get("nodes").and_then(Value::as_object);
    for node in &mut compiled.nodes {
        let Some(entry) = nodes.and_then(|n| n.get(&node.name)) else {
            continue;
        };
        match crate::workflow::load_node(entry, id, loader) {
            Ok(value) => match super::compile(&value) {
                Ok(workflow) => node.workflow = Some(Box::new(workflow)),
                Err(errors) => node.problem = errors.first().map(|e| e.message.clone()),
            },
            Err(problems) => {
                node.problem = Some(
                    problems
                        .first()
                        .map(|p| p.message.clone())
                        .unwrap_or_else(|| "the node has no `logic_ref`".to_owned()),
                )
            }
        }
    }
}

impl CompiledNode {
    /// The node as a markdown section (`## Node: NAME`): its reference, what it runs after,
    /// its inputs and their contracts, and its compiled document, headings nested under it.
    pub fn to_markdown(&self) -> String {
        let mut out = format!("## Node: {}\n\n", self.name);
        if let Some(reference) = &self.logic_ref {
            let _ = writeln!(out, "Reasoning defined in `{reference}`.\n");
        }
        if !self.after.is_empty() {
            let names: Vec<String> = self.after.iter().map(|n| format!("`{n}`")).collect();
            let _ = writeln!(out, "Runs after {}.\n", names.join(", "));
        }
        for input in &self.inputs {
            match &input.contract {
                Some(contract) => {
                    let pretty = serde_json::to_string_pretty(contract).unwrap_or_default();
                    let action = input
                        .on_contract_violation
                        .as_deref()
                        .map(|a| format!(" (on violation: {a})"))
                        .unwrap_or_default();
                    let _ = writeln!(
                        out,
                        "`{}` hands over data that must satisfy this contract{action}:\n\n```json\n{pretty}\n```\n",
                        input.from
                    );
                }
                None => {
                    let _ = writeln!(out, "`{}` hands over its output.\n", input.from);
                }
            }
        }
        if let Some(problem) = &self.problem {
            let _ = writeln!(out, "This node could not be compiled: {problem}\n");
        }
        if let Some(workflow) = &self.workflow {
            out.push_str(&demote(&workflow.to_markdown()));
        }
        out
    }
}

/// Every markdown heading two levels deeper (outside code fences), so a node's own scaffold
/// (`# Reasoning scaffold`) nests under its `## Node:` heading.
fn demote(markdown: &str) -> String {
    let mut out = String::with_capacity(markdown.len() + 64);
    let mut fenced = false;
    for line in markdown.split_inclusive('\n') {
        if line.starts_with("```") {
            fenced = !fenced;
        }
        if !fenced && line.starts_with('#') {
            out.push_str("##");
        }
        out.push_str(line);
    }
    out
}
