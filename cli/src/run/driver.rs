//! The driver loop of `logicmd run`. The run session (`logicmd::run::session`) decides what
//! happens and in which order; this loop only carries it out: model calls to a real server and
//! link checks on worker threads (as many at once as the engine hands out, which is at most
//! `--max-parallel`), waits as timers it sleeps through, reviews from `--answer`. After every
//! step it writes the session's records to the state journal, then the new events to the trace
//! and the progress display.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use logicmd::run::session::{Next, Record, Session};
use logicmd::run::{Action, ActionKind, Answer, Observation, Unmet};
use serde_json::Value;

use super::durable::{Journal, Trace};
use super::progress::Progress;
use super::tools::{Checkers, ToolWork};
use crate::providers::OpenAiProvider;

/// How a drive ended.
#[derive(Debug, Clone, PartialEq)]
pub enum Ending {
    Completed(Value),
    Refused(Vec<Unmet>),
    Failed(String),
    /// Only reviews are open: these.
    Paused(Vec<Action>),
}

/// A review decision given on the command line, for one open review.
#[derive(Debug, Clone, PartialEq)]
pub struct ReviewDecision {
    pub action_id: String,
    pub answer: Observation,
}

/// Where the session's records go.
pub enum Records {
    /// The state file (`--state`, `--resume`), appended as they come.
    Journal(Journal),
    /// Kept in memory, for a pause to write them all at once.
    Memory(Vec<Record>),
}

/// What `drive` returns when its cancel flag was raised (the MCP server's cancelled requests).
pub const CANCELLED: &str = "the run was cancelled";
/// How often a cancellable drive looks at its flag while it waits for an answer.
const CANCEL_POLL: Duration = Duration::from_millis(50);

/// An answer from a worker thread: the action, the answer, and when it came (wall clock).
type Finished = (String, Answer, u64);

pub struct Driver {
    pub session: Session,
    /// Who answers model calls the session hands out (a real server).
    pub model: Option<Arc<OpenAiProvider>>,
    pub checkers: Arc<Checkers>,
    pub decision: Option<ReviewDecision>,
    pub records: Records,
    pub trace: Option<Trace>,
    pub progress: Progress,
    /// Every event of the run so far (replayed ones included).
    pub events: Vec<Value>,
    /// Raised from another thread to stop the drive (between steps, or within `CANCEL_POLL`
    /// while it waits); calls in flight finish on their threads, unheard.
    pub cancel: Option<Arc<AtomicBool>>,
    sender: Sender<Finished>,
    receiver: Receiver<Finished>,
    /// Calls on worker threads.
    in_flight: usize,
    /// Waits being slept through: when each ends, and its action.
    timers: Vec<(Instant, String)>,
}

impl Driver {
    pub fn new(
        session: Session,
        model: Option<Arc<OpenAiProvider>>,
        checkers: Checkers,
        records: Records,
        progress: Progress,
    ) -> Driver {
        let (sender, receiver) = mpsc::channel();
        Driver {
            session,
            model,
            checkers: Arc::new(checkers),
            decision: None,
            records,
            trace: None,
            progress,
            events: Vec::new(),
            cancel: None,
            sender,
            receiver,
            in_flight: 0,
            timers: Vec::new(),
        }
    }

    /// Runs until the run ends or pauses; `Err` when the driver itself cannot go on (a file it
    /// cannot write, an answer the session refuses).
    pub fn drive(&mut self) -> Result<Ending, String> {
        loop {
            if self
                .cancel
                .as_ref()
                .is_some_and(|flag| flag.load(Ordering::Relaxed))
            {
                return Err(CANCELLED.to_owned());
            }
            let next = self.session.next(wall_ms());
            self.record()?;
            match next {
                Next::Act(action) => self.carry_out(action)?,
                Next::Fed | Next::Breakpoint(_) => {}
                Next::Waiting => self.await_one()?,
                Next::Paused(reviews) => {
                    self.sync()?;
                    return Ok(Ending::Paused(reviews));
                }
                Next::Ended(action) => {
                    self.sync()?;
                    return Ok(ending_of(action.kind));
                }
            }
        }
    }

