//! One step's run (spec §4.1, §6, §8): the model call with its inputs, the answer parsed and
//! checked against the step's schema, confidence thresholds, `verification` with its `on_fail`,
//! the retry policy with backoff, and for the steps that produce the document's output its
//! quality gates and self-verification; failures go to the fallback (degradation rules, the
//! escalation chain).

use serde_json::{json, Value};

use super::context::{confidence_of, holds, pretty};
use super::fallback::{self, Recovery};
use super::Shared;
use crate::model::{Gate, OnFail, Severity};
use crate::run::action::{ActionKind, Message, ModelFailure, ModelRequest, Observation};
use crate::run::kernel::{Kernel, Purpose, Waiter};
use crate::run::output;
use crate::run::retry::RetryPolicy;

/// Where a step's run is.
#[derive(Debug, Clone, PartialEq)]
enum Phase {
    /// Waiting for the main answer.
    Calling,
    /// Waiting out a backoff before the next attempt.
    Backoff,
    /// Waiting for a self-verification answer.
    SelfCheck,
    /// Waiting for a human decision (an escalation).
    Review,
}

/// How a step ended.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Settled {
    Finished(Value),
    Skipped(String),
    /// The step failed and nothing recovered it: the run fails.
    Failed(String),
}

pub(crate) struct StepRun {
    pub index: usize,
    pub name: String,
    pub node: String,
    unit: usize,
    policy: RetryPolicy,
    /// Model calls made for the current output, the first included.
    attempt: u32,
    /// Calls across the whole step (retries, revisions, strategy changes), for the trace.
    calls: u32,
    messages: Vec<Message>,
    system: String,
    schema: Option<Value>,
    started_at: u64,
    phase: Phase,
    output: Option<Value>,
    /// Self-verification passes left.
    revisions_left: u64,
    pub fired_levels: Vec<usize>,
    is_final: bool,
    timeout_ms: Option<u64>,
}

/// What happened to a step after an event: still going, or settled.
pub(crate) type Progress = Option<Settled>;

impl StepRun {
    pub fn begin(shared: &mut Shared, kernel: &mut Kernel, index: usize, unit: usize) -> StepRun {
        let step = &shared.spec.steps[index];
        let compiled = shared.compiled.get(&step.name);
        let needs: Vec<(String, Option<&Value>)> = step
            .needs
            .iter()
            .map(|need| (need.clone(), shared.outputs.get(need)))
            .collect();
        let task = super::context::task_message(&shared.input, &needs);
        let inputs = json!({
            "input": shared.input,
            "steps": needs.iter().map(|(n, o)| (n.clone(), o.cloned().unwrap_or(Value::Null))).collect::<serde_json::Map<_, _>>(),
        });
        let node = shared.node_id(&step.name);
        kernel.event("node_started", Some(&node), vec![("inputs", inputs)]);
        let mut run = StepRun {
            index,
            name: step.name.clone(),
            node,
            unit,
            policy: RetryPolicy::of(step.retry.as_ref()),
            attempt: 0,
            calls: 0,
            messages: vec![task],
            system: compiled.map(|c| c.scaffold.clone()).unwrap_or_default(),
            schema: compiled.and_then(|c| c.output_schema.clone()),
            started_at: kernel.now,
            phase: Phase::Calling,
            output: None,
            revisions_left: shared
                .spec
                .quality_gates
                .self_verification
                .as_ref()
                .and_then(|s| s.max_revisions)
                .unwrap_or(1),
            fired_levels: Vec::new(),
            is_final: shared.finals.contains(&step.name),
            timeout_ms: step
                .timeout
                .as_deref()
                .and_then(|t| crate::duration::parse_duration(t).ok())
                .map(|d| d.as_millis().min(u64::MAX as u128) as u64),
        };
        run.call(shared, kernel);
        run
    }

    fn waiter(&self, purpose: Purpose) -> Waiter {
        Waiter {
            unit: self.unit,
            purpose,
        }
    }

