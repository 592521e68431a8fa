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
    for rule in rules::ALL {
        let kebab = rule.code.split('-').all(|w| {
            !w.is_empty()
                && w.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        });
        assert!(kebab, "`{}` is not kebab-case", rule.code);
        assert!(!rule.summary.is_empty(), "`{}` has no summary", rule.code);
        assert!(
            rule.reason.ends_with('.') && rule.reason.len() > 20,
            "`{}` needs a reason: a sentence saying why",
            rule.code
        );
    }
}

/// Suggesting a step's own name for its `needs` (or a workflow node's for its `depends_on`)
/// would suggest a cycle, and `lint --fix` applies suggestions: never the item itself.
#[test]
fn a_dependency_is_never_suggested_to_be_its_own() {
    let d = lint_text("steps:\n  seed:\n    description: s\n    needs: [seed2]\n");
    let diag = d.iter().find(|d| d.code == "unknown-need").unwrap();
    assert_eq!(diag.help, None);
    let d = lint_text(
        "steps:\n  seed:\n    description: s\n    needs: [seed2]\n  seeds:\n    description: t\n",
    );
    let diag = d.iter().find(|d| d.code == "unknown-need").unwrap();
    assert_eq!(diag.help.as_deref(), Some("did you mean `seeds`?"));
    let d = lint_text(
        "nodes:\n  researcher:\n    logic_ref: ./r.logic.md\n    depends_on: [researcherr]\n",
    );
    let diag = d.iter().find(|d| d.code == "unknown-node").unwrap();
    assert_eq!(diag.help, None);
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

/// A node whose branches cover `true` and `false` needs no default; one value, repeated or
/// not, or a non-boolean beside it, does.
#[test]
fn branches_on_both_booleans_need_no_default() {
    let tree = |values: &str| {
        let branches: String = values
            .split(',')
            .map(|v| format!("          - {{value: {v}, next: done}}\n"))
            .collect();
        lint_text(&format!(
            "decision_trees:\n  t:\n    description: t\n    root: a\n    nodes:\n      a:\n        condition: \"{{{{ input.x }}}}\"\n        branches:\n{branches}    terminals:\n      done: {{action: stop}}\n"
        ))
    };
    for covered in ["true,false", "false,true", "true,x,false"] {
        assert_eq!(
            found(&tree(covered), "missing-default-branch"),
            [],
            "{covered}"
        );
    }
    for uncovered in ["true", "true,true", "false,x"] {
        assert_eq!(
            found(&tree(uncovered), "missing-default-branch").len(),
            1,
            "{uncovered}"
        );
    }
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

// Rules that hold what the canonical schema leaves open (our earlier, stricter schema had them as
// schema errors; docs/decisions.md lists each with its rule).

/// (line, column, severity) of each diagnostic with `code`.
fn found_with_severity(diagnostics: &[Diagnostic], code: &str) -> Vec<(u32, u32, Severity)> {
    diagnostics
        .iter()
        .filter(|d| d.code == code)
        .map(|d| (d.line, d.column, d.severity))
        .collect()
}

fn help_of<'d>(diagnostics: &'d [Diagnostic], code: &str) -> Vec<Option<&'d str>> {
    diagnostics
        .iter()
        .filter(|d| d.code == code)
        .map(|d| d.help.as_deref())
        .collect()
}

