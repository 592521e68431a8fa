//! The run driver: one sans-IO [`Session`] around a [`Run`] that owns every rule of running a
//! caller would otherwise write by hand, so the CLI, the npm package and the studio cannot
//! disagree. The caller keeps only its I/O: transport, threads or tasks, files, timers, screens.
//!
//! What the session owns:
//! - the **order**: answers are accepted in any order and fed in the order the engine handed
//!   the actions out, so a trace never depends on which call finished first;
//! - the **clock** ([`ClockMode`]): a fixed clock moves by reported durations only (traces are
//!   reproducible byte for byte); a real clock is the wall time the caller hands in;
//! - what an **unanswered** call becomes: a model call nobody answers is a `ProviderError`
//!   failure (the step's retry policy and `on_fail` decide), a tool nobody checks is
//!   unverifiable, a review nobody answers waits for a person;
//! - the **simulated providers** (synthetic, scripted), the **facts checker** for
//!   `std.check_existence` / `std.check_citation` ([`Facts`], given as a value), and waits that
//!   pass at once ([`Waits::Instant`]);
//! - the **input check** and the **example input** ([`check_input`], [`example_input`]);
//! - **durability**: a [`Record`] per answer as it arrives and per feed; replaying them
//!   ([`Session::restore`]) continues the run without asking for any answer again.
//!
//! # The calling contract
//!
//! Like a sans-IO protocol state machine (quinn-proto's `Connection`), a session never blocks,
//! sleeps, reads a clock or does I/O; time comes in as a value (`now_ms`, the caller's wall clock
//! in milliseconds since the Unix epoch; a fixed clock ignores it). A caller:
//!
//! 1. starts it ([`Session::start`], or [`Session::restore`] / [`Session::resume`] after a stop);
//! 2. calls [`Session::next`] until it says [`Next::Waiting`], and does what each result asks:
//!    - [`Next::Act`]: carry the action out — a model call (`CallModel`), a tool check
//!      (`CallTool`), a wait to sleep through (`Wait`), a review (`AskReview`) — as soon as it
//!      likes, concurrently with others (the engine already caps model and tool calls in flight at
//!      the run's parallelism), then hand the result to [`Session::answer`]. Every action handed
//!      out must be answered, with an observation or [`Answer::Unanswered`]. A review is a
//!      person's: it is parked from the moment it is handed out (answers after it are never held
//!      back for their decision), and its answer, whenever it comes, is fed next; a tool a person
//!      checks may be [`Session::park`]ed the same way;
//!    - [`Next::Fed`]: an answer was fed; call again;
//!    - [`Next::Breakpoint`]: a model call of a node in [`Session::set_breakpoints`] is next (each
//!      node's fires once); call again to go on;
//!    - [`Next::Paused`]: only parked actions are left: the run waits for people;
//!    - [`Next::Ended`]: the run is over (`Complete`, `Refuse` or `Fail`);
//! 3. when it said `Waiting`, waits for one of its calls (or a wait) to finish, answers it, and
//!    goes back to 2;
//! 4. after every call into the session, if it persists the run: writes [`Session::take_records`]
//!    (each before acting on anything that follows), then shows or writes
//!    [`Session::take_events`]. Records first, so a trace never holds an event the journal
//!    cannot replay.
//!
//! An answer to an action the engine has since withdrawn (a loop went round, the run ended) is
//! ignored. An answer to an action never handed out, answered twice, or of the wrong kind is an
//! error and changes nothing.

mod clock;
mod inputs;
mod journal;
mod line;
mod tools;

use std::collections::{BTreeSet, VecDeque};

use serde_json::Value;

pub use clock::ClockMode;
pub use inputs::{check_input, contracts_of, example_input, InputCheck, InputEnforcement};
pub use journal::{Record, Start};
pub use tools::{claimed_name, claimed_values, no_checker, unverifiable, Facts, FACT_RULES};

use super::kernel::action_name;
use super::{
    Action, ActionKind, Answer, ModelFailure, Observation, Provider, Run, RunError, Scripted,
    Status, Synthetic,
};
use clock::Clock;
use line::{counter, Line, State};

/// Who answers model calls.
pub enum Models {
    /// Synthetic answers valid for each step (the run's seed, `RunOptions::seed`).
    Synthetic,
    /// A script's answers (it answers tools and reviews too, where it has them).
    Scripted(Scripted),
    /// The caller (a server it calls, its own code): model calls are handed out.
    Caller,
}

