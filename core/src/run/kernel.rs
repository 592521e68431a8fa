//! What every program (LOGIC.md steps, workflows, DRTL topologies) shares: the clock the driver
//! sets, the trace, action ids, the parallelism cap, who waits for which action, and the end.

use std::collections::{BTreeMap, VecDeque};

use serde_json::Value;

use super::action::{Action, ActionKind, Unmet};
use crate::trace::{Event, Record, RunStatus};

/// Who waits for an action: a unit of the program and what for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Waiter {
    pub unit: usize,
    pub purpose: Purpose,
}

/// What an action was issued for, so its observation reaches the right part of a unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Purpose {
    /// The unit's main model call (or a participant's: the index).
    Model(usize),
    /// A self-verification call (reflection, rubric, checklist).
    SelfCheck,
    /// A verification rule's tool call (the rule's index).
    Tool(usize),
    /// A backoff before the next attempt.
    Backoff,
    /// A review (a DRTL review node, or a human escalation).
    Review,
}

/// How a run ended, or that it waits for a review.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Ending {
    Completed(Value),
    Refused(Vec<Unmet>),
    Failed(String),
}

pub(crate) struct Kernel {
    /// Milliseconds, as the driver last set them.
    pub now: u64,
    started_at: u64,
    seq: u64,
    events: Vec<Record>,
    next_id: u64,
    /// Issued actions not yet handed out by `next()`.
    ready: VecDeque<Action>,
    /// Model and tool calls waiting for a free slot.
    throttled: VecDeque<(Action, Waiter)>,
    calls_in_flight: usize,
    max_parallel: usize,
    waiting: BTreeMap<String, (ActionKind, Waiter)>,
    pub ending: Option<Ending>,
    ended_announced: bool,
}

impl Kernel {
    pub fn new(now: u64, max_parallel: usize) -> Kernel {
        Kernel {
            now,
            started_at: now,
            seq: 0,
            events: Vec::new(),
            next_id: 1,
            ready: VecDeque::new(),
            throttled: VecDeque::new(),
            calls_in_flight: 0,
            max_parallel: max_parallel.max(1),
            waiting: BTreeMap::new(),
            ending: None,
            ended_announced: false,
        }
    }

    /// Appends a trace event about `node` (when given), stamped with its `seq` and `t` (ms
    /// since the start).
    pub fn event(&mut self, node: Option<&str>, event: Event) {
        self.events.push(Record {
            seq: self.seq,
            t: self.elapsed(),
            node: node.map(str::to_owned),
            event,
        });
        self.seq += 1;
    }

    /// Milliseconds since the run started, by the driver's clock.
    pub fn elapsed(&self) -> u64 {
        self.now.saturating_sub(self.started_at)
    }

    pub fn take_records(&mut self) -> Vec<Record> {
        std::mem::take(&mut self.events)
    }

    /// Events emitted so far (the next event's `seq`).
    pub fn seq(&self) -> u64 {
        self.seq
    }

    /// Issues an action for `waiter`; model and tool calls beyond the parallelism cap wait.
    pub fn issue(&mut self, kind: ActionKind, waiter: Waiter) -> String {
        let id = format!("a{}", self.next_id);
        self.next_id += 1;
        let action = Action {
            id: id.clone(),
            kind,
        };
        let is_call = matches!(
            action.kind,
            ActionKind::CallModel { .. } | ActionKind::CallTool { .. }
        );
        if is_call && self.calls_in_flight >= self.max_parallel {
            self.throttled.push_back((action, waiter));
        } else {
            self.hand_out(action, waiter, is_call);
        }
        id
    }

    fn hand_out(&mut self, action: Action, waiter: Waiter, is_call: bool) {
        if is_call {
            self.calls_in_flight += 1;
        }
        self.waiting
            .insert(action.id.clone(), (action.kind.clone(), waiter));
        self.ready.push_back(action);
    }