#[test]
fn numbers_outside_the_ranges_that_work() {
    let d = lint_text(concat!(
        "reasoning:\n  strategy: cot\n  max_iterations: 0\n  temperature: 3\n  thinking_budget: -1\n",
        "steps:\n  a:\n    description: a\n    retry: {max_attempts: 0, backoff_coefficient: 0.5}\n",
        "global: {max_parallelism: -1, max_total_cost: -5}\n",
        "contracts:\n  capabilities: {max_input_tokens: 0}\n",
        "quality_gates:\n  self_verification:\n    reflection: {max_revisions: -1}\n",
        "fallback:\n  escalation:\n    - {level: 0, trigger: \"{{ true }}\", action: abort}\n",
        "visual:\n  inspector:\n    - {key: reasoning.temperature, label: T, type: slider, step: 0}\n",
    ));
    use Severity::{Error, Warning};
    assert_eq!(
        found_with_severity(&d, "max-iterations-zero"),
        [(7, 19, Error)]
    );
    assert_eq!(
        found_with_severity(&d, "temperature-out-of-range"),
        [(8, 16, Warning)]
    );
    assert_eq!(
        found_with_severity(&d, "negative-value"),
        [(9, 20, Error), (14, 47, Error), (19, 33, Error)]
    );
    assert_eq!(
        found_with_severity(&d, "count-below-one"),
        [(13, 27, Error), (14, 27, Error), (16, 36, Error)]
    );
    assert_eq!(
        found_with_severity(&d, "backoff-below-one"),
        [(13, 51, Warning)]
    );
    assert_eq!(
        found_with_severity(&d, "escalation-level-below-one"),
        [(22, 15, Warning)]
    );
    assert_eq!(
        found_with_severity(&d, "inspector-step-not-positive"),
        [(25, 66, Error)]
    );
    let message = |code: &str| {
        d.iter()
            .find(|d| d.code == code)
            .map(|d| d.message.as_str())
            .unwrap_or_default()
    };
    assert_eq!(
        message("max-iterations-zero"),
        "`max_iterations: 0` stops reasoning before its first loop; it must be at least 1"
    );
    assert_eq!(
        message("temperature-out-of-range"),
        "temperature 3 is outside 0 to 2, the range model providers accept"
    );
    assert_eq!(
        message("count-below-one"),
        "`max_attempts: 0`: the first attempt counts, so at least 1 is needed for the step to run"
    );
}

#[test]
fn numbers_inside_the_ranges_are_quiet() {
    let d = lint_text(concat!(
        "reasoning: {strategy: cot, max_iterations: 1, temperature: 2, thinking_budget: 0}\n",
        "steps:\n  a:\n    description: a\n    retry: {max_attempts: 1, backoff_coefficient: 1}\n",
        "global: {max_parallelism: 1, max_total_cost: 0}\n",
        "fallback:\n  escalation:\n    - {level: 1, trigger: \"{{ true }}\", action: abort}\n",
        "visual:\n  inspector:\n    - {key: reasoning.temperature, label: T, type: slider, step: 0.1}\n",
    ));
    assert_eq!(d, Vec::<Diagnostic>::new());
}

#[test]
fn strategy_config_values_spec_section_3_documents() {
    let d = lint_text(concat!(
        "reasoning:\n  strategy: tot\n  strategy_config:\n    branching_factor: 0\n",
        "    evaluation_method: voting\n    pruning_threshold: 1.5\n    max_depth: two\n",
        "    operations: generate\n    observation_source: tools\n    max_actions_per_thought: 2.5\n",
        "    replan_on_failure: \"yes\"\n    max_replans: -1\n    custom_key: anything\n",
    ));
    assert_eq!(
        found(&d, "invalid-strategy-config"),
        [
            (8, 23),
            (9, 24),
            (10, 24),
            (11, 16),
            (12, 17),
            (14, 30),
            (15, 24),
            (16, 18)
        ]
    );
    let messages: Vec<&str> = d.iter().map(|d| d.message.as_str()).collect();
    assert_eq!(
        messages,
        [
            "`branching_factor` is 0; it must be an integer of at least 1",
            "`evaluation_method` is `voting`; spec §3 allows vote, score, compare",
            "`pruning_threshold` is 1.5; it must be a number from 0 to 1",
            "`max_depth` is `two`; it must be an integer of at least 1",
            "`operations` is `generate`; it must be a list of operation names",
            "`max_actions_per_thought` is 2.5; it must be an integer of at least 1",
            "`replan_on_failure` is `yes`; it must be true or false",
            "`max_replans` is -1; it must be an integer of at least 0",
        ]
    );
    assert_eq!(
        help_of(&d, "invalid-strategy-config")[1],
        Some("did you mean `vote`?")
    );
}

