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

mod properties {
    use proptest::prelude::*;
    use serde_json::{json, Map, Value};

    use super::super::*;
    use crate::model::Spec;

    /// Steps `s0..sN` whose `needs` point only to earlier steps (so they are acyclic), with
    /// branches to any step (forward, back, to themselves) and a tree routing to some steps.
    fn documents() -> impl Strategy<Value = Value> {
        (2usize..14).prop_flat_map(|n| {
            (
                proptest::collection::vec(proptest::collection::vec(0usize..n, 0..3), n),
                proptest::collection::vec(proptest::collection::vec(0usize..n, 0..3), n),
                proptest::collection::vec(0usize..n, 0..3),
            )
                .prop_map(move |(needs, branches, routed)| {
                    let mut steps = Map::new();
                    for i in 0..n {
                        let needs: Vec<String> = needs[i]
                            .iter()
                            .filter(|&&j| j < i)
                            .map(|j| format!("s{j}"))
                            .collect();
                        let branches: Vec<Value> = branches[i]
                            .iter()
                            .map(|j| json!({"if": "{{ output.x }}", "then": format!("s{j}")}))
                            .collect();
                        steps.insert(
                            format!("s{i}"),
                            json!({"needs": needs, "branches": branches}),
                        );
                    }
                    let tree_branches: Vec<Value> = routed
                        .iter()
                        .map(|j| json!({"value": j, "next": format!("s{j}")}))
                        .collect();
                    json!({
                        "steps": steps,
                        "decision_trees": {"t": {"root": "r", "nodes": {"r": {
                            "condition": "{{ input.kind }}", "branches": tree_branches
                        }}}}
                    })
                })
        })
    }

    fn reaches(flow: &Flow, from: usize, to: usize) -> bool {
        let mut seen = vec![false; flow.units.len()];
        let mut stack = vec![from];
        while let Some(unit) = stack.pop() {
            if unit == to {
                return true;
            }
            if std::mem::replace(&mut seen[unit], true) {
                continue;
            }
            stack.extend(flow.outgoing(unit).map(|e| e.to));
        }
        false
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]

        /// Every ordering edge goes to a later level; `needs` never become loops; every loop
        /// closes a real cycle (its target leads back to its source); every unit has one level.
        #[test]
        fn schedules_respect_every_edge_and_loops_are_real(doc in documents()) {
            let flow = Flow::of_steps(&Spec::read(&doc)).expect("needs are acyclic");
            let level_of = flow.level_of();
            for edge in &flow.edges {
                prop_assert!(level_of[edge.from] < level_of[edge.to], "{edge:?}");
            }
            for edge in &flow.loops {
                prop_assert!(edge.kind.is_choice(), "{edge:?}");
                prop_assert!(edge.from == edge.to || reaches(&flow, edge.to, edge.from), "{edge:?}");
            }
            let mut listed: Vec<usize> = flow.levels.iter().flatten().copied().collect();
            listed.sort_unstable();
            prop_assert_eq!(listed, (0..flow.units.len()).collect::<Vec<_>>());
        }
    }
}
