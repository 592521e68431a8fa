//! The runtime: a sans-IO engine that runs LOGIC.md documents, multi-agent workflows and DRTL
//! topologies. It never calls a model, a clock or the network: it hands out [`Action`]s
//! (`CallModel`, `CallTool`, `AskReview`, `Wait`, and at the end `Complete`, `Refuse` or `Fail`)
//! and is fed [`Observation`]s, so the CLI, the npm package and the studio drive the same
//! semantics (like sans-IO protocol crates: state in, next action out).
//!
//! ```text
//! Run::start(source, input, options) ──► next() → [actions ready now] ──► driver carries them out
//!        ▲                                                                    │
//!        └──────────────── feed(action id, observation) ◄─────────────────────┘
//! ```
//!
//! Callers do not drive a `Run` by hand: [`session::Session`] is the driver the CLI, the npm
//! package and the studio share (the order answers are fed in, the clock, unanswered calls, the
//! simulated providers, facts, the input check, a journal to resume from); its module docs give
//! the calling contract.
//!
//! Determinism: time is what the driver sets ([`Run::set_clock`]), ids are counters, and
//! nothing is random, so the same source, input and observations give the same actions and the
//! same trace, byte for byte. A snapshot is the source, the input, the options and every
//! observation fed so far; resuming replays them (as durable-execution engines replay their
//! history), which restores the run exactly without repeating any call.

mod action;
mod drtl;
mod kernel;
mod logic;
pub mod openai;
mod output;
pub mod pins;
mod preflight;
mod prepare;
mod provider;
mod retry;
mod scripted;
pub mod session;
mod snapshot;
mod synthetic;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

pub use action::{
    Action, ActionKind, Message, ModelFailure, ModelRequest, Observation, Served, Unmet, Usage,
    Verdict,
};
pub(crate) use output::{feedback, read as read_output};
pub use pins::{downstream, rerun_pins};
pub use preflight::preflight;
pub use prepare::{prepare, prepare_reporting, Prepared, Source};
pub use provider::{Answer, Provider};
pub use retry::RetryPolicy;
pub use scripted::Scripted;
pub use synthetic::Synthetic;

use kernel::{Ending, Kernel, Waiter};

/// Run-wide settings a caller chooses.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct RunOptions {
    /// Most model and tool calls in flight at once (the document's `global.max_parallelism`
    /// when it is lower).
    pub max_parallelism: usize,
    /// The clock when the run starts, in milliseconds.
    pub start_ms: u64,
    /// How often a loop may go round when the document sets no `reasoning.max_iterations`.
    pub default_max_iterations: u64,
    /// A safety bound on node executions in one run (loops included).
    pub max_node_runs: u64,
    /// The seed of a deterministic provider driving the run (the synthetic one), kept with the
    /// run so a resumed run is answered as the original would have been.
    pub seed: u64,
    /// Outputs given in advance, by trace node id (`step`, `node`, `node/step`): such a node
    /// finishes at once with its pin, marked `pinned: true` in the trace, and makes no call
    /// (n8n's pinned data). Nodes that check or route (verify, gate, review, decision trees)
    /// cannot be pinned, so a pin never fakes an obligation or a route ([`pins`]).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub pins: BTreeMap<String, Value>,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            max_parallelism: 4,
            start_ms: 0,
            default_max_iterations: 10,
            max_node_runs: 100_000,
            seed: 0,
            pins: BTreeMap::new(),
        }
    }
}

/// Where a run is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Actions are outstanding (or about to be issued): the run goes on when they are fed.
    Running,
    /// Only reviews are outstanding: the run waits for a decision.
    Paused,
    /// The run finished with output.
    Completed,
    /// The run refused to give output: obligations are unmet.
    Refused,
    /// The run failed (an error, exhausted retries, an abort).
    Failed,
}

/// Why `start`, `feed` or `resume` refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunError {
    /// What was wrong, for a person to read.
    pub message: String,
}

impl RunError {
    fn new(message: impl Into<String>) -> Self {
        RunError {
            message: message.into(),
        }
    }
}

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// What a program (the semantics of one document kind) does with the kernel. `Send`, so a run
/// (and its session) can move between threads: the Python package hands runs to any thread.
pub(crate) trait Program: Send {
    /// What the run will execute, for the trace's `run_started`: `{"nodes": [{"id", "kind",
    /// "after": [ids that must settle first], "chosen_by": [ids of which one must choose it]}]}`,
    /// so a trace can be checked on its own (`logicmd trace check`).
    fn plan(&self) -> Value;
    /// Issues what is ready at the start.
    fn start(&mut self, kernel: &mut Kernel);
    /// Takes an observation for `waiter` and issues what becomes ready.
    fn observe(&mut self, kernel: &mut Kernel, waiter: Waiter, observation: Observation);
}

