//! Decision trees (spec §7).

use serde::Serialize;
use serde_json::Value;

use super::read::At;

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DecisionTree {
    pub name: String,
    pub pointer: String,
    pub description: Option<String>,
    pub root: Option<String>,
    pub nodes: Vec<TreeNode>,
    pub terminals: Vec<Terminal>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TreeNode {
    pub name: String,
    pub pointer: String,
    pub condition: String,
    pub branches: Vec<TreeBranch>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TreeBranch {
    pub pointer: String,
    /// The value the condition's result is compared with; `None` for the default branch.
    pub value: Option<Value>,
    pub default: bool,
    pub next: String,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Terminal {
    pub name: String,
    pub pointer: String,
    /// A step name or a built-in action (`request_clarification`, `escalate`, ...).
    pub action: String,
    pub message: Option<String>,
}

impl DecisionTree {
    pub(super) fn read(name: String, at: &At<'_>) -> DecisionTree {
        DecisionTree {
            pointer: at.pointer.clone(),
            description: at.text("description"),
            root: at.text("root"),
            nodes: at
                .entries("nodes")
                .into_iter()
                .filter_map(|(name, node)| {
                    Some(TreeNode {
                        condition: node.text("condition")?,
                        branches: node
                            .items("branches")
                            .into_iter()
                            .filter_map(|b| {
                                Some(TreeBranch {
                                    value: b.get("value").cloned(),
                                    default: b.flag("default").unwrap_or(false),
                                    next: b.text("next")?,
                                    pointer: b.pointer,
                                })
                            })
                            .collect(),
                        pointer: node.pointer,
                        name,
                    })
                })
                .collect(),
            terminals: at
                .entries("terminals")
                .into_iter()
                .filter_map(|(name, terminal)| {
                    Some(Terminal {
                        action: terminal.text("action")?,
                        message: terminal.text("message"),
                        pointer: terminal.pointer,
                        name,
                    })
                })
                .collect(),
            name,
        }
    }

    /// Every name a branch or terminal routes to that is not a node or terminal of this tree:
    /// steps (or unknown names, which lint reports).
    pub fn step_targets(&self) -> Vec<&str> {
        let own = |name: &str| {
            self.nodes.iter().any(|n| n.name == name)
                || self.terminals.iter().any(|t| t.name == name)
        };
        let mut targets: Vec<&str> = Vec::new();
        let branch_targets = self
            .nodes
            .iter()
            .flat_map(|n| n.branches.iter().map(|b| b.next.as_str()))
            .filter(|next| !own(next));
        let terminal_actions = self.terminals.iter().map(|t| t.action.as_str());
        for target in branch_targets.chain(terminal_actions) {
            if !targets.contains(&target) {
                targets.push(target);
            }
        }
        targets
    }
}