#[test]
fn types_controls_and_actions_outside_their_vocabularies() {
    let d = lint_text(concat!(
        "contracts:\n  inputs:\n    - {name: q, type: strng}\n    - {name: r, type: any}\n",
        "  outputs:\n    - {name: s, type: date}\n",
        "visual:\n  inspector:\n    - {key: reasoning.strategy, label: S, type: dropdown}\n",
        "  ports:\n    inputs:\n      - {name: q, type: String}\n    outputs:\n      - {name: s, type: object}\n",
        "edges:\n  - {from: a, to: b, on_contract_violation: retry}\n",
    ));
    use Severity::Warning;
    assert_eq!(
        found_with_severity(&d, "unknown-contract-type"),
        [(7, 23, Warning), (10, 23, Warning)]
    );
    assert_eq!(
        help_of(&d, "unknown-contract-type"),
        [Some("did you mean `string`?"), None]
    );
    assert_eq!(
        found_with_severity(&d, "unknown-inspector-type"),
        [(13, 49, Warning)]
    );
    assert_eq!(
        found_with_severity(&d, "unknown-port-type"),
        [(16, 25, Warning)]
    );
    assert_eq!(
        help_of(&d, "unknown-port-type"),
        [Some("did you mean `string`?")]
    );
    assert_eq!(
        found_with_severity(&d, "unknown-contract-violation-action"),
        [(20, 45, Warning)]
    );
    let message = |code: &str| {
        d.iter()
            .find(|d| d.code == code)
            .map(|d| d.message.as_str())
            .unwrap_or_default()
    };
    assert_eq!(
        message("unknown-contract-type"),
        "contract field type `strng` is not one of string, number, integer, boolean, object, array, null, any"
    );
    assert_eq!(
        message("unknown-contract-violation-action"),
        "on_contract_violation `retry` is not one of retry_source, skip, abort"
    );
}

#[test]
fn empty_names_targets_references_and_actions_are_reported_once_each() {
    let d = lint_text(concat!(
        "imports:\n  - {ref: \"\", as: \"\"}\n",
        "steps:\n  a:\n    description: a\n    needs: [\"\"]\n    branches:\n      - {if: \"{{ true }}\", then: \"\"}\n",
        "contracts:\n  inputs:\n    - {name: \"\", type: string}\n",
        "quality_gates:\n  pre_output:\n    - {name: \"\", check: \"{{ true }}\"}\n",
        "  invariants:\n    - {name: \"\", check: \"{{ true }}\"}\n",
        "  self_verification:\n    rubric:\n      criteria:\n        - {name: \"\", weight: 1}\n",
        "decision_trees:\n  t:\n    description: t\n    root: \"\"\n    nodes:\n",
        "      n: {condition: \"{{ 1 }}\", branches: [{default: true, next: \"\"}]}\n",
        "    terminals:\n      done: {action: \"\"}\n",
        "fallback:\n  escalation:\n    - {level: 1, trigger: \"{{ true }}\", action: \"\"}\n",
        "  degradation:\n    - {when: \"\", fallback_to: \"\"}\n",
        "nodes:\n  w: {logic_ref: \"\", depends_on: [\"\"]}\n",
        "edges:\n  - {from: \"\", to: \"\"}\n",
        "visual:\n  inspector:\n    - {key: \"\", label: K, type: text}\n",
        "  ports:\n    inputs:\n      - {name: \"\", type: string}\n",
    ));
    assert_eq!(
        found(&d, "empty-name"),
        [(6, 19), (15, 14), (18, 14), (20, 14), (24, 18), (47, 16)]
    );
    assert_eq!(found(&d, "empty-branch-target"), [(12, 34), (30, 66)]);
    assert_eq!(
        found(&d, "empty-reference"),
        [
            (6, 11),
            (10, 13),
            (28, 11),
            (37, 31),
            (39, 18),
            (39, 35),
            (41, 12),
            (41, 20),
            (44, 13)
        ]
    );
    assert_eq!(found(&d, "empty-action"), [(32, 22), (35, 49), (37, 14)]);
    // Each empty value is one problem: the rules about what a name refers to stay quiet.
    let mut places: Vec<(u32, u32)> = d
        .iter()
        .filter(|d| d.code.starts_with("empty-"))
        .map(|d| (d.line, d.column))
        .collect();
    let all = places.len();
    places.sort();
    places.dedup();
    assert_eq!(places.len(), all);
    let others: Vec<(&str, u32, u32)> = d
        .iter()
        .filter(|d| !d.code.starts_with("empty-") && places.contains(&(d.line, d.column)))
        .map(|d| (d.code.as_str(), d.line, d.column))
        .collect();
    assert_eq!(others, []);
    let branch = d.iter().find(|d| d.code == "empty-branch-target").unwrap();
    assert_eq!(
        branch.message,
        "`then` is empty: a branch must name the step it goes to"
    );
}

