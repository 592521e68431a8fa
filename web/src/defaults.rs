//! What the palette adds: a step or DRTL node with the fields its kind requires, under a name
//! not yet taken.

use logicmd::edit::Edit;
use logicmd::graph::Graph;
use serde_json::{json, Value};

/// DRTL node types, in palette order.
pub const DRTL_TYPES: &[&str] = &[
    "generate",
    "verify",
    "gate",
    "review",
    "aggregate",
    "fan_out",
    "debate",
    "transform",
];

/// The model new generating nodes start with; the user picks a real one in the text.
const MODEL: &str = "provider/model";

/// `base`, or `base_2`, `base_3`, ... whichever is free among the graph's names.
pub fn free_name(graph: Option<&Graph>, base: &str) -> String {
    free(base, |name| {
        graph.is_some_and(|g| g.nodes.iter().any(|n| n.name == name))
    })
}

/// `base`, or `base_2`, `base_3`, ... whichever `taken` does not hold.
pub fn free(base: &str, taken: impl Fn(&str) -> bool) -> String {
    if !taken(base) {
        return base.to_owned();
    }
    (2..)
        .map(|i| format!("{base}_{i}"))
        .find(|name| !taken(name))
        .unwrap_or_else(|| base.to_owned())
}

/// A new step, after the selected step (or at the end).
pub fn add_step(graph: Option<&Graph>, after: Option<String>) -> Edit {
    let name = free_name(graph, "new_step");
    Edit::AddStep {
        step: json!({ "description": "Describe what this step does" }),
        name,
        after,
    }
}

/// A new DRTL node of `node_type` with its required fields filled in; a node that reads gets
/// `reads` (the output of the node it follows: `node.output_key`) as its input, else an empty
/// one that the pre-run checklist points at.
pub fn add_node(
    graph: Option<&Graph>,
    node_type: &str,
    after: Option<String>,
    reads: Option<String>,
) -> Edit {
    let id = free_name(graph, node_type);
    let input = reads.clone().unwrap_or_default();
    let mut node = json!({ "id": id, "type": node_type });
    let fields: Value = match node_type {
        "generate" => {
            json!({ "prompt": "Describe the output", "output_key": format!("{id}_output") })
        }
        "verify" => {
            json!({ "input": input, "rules": [{ "id": "std.check_links", "target": "urls", "mode": "block" }] })
        }
        "gate" => json!({ "condition": "input.blocking_failures == 0" }),
        "review" => json!({ "input": input, "actions": ["acknowledge"] }),
        "aggregate" => {
            json!({ "input": reads.into_iter().collect::<Vec<_>>(), "strategy": "synthesize" })
        }
        "fan_out" => json!({ "participants": [
            { "model": MODEL, "persona": "first" },
            { "model": MODEL, "persona": "second" },
        ] }),
        "debate" => json!({ "participants": [
            { "id": "author", "model": MODEL, "role": "author" },
            { "id": "reviewer", "model": MODEL, "role": "reviewer" },
        ] }),
        "transform" => json!({ "operations": [{ "set": "state.variables.done", "value": true }] }),
        _ => json!({}),
    };
    if let (Value::Object(node), Value::Object(fields)) = (&mut node, fields) {
        node.extend(fields);
    }
    Edit::AddNode { node, after }
}

/// What the palette's button for `node_type` does: add the node (after the selected one, and
/// wired from it, so a pipeline grows by clicking), and the id the new node will have.
pub fn palette_edits(
    graph: Option<&Graph>,
    node_type: &str,
    selected: Option<String>,
    reads: Option<String>,
) -> (Vec<Edit>, String) {
    let add = if node_type == "step" {
        add_step(graph, selected.clone())
    } else {
        add_node(graph, node_type, selected.clone(), reads)
    };
    let (name, id) = match &add {
        Edit::AddStep { name, .. } => (name.clone(), format!("step:{name}")),
        Edit::AddNode { node, .. } => {
            let name = node.get("id").and_then(Value::as_str).unwrap_or_default();
            (name.to_owned(), format!("drtl:{name}"))
        }
        _ => (String::new(), String::new()),
    };
    let mut edits = vec![add];
    if let Some(from) = selected {
        edits.push(Edit::Connect {
            from,
            to: name,
            from_port: None,
            to_port: None,
        });
    }
    (edits, id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use logicmd::edit::apply;

    #[test]
    fn every_palette_node_type_validates_when_added() {
        let topology = "name: t\nnodes:\n  - id: source\n    type: generate\n    prompt: p\n    output_key: out\n";
        for node_type in DRTL_TYPES {
            let edit = add_node(None, node_type, None, Some("source.out".into()));
            let applied = apply(topology, &edit).unwrap_or_else(|e| panic!("{node_type}: {e:?}"));
            let report = logicmd::drtl::validate(&applied.text);
            let errors: Vec<_> = report
                .diagnostics
                .iter()
                .filter(|d| d.code.starts_with("schema"))
                .collect();
            assert!(
                errors.is_empty(),
                "{node_type}: {errors:?}\n{}",
                applied.text
            );
        }
    }

    #[test]
    fn a_palette_step_follows_the_selected_step_and_needs_it() {
        let doc = "---\nspec_version: \"1.0\"\nname: t\nsteps:\n  a: {}\n  b: {}\n---\n";
        let graph = logicmd::graph::from_document(&logicmd::Document::parse(doc).document.unwrap());
        let (edits, id) = palette_edits(Some(&graph), "step", Some("a".into()), None);
        assert_eq!(id, "step:new_step");
        let text = edits.iter().fold(doc.to_owned(), |text, edit| {
            apply(&text, edit).expect("applies").text
        });
        assert_eq!(
            text,
            "---\nspec_version: \"1.0\"\nname: t\nsteps:\n  a: {}\n  new_step:\n    description: Describe what this step does\n    needs:\n      - a\n  b: {}\n---\n"
        );
    }

    #[test]
    fn new_steps_get_free_names_and_validate() {
        let doc = "---\nspec_version: \"1.0\"\nname: t\nsteps:\n  new_step: {}\n---\n";
        let graph = logicmd::graph::from_document(&logicmd::Document::parse(doc).document.unwrap());
        let edit = add_step(Some(&graph), None);
        let applied = apply(doc, &edit).expect("applies");
        assert!(applied.text.contains("new_step_2:"), "{}", applied.text);
        assert!(logicmd::validate(&applied.text).valid);
    }
}
