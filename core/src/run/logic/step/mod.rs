//! One step's run (spec §4.1, §6, §8): the model call with its inputs, the answer read and
//! checked against the step's schema, then its checks (`checks`), and when the step cannot
//! produce an accepted output, the fallback (`recovery`, `degrade`); for the steps that produce
//! the document's output, self-verification (`selfcheck`).
//!
//! Attempts come in series: a series is what the retry policy bounds (`max_attempts` calls);
//! a change of strategy, a review's `retry` or dropping the tools starts a new one. Checks read
//! `attempts` as every main-answer call of the step run, across series.

mod answer;
mod checks;
mod degrade;
mod recovery;
mod selfcheck;

use serde_json::{json, Map, Value};

use super::context::task_message;
use super::Shared;
use crate::run::action::{
    ActionKind, Message, ModelFailure, ModelRequest, Observation, Served, Usage,
};
use crate::run::kernel::{Kernel, Purpose, Waiter};
use crate::run::output;
use crate::run::retry::RetryPolicy;
use crate::trace::{Event, Gate, ModelResponded, Response, ReviewAnswered, Speaker};

/// How a step ended.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Settled {
    Finished(Value),
    Skipped(String),
    /// The step failed and nothing recovered it: the run fails.
    Failed(String),
}

/// What happened to a step after an event: still going (`None`), or settled.
pub(crate) type Progress = Option<Settled>;

pub(crate) struct StepRun {
    pub index: usize,
    pub name: String,
    pub node: String,
    unit: usize,
    policy: RetryPolicy,
    /// Main-answer calls in the current series (what the retry policy bounds).
    attempt: u32,
    /// Main-answer calls of this step run across every series: `attempts` in checks.
    attempts: u32,
    /// Model calls of every kind (answers and self-verification): the trace's attempt number.
    calls: u32,
    messages: Vec<Message>,
    system: String,
    schema: Option<Value>,
    started_at: u64,
    /// The latest accepted (schema-valid) output.
    output: Option<Value>,
    /// The latest output that passed the checks on itself (confidence, verification): all a
    /// degradation may publish part of.
    verified: Option<Value>,
    /// Self-verification revisions made, and allowed.
    revisions: u64,
    max_revisions: u64,
    /// Escalation levels already used (each fires once per step run).
    fired_levels: Vec<usize>,
    /// `fallback.strategy: retry_different` was used.
    changed_strategy: bool,
    is_final: bool,
    /// What an answer must be to become the step's output.
    reader: answer::Reader,
    /// An answer that breaks only the output contract escalates (`on_output_violation:
    /// escalate`) instead of being asked again.
    escalate_violations: bool,
    timeout_ms: Option<u64>,
    /// The clock by which the step must be over (a join's `join_timeout`, the run's
    /// `max_total_time`): calls end by it, and no retry waits past it.
    deadline: Option<u64>,
}

