//! Decision trees (spec §7).

use serde::Serialize;
use serde_json::Value;

use super::read::At;

/// One entry of `decision_trees` (§7).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DecisionTree {
    /// The tree's key in `decision_trees`.
    pub name: String,
    /// JSON Pointer of the tree's entry.
    pub pointer: String,
    /// `description`: what the tree decides.
    pub description: Option<String>,
    /// `root`: the name of the node evaluated first.
    pub root: Option<String>,
    /// `nodes`, in declaration order; entries without a `condition` are left out.
    pub nodes: Vec<TreeNode>,
    /// `terminals`, in declaration order; entries without an `action` are left out.
    pub terminals: Vec<Terminal>,
}

/// A decision node: a condition whose value picks a branch.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TreeNode {
    /// The node's key in the tree's `nodes`.
    pub name: String,
    /// JSON Pointer of the node's entry.
    pub pointer: String,
    /// `condition`: the expression (spec §9) whose value the branches are matched against.
    pub condition: String,
    /// `branches`, in order; entries without `next` are left out.
    pub branches: Vec<TreeBranch>,
}

/// One branch of a decision node.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TreeBranch {
    /// JSON Pointer of the branch's entry.
    pub pointer: String,
    /// The value the condition's result is compared with; `None` for the default branch.
    pub value: Option<Value>,
    /// `default: true`: taken when no value matches.
    pub default: bool,
    /// `next`: the node or terminal to go to.
    pub next: String,
}

/// An end of a decision tree: what to do when the walk reaches it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Terminal {
    /// The terminal's key in the tree's `terminals`.
    pub name: String,
    /// JSON Pointer of the terminal's entry.
    pub pointer: String,
    /// A step name or a built-in action (`request_clarification`, `escalate`, ...).
    pub action: String,
    /// `message`, shown with the action.
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