    /// The waiter of action `id`, if it is outstanding and `check` accepts its kind; it is no
    /// longer outstanding afterwards, and a throttled call takes its slot.
    pub fn settle(
        &mut self,
        id: &str,
        check: impl FnOnce(&ActionKind) -> bool,
    ) -> Result<Waiter, String> {
        let Some((kind, _)) = self.waiting.get(id) else {
            return Err(format!("no action `{id}` is waiting for an observation"));
        };
        if !check(kind) {
            return Err(format!(
                "the observation does not answer action `{id}` ({})",
                action_name(kind)
            ));
        }
        let Some((kind, waiter)) = self.waiting.remove(id) else {
            return Err(format!("no action `{id}` is waiting for an observation"));
        };
        // An action handed out and answered before `next()` returned it is answered all the same.
        self.ready.retain(|a| a.id != id);
        if matches!(
            kind,
            ActionKind::CallModel { .. } | ActionKind::CallTool { .. }
        ) {
            self.calls_in_flight -= 1;
            if let Some((action, waiter)) = self.throttled.pop_front() {
                self.hand_out(action, waiter, true);
            }
        }
        Ok(waiter)
    }

    /// Drops every outstanding action of `unit` (a loop reset it, or the run ended).
    pub fn cancel_unit(&mut self, unit: usize) {
        let cancelled: Vec<String> = self
            .waiting
            .iter()
            .filter(|(_, (_, w))| w.unit == unit)
            .map(|(id, _)| id.clone())
            .collect();
        for id in cancelled {
            let _ = self.settle(&id, |_| true);
        }
        self.throttled.retain(|(_, w)| w.unit != unit);
    }

    /// Actions handed out since the last call, and the ending once the run is over.
    pub fn next(&mut self) -> Vec<Action> {
        let mut actions: Vec<Action> = self.ready.drain(..).collect();
        if let Some(ending) = &self.ending {
            if !self.ended_announced {
                self.ended_announced = true;
                let kind = match ending {
                    Ending::Completed(output) => ActionKind::Complete {
                        output: output.clone(),
                    },
                    Ending::Refused(unmet) => ActionKind::Refuse {
                        unmet: unmet.clone(),
                    },
                    Ending::Failed(error) => ActionKind::Fail {
                        error: error.clone(),
                    },
                };
                actions.push(Action {
                    id: format!("a{}", self.next_id),
                    kind,
                });
                self.next_id += 1;
            }
        }
        actions
    }

    /// Ends the run (the first ending wins) and drops what is outstanding.
    pub fn end(&mut self, ending: Ending) {
        if self.ending.is_some() {
            return;
        }
        let finished = |status, output, error| Event::RunFinished {
            status,
            output,
            error,
        };
        match &ending {
            Ending::Completed(output) => self.event(
                None,
                finished(RunStatus::Completed, Some(output.clone()), None),
            ),
            Ending::Refused(unmet) => {
                let unmet = unmet.clone();
                self.event(None, Event::Refused { unmet });
                self.event(None, finished(RunStatus::Refused, None, None));
            }
            Ending::Failed(error) => {
                self.event(None, finished(RunStatus::Failed, None, Some(error.clone())))
            }
        }
        self.waiting.clear();
        self.throttled.clear();
        self.ready.clear();
        self.ending = Some(ending);
    }

    /// Actions handed out and not yet answered.
    pub fn outstanding(&self) -> impl Iterator<Item = (&String, &ActionKind)> {
        self.waiting.iter().map(|(id, (kind, _))| (id, kind))
    }
}

pub(crate) fn action_name(kind: &ActionKind) -> &'static str {
    match kind {
        ActionKind::CallModel { .. } => "call_model",
        ActionKind::CallTool { .. } => "call_tool",
        ActionKind::AskReview { .. } => "ask_review",
        ActionKind::Wait { .. } => "wait",
        ActionKind::Complete { .. } => "complete",
        ActionKind::Refuse { .. } => "refuse",
        ActionKind::Fail { .. } => "fail",
    }
}
