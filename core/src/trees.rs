//! Running a decision tree (spec §7) on an input: from the root, evaluate each node's condition
//! and follow the branch whose `value` equals the result (else the `default` branch) until a
//! terminal or a step is reached.

use serde::Serialize;
use serde_json::{json, Value};

use crate::expr::Template;

/// Where a decision tree walk ended and how it got there.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TreeOutcome {
    /// The nodes visited, from the root.
    pub path: Vec<String>,
    /// The terminal or step reached.
    pub reached: String,
    /// `"terminal"` or `"step"`.
    pub kind: &'static str,
}

/// Runs decision tree `name` of the frontmatter `spec`; conditions see `{"input": input}`.
pub fn eval_tree(spec: &Value, name: &str, input: &Value) -> Result<TreeOutcome, String> {
    let trees = spec.get("decision_trees").and_then(Value::as_object);
    let Some(tree) = trees.and_then(|t| t.get(name)) else {
        let known: Vec<&str> = trees
            .map(|t| t.keys().map(String::as_str).collect())
            .unwrap_or_default();
        return Err(format!(
            "there is no decision tree `{name}` (defined: {})",
            if known.is_empty() {
                "none".to_owned()
            } else {
                known.join(", ")
            }
        ));
    };
    let context = json!({ "input": input });
    let nodes = tree.get("nodes").and_then(Value::as_object);
    let mut current = tree
        .get("root")
        .and_then(Value::as_str)
        .ok_or_else(|| format!("decision tree `{name}` has no root"))?
        .to_owned();
    let mut path = Vec::new();
    loop {
        let Some(node) = nodes.and_then(|n| n.get(&current)) else {
            return Err(format!(
                "`{current}` is not a node of decision tree `{name}`"
            ));
        };
        if path.contains(&current) {
            path.push(current);
            return Err(format!("the tree loops: {}", path.join(" -> ")));
        }
        path.push(current.clone());
        let condition = node
            .get("condition")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let value = Template::parse(condition)
            .and_then(|t| t.evaluate(&context))
            .map_err(|e| format!("node `{current}`: condition `{condition}`: {}", e.message))?;
        let branches = node
            .get("branches")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        let choices: Vec<(Option<&Value>, bool)> = branches
            .iter()
            .map(|b| {
                let default = b.get("default").and_then(Value::as_bool) == Some(true);
                (b.get("value"), default)
            })
            .collect();
        let chosen = choose(&choices, &value)
            .map(|index| &branches[index])
            .ok_or_else(|| {
                format!("node `{current}`: no branch matches {value} and there is no default")
            })?;
        let next = chosen
            .get("next")
            .and_then(Value::as_str)
            .ok_or_else(|| format!("node `{current}`: the chosen branch has no `next`"))?;
        if nodes.is_some_and(|n| n.contains_key(next)) {
            current = next.to_owned();
            continue;
        }
        if tree.get("terminals").and_then(|t| t.get(next)).is_some() {
            return Ok(TreeOutcome {
                path,
                reached: next.to_owned(),
                kind: "terminal",
            });
        }
        if spec.get("steps").and_then(|s| s.get(next)).is_some() {
            return Ok(TreeOutcome {
                path,
                reached: next.to_owned(),
                kind: "step",
            });
        }
        return Err(format!(
            "node `{current}` routes to `{next}`, which is not a node, terminal or step"
        ));
    }
}

/// The branch a node takes, given each branch's (`value`, `default: true`) and the condition's
/// value: the first whose value equals it, else the first default. A node whose branch values
/// are all booleans (§7's `value: true` / `value: false`) compares the condition's truthiness, as
/// JavaScript's `if` reads it: `{{ a || b }}` gives an operand, not a boolean. One rule for
/// `eval-tree` and the runtime.
pub(crate) fn choose(branches: &[(Option<&Value>, bool)], value: &Value) -> Option<usize> {
    let mut values = branches.iter().filter_map(|(v, _)| *v).peekable();
    let boolean = values.peek().is_some() && values.all(Value::is_boolean);
    let truth;
    let value = if boolean && !value.is_boolean() {
        truth = Value::Bool(crate::expr::JsValue::from_json(value).truthy());
        &truth
    } else {
        value
    };
    branches
        .iter()
        .position(|(v, _)| v.is_some_and(|v| same(v, value)))
        .or_else(|| branches.iter().position(|(_, default)| *default))
}

/// Branch values match results as JSON, numbers by value.
pub(crate) fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        _ => a == b,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec() -> Value {
        json!({
            "steps": {"deep_research": {}, "quick_answer": {}},
            "decision_trees": {"classifier": {
                "root": "check_type",
                "nodes": {
                    "check_type": {"condition": "{{ input.type }}", "branches": [
                        {"value": "question", "next": "check_complexity"},
                        {"default": true, "next": "clarify"}
                    ]},
                    "check_complexity": {"condition": "{{ input.estimated_tokens > 1000 }}", "branches": [
                        {"value": true, "next": "deep_research"},
                        {"value": false, "next": "quick_answer"}
                    ]}
                },
                "terminals": {"clarify": {"action": "request_clarification"}}
            }}
        })
    }

    #[test]
    fn walks_to_a_step_or_a_terminal() {
        let out = eval_tree(
            &spec(),
            "classifier",
            &json!({"type": "question", "estimated_tokens": 5000}),
        )
        .unwrap();
        assert_eq!(out.path, ["check_type", "check_complexity"]);
        assert_eq!((out.reached.as_str(), out.kind), ("deep_research", "step"));
        let out = eval_tree(&spec(), "classifier", &json!({"type": "chat"})).unwrap();
        assert_eq!((out.reached.as_str(), out.kind), ("clarify", "terminal"));
    }

    #[test]
    fn explains_failures() {
        assert!(eval_tree(&spec(), "nope", &json!({}))
            .unwrap_err()
            .contains("defined: classifier"));
        let mut looping = spec();
        looping["decision_trees"]["classifier"]["nodes"]["check_complexity"]["branches"][1]
            ["next"] = json!("check_type");
        looping["decision_trees"]["classifier"]["nodes"]["check_type"]["branches"][1]["next"] =
            json!("check_complexity");
        let err = eval_tree(
            &looping,
            "classifier",
            &json!({"type": "x", "estimated_tokens": 1}),
        )
        .unwrap_err();
        assert!(err.contains("loops"), "{err}");
    }
}
