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
