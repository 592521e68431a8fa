//! How a document's run ends: when every unit has settled, with what its final steps produced;
//! or early, when an invariant (spec §6.1) breaks with `on_breach: force_output` or
//! `summarize_and_conclude` (the run gives what it has) or `abort` (the run fails). Other
//! breaches are recorded and the run goes on.

use serde_json::{Map, Value};

use super::context::holds;
use super::contracts::{lenient_about_outputs, output_schema};
use super::{Outcome, StepsProgram, UnitState};
use crate::run::kernel::Kernel;
use crate::run::output::problems;
use crate::trace::{Event, Gate};

/// What an invariant's breach does.
enum Breach {
    Record,
    Conclude,
    Abort,
}

fn breach(on_breach: Option<&str>) -> Breach {
    match on_breach {
        Some("force_output" | "summarize_and_conclude" | "conclude") => Breach::Conclude,
        Some("abort") => Breach::Abort,
        _ => Breach::Record,
    }
}

impl StepsProgram {
    /// Checks the invariants after step `after` finished: a breach is recorded and may end the
    /// run. An invariant that cannot be evaluated holds.
    pub(super) fn check_invariants(&mut self, kernel: &mut Kernel, after: &str) {
        let invariants = self.shared.spec.quality_gates.invariants.clone();
        if invariants.is_empty() {
            return;
        }
        let output = self.shared.output(after).cloned();
        let context = self.shared.context(output.as_ref(), 0);
        let held: Vec<bool> = invariants
            .iter()
            .map(|i| holds(&i.check, context).unwrap_or(true))
            .collect();
        let node = self.shared.node_id(after);
        let (mut abort, mut conclude) = (None, false);
        for (invariant, held) in invariants.iter().zip(held) {
            if held {
                continue;
            }
            let gate = Gate {
                kind: Some("invariant".to_owned()),
                check: Some(invariant.check.clone()),
                on_breach: invariant.on_breach.clone(),
                ..Gate::named(invariant.name.clone(), false)
            };
            kernel.event(Some(&node), Event::GateEvaluated(gate));
            match breach(invariant.on_breach.as_deref()) {
                Breach::Abort if abort.is_none() => abort = Some(invariant),
                Breach::Conclude => conclude = true,
                _ => {}
            }
        }
        if let Some(invariant) = abort {
            let why = invariant.message.as_deref().unwrap_or(&invariant.check);
            self.fail(format!("invariant `{}` broke: {why}", invariant.name));
            self.stop_all(kernel, "an invariant aborted the run");
        } else if conclude {
            self.force_output(kernel);
        }
    }

    /// Every unit not settled is skipped (`reason`), and what runs is cancelled.
    fn stop_all(&mut self, kernel: &mut Kernel, reason: &str) {
        for unit in 0..self.states.len() {
            if self.states[unit].is_active() {
                kernel.cancel_unit(self.unit_base + unit);
            }
            if !self.states[unit].settled() {
                let node = self.shared.node_id(self.graph.name(unit));
                kernel.event(Some(&node), Event::skipped(reason));
                self.set_state(unit, UnitState::Skipped(reason.to_owned()));
            }
        }
    }

    /// Ends the document's run at once with what it has: the final steps' outputs, else the
    /// output of the step that finished last.
    fn force_output(&mut self, kernel: &mut Kernel) {
        self.stop_all(kernel, "an invariant forced the output");
        if self.outcome.is_none() {
            let output = self.document_output().or_else(|| {
                self.last_finished
                    .as_ref()
                    .and_then(|name| self.shared.output(name))
                    .cloned()
            });
            self.outcome = Some(match output {
                Some(output) => self.complete(kernel, output),
                None => Outcome::Failed(
                    "the run produced no output: an invariant forced it before any step finished"
                        .to_owned(),
                ),
            });
        }
    }

    /// Once every unit has settled, the run completes with the document's output — or, when
    /// none of its final steps produced one, fails saying why each did not.
    pub(super) fn finish_if_done(&mut self, kernel: &mut Kernel) {
        if self.outcome.is_some() || self.settled < self.states.len() {
            return;
        }
        self.outcome = Some(match self.document_output() {
            Some(output) => self.complete(kernel, output),
            None => Outcome::Failed(format!(
                "the run produced no output: {}",
                self.why_no_output().join("; ")
            )),
        });
    }

    /// The document gives `output` back, if it meets the output contract: an output no answer
    /// was read as (a pin, an output an invariant forced) is held to it here. A strict contract
    /// fails the run on a breach; a lenient one was reported where the outputs were read.
    fn complete(&mut self, kernel: &mut Kernel, output: Value) -> Outcome {
        let Some(contract) = output_schema(&self.shared.spec.contracts) else {
            return Outcome::Completed(output);
        };
        if lenient_about_outputs(&self.shared.spec.contracts) {
            return Outcome::Completed(output);
        }
        let several = self.shared.finals.len() > 1;
        let problems: Vec<String> = match (&output, several) {
            (Value::Object(by_step), true) => by_step
                .iter()
                .flat_map(|(name, value)| {
                    problems(&contract, value)
                        .into_iter()
                        .map(move |p| format!("`{name}`: {p}"))
                })
                .collect(),
            _ => problems(&contract, &output),
        };
        if problems.is_empty() {
            return Outcome::Completed(output);
        }
        let gate = Gate {
            errors: Some(problems.clone()),
            ..Gate::named("output_contract", false)
        };
        let node = self.shared.document_node();
        kernel.event(node.as_deref(), Event::GateEvaluated(gate));
        Outcome::Failed(format!(
            "the output breaks the output contract: {}",
            problems.join("; ")
        ))
    }

    /// Why each final step gave nothing.
    fn why_no_output(&self) -> Vec<String> {
        self.shared
            .finals
            .iter()
            .map(|name| {
                let state = self.graph.step_unit(name).map(|u| &self.states[u]);
                match state {
                    Some(UnitState::Skipped(reason)) => format!("`{name}` was skipped ({reason})"),
                    _ => format!("`{name}` gave no output"),
                }
            })
            .collect()
    }

    /// What the document gives back: its one final step's output, or with several final steps
    /// an object of the outputs of those that produced one, by name. `None` when no final step
    /// produced output.
    fn document_output(&self) -> Option<Value> {
        let finals: Map<String, Value> = self
            .shared
            .finals
            .iter()
            .filter_map(|f| Some((f.clone(), self.shared.output(f)?.clone())))
            .collect();
        match (self.shared.finals.len(), finals.is_empty()) {
            (_, true) => None,
            (1, false) => finals.into_iter().next().map(|(_, output)| output),
            _ => Some(Value::Object(finals)),
        }
    }
}