impl StepRun {
    /// Starts step `index` (waiter unit `unit`, over by the clock `deadline` when it has one),
    /// whose inputs are the outputs of `sources` (name, output if any) and, when a decision
    /// tree's question chose it, the `decision`.
    pub fn begin(
        shared: &mut Shared,
        kernel: &mut Kernel,
        (index, unit, deadline): (usize, usize, Option<u64>),
        sources: &[(String, Option<&Value>)],
        decision: Option<Value>,
    ) -> StepRun {
        let step = &shared.spec.steps[index];
        let compiled = shared.compiled.get(&step.name);
        let mut inputs = json!({
            "input": shared.input,
            "steps": sources
                .iter()
                .map(|(name, output)| (name.clone(), output.cloned().unwrap_or(Value::Null)))
                .collect::<Map<_, _>>(),
        });
        if let Some(decision) = &decision {
            inputs["decision"] = decision.clone();
        }
        let node = shared.node_id(&step.name);
        let started = Event::NodeStarted {
            inputs,
            injected: None,
        };
        kernel.event(Some(&node), started);
        let mut run = StepRun {
            index,
            name: step.name.clone(),
            node,
            unit,
            policy: RetryPolicy::of(step.retry.as_ref()),
            attempt: 0,
            attempts: 0,
            calls: 0,
            messages: vec![task_message(&shared.input, sources, decision.as_ref())],
            system: compiled.map(|c| c.scaffold.clone()).unwrap_or_default(),
            schema: compiled.and_then(|c| c.output_schema.clone()),
            started_at: kernel.now,
            output: None,
            verified: None,
            revisions: 0,
            max_revisions: selfcheck::max_revisions(shared),
            fired_levels: Vec::new(),
            changed_strategy: false,
            is_final: shared.finals.contains(&step.name),
            reader: answer::Reader::new(&shared.spec, index, shared.finals.contains(&step.name)),
            escalate_violations: shared.spec.contracts.on_output_violation.as_deref()
                == Some("escalate"),
            timeout_ms: step
                .timeout
                .as_deref()
                .and_then(|t| crate::duration::parse_duration(t).ok())
                .map(|d| d.as_millis().min(u64::MAX as u128) as u64),
            deadline,
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

    /// Issues a model call for `purpose` and records it.
    fn issue_call(
        &mut self,
        kernel: &mut Kernel,
        request: ModelRequest,
        purpose: Purpose,
        label: Option<String>,
    ) {
        self.calls += 1;
        let left = self.deadline.map(|d| d.saturating_sub(kernel.now));
        let timeout_ms = match (self.timeout_ms, left) {
            (Some(own), Some(left)) => Some(own.min(left)),
            (own, left) => own.or(left),
        };
        let kind = ActionKind::CallModel {
            node: self.node.clone(),
            attempt: self.calls,
            request: request.clone(),
            timeout_ms,
        };
        let action = kernel.issue(kind, self.waiter(purpose));
        let requested = Event::ModelRequested {
            action,
            attempt: self.calls,
            purpose: label,
            request,
            speaker: Speaker::default(),
        };
        kernel.event(Some(&self.node), requested);
    }

    /// Issues the next attempt at the main answer.
    fn call(&mut self, shared: &Shared, kernel: &mut Kernel) {
        self.attempt += 1;
        self.attempts += 1;
        let request = self.request(shared, self.messages.clone(), self.schema.clone());
        self.issue_call(kernel, request, Purpose::Model(0), None);
    }

    /// Starts a new series of attempts on the same inputs (a change of strategy, a review's
    /// `retry`, dropping the tools).
    fn new_series(&mut self, shared: &Shared, kernel: &mut Kernel) {
        self.attempt = 0;
        self.messages.truncate(1);
        self.call(shared, kernel);
    }

    /// One more attempt on the same inputs after the backoff, when the policy allows one;
    /// `false` when it does not.
    fn retry_after_backoff(&mut self, kernel: &mut Kernel, reason: &str, at_least_ms: u64) -> bool {
        if self.attempt >= self.policy.max_attempts {
            return false;
        }
        let wait = self.policy.backoff_ms(self.attempt + 1).max(at_least_ms);
        if self
            .deadline
            .is_some_and(|deadline| kernel.now.saturating_add(wait) > deadline)
        {
            // The retry would come after the step must be over: the fallback decides now.
            return false;
        }
        let retried = Event::Retried {
            attempt: self.calls + 1,
            wait_ms: wait,
            reason: reason.to_owned(),
            feedback: None,
            speaker: Speaker::default(),
        };
        kernel.event(Some(&self.node), retried);
        self.messages.truncate(1);
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
        let retried = Event::Retried {
            attempt: self.calls + 1,
            wait_ms: 0,
            reason: reason.to_owned(),
            feedback: Some(feedback.clone()),
            speaker: Speaker::default(),
        };
        kernel.event(Some(&self.node), retried);
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
                    served,
                },
            ) => {
                self.responded(shared, kernel, &text, usage, (latency_ms, served));
                self.on_answer(shared, kernel, &text)
            }
            (Purpose::Model(_), Observation::ModelError(failure)) => {
                self.failed_call(kernel, &failure);
                self.on_model_error(shared, kernel, failure)
            }
            (
                Purpose::SelfCheck,
                Observation::ModelResponse {
                    text,
                    usage,
                    latency_ms,
                    served,
                },
            ) => {
                self.responded(shared, kernel, &text, usage, (latency_ms, served));
                self.on_self_check(shared, kernel, Ok(&text))
            }
            (Purpose::SelfCheck, Observation::ModelError(failure)) => {
                self.failed_call(kernel, &failure);
                self.on_self_check(shared, kernel, Err(&failure))
            }
            (Purpose::Review, Observation::ReviewAnswer { action, note }) => {
                let answered = Event::ReviewAnswered(ReviewAnswered {
                    action: action.clone(),
                    note,
                    accepted: None,
                    error: None,
                });
                kernel.event(Some(&self.node), answered);
                self.on_review(shared, kernel, &action)
            }
            (_, other) => Some(Settled::Failed(format!(
                "step `{}`: unexpected observation {other:?}",
                self.name
            ))),
        }
    }

    /// Records a model's answer (every call's, so that a trace replays as a script).
    fn responded(
        &self,
        shared: &mut Shared,
        kernel: &mut Kernel,
        text: &str,
        usage: Option<Usage>,
        (latency_ms, served): (Option<u64>, Option<Served>),
    ) {
        if let Some(usage) = usage {
            shared.tokens_used += usage.input_tokens + usage.output_tokens;
        }
        let responded = Event::ModelResponded(ModelResponded {
            attempt: self.calls,
            response: Response::Answer {
                text: text.to_owned(),
                usage,
                latency_ms,
                served,
            },
            speaker: Speaker::default(),
        });
        kernel.event(Some(&self.node), responded);
    }

    fn failed_call(&self, kernel: &mut Kernel, failure: &ModelFailure) {
        let responded = Event::ModelResponded(ModelResponded {
            attempt: self.calls,
            response: Response::Error {
                error: failure.clone(),
            },
            speaker: Speaker::default(),
        });
        kernel.event(Some(&self.node), responded);
    }

    fn on_model_error(
        &mut self,
        shared: &mut Shared,
        kernel: &mut Kernel,
        failure: ModelFailure,
    ) -> Progress {
        let retryable = self.policy.is_retryable(&failure.kind, failure.retryable);
        let reason = format!("{}: {}", failure.kind, failure.message);
        if retryable
            && self.retry_after_backoff(kernel, &reason, failure.retry_after_ms.unwrap_or(0))
        {
            return None;
        }
        self.recover(shared, kernel, Some(&failure.kind), &reason)
    }

    /// Reads the answer; a valid one goes through the step's checks.
    fn on_answer(&mut self, shared: &mut Shared, kernel: &mut Kernel, text: &str) -> Progress {
        let (output, warnings) = match self.reader.read(text) {
            Ok(read) => read,
            Err(rejected) if rejected.by_contract && self.escalate_violations => {
                self.record_invalid(kernel, &rejected.problems);
                let reason = format!(
                    "the output breaks the output contract: {}",
                    rejected.problems.join("; ")
                );
                return self.escalate(shared, kernel, &reason);
            }
            Err(rejected) => return self.invalid(shared, kernel, text, rejected.problems),
        };
        let validated = Event::OutputValidated {
            attempt: self.calls,
            output: output.clone(),
            contract_warnings: (!warnings.is_empty()).then_some(warnings),
            speaker: Speaker::default(),
        };
        kernel.event(Some(&self.node), validated);
        self.output = Some(output);
        self.check_output(shared, kernel, text)
    }

    /// An answer that is not acceptable output: asked again with the problems as feedback while
    /// the policy allows, then the step's `verification.on_fail` decides (the fallback without
    /// one).
    fn invalid(
        &mut self,
        shared: &mut Shared,
        kernel: &mut Kernel,
        text: &str,
        problems: Vec<String>,
    ) -> Progress {
        self.record_invalid(kernel, &problems);
        let feedback = output::feedback(&problems);
        if self.ask_again(shared, kernel, text, feedback, "invalid output") {
            return None;
        }
        let reason = format!("invalid output: {}", problems.join("; "));
        let on_fail = shared.spec.steps[self.index]
            .verification
            .as_ref()
            .map(|v| v.on_fail);
        self.on_check_failed(shared, kernel, on_fail, &reason, text)
    }

    fn record_invalid(&self, kernel: &mut Kernel, problems: &[String]) {
        let invalid = Event::OutputInvalid {
            attempt: self.calls,
            errors: problems.to_vec(),
            speaker: Speaker::default(),
        };
        kernel.event(Some(&self.node), invalid);
    }

    /// The step's accepted output: it finishes.
    fn finish(&self) -> Progress {
        Some(Settled::Finished(
            self.output.clone().unwrap_or(Value::Null),
        ))
    }

    fn gate(&self, kernel: &mut Kernel, gate: &str, check: &str, passed: bool, detail: Value) {
        let gate = Gate {
            check: Some(check.to_owned()),
            detail: (!detail.is_null()).then_some(detail),
            ..Gate::named(gate, passed)
        };
        kernel.event(Some(&self.node), Event::GateEvaluated(gate));
    }

    pub fn duration(&self, now: u64) -> u64 {
        now.saturating_sub(self.started_at)
    }

    pub fn calls(&self) -> u32 {
        self.calls
    }
}
