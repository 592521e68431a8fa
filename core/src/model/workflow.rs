//! Contracts (spec §5) and the multi-agent parts of a document (spec §9.1): global limits,
//! nodes with their `logic_ref`, edges with their contracts.

use serde::Serialize;
use serde_json::{Map, Value};

use super::read::At;

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Contracts {
    pub inputs: Vec<ContractField>,
    pub outputs: Vec<ContractField>,
    pub mode: Option<String>,
    pub on_input_violation: Option<String>,
    pub on_output_violation: Option<String>,
}

/// A contract field: a name and a JSON Schema-like description of its value.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ContractField {
    pub pointer: String,
    pub name: String,
    pub kind: Option<String>,
    /// `required: true` (the field must be present).
    pub required: bool,
    pub description: Option<String>,
    /// The field as written, for building its JSON Schema.
    pub raw: Map<String, Value>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Global {
    pub max_total_time: Option<String>,
    pub max_total_cost: Option<f64>,
    pub fail_fast: Option<bool>,
    pub max_parallelism: Option<u64>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct WorkflowNode {
    pub name: String,
    pub pointer: String,
    pub logic_ref: Option<String>,
    pub depends_on: Vec<String>,
    pub overrides: Map<String, Value>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct WorkflowEdge {
    pub pointer: String,
    pub from: String,
    pub to: String,
    pub contract: Option<Value>,
    /// `retry_source | skip | abort` (free text in the schema).
    pub on_contract_violation: Option<String>,
}

impl Contracts {
    pub(super) fn read(at: Option<At<'_>>) -> Contracts {
        let Some(at) = at else {
            return Contracts::default();
        };
        let validation = at.child("validation");
        Contracts {
            inputs: fields(&at, "inputs"),
            outputs: fields(&at, "outputs"),
            mode: validation.as_ref().and_then(|v| v.text("mode")),
            on_input_violation: validation
                .as_ref()
                .and_then(|v| v.text("on_input_violation")),
            on_output_violation: validation
                .as_ref()
                .and_then(|v| v.text("on_output_violation")),
        }
    }
}

fn fields(at: &At<'_>, key: &str) -> Vec<ContractField> {
    at.items(key)
        .into_iter()
        .filter_map(|f| {
            Some(ContractField {
                name: f.text("name")?,
                kind: f.text("type"),
                required: f.flag("required").unwrap_or(false),
                description: f.text("description"),
                raw: f.value.as_object()?.clone(),
                pointer: f.pointer,
            })
        })
        .collect()
}

impl Global {
    pub(super) fn read(at: Option<At<'_>>) -> Global {
        let Some(at) = at else {
            return Global::default();
        };
        Global {
            max_total_time: at.text("max_total_time"),
            max_total_cost: at.number("max_total_cost"),
            fail_fast: at.flag("fail_fast"),
            max_parallelism: at.count("max_parallelism"),
        }
    }
}

pub(super) fn nodes(root: &At<'_>) -> Vec<WorkflowNode> {
    root.entries("nodes")
        .into_iter()
        .filter(|(_, node)| node.value.is_object())
        .map(|(name, node)| WorkflowNode {
            logic_ref: node.text("logic_ref"),
            depends_on: node.strings("depends_on"),
            overrides: node.object("overrides").cloned().unwrap_or_default(),
            pointer: node.pointer,
            name,
        })
        .collect()
}

pub(super) fn edges(root: &At<'_>) -> Vec<WorkflowEdge> {
    root.items("edges")
        .into_iter()
        .filter_map(|e| {
            Some(WorkflowEdge {
                from: e.text("from")?,
                to: e.text("to")?,
                contract: e.get("contract").filter(|c| c.is_object()).cloned(),
                on_contract_violation: e.text("on_contract_violation"),
                pointer: e.pointer,
            })
        })
        .collect()
}
