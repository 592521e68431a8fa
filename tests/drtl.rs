//! DRTL topologies end to end: validation, the graph, and the obligation analysis. Each
//! `tests/drtl/NAME.drtl.yaml` has `NAME.expected.json` with the expected validity, findings
//! (rule and path) and graph (node ids, and edges as [source, target, kind]).

use std::fs;

use logicmd::check::check_topology;
use logicmd::drtl::validate;
use logicmd::graph::{from_topology, layout, to_mermaid, LayoutOptions};
use logicmd_tests::workspace_root;
use serde_json::{json, Value};

fn outcome(text: &str) -> Value {
    let report = validate(text);
    let errors: Vec<Value> = report
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| json!({"code": d.code, "path": d.path, "line": d.line, "column": d.column}))
        .collect();
    let Some(topology) = report.topology else {
        return json!({"valid": false, "errors": errors});
    };
    let findings: Vec<Value> = check_topology(&topology)
        .iter()
        .map(|f| json!({"rule": f.rule, "path": f.path}))
        .collect();
    let mut graph = from_topology(&topology);
    layout(&mut graph, LayoutOptions::default());
    let nodes: Vec<&str> = graph.nodes.iter().map(|n| n.id.as_str()).collect();
    let edges: Vec<Value> = graph
        .edges
        .iter()
        .map(|e| json!([e.source, e.target, e.kind]))
        .collect();
    json!({"valid": report.valid, "errors": errors, "findings": findings, "graph": {"nodes": nodes, "edges": edges}})
}

#[test]
fn topologies_match_their_expectations() {
    let dir = workspace_root().join("tests/drtl");
    let mut names: Vec<String> = fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".drtl.yaml"))
        .collect();
    names.sort();
    assert!(names.len() >= 8, "{} topologies", names.len());
    let update = std::env::var("LOGICMD_UPDATE_EXPECTED").is_ok();
    let mut failures = Vec::new();
    for name in names {
        let text = fs::read_to_string(dir.join(&name)).unwrap();
        let actual = outcome(&text);
        let expected_path = dir.join(name.replace(".drtl.yaml", ".expected.json"));
        if update {
            fs::write(
                &expected_path,
                serde_json::to_string_pretty(&actual).unwrap() + "\n",
            )
            .unwrap();
            continue;
        }
        let expected: Value =
            serde_json::from_str(&fs::read_to_string(&expected_path).unwrap_or_default())
                .unwrap_or(Value::Null);
        if expected != actual {
            failures.push(format!(
                "{name}:\n  expected {expected}\n  actual   {actual}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn mermaid_output_is_well_formed_for_every_topology() {
    let dir = workspace_root().join("tests/drtl");
    for entry in fs::read_dir(&dir).unwrap().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if !name.ends_with(".drtl.yaml") {
            continue;
        }
        let report = validate(&fs::read_to_string(entry.path()).unwrap());
        let graph = from_topology(report.topology.as_ref().unwrap());
        let mermaid = to_mermaid(&graph);
        for line in mermaid.lines().skip(1) {
            assert!(line.starts_with("    n"), "{name}: {line}");
            assert_eq!(
                line.matches('"').count() % 2,
                0,
                "{name}: unbalanced quotes in {line}"
            );
        }
    }
}