    /// Starts carrying out `action`, or answers it at once when there is nothing to wait for.
    fn carry_out(&mut self, action: Action) -> Result<(), String> {
        match &action.kind {
            ActionKind::CallModel { .. } => match &self.model {
                Some(model) => {
                    let model = Arc::clone(model);
                    self.spawn(action, move |action| {
                        let observation = model.call(action, &mut |_| {});
                        observation.map_or_else(
                            || Answer::Unanswered("not a model call".to_owned()),
                            Answer::Observed,
                        )
                    });
                    Ok(())
                }
                None => self.answer(
                    &action.id,
                    Answer::Unanswered("no provider answers model calls".to_owned()),
                ),
            },
            ActionKind::CallTool {
                name, arguments, ..
            } => match self.checkers.work(name, arguments) {
                ToolWork::Links(arguments) => {
                    let checkers = Arc::clone(&self.checkers);
                    self.spawn(action, move |_| {
                        Answer::Observed(Observation::ToolResult(checkers.check_links(&arguments)))
                    });
                    Ok(())
                }
                ToolWork::Unverifiable(why) => self.answer(&action.id, Answer::Unanswered(why)),
            },
            ActionKind::Wait { ms, .. } => {
                let until = Instant::now() + Duration::from_millis(*ms);
                self.timers.push((until, action.id));
                Ok(())
            }
            ActionKind::AskReview { .. } => match self.decision.take() {
                Some(decision) if decision.action_id == action.id => {
                    self.answer(&action.id, Answer::Observed(decision.answer))
                }
                other => {
                    self.decision = other;
                    // Left to a person: the run pauses on it once nothing else is left.
                    self.answer(&action.id, Answer::Unanswered(String::new()))
                }
            },
            // Endings come as `Next::Ended`, never as an action to carry out.
            _ => Ok(()),
        }
    }

    /// Carries `action` out on a worker thread.
    fn spawn(&mut self, action: Action, work: impl FnOnce(&Action) -> Answer + Send + 'static) {
        let sender = self.sender.clone();
        self.in_flight += 1;
        std::thread::spawn(move || {
            let answer = work(&action);
            let _ = sender.send((action.id, answer, wall_ms()));
        });
    }

    /// Waits for the first call or wait to finish, and answers it.
    fn await_one(&mut self) -> Result<(), String> {
        let first_timer = self.timers.iter().map(|(until, _)| *until).min();
        if self.in_flight == 0 && first_timer.is_none() {
            return Err("the run waits for an answer, yet nothing is being carried out".into());
        }
        // A cancellable drive wakes up now and then to look at its flag.
        let wake = match (first_timer, self.cancel.is_some()) {
            (Some(until), true) => Some(until.min(Instant::now() + CANCEL_POLL)),
            (None, true) => Some(Instant::now() + CANCEL_POLL),
            (timer, false) => timer,
        };
        let message = match wake {
            Some(until) => self
                .receiver
                .recv_timeout(until.saturating_duration_since(Instant::now())),
            None => self
                .receiver
                .recv()
                .map_err(|_| RecvTimeoutError::Disconnected),
        };
        match message {
            Ok((id, answer, at)) => {
                self.in_flight -= 1;
                self.answer_at(&id, answer, at)
            }
            Err(RecvTimeoutError::Timeout) => {
                let now = Instant::now();
                let (due, waiting): (Vec<_>, Vec<_>) =
                    self.timers.drain(..).partition(|(until, _)| *until <= now);
                self.timers = waiting;
                for (_, id) in due {
                    self.answer(&id, Answer::Observed(Observation::Waited))?;
                }
                Ok(())
            }
            Err(RecvTimeoutError::Disconnected) => Err("a worker stopped without an answer".into()),
        }
    }

    fn answer(&mut self, id: &str, answer: Answer) -> Result<(), String> {
        self.answer_at(id, answer, wall_ms())
    }

    fn answer_at(&mut self, id: &str, answer: Answer, at: u64) -> Result<(), String> {
        self.session
            .answer(id, answer, at)
            .map_err(|e| format!("the run refused the answer to `{id}`: {e}"))?;
        self.record()
    }

    /// After every step: the records first, then the events they explain.
    pub fn record(&mut self) -> Result<(), String> {
        for record in self.session.take_records() {
            match &mut self.records {
                Records::Journal(journal) => {
                    // An answer is kept on the disk before anything else happens: it is never
                    // asked for again.
                    let to_disk = matches!(record, Record::Answered { .. });
                    journal
                        .append(&record, to_disk)
                        .map_err(|e| format!("cannot write the state: {e}"))?;
                }
                Records::Memory(records) => records.push(record),
            }
        }
        let events = self.session.take_events();
        self.append(events)
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

    fn sync(&self) -> Result<(), String> {
        match &self.records {
            Records::Journal(journal) => journal
                .sync()
                .map_err(|e| format!("cannot write the state: {e}")),
            Records::Memory(_) => Ok(()),
        }
    }
}

fn ending_of(kind: ActionKind) -> Ending {
    match kind {
        ActionKind::Complete { output } => Ending::Completed(output),
        ActionKind::Refuse { unmet } => Ending::Refused(unmet),
        ActionKind::Fail { error } => Ending::Failed(error),
        other => Ending::Failed(format!("the run ended on {other:?}")),
    }
}

/// The wall clock, in milliseconds since the Unix epoch.
pub fn wall_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis().min(u128::from(u64::MAX)) as u64)
}
