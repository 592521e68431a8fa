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
    let b = &compiled.steps[1];
    assert!(b.scaffold.contains("## Reasoning strategy: react"));
    assert!(b.scaffold.contains("- [ ] `{{ output.ok }}`"));
    assert!(b.scaffold.contains("If the check fails: revise — Fix it"));
    assert!(b.scaffold.contains("### Rules"));
    assert!(b.scaffold.contains("### Output format (execution mandate)"));
    let schema = b.output_schema.as_ref().unwrap();
    assert_eq!(schema["required"], json!(["score"]));
    assert_eq!(
        schema["properties"]["report"]["required"],
        json!(["summary"])
    );
    assert!(compiled.steps[0]
        .scaffold
        .contains("You must not use: shell."));
}

#[test]
fn no_mandate_without_output_contracts() {
    let compiled = compile(&json!({"name": "x", "steps": {"a": {"description": "d"}}})).unwrap();
    assert!(!compiled.steps[0].scaffold.contains("execution mandate"));
    assert!(compiled.steps[0].output_schema.is_none());
}

#[test]
fn cycles_are_diagnostics() {
    let errors =
        compile(&json!({"steps": {"a": {"needs": ["b"]}, "b": {"needs": ["a"]}}})).unwrap_err();
    assert_eq!(errors[0].code, "step-cycle");
    assert_eq!(errors[0].path, "/steps/a/needs");
    assert!(errors[0].message.contains("a -> b -> a"));
}

#[test]
fn deterministic_and_unknown_steps_named() {
    assert_eq!(
        compile(&spec()).unwrap().to_markdown(),
        compile(&spec()).unwrap().to_markdown()
    );
    let err = compile_step(&spec(), "zzz").unwrap_err();
    assert!(
        err[0].message.contains("steps: a, b, report"),
        "{}",
        err[0].message
    );
}
