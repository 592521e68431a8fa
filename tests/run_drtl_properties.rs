//! Random topologies (every node type, edges, gate branches and review actions to any node or
//! `terminate`, cycles included) run with the synthetic provider, random verdicts and random
//! review decisions: every run ends within its bounds, never panics, completes only with every
//! `block` obligation met or discharged by an approval or a routed decision, gives the same bytes again
//! (also when snapshotted and resumed half way), and no node starts while a node before it is running, nor before every node before it has
//! settled unless a loop sent the run back to it.

use std::collections::{BTreeMap, BTreeSet};

use logicmd::run::{
    ActionKind, Answer, Observation, Provider, Run, RunOptions, Source, Synthetic, Verdict,
};
use proptest::prelude::*;
use serde_json::{json, Value};

const KINDS: &[&str] = &[
    "generate",
    "fan_out",
    "aggregate",
    "verify",
    "gate",
    "debate",
    "transform",
    "review",
];

#[derive(Debug, Clone)]
struct NodeSpec {
    kind: usize,
    /// Route targets (an index past the last node is `terminate`).
    routes: Vec<usize>,
    variant: u8,
}

fn node(index: usize, spec: &NodeSpec, count: usize) -> Value {
    let id = format!("n{index}");
    let target = |t: usize| {
        if t >= count {
            "terminate".to_owned()
        } else {
            format!("n{t}")
        }
    };
    let route = |i: usize| spec.routes.get(i).map(|&t| target(t));
    let mode = ["block", "warn", "observe"][spec.variant as usize % 3];
    match KINDS[spec.kind] {
        "generate" if spec.variant % 2 == 0 => {
            json!({"id": id, "type": "generate", "prompt": "Answer.", "output_format": "json", "output_key": id})
        }
        "generate" => json!({"id": id, "type": "generate", "prompt": "Answer.", "output_key": id}),
        "fan_out" => {
            json!({"id": id, "type": "fan_out", "participants": [{"model": "a"}, {"model": "b"}], "output_key": id})
        }
        "aggregate" => {
            let strategy = ["concat", "vote", "rank", "synthesize"][spec.variant as usize % 4];
            json!({"id": id, "type": "aggregate", "input": "{{ input }}", "strategy": strategy, "model": "m", "output_key": id})
        }
        "verify" => json!({"id": id, "type": "verify", "input": "{{ input }}", "rules": [
            {"id": "std.check_links", "target": "urls", "mode": mode},
            {"id": "std.check_protocol", "target": "items", "mode": "warn"},
        ], "output_key": id}),
        "gate" => {
            let condition = [
                "input != null",
                "state.variables.count < 2",
                "input.passed == true",
            ][spec.variant as usize % 3];
            let mut gate = json!({"id": id, "type": "gate", "condition": condition});
            if let Some(pass) = route(0) {
                gate["on_pass"] = pass.into();
            }
            if let Some(fail) = route(1) {
                gate["on_fail"] = json!({"next": fail, "inject": "{{ input }}"});
            }
            gate
        }
        "debate" => {
            json!({"id": id, "type": "debate", "max_rounds": 1 + spec.variant % 3, "participants": [
            {"id": "a", "model": "x"}, {"id": "b", "model": "y"},
        ], "output_key": id})
        }
        "transform" => json!({"id": id, "type": "transform", "operations": [
            {"set": "state.variables.count", "value": "{{ (state.variables.count || 0) + 1 }}"},
        ]}),
        _ => {
            let actions: Vec<Value> = spec
                .routes
                .iter()
                .enumerate()
                .map(|(i, &t)| {
                    // Plain labels of every kind (§3.8), and routed actions, some named like
                    // a rejection.
                    let name = ["approve", "reject", "edit"][(spec.variant as usize + i) % 3];
                    if (spec.variant as usize + i) % 2 == 0 {
                        json!(format!("{name}_{i}"))
                    } else {
                        json!({ format!("{name}_act{i}"): {"next": target(t)} })
                    }
                })
                .collect();
            let actions = if actions.is_empty() {
                vec![json!("done")]
            } else {
                actions
            };
            json!({"id": id, "type": "review", "input": {"seen": "{{ input }}"}, "actions": actions})
        }
    }
}

