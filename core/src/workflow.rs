//! Multi-agent workflows (spec §9): loading a node's `logic_ref` and applying its `overrides`.

use serde_json::Value;

use crate::fieldpath::FieldPath;
use crate::loader::Loader;
use crate::schema;
use crate::validate::validate;

/// Why a node could not be loaded, and where in the node's entry the fault is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct NodeProblem {
    /// Pointer relative to the node entry: `/logic_ref` or `/overrides/KEY`.
    pub(crate) at: String,
    pub(crate) kind: NodeProblemKind,
    pub(crate) message: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NodeProblemKind {
    Unresolved,
    Override,
}

/// The node's own LOGIC.md with its overrides applied, validated again afterwards.
pub(crate) fn load_node(
    node: &Value,
    from: &str,
    loader: &dyn Loader,
) -> Result<Value, Vec<NodeProblem>> {
    let Some(reference) = node.get("logic_ref").and_then(Value::as_str) else {
        return Err(Vec::new());
    };
    let unresolved = |message: String| {
        vec![NodeProblem {
            at: "/logic_ref".to_owned(),
            kind: NodeProblemKind::Unresolved,
            message,
        }]
    };
    let id = loader
        .resolve(from, reference)
        .map_err(|e| unresolved(format!("cannot load `{reference}`: {}", e.message)))?;
    let text = loader
        .load(&id)
        .map_err(|e| unresolved(format!("cannot load `{reference}`: {}", e.message)))?;
    let report = validate(&text);
    let first = report.first_error(&id);
    let Some(document) = report.document.filter(|_| report.valid) else {
        return Err(unresolved(format!("`{reference}` is invalid: {first}")));
    };
    let mut value = document.json().clone();
    let mut problems = Vec::new();
    if let Some(overrides) = node.get("overrides").and_then(Value::as_object) {
        for (key, replacement) in overrides {
            let at = format!("/overrides/{}", crate::json::escape_token(key));
            let applied =
                FieldPath::parse(key).and_then(|path| path.set(&mut value, replacement.clone()));
            if let Err(message) = applied {
                problems.push(NodeProblem {
                    at,
                    kind: NodeProblemKind::Override,
                    message: format!("override `{key}`: {message}"),
                });
            }
        }
        for (pointer, message) in schema::validate_value(&value) {
            problems.push(NodeProblem {
                at: "/overrides".to_owned(),
                kind: NodeProblemKind::Override,
                message: format!(
                    "after overrides, `{reference}` is invalid at `{pointer}`: {message}"
                ),
            });
        }
    }
    if problems.is_empty() {
        Ok(value)
    } else {
        Err(problems)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::loader::MemoryLoader;
    use serde_json::json;

    fn loader() -> MemoryLoader {
        MemoryLoader::new().with(
            "nodes/researcher.logic.md",
            "---\nspec_version: \"1.0\"\nname: researcher\nreasoning: {strategy: react, max_iterations: 10}\nquality_gates:\n  pre_output:\n    - {name: s, check: \"{{ true }}\", severity: error}\n---\n",
        )
    }

    #[test]
    fn applies_overrides_by_dotted_path() {
        let node = json!({"logic_ref": "./nodes/researcher.logic.md", "overrides": {
            "reasoning.max_iterations": 5,
            "quality_gates.pre_output[0].severity": "warning"
        }});
        let value = load_node(&node, "workflow.logic.md", &loader()).unwrap();
        assert_eq!(value["reasoning"]["max_iterations"], 5);
        assert_eq!(
            value["quality_gates"]["pre_output"][0]["severity"],
            "warning"
        );
    }

    #[test]
    fn reports_bad_overrides_and_missing_files() {
        let node = json!({"logic_ref": "./nodes/researcher.logic.md", "overrides": {
            "quality_gates.pre_output[5].severity": "warning",
            "reasoning.strategy": "guess"
        }});
        let problems = load_node(&node, "workflow.logic.md", &loader()).unwrap_err();
        assert_eq!(problems.len(), 2, "{problems:?}");
        assert!(problems[0].message.contains("out of range"));
        assert!(problems[1].message.contains("/reasoning/strategy"));
        let missing = json!({"logic_ref": "./nodes/nobody.logic.md"});
        let problems = load_node(&missing, "workflow.logic.md", &loader()).unwrap_err();
        assert_eq!(problems[0].kind, NodeProblemKind::Unresolved);
    }
}
