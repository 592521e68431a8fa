//! Contracts (spec §5) and the multi-agent parts of a document (spec §9.1): global limits,
//! nodes with their `logic_ref`, edges with their contracts.

use serde::Serialize;
use serde_json::{Map, Value};

use super::read::At;

/// `contracts` (§5): the document's declared inputs and outputs and how violations are handled.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Contracts {
    /// `inputs`, in order; entries without a `name` are left out.
    pub inputs: Vec<ContractField>,
    /// `outputs`, in order; entries without a `name` are left out.
    pub outputs: Vec<ContractField>,
    /// `validation.mode` (e.g. `strict`, `warn`), as written.
    pub mode: Option<String>,
    /// `validation.on_input_violation`, as written.
    pub on_input_violation: Option<String>,
    /// `validation.on_output_violation`, as written.
    pub on_output_violation: Option<String>,
}

/// A contract field: a name and a JSON Schema-like description of its value.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ContractField {
    /// JSON Pointer of the field's entry.
    pub pointer: String,
    /// `name`: the key of the value in the input or output object.
    pub name: String,
    /// `type` (a JSON Schema type name), when given.
    pub kind: Option<String>,
    /// `required: true` (the field must be present).
    pub required: bool,
    /// `description`: what the value means, for people and the prompt.
    pub description: Option<String>,
    /// The field as written, for building its JSON Schema.
    pub raw: Map<String, Value>,
}

/// `global` (§9.1): limits over a whole multi-agent workflow.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Global {
    /// `max_total_time`, as written (`"10m"`).
    pub max_total_time: Option<String>,
    /// `max_total_cost`, in the document's cost unit.
    pub max_total_cost: Option<f64>,
    /// `fail_fast`: stop the whole workflow at the first failed node.
    pub fail_fast: Option<bool>,
    /// `max_parallelism`: how many nodes may run at once.
    pub max_parallelism: Option<u64>,
}

/// One entry of `nodes` (§9.1): an agent that runs another LOGIC.md file.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct WorkflowNode {
    /// The node's key in `nodes`.
    pub name: String,
    /// JSON Pointer of the node's entry.
    pub pointer: String,
    /// `logic_ref`: the path of the LOGIC.md file the node runs, relative to this one.
    pub logic_ref: Option<String>,
    /// `depends_on`: the nodes that must finish first.
    pub depends_on: Vec<String>,
    /// `overrides`: settings laid over the referenced document's, as written; empty when absent.
    pub overrides: Map<String, Value>,
}

/// One entry of `edges` (§9.1): data passed from one node to another.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct WorkflowEdge {
    /// JSON Pointer of the edge's entry.
    pub pointer: String,
    /// `from`: the producing node.
    pub from: String,
    /// `to`: the consuming node.
    pub to: String,
    /// `contract`, when it is a mapping: what the passed value must look like.
    pub contract: Option<Value>,
    /// `retry_source | skip | abort` (free text in the schema).
    pub on_contract_violation: Option<String>,
}

impl Contracts {
    /// The `contracts` of a frontmatter (any JSON), read alone: cheaper than [`super::Spec::read`]
    /// when only the contracts are needed (the studio reads them per keystroke).
    pub fn of(frontmatter: &Value) -> Contracts {
        Contracts::read(At::new(frontmatter, "").child("contracts"))
    }

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