    fn request(
        &self,
        shared: &Shared,
        messages: Vec<Message>,
        schema: Option<Value>,
    ) -> ModelRequest {
        ModelRequest {
            system: self.system.clone(),
            messages,
            json: schema.is_some(),
            response_schema: schema,
            temperature: shared.spec.reasoning.temperature,
            max_tokens: None,
            allowed_tools: if shared.tools_disabled.contains(&self.index) {
                Vec::new()
            } else {
                shared.spec.steps[self.index].allowed_tools.clone()
            },
            model: None,
        }
    }

    /// Issues the next attempt at the main answer.
    fn call(&mut self, shared: &Shared, kernel: &mut Kernel) {
        self.attempt += 1;
        self.calls += 1;
        self.phase = Phase::Calling;
        let request = self.request(shared, self.messages.clone(), self.schema.clone());
        let kind = ActionKind::CallModel {
            node: self.node.clone(),
            attempt: self.calls,
            request: request.clone(),
            timeout_ms: self.timeout_ms,
        };
        let id = kernel.issue(kind, self.waiter(Purpose::Model(0)));
        kernel.event(
            "model_requested",
            Some(&self.node),
            vec![
                ("action", id.into()),
                ("attempt", self.calls.into()),
                (
                    "request",
                    serde_json::to_value(&request).unwrap_or_default(),
                ),
            ],
        );
    }

    /// A fresh attempt on the same inputs (verification `retry`): after the backoff, when the
    /// policy allows one more; `None` when it does not.
    fn retry_after_backoff(&mut self, kernel: &mut Kernel, reason: &str, at_least_ms: u64) -> bool {
        if self.attempt >= self.policy.max_attempts {
            return false;
        }
        let wait = self.policy.backoff_ms(self.attempt + 1).max(at_least_ms);
        kernel.event(
            "retried",
            Some(&self.node),
            vec![
                ("attempt", (self.calls + 1).into()),
                ("wait_ms", wait.into()),
                ("reason", reason.into()),
            ],
        );
        self.messages.truncate(1);
        self.phase = Phase::Backoff;
        kernel.issue(
            ActionKind::Wait {
                node: self.node.clone(),
                ms: wait,
            },
            self.waiter(Purpose::Backoff),
        );
        true
    }

    /// Asks again at once with `feedback` after the rejected answer `answer` (invalid output,
    /// `revise`); `false` when the policy allows no more attempts.
    fn ask_again(
        &mut self,
        shared: &Shared,
        kernel: &mut Kernel,
        answer: &str,
        feedback: String,
        reason: &str,
    ) -> bool {
        if self.attempt >= self.policy.max_attempts {
            return false;
        }
        kernel.event(
            "retried",
            Some(&self.node),
            vec![
                ("attempt", (self.calls + 1).into()),
                ("wait_ms", 0.into()),
                ("reason", reason.into()),
                ("feedback", feedback.clone().into()),
            ],
        );
        self.messages.push(Message::assistant(answer));
        self.messages.push(Message::user(feedback));
        self.call(shared, kernel);
        true
    }

