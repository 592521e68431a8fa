//! What a run needs that a document's checks do not look at, found before the run starts, so
//! every front end can list it with the document's problems (the studio's pre-run checklist)
//! instead of a run that refuses or cannot start: the files the run reads (a topology's prompt
//! and protocol files, a workflow's node documents) and what its nodes read (a DRTL node whose
//! `input` is empty reads nothing). Each problem is placed at the field that fixes it.

use serde_json::Value;

use crate::analysis::Parsed;
use crate::diagnostic::Diagnostic;
use crate::json::pointer_push;
use crate::loader::Loader;
use crate::schema::Source;

/// Problems that would stop a run of `parsed` (identified as `id`, its files read through
/// `loader`), each at the field that fixes it.
pub fn preflight(parsed: &Parsed, id: &str, loader: &dyn Loader) -> Vec<Diagnostic> {
    match parsed {
        Parsed::Logic(document) => workflow_files(document.json(), id, loader)
            .into_iter()
            .map(|(pointer, d)| document.locate(d, document.span_at(&pointer)))
            .collect(),
        Parsed::Drtl(topology) => {
            let json = topology.json();
            let mut found = topology_files(json, id, loader);
            found.extend(empty_inputs(json));
            found
                .into_iter()
                .map(|(pointer, d)| topology.locate(d, topology.span_at(&pointer)))
                .collect()
        }
    }
}

type Found = Vec<(String, Diagnostic)>;

fn problem(code: &str, pointer: String, message: String, help: &str) -> (String, Diagnostic) {
    let diagnostic = Diagnostic::error(code, message)
        .with_path(pointer.clone())
        .with_help(help);
    (pointer, diagnostic)
}

/// A workflow node's document (`logic_ref`) that cannot be read.
fn workflow_files(spec: &Value, id: &str, loader: &dyn Loader) -> Found {
    let nodes = spec.get("nodes").and_then(Value::as_object);
    let mut found = Vec::new();
    for (name, node) in nodes.into_iter().flatten() {
        if node.get("logic_ref").is_none() {
            continue;
        }
        if let Err(problems) = crate::workflow::load_node(node, id, loader) {
            let base = pointer_push("/nodes", name);
            found.extend(problems.into_iter().map(|p| {
                problem(
                    "run-node-unavailable",
                    format!("{base}{}", p.at),
                    format!("node `{name}`: {}", p.message),
                    "a run reads each workflow node's document: give a path to a document that exists",
                )
            }));
        }
    }
    found
}

/// A prompt or protocol file named by path (in `artifacts`, or a node's `prompt_ref` /
/// `protocol_ref`) that cannot be read.
fn topology_files(topology: &Value, id: &str, loader: &dyn Loader) -> Found {
    let mut named: Vec<(String, String)> = Vec::new();
    for kind in ["prompts", "protocols"] {
        let base = pointer_push("/artifacts", kind);
        let entries = topology.pointer(&base).and_then(Value::as_object);
        for (name, path) in entries.into_iter().flatten() {
            if let Some(path) = path.as_str() {
                named.push((pointer_push(&base, name), path.to_owned()));
            }
        }
    }
    let nodes = topology.get("nodes").and_then(Value::as_array);
    for (index, node) in nodes.into_iter().flatten().enumerate() {
        for key in ["prompt_ref", "protocol_ref"] {
            let path = node.get(key).and_then(Value::as_str);
            if let Some(path) = path.filter(|p| !p.starts_with("artifacts.")) {
                let pointer = pointer_push(&pointer_push("/nodes", &index.to_string()), key);
                named.push((pointer, path.to_owned()));
            }
        }
    }
    named
        .into_iter()
        .filter_map(|(pointer, path)| {
            let read = loader.resolve(id, &path).and_then(|f| loader.load(&f));
            read.err().map(|error| {
                problem(
                    "run-file-unavailable",
                    pointer,
                    format!(
                        "a run reads `{path}`, which cannot be read: {}",
                        error.message
                    ),
                    "give the path of a file next to the document, or write the text inline",
                )
            })
        })
        .collect()
}

/// A node whose `input` is written but empty: it would read nothing.
fn empty_inputs(topology: &Value) -> Found {
    let nodes = topology.get("nodes").and_then(Value::as_array);
    nodes
        .into_iter()
        .flatten()
        .enumerate()
        .filter(|(_, node)| {
            node.get("input")
                .and_then(Value::as_str)
                .is_some_and(|input| input.trim().is_empty())
        })
        .map(|(index, node)| {
            let id = node.get("id").and_then(Value::as_str).unwrap_or("?");
            problem(
                "run-empty-input",
                pointer_push(&pointer_push("/nodes", &index.to_string()), "input"),
                format!("`{id}` reads nothing: its `input` is empty"),
                "name what it reads: another node's output as `node.output_key` (or a `{{template}}`)",
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::{analyze, Options};
    use crate::loader::MemoryLoader;

    fn parsed(text: &str) -> Parsed {
        analyze(text, &Options::lint("doc.drtl.yaml"), &MemoryLoader::new())
            .parsed
            .expect("parses")
    }

    fn found(text: &str, loader: &MemoryLoader) -> Vec<(String, String, u32)> {
        preflight(&parsed(text), "doc.drtl.yaml", loader)
            .into_iter()
            .map(|d| (d.code, d.path, d.line))
            .collect()
    }

    #[test]
    fn an_empty_input_and_a_missing_file_are_placed_at_their_fields() {
        let text = "name: t\nartifacts:\n  protocols:\n    parley: protocols/parley.yaml\nnodes:\n  - id: draft\n    type: generate\n    prompt: p\n    output_key: out\n  - id: check\n    type: verify\n    input: \"\"\n    rules: [{id: std.check_links, target: urls, mode: block}]\n";
        assert_eq!(
            found(text, &MemoryLoader::new()),
            vec![
                (
                    "run-file-unavailable".to_owned(),
                    "/artifacts/protocols/parley".to_owned(),
                    4
                ),
                (
                    "run-empty-input".to_owned(),
                    "/nodes/1/input".to_owned(),
                    12
                ),
            ]
        );
        // With the file there, and the input named, nothing is left.
        let loader = MemoryLoader::new().with("protocols/parley.yaml", "rounds: 3\n");
        let fixed = text.replace("input: \"\"", "input: draft.out");
        assert_eq!(found(&fixed, &loader), vec![]);
    }

    #[test]
    fn a_workflow_node_whose_document_cannot_be_read_is_placed_at_its_reference() {
        let text = "---\nspec_version: \"1.0\"\nname: w\nnodes:\n  research:\n    logic_ref: ./nodes/missing.logic.md\n---\n";
        let parsed = analyze(text, &Options::lint("doc.logic.md"), &MemoryLoader::new())
            .parsed
            .expect("parses");
        let found: Vec<(String, String)> = preflight(&parsed, "doc.logic.md", &MemoryLoader::new())
            .into_iter()
            .map(|d| (d.code, d.path))
            .collect();
        assert_eq!(
            found,
            vec![(
                "run-node-unavailable".to_owned(),
                "/nodes/research/logic_ref".to_owned()
            )]
        );
    }
}
