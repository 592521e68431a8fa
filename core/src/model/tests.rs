use serde_json::json;

use super::*;

#[test]
fn reads_every_part_of_a_step_with_its_pointer() {
    let spec = Spec::read(&json!({
        "name": "n",
        "steps": {
            "a": {},
            "b": {
                "needs": ["a"],
                "confidence": {"minimum": 0.6, "escalate_below": 0.4},
                "branches": [{"if": "{{ output.x }}", "then": "a"}, {"default": true, "then": "c"}],
                "retry": {"max_attempts": 3, "initial_interval": "1s", "backoff_coefficient": 2.0},
                "verification": {"check": "{{ output.ok }}", "on_fail": "revise", "on_fail_message": "m"},
                "timeout": "30s",
                "allowed_tools": ["search"]
            },
            "c~/": null
        }
    }));
    assert_eq!(spec.steps.len(), 3);
    let b = spec.step("b").unwrap();
    assert_eq!(b.pointer, "/steps/b");
    assert_eq!(b.needs, ["a"]);
    assert_eq!(b.confidence.minimum, Some(0.6));
    assert_eq!(b.branches[1].pointer, "/steps/b/branches/1");
    assert!(b.branches[1].default);
    assert_eq!(b.branch_targets().collect::<Vec<_>>(), ["a", "c"]);
    assert_eq!(b.retry.as_ref().unwrap().max_attempts, Some(3));
    let verification = b.verification.as_ref().unwrap();
    assert_eq!(verification.on_fail, OnFail::Revise);
    assert_eq!(verification.on_fail_message.as_deref(), Some("m"));
    assert_eq!(spec.steps[2].pointer, "/steps/c~0~1");
}

#[test]
fn wrong_types_read_as_absent() {
    let spec = Spec::read(&json!({
        "name": 5,
        "steps": {"a": {"needs": "b", "retry": [], "verification": {"on_fail": "retry"}}},
        "reasoning": {"max_iterations": -1, "temperature": "hot"},
        "decision_trees": [],
        "nodes": {"x": 1}
    }));
    assert_eq!(spec.name, "");
    let a = spec.step("a").unwrap();
    assert!(a.needs.is_empty());
    assert!(a.retry.is_none());
    assert!(
        a.verification.is_none(),
        "a verification without a check is not one"
    );
    assert_eq!(spec.reasoning.max_iterations, None);
    assert_eq!(spec.reasoning.temperature, None);
    assert!(spec.decision_trees.is_empty());
    assert!(!spec.is_workflow());
    assert_eq!(Spec::read(&json!([1, 2])), Spec::default());
}

#[test]
fn verification_without_on_fail_retries_and_gates_default_to_error() {
    let spec = Spec::read(&json!({
        "steps": {"a": {"verification": {"check": "{{ true }}"}}},
        "quality_gates": {
            "pre_output": [{"name": "g", "check": "{{ true }}"}],
            "post_output": [{"name": "p", "check": "{{ true }}", "severity": "warning", "on_fail": "revise"}],
            "self_verification": {"strategy": "rubric", "rubric": {"criteria": [{"name": "c", "weight": 0.5}], "minimum_score": 0.7}}
        }
    }));
    assert_eq!(
        spec.step("a")
            .unwrap()
            .verification
            .as_ref()
            .unwrap()
            .on_fail,
        OnFail::Retry
    );
    let gates = &spec.quality_gates;
    assert_eq!(gates.pre_output[0].severity, Severity::Error);
    assert_eq!(gates.post_output[0].on_fail, Some(OnFail::Revise));
    let sv = gates.self_verification.as_ref().unwrap();
    assert!(sv.enabled);
    assert_eq!(sv.rubric[0].weight, 0.5);
    assert_eq!(sv.minimum_score, Some(0.7));
    assert!(gates.checks_output());
}

#[test]
fn trees_fallback_contracts_and_workflows() {
    let spec = Spec::read(&json!({
        "decision_trees": {"router": {
            "root": "kind",
            "nodes": {"kind": {"condition": "{{ input.kind }}", "branches": [
                {"value": "q", "next": "answer"}, {"value": "x", "next": "done"}, {"default": true, "next": "deep"}
            ]}},
            "terminals": {"done": {"action": "finish_step"}}
        }},
        "fallback": {"escalation": [
            {"level": 2, "trigger": "{{ attempts >= 3 }}", "action": "abort"},
            {"level": 1, "trigger": "{{ confidence < 0.5 }}", "action": "retry_with_different_strategy", "new_strategy": "tot"}
        ]},
        "contracts": {"outputs": [{"name": "report", "type": "object", "required": true}]},
        "global": {"max_parallelism": 2},
        "nodes": {"r": {"logic_ref": "./r.logic.md"}, "s": {"depends_on": ["r"]}},
        "edges": [{"from": "r", "to": "s", "on_contract_violation": "skip"}]
    }));
    let tree = &spec.decision_trees[0];
    assert_eq!(tree.step_targets(), ["answer", "deep", "finish_step"]);
    assert_eq!(
        spec.fallback
            .chain()
            .iter()
            .map(|e| e.level)
            .collect::<Vec<_>>(),
        [1, 2]
    );
    assert!(spec.contracts.outputs[0].required);
    assert_eq!(spec.global.max_parallelism, Some(2));
    assert!(spec.is_workflow());
    assert_eq!(spec.nodes[1].depends_on, ["r"]);
    assert_eq!(spec.edges[0].on_contract_violation.as_deref(), Some("skip"));
}
