//! The driver loop: take the batch of actions the engine has ready, carry each out (the
//! provider answers model calls, the checkers answer tools, waits pass, reviews pause), and feed
//! the results back IN ACTION ORDER, whatever order they finished in, so the trace never depends
//! on timing. After every feed the state is written (when durable), then the new trace lines.

use std::collections::VecDeque;
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use logicmd::run::{
    Action, ActionKind, Answer, ModelFailure, Observation, Provider, Run, Status, Unmet,
};
use serde_json::Value;

use super::clock::Clock;
use super::durable::{self, Trace};
use super::progress::Progress;
use super::state::{Batch, Settings, State};
use super::tools::Checkers;

/// How a drive ended.
#[derive(Debug, Clone, PartialEq)]
pub enum Ending {
    Completed(Value),
    Refused(Vec<Unmet>),
    Failed(String),
    /// Only reviews are outstanding: these.
    Paused(Vec<Action>),
}

/// A review decision given on the command line, for one outstanding review.
#[derive(Debug, Clone, PartialEq)]
pub struct ReviewDecision {
    pub action_id: String,
    pub answer: Observation,
}

/// Where the run's state goes after every feed.
pub struct Durable {
    pub path: std::path::PathBuf,
    pub document: String,
    pub settings: Settings,
}

pub struct Driver {
    pub run: Run,
    pub provider: Box<dyn Provider>,
    pub checkers: Arc<Checkers>,
    pub clock: Clock,
    pub sleep: bool,
    pub max_parallel: usize,
    pub decision: Option<ReviewDecision>,
    pub durable: Option<Durable>,
    /// The settings this drive runs with (recorded in the state).
    pub settings: Settings,
    pub trace: Option<Trace>,
    pub progress: Progress,
    /// Every event of the run so far (replayed ones included).
    pub events: Vec<Value>,
    pub batch: Batch,
    /// Actions handed out earlier that belong to the next batch (after a resume).
    pub held: Vec<Action>,
    /// The batch a resumed run was in the middle of.
    pub resumed_batch: Option<Vec<Action>>,
}

/// What one action needs after the provider has been asked.
enum Work {
    /// Answered: the observation, how long it took (for a fixed clock), and a wait not slept
    /// (for a real clock).
    Done(Observation, u64, u64),
    /// A tool the checkers answer (possibly over the network).
    Check { rule: String, arguments: Value },
    /// A wait slept for real.
    Sleep(u64),
    /// A review nobody answered: the run will pause on it.
    Unanswered,
}

/// A finished piece of work: the observation, its duration, and a wait not slept.
type Result3 = (Observation, u64, u64);

impl Driver {
    /// Runs until the run ends or pauses; `Err` when the driver itself cannot go on (a file it
    /// cannot write, an engine that refuses an observation).
    pub fn drive(&mut self) -> Result<Ending, String> {
        loop {
            let batch = match self.resumed_batch.take() {
                Some(batch) => batch,
                None => {
                    self.batch.started_at = self.clock.now();
                    let mut batch = std::mem::take(&mut self.held);
                    batch.extend(self.run.next());
                    batch
                }
            };
            if let Some(ending) = batch.iter().find_map(|a| terminal(&a.kind)) {
                return Ok(ending);
            }
            if batch.is_empty() {
                return self.stopped();
            }
            self.batch.ids = batch.iter().map(|a| a.id.clone()).collect();
            self.carry_out(&batch)?;
        }
    }

