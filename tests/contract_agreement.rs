//! The graph's `compatible` and lint's `contract-mismatch` are one judgement: over a table of
//! type and contract combinations — `needs` wires between steps with input/output schemas,
//! workflow edges between agents with and without edge contracts — a wire is drawn incompatible
//! exactly when lint reports a contract mismatch on it.

use logicmd::graph::{from_document, from_workflow, Graph};
use logicmd::lint::lint;
use logicmd::loader::MemoryLoader;
use logicmd::{Diagnostic, Document};

/// Schema types a side may declare: `None` is no schema (or no field type) at all.
const TYPES: &[Option<&str>] = &[
    None,
    Some("any"),
    Some("string"),
    Some("number"),
    Some("integer"),
    Some("object"),
    Some("array"),
    Some("boolean"),
];

fn parse(text: &str) -> Document {
    Document::parse(text)
        .document
        .expect("the test document parses")
}

/// Pointers of the contract-mismatch diagnostics.
fn mismatches(diagnostics: &[Diagnostic]) -> Vec<String> {
    diagnostics
        .iter()
        .filter(|d| d.code == "contract-mismatch")
        .map(|d| d.path.clone())
        .collect()
}

fn edge_compatible(graph: &Graph, kind: &str) -> bool {
    graph
        .edges
        .iter()
        .find(|e| e.kind == kind)
        .unwrap_or_else(|| panic!("no {kind} edge in {:?}", graph.edges))
        .compatible
}

fn schema(field: &str, kind: Option<&str>) -> String {
    kind.map(|k| format!("    {field}: {{type: {k}}}\n"))
        .unwrap_or_default()
}

#[test]
fn needs_wires_agree() {
    let mut disagreements = Vec::new();
    for &produced in TYPES {
        for &expected in TYPES {
            let text = format!(
                "---\nspec_version: \"1.0\"\nname: wires\nsteps:\n  gather:\n    description: g\n{}  rank:\n    description: r\n    needs: [gather]\n{}---\n",
                schema("output_schema", produced),
                schema("input_schema", expected),
            );
            let document = parse(&text);
            let compatible = edge_compatible(&from_document(&document), "needs");
            let reported = mismatches(&lint(&document, "main.logic.md", &MemoryLoader::new()));
            let fits = match (produced, expected) {
                (None | Some("any"), _) | (_, None | Some("any")) => true,
                (Some(p), Some(e)) => p == e || (p == "integer" && e == "number"),
            };
            let expected_reports = if fits {
                Vec::<String>::new()
            } else {
                vec!["/steps/rank/needs/0".to_owned()]
            };
            if compatible != fits || reported != expected_reports {
                disagreements.push(format!(
                    "{produced:?} -> {expected:?}: graph compatible {compatible}, lint {reported:?}"
                ));
            }
        }
    }
    assert!(disagreements.is_empty(), "{}", disagreements.join("\n"));
}

/// A node document with one contract field on `side` (`inputs`/`outputs`).
fn agent(name: &str, side: &str, field: &str, kind: Option<&str>, required: bool) -> String {
    let kind = kind.map(|k| format!(", type: {k}")).unwrap_or_default();
    format!(
        "---\nspec_version: \"1.0\"\nname: {name}\ncontracts:\n  {side}:\n    - {{name: {field}{kind}, required: {required}}}\n---\n"
    )
}

#[test]
fn workflow_edges_agree() {
    let mut disagreements = Vec::new();
    let contracts: &[Option<&str>] = &[
        None,
        Some("{type: object, required: [findings], properties: {findings: {type: array}}}"),
        Some("{type: object, required: [findings], properties: {findings: {type: number}}}"),
        Some("{type: object, required: [findings]}"),
        Some("{type: object, required: [summary]}"),
        Some("{type: object}"),
    ];
    for &output in TYPES {
        for &input in TYPES {
            for &contract in contracts {
                for provided_name in ["findings", "other"] {
                    let loader = MemoryLoader::new()
                        .with(
                            "nodes/researcher.logic.md",
                            agent("researcher", "outputs", provided_name, output, false),
                        )
                        .with(
                            "nodes/synthesizer.logic.md",
                            agent("synthesizer", "inputs", "findings", input, true),
                        );
                    let contract_text = contract
                        .map(|c| format!("    contract: {c}\n"))
                        .unwrap_or_default();
                    let text = format!(
                        "---\nspec_version: \"1.0\"\nname: flow\nnodes:\n  researcher: {{logic_ref: ./nodes/researcher.logic.md}}\n  synthesizer: {{logic_ref: ./nodes/synthesizer.logic.md, depends_on: [researcher]}}\nedges:\n  - from: researcher\n    to: synthesizer\n{contract_text}---\n"
                    );
                    let document = parse(&text);
                    let graph = from_workflow(&document, "main.logic.md", &loader);
                    let compatible = edge_compatible(&graph, "edge");
                    let reported = mismatches(&lint(&document, "main.logic.md", &loader));
                    if compatible != reported.is_empty() {
                        disagreements.push(format!(
                            "outputs {provided_name}: {output:?}, inputs findings: {input:?}, contract {contract:?}: graph compatible {compatible}, lint {reported:?}"
                        ));
                    }
                    // Ordering alone carries no contract.
                    if !edge_compatible(&graph, "depends_on") {
                        disagreements.push(format!("depends_on drawn incompatible: {text}"));
                    }
                }
            }
        }
    }
    assert!(disagreements.is_empty(), "{}", disagreements.join("\n"));
}

/// Without the node files (the loader has none), nothing is known to mismatch: lint reports the
/// unresolved references, not a contract mismatch, and the graph draws the edge compatible.
#[test]
fn unloaded_agents_are_not_judged() {
    let text = "---\nspec_version: \"1.0\"\nname: flow\nnodes:\n  a: {logic_ref: ./a.logic.md}\n  b: {logic_ref: ./b.logic.md}\nedges:\n  - {from: a, to: b, contract: {type: object, required: [x]}}\n---\n";
    let document = parse(text);
    let loader = MemoryLoader::new();
    assert!(edge_compatible(
        &from_workflow(&document, "main.logic.md", &loader),
        "edge"
    ));
    assert_eq!(
        mismatches(&lint(&document, "main.logic.md", &loader)),
        Vec::<String>::new()
    );
}