fn topologies() -> impl Strategy<Value = Value> {
    (1usize..7).prop_flat_map(|count| {
        let spec = (0..KINDS.len(), prop::collection::vec(0..=count, 0..3), any::<u8>())
            .prop_map(|(kind, routes, variant)| NodeSpec {
                kind,
                routes,
                variant,
            });
        (
            prop::collection::vec(spec, count),
            prop::collection::vec((0..count, 0..=count, 0u8..4), 0..(2 * count + 1)),
        )
            .prop_map(move |(specs, edges)| {
                let nodes: Vec<Value> = specs
                    .iter()
                    .enumerate()
                    .map(|(i, s)| node(i, s, count))
                    .collect();
                let edges: Vec<Value> = edges
                    .into_iter()
                    .map(|(from, to, label)| {
                        let to = if to >= count {
                            "terminate".to_owned()
                        } else {
                            format!("n{to}")
                        };
                        let mut edge = json!({"from": format!("n{from}"), "to": to});
                        match label {
                            1 => edge["if"] = "passed".into(),
                            2 => edge["if"] = "failed".into(),
                            3 => edge["if"] = "{{ state.variables.count > 0 }}".into(),
                            _ => {}
                        }
                        edge
                    })
                    .collect();
                json!({"name": "random", "state_defaults": {"count": 0}, "nodes": nodes, "edges": edges})
            })
    })
}

/// Answers models synthetically, verdicts and reviews from `choices`.
struct Chooser {
    synthetic: Synthetic,
    choices: Vec<u8>,
    next: usize,
}

impl Chooser {
    fn choose(&mut self) -> usize {
        let choice = self
            .choices
            .get(self.next % self.choices.len().max(1))
            .copied();
        self.next += 1;
        usize::from(choice.unwrap_or(0))
    }
}

impl Provider for Chooser {
    fn answer(&mut self, action: &logicmd::run::Action, on_token: &mut dyn FnMut(&str)) -> Answer {
        match &action.kind {
            ActionKind::CallTool { .. } => Answer::Observed(Observation::ToolResult(Verdict {
                passed: self.choose() % 2 == 0,
                evidence: None,
                unverifiable: false,
            })),
            ActionKind::AskReview { actions, .. } => {
                let pick = self.choose() % actions.len().max(1);
                Answer::Observed(Observation::ReviewAnswer {
                    action: actions.get(pick).cloned().unwrap_or_default(),
                    note: None,
                })
            }
            _ => self.synthetic.answer(action, on_token),
        }
    }
}

fn options() -> RunOptions {
    RunOptions {
        max_parallelism: 2,
        default_max_iterations: 3,
        max_node_runs: 150,
        ..RunOptions::default()
    }
}

/// Drives to the end: the trace, and the ending. With `resume_after`, the run is snapshotted
/// after that many observations and continued from `Run::resume`, which must give back the
/// events so far, byte for byte.
fn run_to_end(
    source: &Source,
    choices: &[u8],
    resume_after: Option<usize>,
) -> (Vec<Value>, ActionKind) {
    let mut provider = Chooser {
        synthetic: Synthetic::new(source, 3),
        choices: choices.to_vec(),
        next: 0,
    };
    let mut run = Run::start(source.clone(), json!({"topic": "t"}), options()).expect("starts");
    let mut trace = run.take_events();
    let mut clock = 0;
    let mut fed = 0;
    // Far more than any run within the bounds can ask for.
    for _ in 0..20_000 {
        let actions = run.next();
        trace.extend(run.take_events());
        assert!(
            !actions.is_empty(),
            "the run stopped without an ending: {:?}",
            run.outstanding()
        );
        for action in actions {
            if action.kind.is_terminal() {
                trace.extend(run.take_events());
                return (trace, action.kind);
            }
            if run_is_over(&run) {
                // An earlier action of this batch ended the run: the ending comes next.
                break;
            }
            if !run.outstanding().iter().any(|a| a.id == action.id) {
                // A loop went back and cancelled it (a `node_skipped` in the trace).
                continue;
            }
            if let ActionKind::Wait { ms, .. } = action.kind {
                clock += ms;
                run.set_clock(clock);
            }
            let Answer::Observed(observation) = provider.answer(&action, &mut |_| {}) else {
                panic!("unanswered {action:?}");
            };
            run.feed(&action.id, observation).expect("feeds");
            trace.extend(run.take_events());
            fed += 1;
            if resume_after == Some(fed) {
                run = Run::resume(&run.snapshot()).expect("resumes");
                assert_eq!(run.take_events(), trace, "a resumed run replays its events");
            }
        }
    }
    panic!("the run did not end within 20,000 batches");
}

/// The oracle's view of the routes: forward predecessors of each node (links that do not go
/// back to a node on the depth-first path from the entries, declaration order), and back links.
struct Routes {
    forward_into: BTreeMap<String, BTreeSet<String>>,
    back: BTreeSet<(String, String)>,
    /// Nodes nothing routes to, else the first: they start without waiting.
    entries: BTreeSet<String>,
}

