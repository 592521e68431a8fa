//! When a step cannot produce an accepted output (spec §8): a degradation rule naming the
//! situation, then the escalation chain (unless `fallback.strategy: abort`), then
//! `retry_different`, else the step fails. Escalation fires the lowest unused level whose
//! trigger holds: a change of strategy, an abort, or a human review (`AskReview`).

use serde_json::{json, Value};

use super::degrade::{self, Recovery};
use super::{Progress, Settled, Shared, StepRun};
use crate::model::Escalation;
use crate::run::action::ActionKind;
use crate::run::kernel::{Kernel, Purpose};
use crate::run::logic::context::holds;
use crate::trace::{Event, Speaker};

/// What a review of a step can answer.
const REVIEW_ACTIONS: [&str; 3] = ["accept", "retry", "abort"];

impl StepRun {
    /// The step failed for `reason` (`error_kind`: the model error's class, if it was one).
    pub(super) fn recover(
        &mut self,
        shared: &mut Shared,
        kernel: &mut Kernel,
        error_kind: Option<&str>,
        reason: &str,
    ) -> Progress {
        if let Some(recovery) =
            degrade::degrade(&shared.spec.fallback, error_kind, self.verified.as_ref())
        {
            if let Some(progress) = self.degrade(shared, kernel, recovery, reason) {
                return progress;
            }
        }
        let strategy = shared.spec.fallback.strategy.clone();
        if strategy.as_deref() != Some("abort") {
            if let Some(progress) = self.fire_escalation(shared, kernel, reason) {
                return progress;
            }
        }
        if strategy.as_deref() == Some("retry_different") && !self.changed_strategy {
            self.changed_strategy = true;
            let different = different_strategy(shared);
            self.gate(
                kernel,
                "fallback",
                "retry_different",
                true,
                json!({"new_strategy": different}),
            );
            self.system = shared.scaffold_with_strategy(self.index, &different);
            self.new_series(shared, kernel);
            return None;
        }
        Some(Settled::Failed(format!("step `{}`: {reason}", self.name)))
    }

    /// Applies a degradation rule; `None` when it does not apply after all (the tools were
    /// already dropped once).
    fn degrade(
        &mut self,
        shared: &mut Shared,
        kernel: &mut Kernel,
        recovery: Recovery,
        reason: &str,
    ) -> Option<Progress> {
        Some(match recovery {
            Recovery::Output(output, rule) => {
                self.publish_degraded(shared, kernel, output, &rule, reason)
            }
            Recovery::Skip(rule, None) => {
                Some(Settled::Skipped(format!("{reason} (degraded by `{rule}`)")))
            }
            Recovery::Skip(rule, Some(why)) => Some(Settled::Skipped(format!(
                "{reason} (degraded by `{rule}`: {why})"
            ))),
            Recovery::Abort(rule) => Some(Settled::Failed(format!(
                "step `{}`: {reason} (`{rule}` aborts)",
                self.name
            ))),
            Recovery::Review(rule) => self.ask_review(kernel, &format!("{reason} (`{rule}`)")),
            Recovery::WithoutTools(rule) => {
                // Once: a second failure without tools is not recovered the same way.
                if !shared.tools_disabled.insert(self.index) {
                    return None;
                }
                let detail = json!({"fallback_to": "reasoning_only"});
                self.gate(kernel, "degradation", &rule, true, detail);
                self.new_series(shared, kernel);
                None
            }
        })
    }

    /// A degraded output leaves the step only if it passes the step's checks, as any output
    /// does; otherwise the step gives nothing.
    fn publish_degraded(
        &mut self,
        shared: &mut Shared,
        kernel: &mut Kernel,
        output: Value,
        rule: &str,
        reason: &str,
    ) -> Progress {
        let validated = Event::OutputValidated {
            attempt: self.calls,
            output: output.clone(),
            contract_warnings: None,
            speaker: Speaker::default(),
        };
        kernel.event(Some(&self.node), validated);
        let failed = match self.all_checks_fail(shared, kernel, &output) {
            Some(failed) => Some(failed.reason),
            None => self.reader.check(output.clone()).err().map(|rejected| {
                format!(
                    "it breaks the output contract: {}",
                    rejected.problems.join("; ")
                )
            }),
        };
        if let Some(failed) = failed {
            let detail = json!({"fallback_to": "partial_output", "failed": failed});
            self.gate(kernel, "degradation", rule, false, detail);
            return Some(Settled::Skipped(format!(
                "{reason} (degraded by `{rule}`, but the partial output fails its checks: {failed})"
            )));
        }
        self.gate(kernel, "degradation", rule, true, Value::Null);
        Some(Settled::Finished(output))
    }

