//! What an output must pass (spec §4.1, §4.1.1, §6.1): the confidence thresholds, the step's
//! `verification`, and for the steps that produce the document's output its pre- and
//! post-output gates of severity `error`; and what a failed check does (`on_fail`). Each check
//! is evaluated (and traced) apart from what its failure does, so an output the step did not
//! answer itself (a degraded one) is held to the same checks.

use serde_json::json;

use super::{Progress, Settled, Shared, StepRun};
use crate::model::{Gate, OnFail, Severity};
use crate::run::kernel::Kernel;
use crate::run::logic::context::{confidence_of, holds};
use crate::trace::{Event, Gate as TraceGate};

/// A check that failed: why, and what the document says to do about it.
pub(super) struct Failed {
    pub reason: String,
    pub on_fail: Failure,
}

/// What a failed check asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Failure {
    /// The check's `on_fail` (absent: the fallback decides).
    OnFail(Option<OnFail>),
    /// A confidence below `escalate_below`: the escalation chain.
    Escalate,
}

impl StepRun {
    /// Confidence, verification and (for the steps that produce the output) pre-output gates,
    /// then self-verification.
    pub(super) fn check_output(
        &mut self,
        shared: &mut Shared,
        kernel: &mut Kernel,
        text: &str,
    ) -> Progress {
        let output = self.output.clone().unwrap_or_default();
        let failed = self
            .confidence_fails(shared, kernel, &output)
            .or_else(|| self.verification_fails(shared, kernel, &output));
        if let Some(failed) = failed {
            return self.act_on(shared, kernel, failed, text);
        }
        // What a degradation may publish in part: an output that passed the checks on itself.
        self.verified = Some(output);
        if let Some(failed) = self.gates_fail(shared, kernel, "pre_output") {
            return self.act_on(shared, kernel, failed, text);
        }
        self.self_verify(shared, kernel)
    }

    /// Every check an output that leaves the step must pass, evaluated on `output` (a degraded
    /// output): the first failure, if one.
    pub(super) fn all_checks_fail(
        &mut self,
        shared: &mut Shared,
        kernel: &mut Kernel,
        output: &serde_json::Value,
    ) -> Option<Failed> {
        let saved = self.output.replace(output.clone());
        let failed = self
            .confidence_fails(shared, kernel, output)
            .or_else(|| self.verification_fails(shared, kernel, output))
            .or_else(|| self.gates_fail(shared, kernel, "pre_output"))
            .or_else(|| self.gates_fail(shared, kernel, "post_output"));
        self.output = saved;
        failed
    }

    /// Does what a failed check asks.
    pub(super) fn act_on(
        &mut self,
        shared: &mut Shared,
        kernel: &mut Kernel,
        failed: Failed,
        text: &str,
    ) -> Progress {
        match failed.on_fail {
            Failure::Escalate => self.escalate(shared, kernel, &failed.reason),
            Failure::OnFail(on_fail) => {
                self.on_check_failed(shared, kernel, on_fail, &failed.reason, text)
            }
        }
    }

    /// Below `escalate_below` the step escalates; below `minimum` the output failed, and is
    /// retried by the policy like a failed check with `on_fail: retry`.
    fn confidence_fails(
        &mut self,
        shared: &mut Shared,
        kernel: &mut Kernel,
        output: &serde_json::Value,
    ) -> Option<Failed> {
        let value = confidence_of(output)?;
        let thresholds = shared.spec.steps[self.index].confidence.clone();
        if let Some(floor) = thresholds.escalate_below.filter(|f| value < *f) {
            let detail = json!({"confidence": value, "threshold": floor});
            self.gate(kernel, "confidence", "escalate_below", false, detail);
            return Some(Failed {
                reason: format!("confidence {value} is below escalate_below {floor}"),
                on_fail: Failure::Escalate,
            });
        }
        let minimum = thresholds.minimum.filter(|m| value < *m)?;
        let detail = json!({"confidence": value, "threshold": minimum});
        self.gate(kernel, "confidence", "minimum", false, detail);
        Some(Failed {
            reason: format!("confidence {value} is below the minimum {minimum}"),
            on_fail: Failure::OnFail(Some(OnFail::Retry)),
        })
    }