impl Models {
    /// Answers come from inside the session (synthetic or scripted): nothing real to wait for.
    pub fn simulated(&self) -> bool {
        !matches!(self, Models::Caller)
    }
}

/// Who carries out waits (backoffs, `Retry-After`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Waits {
    /// A wait passes at once; the clock still moves by it.
    Instant,
    /// Handed out: the caller sleeps through it, then answers `Waited`.
    Caller,
}

impl Waits {
    /// The waits a run needs: real ones with a real provider or on a real clock (a server's
    /// backoff and `Retry-After` must pass), instant ones for simulated answers on a fixed
    /// clock.
    pub fn for_run(models: &Models, clock: ClockMode) -> Waits {
        if models.simulated() && clock == ClockMode::Fixed {
            Waits::Instant
        } else {
            Waits::Caller
        }
    }
}

/// Who answers what: the models, the waits, the facts.
pub struct Answerers {
    /// Who answers model calls.
    pub models: Models,
    /// Who carries out waits.
    pub waits: Waits,
    /// Known entities for `std.check_existence` and `std.check_citation`; without them those
    /// tools are the caller's (unless nothing is claimed, which holds).
    pub facts: Option<Facts>,
}

/// What the caller does next (see the module's calling contract).
#[derive(Debug, Clone, PartialEq)]
pub enum Next {
    /// Carry this action out and [`Session::answer`] it.
    Act(Action),
    /// An answer was fed: call again.
    Fed,
    /// A model call of this node is next (a breakpoint): call again to go on.
    Breakpoint(Action),
    /// Nothing to do until an action handed out is answered.
    Waiting,
    /// Only actions left to people are open (reviews, parked tools): these, in order.
    Paused(Vec<Action>),
    /// The run is over: its `Complete`, `Refuse` or `Fail` action.
    Ended(Action),
}

/// What the session itself answers with.
enum Answerer {
    Synthetic(Box<Synthetic>),
    Scripted(Scripted),
    Caller,
}

/// One run, driven (see the module docs).
pub struct Session {
    run: Run,
    clock: Clock,
    answerer: Answerer,
    waits: Waits,
    facts: Option<Facts>,
    line: Line,
    /// Actions the engine handed out that the session has not looked at yet.
    fresh: VecDeque<Action>,
    ending: Option<Action>,
    breakpoints: BTreeSet<String>,
    fired: BTreeSet<String>,
    /// Actions the engine withdrew before they were fed: late answers to them are ignored.
    withdrawn: BTreeSet<u64>,
    /// The highest action counter taken in.
    highest: u64,
    journal: Option<Vec<Record>>,
    replaying: bool,
}

impl Session {
    /// Starts a run as `start` describes (see [`Start::new`] for the clock), answered by
    /// `answerers`.
    pub fn start(start: Start, answerers: Answerers) -> Result<Session, RunError> {
        let answerer = match answerers.models {
            Models::Synthetic => {
                Answerer::Synthetic(Box::new(Synthetic::new(&start.source, start.options.seed)))
            }
            Models::Scripted(script) => Answerer::Scripted(script),
            Models::Caller => Answerer::Caller,
        };
        let clock = Clock::new(start.clock, start.options.start_ms);
        let mut run = Run::start(start.source, start.input, start.options)?;
        let fresh = run.next().into();
        Ok(Session {
            run,
            clock,
            answerer,
            waits: answerers.waits,
            facts: answerers.facts,
            line: Line::default(),
            fresh,
            ending: None,
            breakpoints: BTreeSet::new(),
            fired: BTreeSet::new(),
            withdrawn: BTreeSet::new(),
            highest: 0,
            journal: None,
            replaying: false,
        })
    }

    /// Continues the session that began with `start` and wrote `records` (its journal, in
    /// order): the run is replayed, the answers the caller gave are taken from the journal (none
    /// is asked for again), and the actions that were handed out but not answered are handed out
    /// again. `answerers` should be those it ran with (a script is brought to where it was).
    pub fn restore(
        start: Start,
        records: impl IntoIterator<Item = Record>,
        answerers: Answerers,
    ) -> Result<Session, RunError> {
        let mut session = Session::start(start, answerers)?;
        session.replaying = true;
        for record in records {
            session.take_in_fresh(0);
            match record {
                Record::Answered {
                    id,
                    at,
                    observation,
                } => {
                    let Some(slot) = session.line.get_mut(&id) else {
                        return Err(does_not_replay(&id, "it was never handed out"));
                    };
                    slot.state = State::Answered {
                        observation: Box::new(observation),
                        at,
                        inside: false,
                        parked: false,
                    };
                }
                Record::Fed {
                    id,
                    at,
                    observation,
                } => session.feed(&id, Some(at), observation)?,
            }
        }
        session.line.recall();
        session.replaying = false;
        Ok(session)
    }