    /// Nothing is ready: the run waits for reviews (a pause), or something is wrong.
    fn stopped(&mut self) -> Result<Ending, String> {
        match self.run.status() {
            Status::Paused => {
                let mut reviews = self.run.outstanding();
                reviews.sort_by_key(|a| numeric_id(&a.id));
                Ok(Ending::Paused(reviews))
            }
            status => Err(format!(
                "the engine handed out nothing more but the run is {status:?} (outstanding: {})",
                self.run
                    .outstanding()
                    .iter()
                    .map(|a| a.id.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
        }
    }

    /// Carries out one batch and feeds every answer in action order.
    fn carry_out(&mut self, batch: &[Action]) -> Result<(), String> {
        let started = self.batch.started_at;
        let work: Vec<Work> = batch.iter().map(|action| self.prepare(action)).collect();
        let mut slots: Vec<Option<Option<Result3>>> = Vec::with_capacity(batch.len());
        let mut jobs = VecDeque::new();
        for (index, item) in work.into_iter().enumerate() {
            slots.push(match item {
                Work::Done(observation, took, skipped) => Some(Some((observation, took, skipped))),
                Work::Unanswered => Some(None),
                Work::Check { rule, arguments } => {
                    jobs.push_back((index, Job::Check { rule, arguments }));
                    None
                }
                Work::Sleep(ms) => {
                    jobs.push_back((index, Job::Sleep(ms)));
                    None
                }
            });
        }
        let workers = self.max_parallel.clamp(1, jobs.len().max(1));
        let checkers = Arc::clone(&self.checkers);
        let queue = Mutex::new(jobs);
        let (sender, receiver) = mpsc::channel::<(usize, Result3)>();
        std::thread::scope(|scope| -> Result<(), String> {
            for _ in 0..workers {
                let sender = sender.clone();
                let (queue, checkers) = (&queue, &checkers);
                scope.spawn(move || loop {
                    let next = queue.lock().ok().and_then(|mut q| q.pop_front());
                    let Some((index, job)) = next else {
                        return;
                    };
                    if sender.send((index, job.carry_out(checkers))).is_err() {
                        return;
                    }
                });
            }
            drop(sender);
            let mut fed = 0;
            loop {
                // Feed every answer whose turn has come.
                while fed < slots.len() {
                    match slots[fed].take() {
                        Some(Some((observation, took, skipped))) => {
                            self.feed(&batch[fed], observation, started, took, skipped)?;
                        }
                        Some(None) => {}
                        None => break,
                    }
                    fed += 1;
                }
                if fed == slots.len() {
                    return Ok(());
                }
                let Ok((index, result)) = receiver.recv() else {
                    return Err("a worker stopped without an answer".to_owned());
                };
                slots[index] = Some(Some(result));
            }
        })
    }

    /// Asks the provider (in action order, on this thread: providers answer deterministically)
    /// and decides what is left to do.
    fn prepare(&mut self, action: &Action) -> Work {
        match &action.kind {
            ActionKind::Wait { ms, .. } if self.sleep => Work::Sleep(*ms),
            ActionKind::Wait { ms, .. } => Work::Done(Observation::Waited, *ms, *ms),
            ActionKind::CallModel { .. } => match self.provider.answer(action, &mut |_| {}) {
                Answer::Observed(observation) => {
                    let took = match &observation {
                        Observation::ModelResponse { latency_ms, .. } => latency_ms.unwrap_or(0),
                        _ => 0,
                    };
                    Work::Done(observation, took, 0)
                }
                Answer::Unanswered(reason) => Work::Done(
                    Observation::ModelError(ModelFailure {
                        kind: "ProviderError".to_owned(),
                        message: reason,
                        retryable: false,
                        retry_after_ms: None,
                    }),
                    0,
                    0,
                ),
            },
            ActionKind::CallTool {
                name, arguments, ..
            } => match self.provider.answer(action, &mut |_| {}) {
                Answer::Observed(observation) => Work::Done(observation, 0, 0),
                Answer::Unanswered(_) => Work::Check {
                    rule: name.clone(),
                    arguments: arguments.clone(),
                },
            },
            ActionKind::AskReview { .. } => match self.provider.answer(action, &mut |_| {}) {
                Answer::Observed(observation) => Work::Done(observation, 0, 0),
                Answer::Unanswered(_) => match self.decision.take() {
                    Some(decision) if decision.action_id == action.id => {
                        Work::Done(decision.answer, 0, 0)
                    }
                    other => {
                        self.decision = other;
                        Work::Unanswered
                    }
                },
            },
            // Endings never reach here (the loop returns on them).
            _ => Work::Unanswered,
        }
    }

    fn feed(
        &mut self,
        action: &Action,
        observation: Observation,
        started: u64,
        took: u64,
        skipped: u64,
    ) -> Result<(), String> {
        // A loop or the run's end may have withdrawn an action of this batch: nothing to feed.
        if !self.run.is_outstanding(&action.id) {
            return Ok(());
        }
        let at = self.clock.finished(started, took, skipped);
        self.run.set_clock(at);
        self.run
            .feed(&action.id, observation)
            .map_err(|e| format!("the engine refused the answer to `{}`: {e}", action.id))?;
        self.record()
    }

    /// After a feed: the state first, then the new events.
    pub fn record(&mut self) -> Result<(), String> {
        let events = self.run.take_events();
        self.write_state()?;
        self.append(events)
    }

    /// Writes the state file, when the run is durable.
    pub fn write_state(&self) -> Result<(), String> {
        let Some(durable) = &self.durable else {
            return Ok(());
        };
        durable::write_state(&durable.path, &self.state_json(durable))
            .map_err(|e| format!("cannot write the state {}: {e}", durable.path.display()))
    }

    fn state_json(&self, durable: &Durable) -> Value {
        State::new(
            durable.document.clone(),
            durable.settings.clone(),
            self.batch.clone(),
            self.run.snapshot(),
        )
        .to_json()
    }

    /// Appends events to the trace and shows them.
    pub fn append(&mut self, events: Vec<Value>) -> Result<(), String> {
        for event in events {
            if let Some(trace) = &mut self.trace {
                trace
                    .append(&event)
                    .map_err(|e| format!("cannot append to the trace: {e}"))?;
            }
            self.progress.show(&event);
            self.events.push(event);
        }
        Ok(())
    }

    /// Writes the state once (a pause without `--state`).
    pub fn save_state(&self, durable: &Durable) -> Result<(), String> {
        durable::write_atomically(&durable.path, &self.state_json(durable))
            .map_err(|e| format!("cannot write the state {}: {e}", durable.path.display()))
    }
}

/// Work that may take time, done on a worker thread.
enum Job {
    Check { rule: String, arguments: Value },
    Sleep(u64),
}

impl Job {
    fn carry_out(self, checkers: &Checkers) -> Result3 {
        match self {
            Job::Check { rule, arguments } => (
                Observation::ToolResult(checkers.check(&rule, &arguments)),
                0,
                0,
            ),
            Job::Sleep(ms) => {
                std::thread::sleep(Duration::from_millis(ms));
                (Observation::Waited, ms, 0)
            }
        }
    }
}

fn terminal(kind: &ActionKind) -> Option<Ending> {
    match kind {
        ActionKind::Complete { output } => Some(Ending::Completed(output.clone())),
        ActionKind::Refuse { unmet } => Some(Ending::Refused(unmet.clone())),
        ActionKind::Fail { error } => Some(Ending::Failed(error.clone())),
        _ => None,
    }
}

/// Action ids are `a` + a counter: ordered by the counter.
pub fn numeric_id(id: &str) -> u64 {
    id.trim_start_matches(|c: char| !c.is_ascii_digit())
        .parse()
        .unwrap_or(u64::MAX)
}
