//! One test per rule: a small document that trips it, checked for code, severity and place.

use super::*;
use crate::diagnostic::Severity;
use crate::loader::MemoryLoader;

fn lint_text(frontmatter: &str) -> Vec<Diagnostic> {
    lint_with(frontmatter, &MemoryLoader::new())
}

fn lint_with(frontmatter: &str, loader: &MemoryLoader) -> Vec<Diagnostic> {
    let text = format!("---\nspec_version: \"1.0\"\nname: t\ndescription: d\n{frontmatter}---\n");
    let parsed = Document::parse(&text);
    let document = parsed.document.expect("test document parses");
    lint(&document, "main.logic.md", loader)
}

/// (code, line, column) of each diagnostic with `code`.
fn found(diagnostics: &[Diagnostic], code: &str) -> Vec<(u32, u32)> {
    diagnostics
        .iter()
        .filter(|d| d.code == code)
        .map(|d| (d.line, d.column))
        .collect()
}

#[test]
fn every_rule_has_a_unique_code() {
    let mut codes: Vec<&str> = rules::ALL.iter().map(|r| r.code).collect();
    codes.sort();
    codes.dedup();
    assert_eq!(codes.len(), rules::ALL.len());
    assert!(rules::ALL.len() >= 15);
}

#[test]
fn unknown_need_with_suggestion() {
    let d = lint_text(
        "steps:\n  gather: {description: g}\n  rank:\n    description: r\n    needs: [gathr]\n",
    );
    assert_eq!(found(&d, "unknown-need"), [(9, 13)]);
    let diag = d.iter().find(|d| d.code == "unknown-need").unwrap();
    assert_eq!(diag.path, "/steps/rank/needs/0");
    assert_eq!(diag.help.as_deref(), Some("did you mean `gather`?"));
}

#[test]
fn step_cycle_lists_the_path() {
    let d =
        lint_text("steps:\n  a: {description: a, needs: [b]}\n  b: {description: b, needs: [a]}\n");
    let cycle = d.iter().find(|d| d.code == "step-cycle").unwrap();
    assert!(cycle.message.contains("a -> b -> a"), "{}", cycle.message);
    assert_eq!(cycle.severity, Severity::Error);
    let d = lint_text("steps:\n  a: {description: a, needs: [a]}\n");
    assert!(d
        .iter()
        .any(|d| d.code == "step-cycle" && d.message.contains("a -> a")));
}

#[test]
fn branch_targets_and_parallel_steps() {
    let d = lint_text(
        "steps:\n  a:\n    description: a\n    execution: parallel\n    parallel_steps: [ghost]\n    branches:\n      - {if: \"{{ true }}\", then: nowhere}\n",
    );
    assert_eq!(found(&d, "unknown-branch-target"), [(11, 34)]);
    let parallel = d
        .iter()
        .find(|d| d.code == "unknown-parallel-step")
        .unwrap();
    assert_eq!(parallel.severity, Severity::Warning);
}

#[test]
fn loops_need_a_bound() {
    let unbounded = "steps:\n  a: {description: a}\n  b:\n    description: b\n    needs: [a]\n    branches:\n      - {default: true, then: a}\n";
    assert_eq!(found(&lint_text(unbounded), "unbounded-loop").len(), 1);
    let bounded = format!("reasoning: {{max_iterations: 3}}\n{unbounded}");
    assert!(found(&lint_text(&bounded), "unbounded-loop").is_empty());
    let retry = "steps:\n  a:\n    description: a\n    retry: {max_attempts: 2}\n    branches:\n      - {default: true, then: a}\n";
    assert!(found(&lint_text(retry), "unbounded-loop").is_empty());
}

#[test]
fn missing_step_description_is_info() {
    let d = lint_text("steps:\n  a: {}\n");
    let missing = d.iter().find(|d| d.code == "missing-description").unwrap();
    assert_eq!(missing.severity, Severity::Info);
    assert_eq!((missing.line, missing.column), (6, 3));
}

#[test]
fn confidence_thresholds_in_order() {
    let d = lint_text("steps:\n  a:\n    description: a\n    confidence: {minimum: 0.9, target: 0.8, escalate_below: 0.95}\n");
    assert_eq!(found(&d, "confidence-order").len(), 2);
    let ok = lint_text("steps:\n  a:\n    description: a\n    confidence: {minimum: 0.6, target: 0.8, escalate_below: 0.4}\n");
    assert!(found(&ok, "confidence-order").is_empty());
}