    /// Continues a session from [`Session::snapshot`] (or the engine's own `Run::snapshot`).
    pub fn resume(snapshot: &Value, answerers: Answerers) -> Result<Session, RunError> {
        let (start, records) = journal::from_snapshot(snapshot)?;
        Session::restore(start, records, answerers)
    }

    /// From now on, keep a [`Record`] of every answer and feed for [`Session::take_records`].
    pub fn keep_journal(&mut self) {
        self.journal.get_or_insert_with(Vec::new);
    }

    /// The records since the last call (empty unless [`Session::keep_journal`] was called).
    pub fn take_records(&mut self) -> Vec<Record> {
        self.journal
            .as_mut()
            .map(std::mem::take)
            .unwrap_or_default()
    }

    /// Trace events since the last call: JSON objects with `seq`, `event`, `t` and `node`.
    pub fn take_events(&mut self) -> Vec<Value> {
        self.run.take_events()
    }

    /// How many trace events the run has produced.
    pub fn events_emitted(&self) -> u64 {
        self.run.events_emitted()
    }

    /// Nodes to stop before: [`Next::Breakpoint`] comes before a node's first model call (once a
    /// run per node).
    pub fn set_breakpoints(&mut self, nodes: BTreeSet<String>) {
        self.breakpoints = nodes;
    }

    /// Moves a fixed clock forward to `ms` (the caller's explicit time for what happens next).
    pub fn advance_clock(&mut self, ms: u64) {
        self.clock.advance(ms);
        self.run.set_clock(self.clock.now);
    }

    /// The engine's status.
    pub fn status(&self) -> Status {
        self.run.status()
    }

    /// Actions the engine handed out and still waits for (reviews included).
    pub fn outstanding(&self) -> Vec<Action> {
        self.run.outstanding()
    }

    /// The run as versioned JSON: the engine's snapshot (`format: logicmd-run`) and the answers
    /// given but not yet fed, for [`Session::resume`].
    pub fn snapshot(&self) -> Value {
        let mut snapshot = self.run.snapshot();
        let extra = journal::Extra {
            clock: self.clock.mode,
            answered: self
                .line
                .answered()
                .filter(|(_, _, _, inside)| !inside)
                .map(|(action, at, observation, _)| journal::Answered {
                    id: action.id.clone(),
                    at,
                    observation: observation.clone(),
                })
                .collect(),
        };
        if let Value::Object(map) = &mut snapshot {
            map.insert(
                "session".to_owned(),
                serde_json::to_value(extra).unwrap_or_default(),
            );
        }
        snapshot
    }

