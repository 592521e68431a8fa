//! DRTL topologies end to end: validation, the graph, and the obligation analysis. Each
//! `tests/drtl/NAME.drtl.yaml` has `NAME.expected.json` with the expected validity, findings
//! (rule and path) and graph (node ids, and edges as [source, target, kind]).

use std::fs;

use logicmd::check::check_topology;
use logicmd::drtl::validate;
use logicmd::graph::{from_topology, layout, to_mermaid, LayoutOptions};
use logicmd_tests::workspace_root;
use proptest::prelude::*;
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
        .map(|f| json!({"rule": f.rule, "severity": f.severity, "message": f.message, "path": f.path}))
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

/// A transform chain `prefix0 -> prefix1 -> ...` ending in `then`: its node definitions, edges,
/// and the id it starts at.
fn chain(prefix: &str, length: usize, then: &str) -> (String, String, String) {
    let ids: Vec<String> = (0..length).map(|i| format!("{prefix}{i}")).collect();
    let nodes = ids
        .iter()
        .map(|id| format!("  - {{id: {id}, type: transform, operations: [{{set: state.variables.{id}, value: true}}]}}\n"))
        .collect();
    let edges = ids
        .iter()
        .zip(ids.iter().skip(1).map(String::as_str).chain([then]))
        .map(|(from, to)| format!("  - {{from: {from}, to: {to}}}\n"))
        .collect();
    let start = ids.first().cloned().unwrap_or_else(|| then.to_owned());
    (nodes, edges, start)
}

/// The spec's verified pattern with transforms spliced in anywhere, the verify's mode and the
/// review varied: (text, is the gate's failing branch reviewed, does the verify block).
fn pattern() -> impl Strategy<Value = (String, bool, bool)> {
    (
        (0usize..3, 0usize..3, 0usize..3, 0usize..3),
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|((before, pass, fail, after), block, review, retry, terminate)| {
            let (before_nodes, before_edges, extract_from) = chain("b", before, "extract");
            let (pass_nodes, pass_edges, on_pass) = chain("p", pass, "publish");
            let fail_target = if review { "review" } else { "publish" };
            let (fail_nodes, fail_edges, on_fail) = chain("f", fail, fail_target);
            let (after_nodes, after_edges, override_to) = chain("a", after, "publish");
            let mode = if block { "block" } else { "warn" };
            let mut text = format!(
                "name: pattern\nnodes:\n  - {{id: draft, type: generate, prompt: Write., output_key: text}}\n{before_nodes}  - {{id: extract, type: generate, prompt: Extract as JSON., output_format: json, output_key: claims}}\n  - id: check\n    type: verify\n    input: extract.claims\n    rules:\n      - {{id: std.check_existence, target: names, mode: {mode}}}\n    output_key: report\n  - id: gate\n    type: gate\n    input: check.report\n    condition: input.blocking_failures == 0\n    on_pass: {on_pass}\n    on_fail: {on_fail}\n{pass_nodes}{fail_nodes}"
            );
            if review {
                let reject = if terminate { "reject: {next: terminate}" } else { "reject" };
                let retry = if retry { "\n      - retry: {next: draft}" } else { "" };
                text.push_str(&format!("  - id: review\n    type: review\n    input: {{report: check.report}}\n    actions:\n      - override: {{next: {override_to}}}\n      - {reject}{retry}\n{after_nodes}"));
            }
            text.push_str("  - {id: publish, type: transform, operations: [{set: state.variables.done, value: true}]}\nedges:\n");
            text.push_str(&format!(
                "  - {{from: draft, to: {extract_from}}}\n{before_edges}  - {{from: extract, to: check}}\n  - {{from: check, to: gate}}\n{pass_edges}{fail_edges}"
            ));
            if review {
                text.push_str(&after_edges);
            }
            (text, review, block)
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Whatever lies between them, the output reaches the publishing end unverified exactly when
    /// the verify does not block; a review's override on a blocking pattern is one piece of
    /// information, never an error.
    #[test]
    fn a_review_discharges_a_refused_output_and_nothing_else_does((text, review, block) in pattern()) {
        let report = validate(&text);
        prop_assert!(report.valid, "{text}\n{:#?}", report.diagnostics);
        let findings = check_topology(report.topology.as_ref().unwrap());
        let summary: Vec<(&str, String)> = findings
            .iter()
            .map(|f| (f.rule, f.path.first().cloned().unwrap_or_default()))
            .collect();
        // A blocking verify refuses by itself (DRTL §9.3: the run does not go on past a failed
        // block rule but to a gate, a review or back): only a review's override is worth a note.
        // A warning verify's report checks nothing, so its gate does not discharge the output.
        let expected: Vec<(&str, String)> = match (block, review) {
            (true, true) => vec![("human-override", "draft".to_owned())],
            (true, false) => vec![],
            (false, _) => vec![
                ("unverified-output", "draft".to_owned()),
                ("unverified-output", "extract".to_owned()),
            ],
        };
        prop_assert_eq!(summary, expected, "{}", text);
        if let Some(info) = findings.iter().find(|f| f.rule == "human-override") {
            prop_assert!(info.message.contains("review `review` can choose `override`"), "{}", info.message);
            prop_assert_eq!(info.path.last().map(String::as_str), Some("publish"));
        }
    }
}
