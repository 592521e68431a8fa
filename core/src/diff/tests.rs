use serde_json::json;

use super::*;
use crate::analysis::{parse, Options};

fn parsed(text: &str, path: &str) -> Parsed {
    let options = Options::validate().with_path(path);
    parse(text, &options).1.expect("parses")
}

fn text_diff(old: &str, new: &str, path: &str) -> String {
    to_text(&diff(&parsed(old, path), &parsed(new, path)).expect("one kind"))
}

const OLD: &str = "---\n# comment\nspec_version: \"1.0\"\nname: t\nreasoning:\n  max_iterations: 8\nsteps:\n  gather:\n    description: Gather sources\n    instructions: Find three sources.\n  legacy:\n    description: Old\n  report:\n    description: Report\n    needs: [gather, legacy]\n---\n";

#[test]
fn renames_additions_removals_fields_and_edges() {
    let new = "---\nspec_version: \"1.0\"\nname: t\nreasoning:\n  max_iterations: 10\nsteps:\n  collect:\n    description: Gather sources\n    instructions: Find five sources.\n  report:\n    needs: [collect, verify]\n    description: Report\n  verify:\n    description: Verify\n    needs: [collect]\n---\n";
    assert_eq!(
        text_diff(OLD, new, "a.logic.md"),
        "renamed step `gather` → `collect`\n\
         removed step `legacy`\n\
         added step `verify`\n\
         changed /reasoning/max_iterations: 8 → 10\n\
         changed /steps/collect/instructions: \"Find three sources.\" → \"Find five sources.\"\n\
         changed /steps/report/needs/0: \"gather\" → \"collect\"\n\
         changed /steps/report/needs/1: \"legacy\" → \"verify\"\n\
         removed edge legacy → report (needs)\n\
         added edge collect → verify (needs)\n\
         added edge verify → report (needs)\n"
    );
}

#[test]
fn formatting_comments_and_key_order_are_no_change() {
    let reordered = "---\nname: t\nspec_version: '1.0'\nsteps:\n  report: {needs: [gather, legacy], description: Report}\n  legacy: {description: Old}\n  gather: {instructions: Find three sources., description: Gather sources}\nreasoning: {max_iterations: 8}\n---\nA body that changed.\n";
    assert_eq!(text_diff(OLD, reordered, "a.logic.md"), "");
}

#[test]
fn topologies_compare_nodes_by_id_whatever_their_order() {
    let old = "name: t\nnodes:\n  - {id: a, type: generate, prompt: p, output_key: x}\n  - {id: b, type: generate, input: a.x, prompt: q, output_key: y}\nedges:\n  - {from: a, to: b}\n";
    let moved = "name: t\nnodes:\n  - {id: b, type: generate, input: a.x, prompt: q, output_key: y}\n  - {id: a, type: generate, prompt: p, output_key: x}\nedges:\n  - {from: a, to: b}\n";
    assert_eq!(text_diff(old, moved, "t.drtl.yaml"), "");
    let changed = "name: t\nnodes:\n  - {id: a, type: generate, prompt: p2, output_key: x}\n  - {id: c, type: transform, operations: [{set: state.variables.done, value: true}]}\nedges:\n  - {from: a, to: c}\n";
    assert_eq!(
        text_diff(old, changed, "t.drtl.yaml"),
        "removed generate `b`\n\
         added transform `c`\n\
         changed /nodes/a/prompt: \"p\" → \"p2\"\n\
         removed edge a → b (flow)\n\
         added edge a → c (flow)\n"
    );
}

#[test]
fn kinds_must_match_and_json_names_each_change() {
    let topology = parsed(
        "name: t\nnodes:\n  - {id: a, type: generate, prompt: p, output_key: x}\n",
        "t.drtl.yaml",
    );
    assert_eq!(diff(&parsed(OLD, "a.logic.md"), &topology), None);
    let changes = diff(
        &parsed(OLD, "a.logic.md"),
        &parsed(
            &OLD.replace("max_iterations: 8", "temperature: 0.3"),
            "a.logic.md",
        ),
    )
    .unwrap();
    assert_eq!(
        serde_json::to_value(&changes).unwrap(),
        json!([
            {"change": "changed", "path": "/reasoning/max_iterations", "before": 8},
            {"change": "changed", "path": "/reasoning/temperature", "after": 0.3}
        ])
    );
}