    /// What to do next; `now_ms` is the caller's wall clock (a fixed clock ignores it).
    // Not an iterator: it never ends, `Ended` comes again and again.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self, now_ms: u64) -> Next {
        loop {
            if let Some(ending) = &self.ending {
                return Next::Ended(ending.clone());
            }
            if let Some(action) = self.fresh.pop_front() {
                if let Some(halt) = self.take_in(action, now_ms) {
                    return halt;
                }
                continue;
            }
            if let Some(action) = self.line.hand_out() {
                return Next::Act(action.clone());
            }
            if let Some(id) = self.line.feedable().map(str::to_owned) {
                return match self.feed(&id, None, None) {
                    Ok(()) => Next::Fed,
                    Err(error) => self.end_failed(error.message),
                };
            }
            if self.line.is_empty() {
                let status = format!("{:?}", self.run.status()).to_lowercase();
                return self.end_failed(format!(
                    "the engine handed out nothing more, yet the run is {status}"
                ));
            }
            if self.line.all_parked() {
                return Next::Paused(self.line.parked());
            }
            return Next::Waiting;
        }
    }

    /// The caller's answer to action `id`, which finished at `now_ms` on its wall clock.
    pub fn answer(&mut self, id: &str, answer: Answer, now_ms: u64) -> Result<(), RunError> {
        let slot = match self.line.get_mut(id) {
            Some(slot) => slot,
            None => return self.not_on_the_line(id),
        };
        let parked = match slot.state {
            State::Answered { .. } => return Err(RunError::new(answered_already(id))),
            State::Parked => true,
            State::Due | State::Out => false,
        };
        let Some(observation) = from_caller(&slot.action.kind, answer) else {
            slot.state = State::Parked;
            return Ok(());
        };
        if !observation.answers(&slot.action.kind) {
            return Err(RunError::new(format!(
                "the observation does not answer action `{id}` ({})",
                action_name(&slot.action.kind)
            )));
        }
        let took = duration(&slot.action.kind, &observation);
        let at = self.clock.finished(slot.started_at, took, now_ms);
        slot.state = State::Answered {
            observation: Box::new(observation.clone()),
            at,
            inside: false,
            parked,
        };
        if let Some(journal) = &mut self.journal {
            journal.push(Record::Answered {
                id: id.to_owned(),
                at,
                observation,
            });
        }
        Ok(())
    }

    /// Leaves action `id` to a person: answers after it are no longer held back for it.
    pub fn park(&mut self, id: &str) -> Result<(), RunError> {
        match self.line.get_mut(id) {
            Some(slot) if matches!(slot.state, State::Due | State::Out) => {
                slot.state = State::Parked;
                Ok(())
            }
            Some(slot) if slot.state == State::Parked => Ok(()),
            Some(_) => Err(RunError::new(answered_already(id))),
            None => self.not_on_the_line(id),
        }
    }

    fn not_on_the_line(&self, id: &str) -> Result<(), RunError> {
        match counter(id) {
            Some(n) if self.withdrawn.contains(&n) => Ok(()),
            Some(n) if n <= self.highest => Err(RunError::new(answered_already(id))),
            _ => Err(RunError::new(format!(
                "no action `{id}` is waiting for an observation"
            ))),
        }
    }

    /// Takes in every fresh action without stopping (a replay).
    fn take_in_fresh(&mut self, now_ms: u64) {
        while let Some(action) = self.fresh.pop_front() {
            self.take_in(action, now_ms);
        }
    }

    /// Puts a fresh action on the line, answered already when the session answers it itself;
    /// a breakpoint or the run's end stops the caller.
    fn take_in(&mut self, action: Action, now_ms: u64) -> Option<Next> {
        self.highest = self.highest.max(counter(&action.id).unwrap_or(0));
        if action.kind.is_terminal() {
            self.ending = Some(action);
            self.withdraw_all();
            return None;
        }
        if !self.run.is_outstanding(&action.id) {
            self.withdrawn.extend(counter(&action.id));
            return None;
        }
        if let (ActionKind::CallModel { node, .. }, false) = (&action.kind, self.replaying) {
            if self.breakpoints.contains(node) && self.fired.insert(node.clone()) {
                self.fresh.push_front(action.clone());
                return Some(Next::Breakpoint(action));
            }
        }
        let started_at = self.clock.now;
        let state = match self.answer_inside(&action) {
            Some((observation, took)) => State::Answered {
                observation: Box::new(observation),
                at: self.clock.finished(started_at, took, now_ms),
                inside: true,
                parked: false,
            },
            None => State::Due,
        };
        self.line.push(action, started_at, state);
        None
    }

    /// The session's own answer to `action` and how long it took, when it has one.
    fn answer_inside(&mut self, action: &Action) -> Option<(Observation, u64)> {
        let scripted = |answerer: &mut Answerer| match answerer {
            Answerer::Scripted(script) => match script.answer(action, &mut |_| {}) {
                Answer::Observed(observation) => Some(observation),
                Answer::Unanswered(_) => None,
            },
            _ => None,
        };
        match &action.kind {
            ActionKind::CallModel { .. } => {
                let answer = match &mut self.answerer {
                    Answerer::Synthetic(provider) => provider.answer(action, &mut |_| {}),
                    Answerer::Scripted(script) => script.answer(action, &mut |_| {}),
                    Answerer::Caller => return None,
                };
                let observation = match answer {
                    Answer::Observed(observation) => observation,
                    Answer::Unanswered(reason) => provider_error(reason),
                };
                let took = duration(&action.kind, &observation);
                Some((observation, took))
            }
            ActionKind::CallTool {
                name, arguments, ..
            } => scripted(&mut self.answerer)
                .or_else(|| {
                    tools::answer(name, arguments, self.facts.as_ref()).map(Observation::ToolResult)
                })
                .map(|observation| (observation, 0)),
            ActionKind::AskReview { .. } => {
                scripted(&mut self.answerer).map(|observation| (observation, 0))
            }
            ActionKind::Wait { ms, .. } => match self.waits {
                Waits::Instant => {
                    self.clock.skip(*ms);
                    Some((Observation::Waited, *ms))
                }
                Waits::Caller => None,
            },
            _ => None,
        }
    }

    /// Feeds action `id`'s answer: live, at its time on the clock; in a replay, at the
    /// journal's time with the journal's observation when it has one.
    fn feed(
        &mut self,
        id: &str,
        at: Option<u64>,
        recorded: Option<Observation>,
    ) -> Result<(), RunError> {
        let Some(slot) = self.line.remove(id) else {
            return Err(does_not_replay(id, "it is not waiting"));
        };
        let (observation, answered_at, inside) = match (slot.state, recorded) {
            (_, Some(observation)) => (observation, at.unwrap_or(0), true),
            (
                State::Answered {
                    observation,
                    at,
                    inside,
                    ..
                },
                None,
            ) => (*observation, at, inside),
            _ => return Err(does_not_replay(id, "no answer is recorded for it")),
        };
        let at = self.clock.feed_at(at.unwrap_or(answered_at));
        self.run.set_clock(at);
        let kept = (self.journal.is_some() && inside).then(|| observation.clone());
        self.run
            .feed(id, observation)
            .map_err(|e| RunError::new(format!("the engine refused the answer to `{id}`: {e}")))?;
        if let Some(journal) = &mut self.journal {
            journal.push(Record::Fed {
                id: id.to_owned(),
                at,
                observation: kept,
            });
        }
        self.fresh.extend(self.run.next());
        let run = &self.run;
        let gone = self.line.drop_unless(|id| run.is_outstanding(id));
        self.withdrawn.extend(gone);
        Ok(())
    }

    fn withdraw_all(&mut self) {
        let gone = self.line.drop_unless(|_| false);
        self.withdrawn.extend(gone);
    }

    /// Ends the session with a failure of the driving itself (the engine refused an answer, or
    /// handed out nothing while not over).
    fn end_failed(&mut self, error: String) -> Next {
        let ending = Action {
            id: format!("a{}", self.highest + 1),
            kind: ActionKind::Fail { error },
        };
        self.ending = Some(ending.clone());
        self.withdraw_all();
        Next::Ended(ending)
    }
}

