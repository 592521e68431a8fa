use super::*;

const GOOD: &str = "name: verified publish\nartifacts:\n  prompts:\n    writer: prompts/writer.md\nnodes:\n  - id: draft\n    type: generate\n    prompt_ref: artifacts.prompts.writer\n    output_key: draft_text\n  - id: extract\n    type: generate\n    input: draft.draft_text\n    prompt: Extract claims as JSON.\n    output_format: json\n    output_key: claims\n  - id: check\n    type: verify\n    input: extract.claims\n    rules:\n      - {id: std.check_existence, target: products, mode: block}\n    output_key: report\n  - id: gate\n    type: gate\n    input: check.report\n    condition: input.blocking_failures == 0\n    on_pass: publish\n    on_fail: {next: review, inject: check.report}\n  - id: review\n    type: review\n    input: {context: check.report}\n    actions:\n      - retry: {next: draft}\n      - reject\n  - id: publish\n    type: transform\n    operations:\n      - {set: state.variables.published, value: true}\nedges:\n  - {from: draft, to: extract}\n  - {from: extract, to: check}\n  - {from: check, to: gate}\n";

#[test]
fn a_well_formed_topology_is_valid() {
    let report = validate(GOOD);
    assert!(report.valid, "{:#?}", report.diagnostics);
    assert!(looks_like_drtl(report.topology.as_ref().unwrap().json()));
    let nodes = report.topology.unwrap().nodes();
    let gate = nodes.iter().find(|n| n.id == "gate").unwrap();
    assert_eq!(gate.routes.len(), 2);
    let review = nodes.iter().find(|n| n.id == "review").unwrap();
    assert_eq!(review.terminal_actions, ["reject"]);
}

fn codes(text: &str) -> Vec<(String, u32, u32)> {
    validate(text)
        .diagnostics
        .into_iter()
        .map(|d| (d.code, d.line, d.column))
        .collect()
}

#[test]
fn checks_find_each_defect_at_its_place() {
    let dangling = GOOD.replace("on_pass: publish", "on_pass: publsh");
    assert!(
        codes(&dangling).contains(&("drtl-unknown-route".into(), 26, 14)),
        "{:?}",
        codes(&dangling)
    );
    let unstructured = GOOD.replace("    output_format: json\n", "");
    assert!(codes(&unstructured)
        .iter()
        .any(|c| c.0 == "drtl-verify-unstructured"));
    let bad_rule = GOOD.replace("std.check_existence", "std.check_existance");
    assert!(codes(&bad_rule)
        .iter()
        .any(|c| c.0 == "drtl-unknown-standard-rule"));
    let bad_mode = GOOD.replace("mode: block", "mode: strict");
    assert!(
        codes(&bad_mode).iter().any(|c| c.0 == "schema-enum"),
        "{:?}",
        codes(&bad_mode)
    );
    let duplicate = GOOD.replace("id: publish", "id: draft");
    assert!(codes(&duplicate).iter().any(|c| c.0 == "drtl-duplicate-id"));
    let artifact = GOOD.replace("artifacts.prompts.writer", "artifacts.prompts.editor");
    assert!(codes(&artifact)
        .iter()
        .any(|c| c.0 == "drtl-unknown-artifact"));
    let not_upstream = GOOD.replace("input: draft.draft_text", "input: publish.output");
    assert!(
        codes(&not_upstream)
            .iter()
            .any(|c| c.0 == "drtl-input-not-upstream"),
        "{:?}",
        codes(&not_upstream)
    );
}

/// (code, severity, line, column, message, help) of a diagnostic.
type Described = (String, &'static str, u32, u32, String, Option<String>);

fn described(text: &str) -> Vec<Described> {
    validate(text)
        .diagnostics
        .into_iter()
        .map(|d| {
            (
                d.code,
                d.severity.as_str(),
                d.line,
                d.column,
                d.message,
                d.help,
            )
        })
        .collect()
}

const EXPRESSIONS: &str = "name: expressions
state_defaults:
  rounds: 0
nodes:
  - id: draft
    type: generate
    prompt: |
      Write about {{ input.topic }}.
      Mention {{ input. }} too.
    output_key: text
  - id: gate
    type: gate
    input: draft.text
    condition: \"input.x == = 0\"
    on_pass: publish
    on_fail: publish
  - id: publish
    type: transform
    operations:
      - {set: state.variables.out, value: \"{{ draft.text }}\"}
      - {set: state.variables.rounds, value: \"{{ rounds + 1 }}\"}
      - {set: state.variables.typo, value: \"{{ stat.variables.rounds }}\"}
edges:
  - {from: draft, to: gate}
";

#[test]
fn expressions_are_parsed_and_placed_at_the_offending_token() {
    let owned = |s: &str| s.to_owned();
    assert_eq!(
        described(EXPRESSIONS),
        vec![
            (
                owned("expression-syntax"),
                "error",
                9,
                25,
                owned("invalid expression: expected a property name after `.`, found the end of the expression"),
                None
            ),
            (
                owned("expression-syntax"),
                "error",
                14,
                28,
                owned("invalid expression: unexpected character `=` (assignment is not allowed; compare with `==` or `===`)"),
                None
            ),
            (
                owned("unknown-expression-root"),
                "warning",
                22,
                48,
                owned("`stat` is neither a node nor a variable DRTL expressions can read"),
                Some(owned("did you mean `state`?"))
            ),
        ]
    );
}

#[test]
fn conditions_are_one_expression_with_or_without_braces() {
    let braced = GOOD.replace(
        "condition: input.blocking_failures == 0",
        "condition: \"{{ input.blocking_failures == 0 }}\"",
    );
    assert_eq!(described(&braced), vec![]);
    let mixed = GOOD.replace(
        "condition: input.blocking_failures == 0",
        "condition: \"failures: {{ input.blocking_failures }}\"",
    );
    assert_eq!(
        described(&mixed),
        vec![(
            "expression-syntax".to_owned(),
            "error",
            25,
            16,
            "a gate condition is one expression, not text around `{{ }}`: this one is always true"
                .to_owned(),
            Some(
                "write the condition as one expression, e.g. `input.blocking_failures == 0`"
                    .to_owned()
            )
        )]
    );
    let bare_typo = GOOD.replace(
        "condition: input.blocking_failures == 0",
        "condition: inptu.blocking_failures == 0",
    );
    assert_eq!(
        described(&bare_typo),
        vec![(
            "unknown-expression-root".to_owned(),
            "warning",
            25,
            16,
            "`inptu` is neither a node nor a variable DRTL expressions can read".to_owned(),
            Some("did you mean `input`?".to_owned())
        )]
    );
}

#[test]
fn review_inputs_and_injected_context_are_templates() {
    let injected = GOOD.replace(
        "input: {context: check.report}",
        "input: {context: check.report, violations: \"{{injected}}\", note: \"{{ injected. }}\"}",
    );
    assert_eq!(
        described(&injected)
            .into_iter()
            .map(|d| (d.0, d.2, d.3))
            .collect::<Vec<_>>(),
        vec![("expression-syntax".to_owned(), 30, 84)]
    );
}
