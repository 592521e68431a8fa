use super::*;
use serde_json::json;

fn spec() -> Value {
    json!({
        "spec_version": "1.0", "name": "t",
        "reasoning": {"strategy": "react", "max_iterations": 4},
        "steps": {
            "report": {"description": "Write it", "needs": ["a", "b"]},
            "a": {"description": "First", "allowed_tools": ["web"], "denied_tools": ["shell"]},
            "b": {"needs": ["a"], "verification": {"check": "{{ output.ok }}", "on_fail": "revise", "on_fail_message": "Fix it"}}
        },
        "contracts": {"outputs": [{"name": "report", "type": "object", "required": ["summary"]}, {"name": "score", "type": "number", "required": true}]},
        "quality_gates": {"post_output": [{"name": "consistent", "check": "{{ !output.contradicts }}", "on_fail": "revise"}]}
    })
}

#[test]
fn levels_order_and_sections() {
    let compiled = compile(&spec()).unwrap();
    assert_eq!(compiled.levels, vec![vec!["a"], vec!["b"], vec!["report"]]);
    assert_eq!(compiled.order, ["a", "b", "report"]);
    // The whole scaffold: strategy, checks, rules; the execution mandate only for `report`.
    insta::assert_snapshot!("levels_order_and_sections", compiled.to_markdown());
    let report = &compiled.steps[2];
    let schema = report.output_schema.as_ref().unwrap();
    assert_eq!(schema["required"], json!(["score"]));
    assert_eq!(
        schema["properties"]["report"]["required"],
        json!(["summary"])
    );
}

#[test]
fn no_mandate_without_output_contracts() {
    let compiled = compile(&json!({"name": "x", "steps": {"a": {"description": "d"}}})).unwrap();
    assert_eq!(compiled.steps[0].scaffold, "## Step: a\n\nd\n\n");
    assert!(compiled.steps[0].output_schema.is_none());
}

#[test]
fn cycles_are_diagnostics() {
    let errors =
        compile(&json!({"steps": {"a": {"needs": ["b"]}, "b": {"needs": ["a"]}}})).unwrap_err();
    assert_eq!(errors[0].code, "step-cycle");
    assert_eq!(errors[0].path, "/steps/a/needs");
    assert_eq!(errors[0].message, "cannot compile: a cycle: a -> b -> a");
}

#[test]
fn deterministic_and_unknown_steps_named() {
    assert_eq!(
        compile(&spec()).unwrap().to_markdown(),
        compile(&spec()).unwrap().to_markdown()
    );
    let err = compile_step(&spec(), "zzz").unwrap_err();
    assert_eq!(
        err[0].message,
        "there is no step `zzz` (steps: a, b, report)"
    );
}

/// Issue #13 defect 3: only the steps that produce the workflow's output are told to answer
/// with the document's final contract (and its pre-output gates).
#[test]
fn only_final_steps_get_the_final_contract_and_gates() {
    let spec = json!({
        "name": "t",
        "steps": {
            "notes": {"description": "List notes as bullets"},
            "extract": {"needs": ["notes"], "output_schema": {"type": "array"}},
            "report": {"needs": ["extract"]}
        },
        "contracts": {"outputs": [{"name": "report", "type": "object", "required": true}]},
        "quality_gates": {"pre_output": [{"name": "grounded", "check": "{{ output.report.sources.length > 0 }}"}]}
    });
    let compiled = compile(&spec).unwrap();
    let step = |name: &str| compiled.steps.iter().find(|s| s.name == name).unwrap();
    assert_eq!(step("notes").output_schema, None);
    assert_eq!(
        step("extract").output_schema,
        Some(json!({"type": "array"}))
    );

    assert_eq!(
        step("report").output_schema,
        Some(
            json!({"type": "object", "properties": {"report": {"type": "object"}}, "required": ["report"]})
        )
    );
    assert_eq!(compiled.final_steps, ["report"]);
    // Only `report`'s scaffold has the mandate and the gate.
    insta::assert_snapshot!("only_final_steps", compiled.to_markdown());
}

/// Issue #13 defect 10: branch targets run after the step that chooses them; a branch back is
/// a loop; steps a decision tree routes to come after the tree.
#[test]
fn order_respects_branches_loops_and_trees() {
    let spec = json!({
        "name": "t",
        "steps": {
            "prioritize": {"description": "Top 10"},
            "deep": {"description": "All"},
            "identify": {},
            "analyze": {"needs": ["identify"], "branches": [
                {"if": "{{ steps.identify.output.n > 10 }}", "then": "prioritize"},
                {"if": "{{ output.redo }}", "then": "identify"},
                {"default": true, "then": "deep"}
            ]},
            "synthesize": {"needs": ["prioritize"]}
        }
    });
    let compiled = compile(&spec).unwrap();
    assert_eq!(
        compiled.levels,
        vec![
            vec!["identify"],
            vec!["analyze"],
            vec!["prioritize", "deep"],
            vec!["synthesize"]
        ]
    );
    assert_eq!(
        compiled.loops,
        vec![Loop {
            from: "analyze".into(),
            to: "identify".into()
        }]
    );
    let step = |name: &str| compiled.steps.iter().find(|s| s.name == name).unwrap();
    assert_eq!(step("deep").chosen_by, ["analyze"]);
    insta::assert_snapshot!("branch_targets", compiled.to_markdown());
}

/// Issue #13 defect 10: a workflow file compiles to its nodes in edge order with its global
/// rules, not to a title only.
#[test]
fn workflows_compile_to_their_nodes_in_edge_order_with_global_rules() {
    let spec = json!({
        "name": "pipeline",
        "global": {"max_total_time": "300s", "max_total_cost": 0.5, "fail_fast": false, "max_parallelism": 3},
        "nodes": {
            "synthesizer": {"logic_ref": "./nodes/synthesizer.logic.md", "depends_on": ["researcher"]},
            "researcher": {"logic_ref": "./nodes/researcher.logic.md"}
        },
        "edges": [{"from": "researcher", "to": "synthesizer", "contract": {"type": "object", "required": ["findings"]}, "on_contract_violation": "retry_source"}]
    });
    let compiled = compile(&spec).unwrap();
    assert_eq!(
        compiled.levels,
        vec![vec!["researcher"], vec!["synthesizer"]]
    );
    insta::assert_snapshot!("workflow_nodes", compiled.to_markdown());
}