/// The observation a caller's answer stands for; `None` leaves the action to a person.
fn from_caller(kind: &ActionKind, answer: Answer) -> Option<Observation> {
    match (answer, kind) {
        (Answer::Observed(observation), _) => Some(observation),
        (Answer::Unanswered(reason), ActionKind::CallModel { .. }) => Some(provider_error(reason)),
        (Answer::Unanswered(reason), ActionKind::CallTool { .. }) => {
            Some(Observation::ToolResult(unverifiable(reason)))
        }
        (Answer::Unanswered(_), ActionKind::Wait { .. }) => Some(Observation::Waited),
        (Answer::Unanswered(_), _) => None,
    }
}

/// What a model call nobody answers becomes, from every front end: a failure of kind
/// `ProviderError` the step's policy reacts to (not retryable: asking again gets no answer).
pub fn provider_error(reason: String) -> Observation {
    Observation::ModelError(ModelFailure {
        kind: "ProviderError".to_owned(),
        message: reason,
        retryable: false,
        retry_after_ms: None,
    })
}

/// How long an action took by its own account: a wait its milliseconds, a model answer its
/// reported latency.
fn duration(kind: &ActionKind, observation: &Observation) -> u64 {
    match (kind, observation) {
        (ActionKind::Wait { ms, .. }, _) => *ms,
        (
            _,
            Observation::ModelResponse {
                latency_ms: Some(latency),
                ..
            },
        ) => *latency,
        _ => 0,
    }
}

fn answered_already(id: &str) -> String {
    format!("action `{id}` was answered already")
}

fn does_not_replay(id: &str, why: &str) -> RunError {
    RunError::new(format!(
        "the journal does not replay at action `{id}`: {why}"
    ))
}

#[cfg(test)]
mod tests;