/// An observation fed, with the clock at that moment: the history a snapshot keeps.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Fed {
    id: String,
    at: u64,
    observation: Observation,
}

/// One run of a document.
pub struct Run {
    source: Source,
    input: Value,
    options: RunOptions,
    kernel: Kernel,
    program: Box<dyn Program>,
    history: Vec<Fed>,
}

impl Run {
    /// Starts a run of `source` (see [`prepare`]) on `input`.
    pub fn start(source: Source, input: Value, options: RunOptions) -> Result<Run, RunError> {
        let (program, parallel) = source.program(&input, &options)?;
        let plan = program.plan();
        pins::check(&plan, &options.pins)?;
        let mut run = Run {
            kernel: Kernel::new(options.start_ms, parallel),
            source,
            input,
            options,
            program,
            history: Vec::new(),
        };
        let started = crate::trace::Event::RunStarted {
            kind: run.source.kind().to_owned(),
            name: run.source.name().map(str::to_owned),
            input: run.input.clone(),
            plan,
            start_ms: (run.options.start_ms > 0).then_some(run.options.start_ms),
        };
        run.kernel.event(None, started);
        run.program.start(&mut run.kernel);
        Ok(run)
    }

    /// Every action ready now that was not handed out before; once the run is over, its ending
    /// (`Complete`, `Refuse` or `Fail`) comes once.
    // Not an iterator: one call hands out a batch (a whole parallel level at once).
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> Vec<Action> {
        self.kernel.next()
    }

    /// Sets the clock (milliseconds) for what happens next: traces and timings use it.
    pub fn set_clock(&mut self, now_ms: u64) {
        self.kernel.now = self.kernel.now.max(now_ms);
    }

    /// Feeds what happened to action `id`.
    pub fn feed(&mut self, id: &str, observation: Observation) -> Result<(), RunError> {
        if self.kernel.ending.is_some() {
            return Err(RunError::new("the run is over"));
        }
        let waiter = self
            .kernel
            .settle(id, |kind| observation.answers(kind))
            .map_err(RunError::new)?;
        self.history.push(Fed {
            id: id.to_owned(),
            at: self.kernel.now,
            observation: observation.clone(),
        });
        self.program.observe(&mut self.kernel, waiter, observation);
        Ok(())
    }

    /// Trace events since the last call: JSON objects with `seq`, `event`, `t` and `node`
    /// ([`Record::into_value`](crate::trace::Record::into_value)).
    pub fn take_events(&mut self) -> Vec<Value> {
        self.kernel
            .take_records()
            .into_iter()
            .map(crate::trace::Record::into_value)
            .collect()
    }

    /// Trace events since the last call, typed (what [`Run::take_events`] gives as JSON).
    pub fn take_records(&mut self) -> Vec<crate::trace::Record> {
        self.kernel.take_records()
    }

    /// How many trace events the run has produced.
    pub fn events_emitted(&self) -> u64 {
        self.kernel.seq()
    }

    /// Where the run is now.
    pub fn status(&self) -> Status {
        match &self.kernel.ending {
            Some(Ending::Completed(_)) => Status::Completed,
            Some(Ending::Refused(_)) => Status::Refused,
            Some(Ending::Failed(_)) => Status::Failed,
            None => {
                let mut outstanding = self.kernel.outstanding().peekable();
                if outstanding.peek().is_some()
                    && outstanding.all(|(_, kind)| matches!(kind, ActionKind::AskReview { .. }))
                {
                    Status::Paused
                } else {
                    Status::Running
                }
            }
        }
    }

    /// Whether action `id` still waits for an observation (a loop or the run's end can withdraw
    /// actions already handed out; a driver skips those).
    pub fn is_outstanding(&self, id: &str) -> bool {
        self.kernel.ending.is_none() && self.kernel.outstanding().any(|(waiting, _)| waiting == id)
    }

    /// Actions handed out and not yet answered (after a resume: the ones to carry out again).
    pub fn outstanding(&self) -> Vec<Action> {
        self.kernel
            .outstanding()
            .map(|(id, kind)| Action {
                id: id.clone(),
                kind: kind.clone(),
            })
            .collect()
    }

    /// The run as versioned JSON: source, input, options and every observation fed so far.
    pub fn snapshot(&self) -> Value {
        snapshot::write(self)
    }

    /// Continues a run from [`Run::snapshot`]: exactly where it stopped, no call repeated. The
    /// events already emitted come again from `take_events` (a driver that kept its trace skips
    /// the first [`Run::events_emitted`] it had written).
    pub fn resume(snapshot: &Value) -> Result<Run, RunError> {
        snapshot::read(snapshot)
    }
}

#[cfg(test)]
mod tests;
