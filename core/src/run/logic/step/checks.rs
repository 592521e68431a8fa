//! What an accepted answer must pass (spec §4.1, §4.1.1, §6.1): the confidence thresholds, the
//! step's `verification`, and for the steps that produce the document's output its pre- and
//! post-output gates; and what a failed check does (`on_fail`).

use serde_json::{json, Value};

use super::{Progress, Settled, Shared, StepRun};
use crate::model::{Gate, OnFail, Severity};
use crate::run::kernel::Kernel;
use crate::run::logic::context::{confidence_of, holds};
use crate::trace::{Event, Gate as TraceGate};

impl StepRun {
    /// Confidence, verification and (for the steps that produce the output) pre-output gates,
    /// then self-verification.
    pub(super) fn check_output(
        &mut self,
        shared: &mut Shared,
        kernel: &mut Kernel,
        text: &str,
    ) -> Progress {
        if let Some(progress) = self.check_confidence(shared, kernel, text) {
            return progress;
        }
        if let Some(progress) = self.check_verification(shared, kernel, text) {
            return progress;
        }
        if self.is_final {
            let gates = shared.spec.quality_gates.pre_output.clone();
            if let Some(progress) = self.run_gates(shared, kernel, &gates, "pre_output", text) {
                return progress;
            }
        }
        self.self_verify(shared, kernel)
    }

    /// Below `escalate_below` the step escalates; below `minimum` the attempt failed, and is
    /// retried by the policy like a failed check with `on_fail: retry`.
    fn check_confidence(
        &mut self,
        shared: &mut Shared,
        kernel: &mut Kernel,
        text: &str,
    ) -> Option<Progress> {
        let value = confidence_of(self.output.as_ref()?)?;
        let thresholds = shared.spec.steps[self.index].confidence.clone();
        if let Some(floor) = thresholds.escalate_below.filter(|f| value < *f) {
            let detail = json!({"confidence": value, "threshold": floor});
            self.gate(kernel, "confidence", "escalate_below", false, detail);
            let reason = format!("confidence {value} is below escalate_below {floor}");
            return Some(self.escalate(shared, kernel, &reason));
        }
        let minimum = thresholds.minimum.filter(|m| value < *m)?;
        let detail = json!({"confidence": value, "threshold": minimum});
        self.gate(kernel, "confidence", "minimum", false, detail);
        let reason = format!("confidence {value} is below the minimum {minimum}");
        Some(self.on_check_failed(shared, kernel, Some(OnFail::Retry), &reason, text))
    }

    fn check_verification(
        &mut self,
        shared: &mut Shared,
        kernel: &mut Kernel,
        text: &str,
    ) -> Option<Progress> {
        let verification = shared.spec.steps[self.index].verification.clone()?;
        let context = shared.context(self.output.as_ref(), self.attempts);
        let passed = holds(&verification.check, context);
        let ok = passed.as_ref().is_ok_and(|p| *p);
        let detail = match &passed {
            Err(error) => json!({"error": error}),
            Ok(_) => Value::Null,
        };
        self.gate(kernel, "verification", &verification.check, ok, detail);
        if ok {
            return None;
        }
        let reason = verification
            .on_fail_message
            .clone()
            .unwrap_or_else(|| format!("the check `{}` failed", verification.check));
        Some(self.on_check_failed(shared, kernel, Some(verification.on_fail), &reason, text))
    }

    /// Evaluates `gates` on the output: the first failing gate of severity `error` applies its
    /// `on_fail` (default `retry`); warnings and infos are recorded only. `None` when all pass.
    pub(super) fn run_gates(
        &mut self,
        shared: &mut Shared,
        kernel: &mut Kernel,
        gates: &[Gate],
        kind: &str,
        text: &str,
    ) -> Option<Progress> {
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
                let reason = gate
                    .message
                    .clone()
                    .unwrap_or_else(|| format!("the gate `{}` failed", gate.name));
                let on_fail = gate.on_fail.unwrap_or(OnFail::Retry);
                return Some(self.on_check_failed(shared, kernel, Some(on_fail), &reason, text));
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