#[test]
fn durations_and_retry_intervals() {
    let d = lint_text(
        "steps:\n  a:\n    description: a\n    timeout: soon\n    retry:\n      initial_interval: 2m\n      maximum_interval: 30s\n",
    );
    assert_eq!(found(&d, "invalid-duration"), [(8, 14)]);
    assert_eq!(found(&d, "retry-interval-order"), [(10, 25)]);
}

#[test]
fn tools_allowed_and_denied() {
    let d = lint_text("steps:\n  a:\n    description: a\n    allowed_tools: [web, code]\n    denied_tools: [code]\n");
    assert_eq!(found(&d, "tool-allowed-and-denied"), [(9, 20)]);
}

#[test]
fn revise_needs_a_message() {
    let d = lint_text(
        "steps:\n  a:\n    description: a\n    verification: {check: \"{{ true }}\", on_fail: revise}\nquality_gates:\n  post_output:\n    - {name: c, check: \"{{ true }}\", on_fail: revise}\n",
    );
    assert_eq!(found(&d, "revise-without-message").len(), 2);
}

#[test]
fn join_needs_parallel_execution() {
    let d = lint_text("steps:\n  a:\n    description: a\n    join: all\n");
    assert_eq!(found(&d, "join-without-parallel"), [(8, 11)]);
}

#[test]
fn duplicate_names_in_lists() {
    let d = lint_text(
        "contracts:\n  inputs:\n    - {name: q, type: string}\n    - {name: q, type: number}\nvisual:\n  ports:\n    outputs:\n      - {name: r, type: object}\n      - {name: r, type: object}\n",
    );
    assert_eq!(found(&d, "duplicate-name"), [(8, 14), (13, 16)]);
}

#[test]
fn rubric_weights_sum_to_one() {
    let d = lint_text(
        "quality_gates:\n  self_verification:\n    enabled: true\n    strategy: rubric\n    rubric:\n      criteria:\n        - {name: a, weight: 0.5}\n        - {name: b, weight: 0.3}\n",
    );
    let rubric = d.iter().find(|d| d.code == "rubric-weights").unwrap();
    assert!(rubric.message.contains("0.8"), "{}", rubric.message);
}

#[test]
fn escalation_levels_increase() {
    let d = lint_text("fallback:\n  escalation:\n    - {level: 2, trigger: \"{{ true }}\", action: abort}\n    - {level: 1, trigger: \"{{ true }}\", action: abort}\n");
    assert_eq!(found(&d, "escalation-order"), [(8, 15)]);
}

#[test]
fn inspector_keys_name_spec_fields() {
    let d = lint_text(
        "visual:\n  inspector:\n    - {key: reasoning.strategy, label: S, type: select}\n    - {key: confidence.minimum, label: M, type: slider}\n    - {key: reasoning.stratgy, label: X, type: text}\n    - {key: metadata.anything, label: Y, type: text}\n",
    );
    assert_eq!(found(&d, "unknown-inspector-key"), [(9, 13)]);
}

#[test]
fn decision_tree_rules() {
    let d = lint_text(concat!(
        "steps:\n  deep: {description: d}\n",
        "decision_trees:\n  route:\n    description: r\n    root: start\n    nodes:\n",
        "      start:\n        condition: \"{{ input.kind }}\"\n        branches:\n",
        "          - {value: a, next: deep}\n          - {value: b, next: done}\n          - {value: c, next: nowhere}\n",
        "      orphan:\n        condition: \"{{ input.x }}\"\n        branches:\n          - {default: true, next: done}\n",
        "    terminals:\n      done: {action: stop}\n      unused: {action: stop}\n",
    ));
    assert_eq!(found(&d, "unknown-tree-target"), [(17, 30)]);
    assert_eq!(found(&d, "missing-default-branch"), [(12, 7)]);
    assert_eq!(found(&d, "unreachable-tree-node"), [(18, 7), (24, 7)]);
    let bad_root = lint_text("decision_trees:\n  t:\n    description: t\n    root: nope\n    nodes:\n      a: {condition: \"{{ 1 }}\", branches: [{default: true, next: a}]}\n");
    assert_eq!(found(&bad_root, "unknown-tree-root"), [(8, 11)]);
}