fn routes(topology: &Value) -> Routes {
    let (Some(parsed), _) = logicmd::drtl::parse(&topology.to_string()) else {
        panic!("the topology parses");
    };
    let nodes = parsed.nodes();
    let ids: Vec<String> = nodes.iter().map(|n| n.id.clone()).collect();
    let index = |id: &str| ids.iter().position(|i| i == id);
    let successors: Vec<Vec<usize>> = nodes
        .iter()
        .map(|n| n.routes.iter().filter_map(|r| index(&r.target)).collect())
        .collect();
    let routed: BTreeSet<usize> = successors.iter().flatten().copied().collect();
    let mut roots: Vec<usize> = (0..ids.len()).filter(|n| !routed.contains(n)).collect();
    if roots.is_empty() {
        roots.push(0);
    }
    let entries = roots.iter().map(|&n| ids[n].clone()).collect();
    roots.extend(0..ids.len());
    let (mut state, mut back) = (vec![0u8; ids.len()], BTreeSet::new());
    for root in roots {
        if state[root] != 0 {
            continue;
        }
        state[root] = 1;
        let mut stack = vec![(root, 0usize)];
        while let Some(&(node, position)) = stack.last() {
            stack.last_mut().unwrap().1 += 1;
            match successors[node].get(position) {
                None => {
                    state[node] = 2;
                    stack.pop();
                }
                Some(&to) if state[to] == 1 => {
                    back.insert((ids[node].clone(), ids[to].clone()));
                }
                Some(&to) if state[to] == 0 => {
                    state[to] = 1;
                    stack.push((to, 0));
                }
                Some(_) => {}
            }
        }
    }
    let mut forward_into: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (from, targets) in successors.iter().enumerate() {
        for &to in targets {
            if !back.contains(&(ids[from].clone(), ids[to].clone())) {
                forward_into
                    .entry(ids[to].clone())
                    .or_default()
                    .insert(ids[from].clone());
            }
        }
    }
    Routes {
        forward_into,
        back,
        entries,
    }
}