    fn verification_fails(
        &mut self,
        shared: &mut Shared,
        kernel: &mut Kernel,
        output: &serde_json::Value,
    ) -> Option<Failed> {
        let verification = shared.spec.steps[self.index].verification.clone()?;
        let context = shared.context(Some(output), self.attempts);
        let passed = holds(&verification.check, context);
        let ok = passed.as_ref().is_ok_and(|p| *p);
        let detail = match &passed {
            Err(error) => json!({"error": error}),
            Ok(_) => serde_json::Value::Null,
        };
        self.gate(kernel, "verification", &verification.check, ok, detail);
        (!ok).then(|| Failed {
            reason: verification
                .on_fail_message
                .clone()
                .unwrap_or_else(|| format!("the check `{}` failed", verification.check)),
            on_fail: Failure::OnFail(Some(verification.on_fail)),
        })
    }

    /// Evaluates the document's `kind` gates (`pre_output` or `post_output`) on the output, for
    /// a step that produces the document's output: the first failing gate of severity `error`,
    /// with its `on_fail` (default `retry`); warnings and infos are recorded only.
    pub(super) fn gates_fail(
        &mut self,
        shared: &mut Shared,
        kernel: &mut Kernel,
        kind: &str,
    ) -> Option<Failed> {
        if !self.is_final {
            return None;
        }
        let gates: Vec<Gate> = match kind {
            "pre_output" => shared.spec.quality_gates.pre_output.clone(),
            _ => shared.spec.quality_gates.post_output.clone(),
        };
        let context = shared.context(self.output.as_ref(), self.attempts);
        for gate in gates {
            let evaluated = holds(&gate.check, context);
            let passed = evaluated.as_ref().is_ok_and(|p| *p);
            let evaluated_gate = TraceGate {
                kind: Some(kind.to_owned()),
                check: Some(gate.check.clone()),
                severity: Some(gate.severity),
                error: evaluated.as_ref().err().cloned(),
                ..TraceGate::named(gate.name.clone(), passed)
            };
            kernel.event(Some(&self.node), Event::GateEvaluated(evaluated_gate));
            if !passed && gate.severity == Severity::Error {
                return Some(Failed {
                    reason: gate
                        .message
                        .clone()
                        .unwrap_or_else(|| format!("the gate `{}` failed", gate.name)),
                    on_fail: Failure::OnFail(Some(gate.on_fail.unwrap_or(OnFail::Retry))),
                });
            }
        }
        None
    }

    /// A check failed with `reason`: `on_fail` decides (§4.1.1). `retry` and `revise` try
    /// again while the policy allows; without an `on_fail`, or once they are used up, the
    /// fallback decides.
    pub(super) fn on_check_failed(
        &mut self,
        shared: &mut Shared,
        kernel: &mut Kernel,
        on_fail: Option<OnFail>,
        reason: &str,
        text: &str,
    ) -> Progress {
        match on_fail {
            Some(OnFail::Retry) if self.retry_after_backoff(kernel, reason, 0) => None,
            Some(OnFail::Revise) => {
                let feedback =
                    format!("Your output did not pass its check: {reason}\nRevise your output.");
                if self.ask_again(shared, kernel, text, feedback, "revise") {
                    return None;
                }
                self.recover(shared, kernel, None, reason)
            }
            Some(OnFail::Escalate) => self.escalate(shared, kernel, reason),
            Some(OnFail::Skip) => Some(Settled::Skipped(reason.to_owned())),
            Some(OnFail::Abort) => Some(Settled::Failed(format!(
                "step `{}` aborted the run: {reason}",
                self.name
            ))),
            Some(OnFail::Retry) | None => self.recover(shared, kernel, None, reason),
        }
    }
}