    pub fn observe(
        &mut self,
        shared: &mut Shared,
        kernel: &mut Kernel,
        purpose: Purpose,
        observation: Observation,
    ) -> Progress {
        match (purpose, observation) {
            (Purpose::Backoff, Observation::Waited) => {
                self.call(shared, kernel);
                None
            }
            (
                Purpose::Model(_),
                Observation::ModelResponse {
                    text,
                    usage,
                    latency_ms,
                },
            ) => {
                if let Some(usage) = usage {
                    shared.tokens_used += usage.input_tokens + usage.output_tokens;
                }
                kernel.event(
                    "model_responded",
                    Some(&self.node),
                    vec![
                        ("attempt", self.calls.into()),
                        ("text", text.clone().into()),
                        ("usage", serde_json::to_value(usage).unwrap_or_default()),
                        (
                            "latency_ms",
                            serde_json::to_value(latency_ms).unwrap_or_default(),
                        ),
                    ],
                );
                self.on_answer(shared, kernel, &text)
            }
            (Purpose::Model(_), Observation::ModelError(failure)) => {
                self.on_model_error(shared, kernel, failure)
            }
            (Purpose::SelfCheck, Observation::ModelResponse { text, usage, .. }) => {
                if let Some(usage) = usage {
                    shared.tokens_used += usage.input_tokens + usage.output_tokens;
                }
                self.on_self_check(shared, kernel, &text)
            }
            (Purpose::SelfCheck, Observation::ModelError(failure)) => {
                // A failed self-check leaves the output as it was checked so far.
                kernel.event(
                    "gate_evaluated",
                    Some(&self.node),
                    vec![
                        ("gate", "self_verification".into()),
                        ("passed", Value::Null),
                        ("error", failure.message.into()),
                    ],
                );
                self.after_self_verification(shared, kernel)
            }
            (Purpose::Review, Observation::ReviewAnswer { action, note }) => {
                kernel.event(
                    "review_answered",
                    Some(&self.node),
                    vec![("action", action.clone().into()), ("note", note.into())],
                );
                self.on_review(shared, kernel, &action)
            }
            (_, other) => Some(Settled::Failed(format!(
                "step `{}`: unexpected observation {other:?}",
                self.name
            ))),
        }
    }

    fn on_model_error(
        &mut self,
        shared: &mut Shared,
        kernel: &mut Kernel,
        failure: ModelFailure,
    ) -> Progress {
        kernel.event(
            "model_responded",
            Some(&self.node),
            vec![
                ("attempt", self.calls.into()),
                ("error", serde_json::to_value(&failure).unwrap_or_default()),
            ],
        );
        let retryable = self.policy.is_retryable(&failure.kind, failure.retryable);
        let reason = format!("{}: {}", failure.kind, failure.message);
        if retryable
            && self.retry_after_backoff(kernel, &reason, failure.retry_after_ms.unwrap_or(0))
        {
            return None;
        }
        self.recover(shared, kernel, Some(&failure.kind), &reason)
    }

    fn on_answer(&mut self, shared: &mut Shared, kernel: &mut Kernel, text: &str) -> Progress {
        let output = match output::read(text, self.schema.as_ref()) {
            Ok(output) => output,
            Err(problems) => {
                kernel.event(
                    "output_invalid",
                    Some(&self.node),
                    vec![("attempt", self.calls.into()), ("errors", json!(problems))],
                );
                let feedback = output::feedback(&problems);
                if self.ask_again(shared, kernel, text, feedback, "invalid output") {
                    return None;
                }
                let reason = format!("invalid output: {}", problems.join("; "));
                return self.on_check_failed(shared, kernel, None, &reason, text);
            }
        };
        kernel.event(
            "output_validated",
            Some(&self.node),
            vec![("attempt", self.calls.into()), ("output", output.clone())],
        );
        self.output = Some(output.clone());
        self.check_output(shared, kernel, text)
    }