#[test]
fn branches_trees_and_workflow_nodes_need_their_parts() {
    let d = lint_text(concat!(
        "steps:\n  a:\n    description: a\n    branches:\n      - {if: \"{{ true }}\"}\n",
        "      - {then: a}\n      - {default: false, then: a}\n    needs: [b, b]\n  b: {description: b}\n",
        "decision_trees:\n  t:\n    description: t\n    root: n\n    nodes:\n",
        "      n: {condition: \"{{ 1 }}\", branches: [{next: n}, {value: 1, next: m}]}\n",
        "      m: {condition: \"{{ 2 }}\", branches: []}\n",
        "  empty:\n    description: e\n    root: x\n    nodes: {}\n",
        "nodes:\n  w: {depends_on: [v, v]}\n  v: {logic_ref: ./v.logic.md}\n",
    ));
    use Severity::{Error, Warning};
    assert_eq!(
        found_with_severity(&d, "branch-without-target"),
        [(9, 9, Error)]
    );
    assert_eq!(
        found_with_severity(&d, "branch-without-condition"),
        [(10, 9, Error), (11, 9, Error), (19, 44, Error)]
    );
    assert_eq!(
        found_with_severity(&d, "duplicate-dependency"),
        [(12, 16, Warning), (26, 23, Warning)]
    );
    assert_eq!(
        found_with_severity(&d, "node-without-branches"),
        [(20, 43, Error)]
    );
    assert_eq!(
        found_with_severity(&d, "tree-without-nodes"),
        [(24, 12, Error)]
    );
    assert_eq!(found(&d, "unknown-tree-root"), []);
    assert_eq!(
        found_with_severity(&d, "missing-logic-ref"),
        [(26, 6, Error)]
    );
    let message = |code: &str| {
        d.iter()
            .find(|d| d.code == code)
            .map(|d| d.message.as_str())
            .unwrap_or_default()
    };
    assert_eq!(
        message("branch-without-condition"),
        "this branch has neither `if` nor `default`, so it is never chosen"
    );
    assert_eq!(message("duplicate-dependency"), "`needs` names `b` twice");
}

mod former_schema_constraints {
    //! The family "our earlier schema refused it": for any value at such a place the canonical
    //! verdict stands (schema-valid when the type fits), and the lint rule reports the value
    //! exactly when it is outside what works.

    use proptest::prelude::*;

    use super::*;

    /// `frontmatter` with `VALUE` replaced: (verdict, the places `code` is reported at).
    fn check(frontmatter: &str, value: &str, code: &str) -> (bool, Vec<String>) {
        let frontmatter = frontmatter.replace("VALUE", value);
        let text =
            format!("---\nspec_version: \"1.0\"\nname: t\ndescription: d\n{frontmatter}---\n");
        let valid = crate::validate(&text).valid;
        let found = lint_text(&frontmatter)
            .into_iter()
            .filter(|d| d.code == code)
            .map(|d| d.path)
            .collect();
        (valid, found)
    }

    /// (document, where VALUE is, rule, integers only, out of range)
    type Bound = (
        &'static str,
        &'static str,
        &'static str,
        bool,
        fn(f64) -> bool,
    );
    const BOUNDS: &[Bound] = &[
        ("reasoning: {strategy: cot, max_iterations: VALUE}\n", "/reasoning/max_iterations", "max-iterations-zero", true, |n| n < 1.0),
        ("reasoning: {strategy: cot, temperature: VALUE}\n", "/reasoning/temperature", "temperature-out-of-range", false, |n| !(0.0..=2.0).contains(&n)),
        ("reasoning: {strategy: cot, thinking_budget: VALUE}\n", "/reasoning/thinking_budget", "negative-value", true, |n| n < 0.0),
        ("steps:\n  a: {description: a, retry: {max_attempts: VALUE}}\n", "/steps/a/retry/max_attempts", "count-below-one", true, |n| n < 1.0),
        ("steps:\n  a: {description: a, retry: {backoff_coefficient: VALUE}}\n", "/steps/a/retry/backoff_coefficient", "backoff-below-one", false, |n| n < 1.0),
        ("global: {max_parallelism: VALUE}\n", "/global/max_parallelism", "count-below-one", true, |n| n < 1.0),
        ("global: {max_total_cost: VALUE}\n", "/global/max_total_cost", "negative-value", false, |n| n < 0.0),
        ("contracts: {capabilities: {max_input_tokens: VALUE}}\n", "/contracts/capabilities/max_input_tokens", "count-below-one", true, |n| n < 1.0),
        ("quality_gates: {self_verification: {reflection: {max_revisions: VALUE}}}\n", "/quality_gates/self_verification/reflection/max_revisions", "negative-value", true, |n| n < 0.0),
        ("fallback: {escalation: [{level: VALUE, trigger: \"{{ true }}\", action: abort}]}\n", "/fallback/escalation/0/level", "escalation-level-below-one", true, |n| n < 1.0),
        ("visual: {inspector: [{key: reasoning.temperature, label: T, type: slider, step: VALUE}]}\n", "/visual/inspector/0/step", "inspector-step-not-positive", false, |n| n <= 0.0),
    ];