#[test]
fn imports_unresolved_and_unused() {
    let loader = MemoryLoader::new().with(
        "lib.logic.md",
        "---\nspec_version: \"1.0\"\nname: lib\nsteps:\n  helper: {description: h}\n---\n",
    );
    let d = lint_with(
        "imports:\n  - {ref: lib.logic.md, as: lib}\n  - {ref: missing.logic.md, as: gone}\n",
        &loader,
    );
    assert_eq!(found(&d, "unused-import"), [(6, 5)]);
    assert_eq!(found(&d, "unresolved-reference"), [(7, 11)]);
    let used = lint_with(
        "imports:\n  - {ref: lib.logic.md, as: lib}\nsteps:\n  main: {description: m, needs: [lib.helper]}\n",
        &loader,
    );
    assert!(found(&used, "unused-import").is_empty(), "{used:?}");
    assert!(found(&used, "unknown-need").is_empty(), "{used:?}");
}

#[test]
fn workflow_nodes_edges_and_contracts() {
    let loader = MemoryLoader::new()
        .with(
            "nodes/researcher.logic.md",
            "---\nspec_version: \"1.0\"\nname: researcher\nreasoning: {strategy: react}\ncontracts:\n  outputs:\n    - {name: evaluated_sources, type: array}\n---\n",
        )
        .with(
            "nodes/synthesizer.logic.md",
            "---\nspec_version: \"1.0\"\nname: synthesizer\ncontracts:\n  inputs:\n    - {name: findings, type: array, required: true}\n    - {name: style, type: string, required: true}\n---\n",
        );
    let d = lint_with(
        concat!(
            "nodes:\n",
            "  researcher:\n    logic_ref: ./nodes/researcher.logic.md\n    overrides:\n      reasoning.max_iterations: 5\n      bad[path: 1\n",
            "  synthesizer:\n    logic_ref: ./nodes/synthesizer.logic.md\n    depends_on: [researcher, writer]\n",
            "  ghost:\n    logic_ref: ./nodes/ghost.logic.md\n",
            "edges:\n  - from: researcher\n    to: synthesizer\n    contract:\n      type: object\n      required: [findings]\n      properties:\n        findings: {type: array, minItems: 1}\n",
        ),
        &loader,
    );
    assert_eq!(found(&d, "unknown-node"), [(13, 30)]);
    assert_eq!(found(&d, "invalid-override"), [(10, 7)]);
    assert_eq!(found(&d, "unresolved-reference"), [(15, 16)]);
    let mismatches: Vec<&str> = d
        .iter()
        .filter(|d| d.code == "contract-mismatch")
        .map(|d| d.message.as_str())
        .collect();
    assert_eq!(mismatches.len(), 1, "{mismatches:?}");
    assert!(
        mismatches[0].contains("node `synthesizer` requires `style`"),
        "{}",
        mismatches[0]
    );
}

#[test]
fn workflow_node_cycle() {
    let d = lint_text("nodes:\n  a: {depends_on: [b]}\n  b: {}\nedges:\n  - {from: a, to: b}\n");
    let cycle = d.iter().find(|d| d.code == "node-cycle").unwrap();
    assert!(cycle.message.contains("a -> b -> a"), "{}", cycle.message);
}

#[test]
fn expression_syntax_errors_point_at_the_token() {
    let d = lint_text("steps:\n  a:\n    description: a\n    verification:\n      check: \"{{ output.count > }}\"\n");
    assert_eq!(found(&d, "expression-syntax"), [(9, 33)]);
    let block = lint_text("steps:\n  a:\n    description: a\n    instructions: |\n      Use {{ input.query }} and\n      then {{ input. }}\n");
    assert_eq!(found(&block, "expression-syntax"), [(10, 22)]);
}

#[test]
fn expression_roots_and_step_references() {
    let d = lint_text(
        "steps:\n  gather: {description: g}\n  use:\n    description: u\n    verification:\n      check: \"{{ steps.gathr.output.ok && outptu.x }}\"\n",
    );
    assert_eq!(found(&d, "unknown-step-reference"), [(10, 18)]);
    let root = d
        .iter()
        .find(|d| d.code == "unknown-expression-root")
        .unwrap();
    assert_eq!((root.line, root.column), (10, 43));
    assert_eq!(root.help.as_deref(), Some("did you mean `output`?"));
}

#[test]
fn fallback_targets_are_modes_or_steps() {
    let d = lint_text(
        "steps:\n  summarize: {description: s}\nfallback:\n  degradation:\n    - {when: timeout_exceeded, fallback_to: partial_output}\n    - {when: tools_unavailable, fallback_to: summarize}\n    - {when: x, fallback_to: sumarize}\n",
    );
    assert_eq!(found(&d, "unknown-fallback-target"), [(11, 30)]);
}
