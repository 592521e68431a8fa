//! A typed view of a LOGIC.md document: steps, branches, retry, verification, gates, decision
//! trees, fallback, contracts and the multi-agent workflow parts, read once from the frontmatter's
//! JSON so that compile, graph, lint and the runtime share one reading instead of string-keyed
//! lookups. Values of the wrong type read as absent (the schema reports them); every item keeps
//! the JSON Pointer it came from, for diagnostics.

mod fallback;
mod gates;
pub(crate) mod read;
pub(crate) use read::strings;
mod step;
mod tree;
mod workflow;

use serde::Serialize;
use serde_json::{Map, Value};

pub use fallback::{Degradation, Escalation, Fallback};
pub use gates::{Criterion, Gate, Invariant, QualityGates, SelfVerification, Severity};
pub use step::{Branch, Confidence, Retry, Step, Verification};
pub use tree::{DecisionTree, Terminal, TreeBranch, TreeNode};
pub use workflow::{ContractField, Contracts, Global, WorkflowEdge, WorkflowNode};

use read::At;

/// What to do when a check fails (§4.1.1, §6): one vocabulary for verification and gates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum OnFail {
    /// Try the step again (within its retry policy).
    Retry,
    /// Hand the decision to the fallback's escalation.
    Escalate,
    /// Skip the step and go on without its output.
    Skip,
    /// Stop the run.
    Abort,
    /// Have the model revise its answer with the failure as feedback.
    Revise,
}

impl OnFail {
    /// Reads the spec's spelling (`retry`, `escalate`, `skip`, `abort`, `revise`); `None` for
    /// anything else.
    pub fn parse(text: &str) -> Option<OnFail> {
        Some(match text {
            "retry" => OnFail::Retry,
            "escalate" => OnFail::Escalate,
            "skip" => OnFail::Skip,
            "abort" => OnFail::Abort,
            "revise" => OnFail::Revise,
            _ => return None,
        })
    }

    /// The spec's spelling, the inverse of [`OnFail::parse`].
    pub fn as_str(self) -> &'static str {
        match self {
            OnFail::Retry => "retry",
            OnFail::Escalate => "escalate",
            OnFail::Skip => "skip",
            OnFail::Abort => "abort",
            OnFail::Revise => "revise",
        }
    }
}

/// Global reasoning configuration (§3).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Reasoning {
    /// `strategy` (`cot`, `react`, `tot`, ...), as written.
    pub strategy: Option<String>,
    /// `max_iterations`: the bound on loops (branches that go back) in a run.
    pub max_iterations: Option<u64>,
    /// `temperature` for model calls.
    pub temperature: Option<f64>,
    /// `thinking_budget`, in tokens.
    pub thinking_budget: Option<u64>,
    /// `strategy_config`: the strategy's own settings, as written; empty when absent.
    pub strategy_config: Map<String, Value>,
}

/// An `imports` entry (§2.2).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Import {
    /// JSON Pointer of the import's entry.
    pub pointer: String,
    /// `ref`: the path of the imported file, relative to the importing one.
    pub reference: String,
    /// `as`: the alias its parts are referred to by.
    pub alias: String,
}

/// The typed view of one document's frontmatter.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Spec {
    /// `name`; empty when absent.
    pub name: String,
    /// `description`: what the document is for, for people and the prompt.
    pub description: Option<String>,
    /// `imports`; entries without both `ref` and `as` are left out.
    pub imports: Vec<Import>,
    /// `reasoning`; all absent when the document has none.
    pub reasoning: Reasoning,
    /// In declaration order.
    pub steps: Vec<Step>,
    /// `contracts`; empty when absent.
    pub contracts: Contracts,
    /// `quality_gates`; empty when absent.
    pub quality_gates: QualityGates,
    /// `fallback`; empty when absent.
    pub fallback: Fallback,
    /// `decision_trees`, in declaration order; entries that are not mappings are left out.
    pub decision_trees: Vec<DecisionTree>,
    /// `global` limits of a multi-agent workflow; all absent when absent.
    pub global: Global,
    /// `nodes` of a multi-agent workflow (§9.1), in declaration order.
    pub nodes: Vec<WorkflowNode>,
    /// `edges` of a multi-agent workflow, in order; entries without `from` and `to` are left out.
    pub edges: Vec<WorkflowEdge>,
}

impl Spec {
    /// Reads a frontmatter (any JSON; a non-object is an empty spec).
    pub fn read(json: &Value) -> Spec {
        let root = At::new(json, "");
        Spec {
            name: root.text("name").unwrap_or_default(),
            description: root.text("description"),
            imports: root
                .items("imports")
                .into_iter()
                .filter_map(|i| {
                    Some(Import {
                        reference: i.text("ref")?,
                        alias: i.text("as")?,
                        pointer: i.pointer,
                    })
                })
                .collect(),
            reasoning: root
                .child("reasoning")
                .map(|r| Reasoning {
                    strategy: r.text("strategy"),
                    max_iterations: r.count("max_iterations"),
                    temperature: r.number("temperature"),
                    thinking_budget: r.count("thinking_budget"),
                    strategy_config: r.object("strategy_config").cloned().unwrap_or_default(),
                })
                .unwrap_or_default(),
            steps: root
                .entries("steps")
                .into_iter()
                .filter(|(_, step)| step.value.is_object() || step.value.is_null())
                .map(|(name, step)| Step::read(name, &step))
                .collect(),
            contracts: Contracts::read(root.child("contracts")),
            quality_gates: QualityGates::read(root.child("quality_gates")),
            fallback: Fallback::read(root.child("fallback")),
            decision_trees: root
                .entries("decision_trees")
                .into_iter()
                .filter(|(_, tree)| tree.value.is_object())
                .map(|(name, tree)| DecisionTree::read(name, &tree))
                .collect(),
            global: Global::read(root.child("global")),
            nodes: workflow::nodes(&root),
            edges: workflow::edges(&root),
        }
    }

    /// The step named `name`, if the document declares it.
    pub fn step(&self, name: &str) -> Option<&Step> {
        self.steps.iter().find(|s| s.name == name)
    }

    /// A multi-agent workflow (§9.1): it declares `nodes`.
    pub fn is_workflow(&self) -> bool {
        !self.nodes.is_empty()
    }
}

#[cfg(test)]
mod tests;
