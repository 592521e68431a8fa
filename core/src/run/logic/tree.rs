//! Walking a decision tree (spec §7) with a run's context: conditions see the input and the
//! outputs of the steps so far; a branch's `value` is compared with the condition's result as
//! JSON (numbers by value), else the `default` branch is taken.

use serde_json::Value;

use crate::expr::Template;
use crate::model::DecisionTree;

/// Where a walk ended.
pub(crate) struct Walk {
    pub path: Vec<String>,
    /// The terminal or step reached.
    pub reached: String,
    /// A terminal's action (a step name or a built-in action), or the step reached.
    pub action: String,
    /// The terminal's `message`.
    pub message: Option<String>,
}

pub(crate) fn evaluate(tree: &DecisionTree, context: &Value) -> Result<Walk, String> {
    let mut current = tree
        .root
        .clone()
        .ok_or_else(|| "the tree has no root".to_owned())?;
    let mut path = Vec::new();
    loop {
        if let Some(terminal) = tree.terminals.iter().find(|t| t.name == current) {
            path.push(current.clone());
            return Ok(Walk {
                path,
                reached: current,
                action: terminal.action.clone(),
                message: terminal.message.clone(),
            });
        }
        let Some(node) = tree.nodes.iter().find(|n| n.name == current) else {
            // Neither a node nor a terminal: a step.
            return Ok(Walk {
                path,
                action: current.clone(),
                reached: current,
                message: None,
            });
        };
        if path.contains(&current) {
            path.push(current);
            return Err(format!("the tree loops: {}", path.join(" -> ")));
        }
        path.push(current.clone());
        let value = Template::parse(&node.condition)
            .and_then(|t| t.evaluate(context))
            .map_err(|e| format!("node `{current}`: {}", e.message))?;
        let choices: Vec<(Option<&Value>, bool)> = node
            .branches
            .iter()
            .map(|b| (b.value.as_ref(), b.default))
            .collect();
        let branch = crate::trees::choose(&choices, &value)
            .map(|index| &node.branches[index])
            .ok_or_else(|| {
                format!("node `{current}`: no branch matches {value} and there is no default")
            })?;
        current = branch.next.clone();
    }
}
