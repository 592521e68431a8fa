//! When open obligations stop a run (§3.4 `block`, §9.3 the ability to refuse): which nodes
//! may still run while a `block` rule has failed, what a review's decision discharges, and how
//! each unmet obligation is named in a refusal.

use std::collections::BTreeSet;

use serde_json::{json, Value};

use super::graph::{Graph, Kind};
use super::state::{Mode, Obligation, State, Status};
use super::verify::evidence_text;
use crate::run::action::Unmet;
use crate::run::kernel::Kernel;
use crate::trace::{Event, ObligationUpdated};

/// Failed `block` rules nothing has discharged.
pub(super) fn open(state: &State) -> impl Iterator<Item = &Obligation> {
    state.obligations.iter().filter(|o| o.is_open())
}

/// The rule a review's own obligation is recorded under: its decision did not let the output
/// through (a rejection, or a label nothing routes).
pub(super) const REVIEW_RULE: &str = "review";

/// Every open obligation, named for a refusal with `why` it stops the run.
pub(super) fn unmet(state: &State, why: &str) -> Vec<Unmet> {
    open(state)
        .map(|obligation| {
            let evidence = evidence_text(&obligation.evidence);
            let reason = match obligation.rule.as_str() {
                REVIEW_RULE if evidence == why => evidence,
                REVIEW_RULE => format!("{evidence}; {why}"),
                _ => format!("failed ({evidence}); {why}"),
            };
            Unmet {
                node: obligation.node.clone(),
                rule: obligation.rule.clone(),
                target: obligation.target.clone(),
                reason,
            }
        })
        .collect()
}

/// Review `review`'s decision did not let the output through (`why`): an obligation of its own,
/// open until the output is verified anew or a review approves.
pub(super) fn withheld(
    graph: &Graph,
    state: &mut State,
    kernel: &mut Kernel,
    review: usize,
    why: &str,
) {
    let id = graph.nodes[review].id.clone();
    state.obligations.push(Obligation {
        verify: review,
        node: id.clone(),
        index: usize::MAX,
        rule: REVIEW_RULE.to_owned(),
        target: None,
        mode: Mode::Block,
        status: Status::Failed,
        evidence: why.into(),
    });
    let updated = Event::ObligationUpdated(ObligationUpdated {
        rule: REVIEW_RULE.to_owned(),
        target: None,
        mode: Mode::Block,
        status: Status::Failed,
        verdict: None,
        checked_by: None,
        evidence: why.into(),
    });
    kernel.event(Some(&id), updated);
}

/// What reviews downstream of verify node `verify` withheld on the output it verified before:
/// a new verification replaces it.
pub(super) fn forget_withheld(graph: &Graph, state: &mut State, verify: usize) {
    let reaches = graph.reachable_from(verify);
    state
        .obligations
        .retain(|o| !(o.rule == REVIEW_RULE && reaches[o.verify]));
}

/// The refusal that keeps `node` from running, if an open obligation does: `node` is
/// downstream of the verify that failed and is neither a gate (it routes on the failure), a
/// review (it decides on it), nor a way back to that verify (a new attempt).
pub(super) fn blocking(graph: &Graph, state: &State, node: usize) -> Option<Vec<Unmet>> {
    if matches!(graph.nodes[node].kind, Kind::Gate | Kind::Review) || open(state).next().is_none() {
        return None;
    }
    let leads_back = graph.reachable_from(node);
    let blocks = open(state)
        .any(|o| o.verify != node && !leads_back[o.verify] && graph.reachable_from(o.verify)[node]);
    blocks.then(|| {
        unmet(
            state,
            &format!(
                "`{}` would run on what it failed to verify (block: a gate must route the failure to a review, or back to a new attempt)",
                graph.nodes[node].id
            ),
        )
    })
}

/// A review decided `action` (with `note`): the open obligations of the verify nodes upstream
/// of it are discharged, with their claims (§9.3: the review is the discharge point).
pub(super) fn discharge(
    graph: &Graph,
    state: &mut State,
    kernel: &mut Kernel,
    review: usize,
    action: &str,
    note: &Value,
) {
    let upstream: BTreeSet<usize> = open(state)
        .map(|o| o.verify)
        .filter(|&verify| graph.reachable_from(verify)[review])
        .collect();
    for obligation in state
        .obligations
        .iter_mut()
        .filter(|o| o.is_open() && upstream.contains(&o.verify))
    {
        for claim in state.claims.iter_mut().filter(|c| {
            c["node"] == obligation.node.as_str()
                && c["rule"] == obligation.rule.as_str()
                && c["target"] == json!(obligation.target)
        }) {
            claim["status"] = Status::Discharged.name().into();
        }
        obligation.status = Status::Discharged;
        obligation.evidence = json!({
            "review": graph.nodes[review].id,
            "action": action,
            "note": note,
            "failure": obligation.evidence,
        });
        let updated = Event::ObligationUpdated(ObligationUpdated {
            rule: obligation.rule.clone(),
            target: obligation.target.clone(),
            mode: obligation.mode,
            status: obligation.status,
            verdict: None,
            checked_by: None,
            evidence: obligation.evidence.clone(),
        });
        kernel.event(Some(&obligation.node), updated);
    }
}
