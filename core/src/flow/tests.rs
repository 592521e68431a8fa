use serde_json::json;

use super::*;
use crate::model::Spec;

fn levels(spec: serde_json::Value) -> Vec<Vec<String>> {
    let flow = Flow::of_steps(&Spec::read(&spec)).expect("no cycle");
    flow.levels
        .iter()
        .map(|level| {
            level
                .iter()
                .map(|&u| {
                    let unit = &flow.units[u];
                    match unit.kind {
                        UnitKind::Tree => format!("tree:{}", unit.name),
                        _ => unit.name.clone(),
                    }
                })
                .collect()
        })
        .collect()
}

fn loops(spec: serde_json::Value) -> Vec<(String, String)> {
    let flow = Flow::of_steps(&Spec::read(&spec)).expect("no cycle");
    flow.loops
        .iter()
        .map(|e| {
            (
                flow.units[e.from].name.clone(),
                flow.units[e.to].name.clone(),
            )
        })
        .collect()
}

#[test]
fn needs_alone_give_kahn_levels_by_longest_path() {
    let spec = json!({"steps": {
        "report": {"needs": ["analyze", "verify"]},
        "gather": {},
        "verify": {"needs": ["gather"]},
        "analyze": {"needs": ["gather"]},
        "notes": {}
    }});
    assert_eq!(
        levels(spec),
        [
            vec!["gather", "notes"],
            vec!["verify", "analyze"],
            vec!["report"]
        ]
    );
}

#[test]
fn a_branch_target_runs_after_the_step_that_chooses_it_even_when_declared_first() {
    let spec = json!({"steps": {
        "fallback_search": {},
        "expand": {},
        "gather": {"branches": [
            {"if": "{{ output.n == 0 }}", "then": "fallback_search"},
            {"default": true, "then": "expand"}
        ]},
        "report": {"needs": ["expand"]}
    }});
    assert_eq!(
        levels(spec.clone()),
        [
            vec!["gather"],
            vec!["fallback_search", "expand"],
            vec!["report"]
        ]
    );
    assert!(loops(spec).is_empty());
}

#[test]
fn a_branch_back_to_a_step_it_needs_or_to_itself_is_a_loop_not_an_order() {
    let spec = json!({"steps": {
        "draft": {},
        "review": {"needs": ["draft"], "branches": [
            {"if": "{{ output.score < 0.5 }}", "then": "draft"},
            {"if": "{{ output.score < 0.7 }}", "then": "review"}
        ]}
    }});
    assert_eq!(levels(spec.clone()), [vec!["draft"], vec!["review"]]);
    assert_eq!(
        loops(spec),
        [
            ("review".to_owned(), "review".to_owned()),
            ("review".to_owned(), "draft".to_owned())
        ]
    );
}

#[test]
fn branches_that_only_form_a_cycle_among_themselves_break_at_the_first_declared() {
    let spec = json!({"steps": {
        "a": {"branches": [{"default": true, "then": "b"}]},
        "b": {"branches": [{"default": true, "then": "c"}]},
        "c": {"branches": [{"if": "{{ output.again }}", "then": "a"}]}
    }});
    assert_eq!(levels(spec.clone()), [vec!["a"], vec!["b"], vec!["c"]]);
    assert_eq!(loops(spec), [("c".to_owned(), "a".to_owned())]);
}

#[test]
fn decision_trees_come_before_the_steps_they_route_to_and_after_what_they_read() {
    let spec = json!({
        "steps": {
            "classify": {},
            "deep": {},
            "quick": {}
        },
        "decision_trees": {"router": {
            "root": "size",
            "nodes": {"size": {"condition": "{{ steps.classify.output.size > 10 }}", "branches": [
                {"value": true, "next": "deep"},
                {"value": false, "next": "short"}
            ]}},
            "terminals": {"short": {"action": "quick"}}
        }}
    });
    assert_eq!(
        levels(spec),
        [vec!["classify"], vec!["tree:router"], vec!["deep", "quick"]]
    );
}

#[test]
fn parallel_members_run_before_the_step_that_joins_them() {
    let spec = json!({"steps": {
        "research": {"execution": "parallel", "parallel_steps": ["web", "papers"], "join": "all"},
        "web": {},
        "papers": {},
        "report": {"needs": ["research"]}
    }});
    assert_eq!(
        levels(spec),
        [vec!["web", "papers"], vec!["research"], vec!["report"]]
    );
}

#[test]
fn a_needs_cycle_is_an_error_with_its_path() {
    let spec = Spec::read(&json!({"steps": {"a": {"needs": ["b"]}, "b": {"needs": ["a"]}}}));
    let cycles = Flow::of_steps(&spec).unwrap_err();
    assert_eq!(cycles[0].display(), "a -> b -> a");
}

#[test]
fn finals_are_the_steps_nothing_runs_after() {
    let spec = Spec::read(&json!({"steps": {
        "notes": {},
        "gather": {},
        "report": {"needs": ["notes", "gather"], "branches": [{"if": "{{ output.bad }}", "then": "gather"}]},
        "appendix": {"needs": ["notes"]}
    }}));
    let flow = Flow::of_steps(&spec).unwrap();
    assert_eq!(flow.final_names(UnitKind::Step), ["report", "appendix"]);
}

#[test]
fn workflows_order_nodes_by_depends_on_and_edges() {
    let spec = Spec::read(&json!({
        "nodes": {"synth": {"logic_ref": "s"}, "research": {"logic_ref": "r"}, "review": {"depends_on": ["synth"]}},
        "edges": [{"from": "research", "to": "synth"}]
    }));
    let flow = Flow::of_workflow(&spec).unwrap();
    assert_eq!(
        flow.level_names(UnitKind::Node),
        [vec!["research"], vec!["synth"], vec!["review"]]
    );
    let cyclic = Spec::read(&json!({
        "nodes": {"a": {"depends_on": ["b"]}, "b": {}},
        "edges": [{"from": "a", "to": "b"}]
    }));
    assert_eq!(
        Flow::of_workflow(&cyclic).unwrap_err()[0].display(),
        "a -> b -> a"
    );
}