    /// Confidence, verification and (for the steps that produce the output) pre-output gates,
    /// then self-verification.
    fn check_output(&mut self, shared: &mut Shared, kernel: &mut Kernel, text: &str) -> Progress {
        let output = self.output.clone().unwrap_or_default();
        let step = &shared.spec.steps[self.index];
        let confidence = confidence_of(&output);
        if let Some(value) = confidence {
            if let Some(floor) = step.confidence.escalate_below.filter(|f| value < *f) {
                self.gate(
                    kernel,
                    "confidence",
                    "escalate_below",
                    false,
                    json!({"confidence": value, "threshold": floor}),
                );
                return self.escalate(
                    shared,
                    kernel,
                    &format!("confidence {value} is below escalate_below {floor}"),
                );
            }
            if let Some(minimum) = step.confidence.minimum.filter(|m| value < *m) {
                self.gate(
                    kernel,
                    "confidence",
                    "minimum",
                    false,
                    json!({"confidence": value, "threshold": minimum}),
                );
                let reason = format!("confidence {value} is below the minimum {minimum}");
                return self.on_check_failed(shared, kernel, None, &reason, text);
            }
        }
        if let Some(verification) = step.verification.clone() {
            let context = shared.context(Some(&output), self.attempt);
            let passed = holds(&verification.check, &context);
            let ok = passed.as_ref().is_ok_and(|p| *p);
            self.gate(
                kernel,
                "verification",
                &verification.check,
                ok,
                match &passed {
                    Err(error) => json!({"error": error}),
                    Ok(_) => Value::Null,
                },
            );
            if !ok {
                let reason = verification
                    .on_fail_message
                    .clone()
                    .unwrap_or_else(|| format!("the check `{}` failed", verification.check));
                return self.on_check_failed(
                    shared,
                    kernel,
                    Some(verification.on_fail),
                    &reason,
                    text,
                );
            }
        }
        if self.is_final {
            let gates = shared.spec.quality_gates.pre_output.clone();
            if let Some(progress) = self.run_gates(shared, kernel, &gates, "pre_output", text) {
                return progress;
            }
        }
        self.self_verify(shared, kernel)
    }