    /// (document, where VALUE is, rule, the words that are fine)
    type Words = (
        &'static str,
        &'static str,
        &'static str,
        &'static [&'static str],
    );
    const TYPES: &[&str] = &[
        "string", "number", "integer", "boolean", "object", "array", "null", "any",
    ];
    const WORDS: &[Words] = &[
        (
            "contracts: {inputs: [{name: q, type: VALUE}]}\n",
            "/contracts/inputs/0/type",
            "unknown-contract-type",
            TYPES,
        ),
        (
            "visual: {ports: {outputs: [{name: q, type: VALUE}]}}\n",
            "/visual/ports/outputs/0/type",
            "unknown-port-type",
            TYPES,
        ),
        (
            "visual: {inspector: [{key: reasoning.strategy, label: S, type: VALUE}]}\n",
            "/visual/inspector/0/type",
            "unknown-inspector-type",
            &["select", "number", "boolean", "slider", "text"],
        ),
        (
            "edges: [{from: a, to: b, on_contract_violation: VALUE}]\n",
            "/edges/0/on_contract_violation",
            "unknown-contract-violation-action",
            &["retry_source", "skip", "abort"],
        ),
    ];

    /// (document, where VALUE is, rule)
    const NAMES: &[(&str, &str, &str)] = &[
        (
            "contracts: {outputs: [{name: VALUE, type: string}]}\n",
            "/contracts/outputs/0/name",
            "empty-name",
        ),
        (
            "steps:\n  a: {description: a, branches: [{default: true, then: VALUE}]}\n",
            "/steps/a/branches/0/then",
            "empty-branch-target",
        ),
        (
            "steps:\n  a: {description: a, needs: [VALUE]}\n",
            "/steps/a/needs/0",
            "empty-reference",
        ),
        (
            "fallback: {degradation: [{when: VALUE, fallback_to: abort}]}\n",
            "/fallback/degradation/0/when",
            "empty-action",
        ),
    ];

    fn number() -> impl Strategy<Value = f64> {
        prop_oneof![
            (-3i64..5).prop_map(|n| n as f64),
            (-3.0f64..5.0),
            any::<i32>().prop_map(f64::from),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        #[test]
        fn numbers_are_schema_valid_and_linted_exactly_outside_their_range(case in 0..BOUNDS.len(), n in number()) {
            let (document, at, code, integer, wrong) = BOUNDS[case];
            let written = if integer { format!("{}", n.trunc() as i64) } else { format!("{n:?}") };
            let n: f64 = written.parse().unwrap_or(n);
            let (valid, found) = check(document, &written, code);
            prop_assert!(valid, "{document} with {written} is schema-valid");
            let expected: Vec<String> = if wrong(n) { vec![at.to_owned()] } else { vec![] };
            prop_assert_eq!(found, expected, "{} with {}", document, written);
        }

        #[test]
        fn words_are_schema_valid_and_linted_exactly_outside_their_vocabulary(case in 0..WORDS.len(), word in "[a-z_]{0,12}|string|number|any|select|slider|skip|abort|retry_source") {
            let (document, at, code, fine) = WORDS[case];
            let (valid, found) = check(document, &serde_json::to_string(&word).unwrap_or_default(), code);
            prop_assert!(valid, "{document} with {word:?} is schema-valid");
            let expected: Vec<String> = if fine.contains(&word.as_str()) { vec![] } else { vec![at.to_owned()] };
            prop_assert_eq!(found, expected, "{} with {:?}", document, word);
        }

        #[test]
        fn blank_names_are_schema_valid_and_linted(case in 0..NAMES.len(), name in "[ a-z]{0,3}") {
            let (document, at, code) = NAMES[case];
            let (valid, found) = check(document, &serde_json::to_string(&name).unwrap_or_default(), code);
            prop_assert!(valid, "{document} with {name:?} is schema-valid");
            let expected: Vec<String> = if name.trim().is_empty() { vec![at.to_owned()] } else { vec![] };
            prop_assert_eq!(found, expected, "{} with {:?}", document, name);
        }
    }
}