fn check_order(trace: &[Value], routes: &Routes) -> Result<(), TestCaseError> {
    let mut running: BTreeSet<String> = BTreeSet::new();
    let mut settled: BTreeSet<String> = BTreeSet::new();
    // Started without waiting: the entries at first, a loop's target when the loop goes back.
    let mut looped_to: BTreeSet<String> = routes.entries.clone();
    for event in trace {
        let node = event["node"].as_str().unwrap_or_default().to_owned();
        match event["event"].as_str().unwrap_or_default() {
            "node_started" => {
                for before in routes.forward_into.get(&node).into_iter().flatten() {
                    prop_assert!(
                        !running.contains(before),
                        "`{node}` started while `{before}` was running"
                    );
                    prop_assert!(
                        settled.contains(before) || looped_to.contains(&node),
                        "`{node}` started before `{before}` settled"
                    );
                }
                looped_to.remove(&node);
                running.insert(node);
            }
            "node_finished" | "node_skipped" => {
                running.remove(&node);
                settled.insert(node.clone());
                for next in event["next"].as_array().into_iter().flatten() {
                    let next = next.as_str().unwrap_or_default().to_owned();
                    if routes.back.contains(&(node.clone(), next.clone())) {
                        looped_to.insert(next);
                    }
                }
            }
            _ => {}
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn random_topologies_end_within_their_bounds_in_order(
        topology in topologies(),
        choices in prop::collection::vec(any::<u8>(), 1..16),
        resume_after in 1usize..24,
    ) {
        let source = Source::Drtl { topology: topology.clone(), artifacts: BTreeMap::new() };
        let (trace, ending) = run_to_end(&source, &choices, None);
        let starts = trace.iter().filter(|e| e["event"] == "node_started").count() as u64;
        prop_assert!(starts <= options().max_node_runs + 1, "{starts} node starts");
        if let ActionKind::Fail { error } = &ending {
            prop_assert!(
                error.contains("RunOptions::") || error.starts_with("node `"),
                "an engine error: {error}"
            );
        }
        let seqs: Vec<u64> = trace.iter().filter_map(|e| e["seq"].as_u64()).collect();
        prop_assert_eq!(seqs, (0..trace.len() as u64).collect::<Vec<_>>());
        check_order(&trace, &routes(&topology))?;
        check_obligations(&trace, &ending)?;
        for event in &trace {
            let written = logicmd::trace::Record::from_value(event).map(logicmd::trace::Record::into_value);
            prop_assert_eq!(written.as_ref(), Ok(event), "a typed event, written back the same");
        }
        let (again, _) = run_to_end(&source, &choices, Some(resume_after));
        prop_assert_eq!(again, trace, "the same run again, snapshotted and resumed on the way");
    }
}

/// The trust invariant (issue #29, DRTL §9.3): a completed run leaves no `block` obligation
/// failed (a review's own withholding included), and a review discharges only by approving or
/// by an action the topology routes onward — never by a rejection.
fn check_obligations(trace: &[Value], ending: &ActionKind) -> Result<(), TestCaseError> {
    let rejects = |action: &str| {
        action.split(|c: char| !c.is_alphanumeric()).any(|w| {
            matches!(
                w,
                "reject" | "deny" | "abort" | "decline" | "refuse" | "cancel"
            )
        })
    };
    for (i, event) in trace.iter().enumerate() {
        if event["event"] != "obligation_updated" || event["status"] != "discharged" {
            continue;
        }
        let action = event["evidence"]["action"].as_str().unwrap_or_default();
        prop_assert!(
            !rejects(action),
            "`{action}` discharged an obligation: {event}"
        );
        let approves = action
            .split(|c: char| !c.is_alphanumeric())
            .any(|w| matches!(w, "approve" | "override" | "accept"));
        let review = event["evidence"]["review"].as_str().unwrap_or_default();
        let routed = trace[i..]
            .iter()
            .find(|e| e["event"] == "node_finished" && e["node"] == review)
            .and_then(|e| e["next"].as_array())
            .is_some_and(|next| !next.is_empty());
        prop_assert!(
            approves || routed,
            "`{action}` discharged without a route: {event}"
        );
    }
    if let ActionKind::Complete { output } = ending {
        for obligation in output["obligations"].as_array().into_iter().flatten() {
            prop_assert!(
                !(obligation["mode"] == "block" && obligation["status"] == "failed"),
                "completed with an open obligation: {obligation}"
            );
        }
    }
    Ok(())
}

fn run_is_over(run: &Run) -> bool {
    matches!(
        run.status(),
        logicmd::run::Status::Completed
            | logicmd::run::Status::Refused
            | logicmd::run::Status::Failed
    )
}

/// A review's action: its name and where it routes (`None`: a plain label).
fn review_actions() -> impl Strategy<Value = Vec<(usize, Option<usize>)>> {
    prop::collection::vec(
        (
            0..REVIEW_NAMES.len(),
            prop::option::of(0..ROUTE_TARGETS.len()),
        ),
        1..4,
    )
}

const REVIEW_NAMES: &[&str] = &[
    "approve",
    "override",
    "accept",
    "reject",
    "deny",
    "abort",
    "edit",
    "retry_with_search",
];
const ROUTE_TARGETS: &[&str] = &["publish", "draft", "terminate", "notify"];

/// The §9.2 pattern (draft → verify with `block` → gate → review) with a review of random
/// actions, plain or routed anywhere.
fn reviewed_topology(actions: &[(usize, Option<usize>)]) -> Value {
    let mut seen = BTreeSet::new();
    let actions: Vec<Value> = actions
        .iter()
        .filter(|(name, _)| seen.insert(*name))
        .map(|&(name, route)| match route {
            None => json!(REVIEW_NAMES[name]),
            Some(to) => json!({ REVIEW_NAMES[name]: {"next": ROUTE_TARGETS[to]} }),
        })
        .collect();
    json!({
        "name": "reviewed",
        "nodes": [
            {"id": "draft", "type": "generate", "prompt": "Draft.", "output_format": "json", "output_key": "draft"},
            {"id": "check", "type": "verify", "input": "draft.draft", "rules": [{"id": "std.check_existence", "target": "product_names", "mode": "block"}], "output_key": "report"},
            {"id": "gate", "type": "gate", "input": "check.report", "condition": "input.blocking_failures == 0", "on_pass": "publish", "on_fail": "review"},
            {"id": "review", "type": "review", "input": {"report": "check.report"}, "actions": actions},
            {"id": "publish", "type": "transform", "operations": [{"set": "state.variables.published", "value": true}]},
            {"id": "notify", "type": "transform", "operations": [{"set": "state.variables.notified", "value": true}]},
        ],
        "edges": [{"from": "draft", "to": "check"}, {"from": "check", "to": "gate"}],
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    /// Whatever a review decides on a failed `block` rule, the run completes only if the
    /// decision approved, or the topology routed it onward (and what follows does not run on
    /// the output unverified) — never on a rejection or a label nothing routes.
    #[test]
    fn a_review_never_lets_a_rejected_or_undecided_output_through(
        actions in review_actions(),
        choices in prop::collection::vec(any::<u8>(), 1..16),
    ) {
        let topology = reviewed_topology(&actions);
        let source = Source::Drtl { topology, artifacts: BTreeMap::new() };
        let (trace, ending) = run_to_end(&source, &choices, None);
        check_obligations(&trace, &ending)?;
    }
}
