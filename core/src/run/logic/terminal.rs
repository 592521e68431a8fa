//! A decision tree that ends at a terminal the engine cannot carry out itself (spec §7:
//! `escalate`, `request_clarification`, or any other action that is not a step) asks whoever
//! drives the run: the terminal's `message` is the question, the answers are the steps the tree
//! can route to, and `abort`. The run is paused until then (`Status::Paused`); the answer routes
//! like the tree would have, and its note goes to the chosen step. It never completes with
//! nothing chosen.

use std::collections::BTreeSet;

use serde_json::{json, Value};

use super::tree::Walk;
use super::{StepsProgram, UnitState};
use crate::flow::EdgeKind;
use crate::run::action::{ActionKind, Observation};
use crate::run::kernel::{Kernel, Purpose, Waiter};
use crate::trace::{Event, Gate, ReviewAnswered};

/// The answer that ends the run instead of routing.
const ABORT: &str = "abort";

/// A tree waiting for a person (or a system) to decide where its walk leads.
pub(super) struct Question {
    tree: String,
    walk: Walk,
    /// The steps the tree can route to, then `abort`.
    actions: Vec<String>,
    input: Value,
}

impl Question {
    /// What the reviewer reads: the terminal's message, else what the walk reached.
    fn message(&self) -> String {
        self.walk.message.clone().unwrap_or_else(|| {
            format!(
                "decision tree `{}` reached `{}` ({})",
                self.tree, self.walk.reached, self.walk.action
            )
        })
    }

    /// Why the run ends when the answer is `abort`.
    fn aborted(&self) -> String {
        format!(
            "decision tree `{}` reached `{}` ({}: {}); the review chose `{ABORT}`",
            self.tree,
            self.walk.reached,
            self.walk.action,
            self.message()
        )
    }

    fn ask(&self, kernel: &mut Kernel, node: &str, waiter: Waiter) {
        let requested = Event::ReviewRequested {
            message: Some(self.message()),
            actions: self.actions.clone(),
            input: self.input.clone(),
        };
        kernel.event(Some(node), requested);
        kernel.issue(
            ActionKind::AskReview {
                node: node.to_owned(),
                input: self.input.clone(),
                message: Some(self.message()),
                actions: self.actions.clone(),
            },
            waiter,
        );
    }
}

impl StepsProgram {
    /// Tree unit `unit` walked to a terminal the engine cannot carry out: it asks.
    pub(super) fn ask_tree(&mut self, kernel: &mut Kernel, unit: usize, tree: &str, walk: Walk) {
        let mut actions: Vec<String> = self
            .graph
            .outgoing(unit)
            .filter(|e| e.kind == EdgeKind::Tree)
            .map(|e| self.graph.name(e.to).to_owned())
            .collect();
        let mut seen = BTreeSet::new();
        actions.retain(|a| seen.insert(a.clone()));
        actions.push(ABORT.to_owned());
        let input = json!({
            "tree": tree,
            "reached": walk.reached,
            "action": walk.action,
            "path": walk.path,
            "input": self.shared.input,
        });
        let question = Question {
            tree: tree.to_owned(),
            walk,
            actions,
            input,
        };
        let node = self.shared.node_id(&format!("tree:{tree}"));
        question.ask(kernel, &node, self.waiter(unit));
        self.set_state(unit, UnitState::Asking(Box::new(question)));
    }

    fn waiter(&self, unit: usize) -> Waiter {
        Waiter {
            unit: self.unit_base + unit,
            purpose: Purpose::Review,
        }
    }

    /// The answer to a tree's question: a step to route to (its note goes with it), `abort`,
    /// or something else, which is recorded and asked again.
    pub(super) fn tree_answered(
        &mut self,
        kernel: &mut Kernel,
        unit: usize,
        observation: Observation,
        candidates: &mut BTreeSet<usize>,
    ) {
        let UnitState::Asking(question) =
            std::mem::replace(&mut self.states[unit], UnitState::Pending)
        else {
            return;
        };
        let node = self.shared.node_id(&format!("tree:{}", question.tree));
        let Observation::ReviewAnswer { action, note } = observation else {
            self.fail(format!(
                "decision tree `{}`: not a review answer",
                question.tree
            ));
            return;
        };
        if !question.actions.contains(&action) {
            let answered = Event::answer_not_offered(action, note, &question.actions);
            kernel.event(Some(&node), answered);
            question.ask(kernel, &node, self.waiter(unit));
            self.states[unit] = UnitState::Asking(question);
            return;
        }
        let answered = Event::ReviewAnswered(ReviewAnswered {
            action: action.clone(),
            note: note.clone(),
            accepted: None,
            error: None,
        });
        kernel.event(Some(&node), answered);
        let decided = Gate {
            path: Some(question.walk.path.clone()),
            reached: Some(question.walk.reached.clone()),
            action: Some(action.clone()),
            detail: Some(json!({"decided_by": "review", "note": note})),
            ..Gate::named("decision_tree", action != ABORT)
        };
        kernel.event(Some(&node), Event::GateEvaluated(decided));
        if action == ABORT {
            self.fail(question.aborted());
            return;
        }
        if let Some(target) = self.graph.step_unit(&action) {
            self.choose(unit, target);
            self.decisions[target] = Some(json!({
                "tree": question.tree,
                "reached": question.walk.reached,
                "question": question.message(),
                "answer": action,
                "note": note,
            }));
        }
        self.settle(unit, UnitState::Done, candidates);
    }
}