    /// Evaluates `gates` on the output: the first failing gate of severity `error` applies its
    /// `on_fail` (default `retry`); warnings and infos are recorded only. `None` when all pass.
    fn run_gates(
        &mut self,
        shared: &mut Shared,
        kernel: &mut Kernel,
        gates: &[Gate],
        kind: &str,
        text: &str,
    ) -> Option<Progress> {
        let output = self.output.clone().unwrap_or_default();
        let context = shared.context(Some(&output), self.attempt);
        for gate in gates {
            let passed = holds(&gate.check, &context).unwrap_or(false);
            kernel.event(
                "gate_evaluated",
                Some(&self.node),
                vec![
                    ("gate", gate.name.clone().into()),
                    ("kind", kind.into()),
                    ("check", gate.check.clone().into()),
                    (
                        "severity",
                        serde_json::to_value(gate.severity).unwrap_or_default(),
                    ),
                    ("passed", passed.into()),
                ],
            );
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

    fn gate(&self, kernel: &mut Kernel, gate: &str, check: &str, passed: bool, detail: Value) {
        let mut fields = vec![
            ("gate", gate.into()),
            ("check", check.into()),
            ("passed", passed.into()),
        ];
        if !detail.is_null() {
            fields.push(("detail", detail));
        }
        kernel.event("gate_evaluated", Some(&self.node), fields);
    }

    /// A check failed: `on_fail` decides (§4.1.1). Without one (invalid output, confidence below
    /// the minimum) the step has failed and the fallback decides.
    fn on_check_failed(
        &mut self,
        shared: &mut Shared,
        kernel: &mut Kernel,
        on_fail: Option<OnFail>,
        reason: &str,
        text: &str,
    ) -> Progress {
        match on_fail {
            Some(OnFail::Retry) => {
                if self.retry_after_backoff(kernel, reason, 0) {
                    return None;
                }
                self.recover(shared, kernel, None, reason)
            }
            Some(OnFail::Revise) => {
                let message = shared.spec.steps[self.index]
                    .verification
                    .as_ref()
                    .and_then(|v| v.on_fail_message.clone());
                let feedback = match message {
                    Some(message) if message != reason => format!("Your output did not pass its check: {reason}\n{message}\nRevise your output."),
                    _ => format!("Your output did not pass its check: {reason}\nRevise your output."),
                };
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
            None => self.recover(shared, kernel, None, reason),
        }
    }

    /// The step cannot produce an accepted output: degradation rules, then the document's
    /// fallback strategy (escalation chain, abort) decide.
    fn recover(
        &mut self,
        shared: &mut Shared,
        kernel: &mut Kernel,
        error_kind: Option<&str>,
        reason: &str,
    ) -> Progress {
        match fallback::degrade(&shared.spec.fallback, error_kind, self.output.as_ref()) {
            Some(Recovery::Output(output, rule)) => {
                self.gate(kernel, "degradation", &rule, true, Value::Null);
                Some(Settled::Finished(output))
            }
            Some(Recovery::Skip(rule)) => {
                Some(Settled::Skipped(format!("{reason} (degraded by `{rule}`)")))
            }
            Some(Recovery::Abort(rule)) => Some(Settled::Failed(format!(
                "step `{}`: {reason} (`{rule}` aborts)",
                self.name
            ))),
            Some(Recovery::Review(rule)) => {
                self.ask_review(kernel, &format!("{reason} (`{rule}`)"), self.output.clone())
            }
            Some(Recovery::WithoutTools(rule)) if !shared.tools_disabled.contains(&self.index) => {
                // Once: a second failure without tools is not recovered the same way.
                shared.tools_disabled.insert(self.index);
                self.gate(
                    kernel,
                    "degradation",
                    &rule,
                    true,
                    json!({"fallback_to": "reasoning_only"}),
                );
                self.attempt = 0;
                self.messages.truncate(1);
                self.call(shared, kernel);
                None
            }
            _ => match shared.spec.fallback.strategy.as_deref() {
                Some("escalate") if !shared.spec.fallback.escalation.is_empty() => {
                    self.escalate(shared, kernel, reason)
                }
                _ => Some(Settled::Failed(format!("step `{}`: {reason}", self.name))),
            },
        }
    }

    /// Walks the escalation chain (§8): the lowest level not yet used whose trigger holds.
    fn escalate(&mut self, shared: &mut Shared, kernel: &mut Kernel, reason: &str) -> Progress {
        let context = {
            let mut context = shared.context(self.output.as_ref(), self.attempt);
            context["reason"] = reason.into();
            context
        };
        let chain = shared.spec.fallback.chain();
        let level = chain.iter().enumerate().find(|(i, level)| {
            !self.fired_levels.contains(i) && holds(&level.trigger, &context).unwrap_or(false)
        });
        let Some((i, level)) = level else {
            return Some(Settled::Failed(format!(
                "step `{}`: {reason}; no escalation level applies",
                self.name
            )));
        };
        let level = (*level).clone();
        self.fired_levels.push(i);
        self.gate(
            kernel,
            "escalation",
            &level.trigger,
            true,
            json!({"level": level.level, "action": level.action}),
        );
        match level.action.as_str() {
            "retry_with_different_strategy" => {
                let strategy = level
                    .new_strategy
                    .clone()
                    .unwrap_or_else(|| "tot".to_owned());
                self.system = shared.scaffold_with_strategy(self.index, &strategy);
                self.attempt = 0;
                self.messages.truncate(1);
                self.call(shared, kernel);
                None
            }
            "abort" => Some(Settled::Failed(format!(
                "step `{}`: {}",
                self.name,
                level.message.clone().unwrap_or_else(|| reason.to_owned())
            ))),
            _ => self.ask_review(
                kernel,
                &level.message.clone().unwrap_or_else(|| reason.to_owned()),
                self.output.clone(),
            ),
        }
    }

    fn ask_review(
        &mut self,
        kernel: &mut Kernel,
        message: &str,
        output: Option<Value>,
    ) -> Progress {
        self.phase = Phase::Review;
        let actions: Vec<String> = ["accept", "retry", "abort"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let input = json!({"step": self.name, "output": output, "reason": message});
        kernel.event(
            "review_requested",
            Some(&self.node),
            vec![
                ("message", message.into()),
                ("actions", json!(actions)),
                ("input", input.clone()),
            ],
        );
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

    fn on_review(&mut self, shared: &mut Shared, kernel: &mut Kernel, action: &str) -> Progress {
        match action {
            "accept" | "approve" | "override" => match self.output.clone() {
                Some(output) => Some(Settled::Finished(output)),
                None => Some(Settled::Skipped("accepted without an output".into())),
            },
            "retry" => {
                self.attempt = 0;
                self.messages.truncate(1);
                self.call(shared, kernel);
                None
            }
            "skip" => Some(Settled::Skipped("skipped by review".into())),
            other => Some(Settled::Failed(format!(
                "step `{}`: the review chose `{other}`",
                self.name
            ))),
        }
    }

    /// Self-verification (§6.2) for the steps that produce the output: one more model call per
    /// pass, then post-output gates.
    fn self_verify(&mut self, shared: &mut Shared, kernel: &mut Kernel) -> Progress {
        let verification = shared
            .spec
            .quality_gates
            .self_verification
            .clone()
            .filter(|v| v.enabled && self.is_final && self.revisions_left > 0);
        let Some(verification) = verification else {
            return self.after_self_verification(shared, kernel);
        };
        self.revisions_left -= 1;
        let output = self.output.clone().unwrap_or_default();
        let strategy = verification.strategy.as_deref().unwrap_or("reflection");
        let (prompt, schema) =
            super::selfcheck::request(strategy, &verification, self.schema.as_ref());
        let mut messages = self.messages.clone();
        messages.push(Message::assistant(pretty(&output)));
        messages.push(Message::user(prompt));
        let request = self.request(shared, messages, schema);
        self.calls += 1;
        self.phase = Phase::SelfCheck;
        let id = kernel.issue(
            ActionKind::CallModel {
                node: self.node.clone(),
                attempt: self.calls,
                request: request.clone(),
                timeout_ms: self.timeout_ms,
            },
            self.waiter(Purpose::SelfCheck),
        );
        kernel.event(
            "model_requested",
            Some(&self.node),
            vec![
                ("action", id.into()),
                ("attempt", self.calls.into()),
                ("purpose", format!("self_verification:{strategy}").into()),
                (
                    "request",
                    serde_json::to_value(&request).unwrap_or_default(),
                ),
            ],
        );
        None
    }

    fn on_self_check(&mut self, shared: &mut Shared, kernel: &mut Kernel, text: &str) -> Progress {
        let Some(verification) = shared.spec.quality_gates.self_verification.clone() else {
            return self.after_self_verification(shared, kernel);
        };
        let strategy = verification
            .strategy
            .as_deref()
            .unwrap_or("reflection")
            .to_owned();
        let judged = super::selfcheck::judge(&strategy, &verification, text, self.schema.as_ref());
        kernel.event(
            "gate_evaluated",
            Some(&self.node),
            vec![
                ("gate", "self_verification".into()),
                ("kind", strategy.clone().into()),
                ("passed", judged.passed.into()),
                ("detail", judged.detail.clone()),
            ],
        );
        if let Some(revised) = judged.revised {
            self.output = Some(revised);
        }
        if !judged.passed && self.revisions_left > 0 {
            // Revise the main answer with the judgement as feedback, then check again.
            let output = self.output.clone().unwrap_or_default();
            self.messages.push(Message::assistant(pretty(&output)));
            self.messages.push(Message::user(format!(
                "Your output did not pass self-verification ({strategy}): {}\nRevise your output.",
                judged.feedback
            )));
            self.attempt = self.attempt.min(self.policy.max_attempts.saturating_sub(1));
            self.call(shared, kernel);
            return None;
        }
        self.after_self_verification(shared, kernel)
    }

    fn after_self_verification(&mut self, shared: &mut Shared, kernel: &mut Kernel) -> Progress {
        if self.is_final {
            let gates = shared.spec.quality_gates.post_output.clone();
            let text = pretty(&self.output.clone().unwrap_or_default());
            if let Some(progress) = self.run_gates(shared, kernel, &gates, "post_output", &text) {
                return progress;
            }
        }
        Some(Settled::Finished(
            self.output.clone().unwrap_or(Value::Null),
        ))
    }

    pub fn duration(&self, now: u64) -> u64 {
        now.saturating_sub(self.started_at)
    }

    pub fn calls(&self) -> u32 {
        self.calls
    }
}