    /// `on_fail: escalate` or a confidence below `escalate_below`: the chain's next level; when
    /// none applies yet, another attempt while the policy allows one, else the fallback.
    pub(super) fn escalate(
        &mut self,
        shared: &mut Shared,
        kernel: &mut Kernel,
        reason: &str,
    ) -> Progress {
        if let Some(progress) = self.fire_escalation(shared, kernel, reason) {
            return progress;
        }
        let waiting = format!("{reason}; no escalation level applies yet");
        if self.retry_after_backoff(kernel, &waiting, 0) {
            return None;
        }
        self.recover(shared, kernel, None, reason)
    }

    /// Fires the lowest unused escalation level whose trigger holds; `None` when none does.
    fn fire_escalation(
        &mut self,
        shared: &mut Shared,
        kernel: &mut Kernel,
        reason: &str,
    ) -> Option<Progress> {
        let chain: Vec<Escalation> = shared.spec.fallback.chain().into_iter().cloned().collect();
        let context = shared.context_with_reason(self.output.as_ref(), self.attempts, Some(reason));
        let (i, level) = chain.into_iter().enumerate().find(|(i, level)| {
            !self.fired_levels.contains(i) && holds(&level.trigger, context).unwrap_or(false)
        })?;
        self.fired_levels.push(i);
        let detail = json!({"level": level.level, "action": level.action});
        self.gate(kernel, "escalation", &level.trigger, true, detail);
        let message = level.message.clone().unwrap_or_else(|| reason.to_owned());
        Some(match level.action.as_str() {
            "retry_with_different_strategy" => {
                let strategy = level
                    .new_strategy
                    .clone()
                    .unwrap_or_else(|| different_strategy(shared));
                self.system = shared.scaffold_with_strategy(self.index, &strategy);
                self.new_series(shared, kernel);
                None
            }
            "abort" => Some(Settled::Failed(format!("step `{}`: {message}", self.name))),
            // `request_human_review`, and any action the engine cannot carry out itself.
            _ => self.ask_review(kernel, &message),
        })
    }

    pub(super) fn ask_review(&mut self, kernel: &mut Kernel, message: &str) -> Progress {
        let actions: Vec<String> = REVIEW_ACTIONS.iter().map(|s| s.to_string()).collect();
        let input = json!({"step": self.name, "output": self.output, "reason": message});
        let requested = Event::ReviewRequested {
            message: Some(message.to_owned()),
            actions: actions.clone(),
            input: input.clone(),
        };
        kernel.event(Some(&self.node), requested);
        kernel.issue(
            ActionKind::AskReview {
                node: self.node.clone(),
                input,
                message: Some(message.to_owned()),
                actions,
            },
            self.waiter(Purpose::Review),
        );
        None
    }

    /// `accept` finishes with the output as it is (skips the step when it has none), `retry`
    /// starts a new series of attempts, anything else fails the step.
    pub(super) fn on_review(
        &mut self,
        shared: &mut Shared,
        kernel: &mut Kernel,
        action: &str,
    ) -> Progress {
        match action {
            "accept" | "approve" | "override" => match &self.output {
                Some(_) => self.finish(),
                None => Some(Settled::Skipped("accepted without an output".into())),
            },
            "retry" => {
                self.new_series(shared, kernel);
                None
            }
            "skip" => Some(Settled::Skipped("skipped by review".into())),
            other => Some(Settled::Failed(format!(
                "step `{}`: the review chose `{other}`",
                self.name
            ))),
        }
    }
}

/// The strategy `retry_different` (or a level without `new_strategy`) switches to: the first
/// `new_strategy` of the chain that differs from the document's, else `tot` (`cot` when the
/// document already uses `tot`).
fn different_strategy(shared: &Shared) -> String {
    let current = shared.spec.reasoning.strategy.as_deref();
    shared
        .spec
        .fallback
        .chain()
        .iter()
        .filter_map(|level| level.new_strategy.as_deref())
        .find(|s| Some(*s) != current)
        .unwrap_or(if current == Some("tot") { "cot" } else { "tot" })
        .to_owned()
}
