//! Run mode: the document runs in the page (the core's sans-IO engine in the studio's wasm),
//! driven in slices of at most [`SLICE_MS`] per animation frame, so the canvas stays responsive
//! and its run states change once per frame, in one batch.

pub mod canvas;
mod card;
mod driver;
mod engine;
mod input;
mod mode;
mod openai;
mod outcome;
mod panel;
mod phase;
mod pin;
mod review;
mod setup;
pub mod states;
mod tool;
mod trace;

use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

use leptos::leptos_dom::helpers::{set_interval_with_handle, IntervalHandle};
use leptos::prelude::*;
use serde_json::Value;

pub use driver::ProviderChoice;
use driver::{Halt, Pins, Slice};
use engine::{Load, RunMode, Session};
pub use openai::Endpoint;
pub use panel::{run_now, RunPanel};
pub use phase::{Pause, Phase};
pub use setup::SetupFields;
use states::{Mark, RunStates};

use crate::browser;

/// The longest a frame's engine work may take: the rest of a 16.7 ms frame is the browser's.
const SLICE_MS: f64 = 6.0;

/// How often a running node's elapsed time is redrawn.
const ELAPSED_TICK_MS: u64 = 200;

/// The run's state shared by the panel and the canvas.
#[derive(Clone, Copy)]
pub struct RunState {
    /// Every trace event of the run (or of the replayed trace), in order.
    pub events: RwSignal<Vec<Value>>,
    /// The node states after the events shown (all of them, or a replay's prefix).
    pub states: RwSignal<RunStates>,
    pub phase: RwSignal<Phase>,
    /// What the studio did during the run (breakpoint pauses, Stop), each at the number of
    /// events there were then: folded into the states with the events.
    pub marks: RwSignal<Vec<(usize, Mark)>>,
    /// Tool checks the script does not answer are answered "unverifiable" at once.
    pub auto_answer: RwSignal<bool>,
    /// The run's input as the panel holds it (JSON text), for the compiled prompt view.
    pub input: RwSignal<String>,
    /// Node names to pause before.
    pub breakpoints: RwSignal<BTreeSet<String>>,
    /// Frame times of the run (ms spent in the engine per frame), for the measurements.
    pub frame_ms: RwSignal<Vec<f64>>,
    /// The node a server is answering, and the tokens streamed so far (kept after the answer).
    pub streamed: RwSignal<Option<(String, String)>>,
    /// Outputs the user pinned, by node name: runs use them instead of calling the model.
    pub pins: RwSignal<Pins>,
    /// The input and provider of the last run started: "Run from here" runs with them again.
    last: StoredValue<Option<(Value, ProviderChoice)>, LocalStorage>,
    /// When (page clock, ms) each running node started: its pill shows the time since. The
    /// trace's clock stays the engine's (fixed), so traces stay deterministic.
    pub running_since: RwSignal<BTreeMap<String, f64>>,
    /// The page clock while a run is active, ticked by [`ELAPSED_TICK_MS`].
    pub clock: RwSignal<f64>,
    /// How long each node that finished ran (ms on the page clock, since it last started or
    /// went on from a breakpoint): the card's duration. The trace's own clock is fixed.
    pub durations: RwSignal<BTreeMap<String, f64>>,
    ticker: StoredValue<Option<IntervalHandle>, LocalStorage>,
    /// Calls in flight (model calls to the server, waits being slept).
    in_flight: RwSignal<usize>,
    /// The last slice found nothing to do until a call in flight is answered: the frame loop
    /// waits for one.
    waiting: RwSignal<bool>,
    /// The run in progress (run mode's chunk made it: see [`engine`]).
    driver: StoredValue<Option<Box<dyn Session>>, LocalStorage>,
    /// Whether run mode's chunk is loaded (fetched on the first Run).
    pub mode: RwSignal<Load>,
    /// A run was asked for and waits for run mode's chunk.
    pub starting: RwSignal<bool>,
}

impl RunState {
    pub fn new() -> RunState {
        RunState {
            events: RwSignal::new(Vec::new()),
            states: RwSignal::new(RunStates::default()),
            phase: RwSignal::new(Phase::Idle),
            marks: RwSignal::new(Vec::new()),
            auto_answer: RwSignal::new(true),
            input: RwSignal::new("{}".to_owned()),
            breakpoints: RwSignal::new(BTreeSet::new()),
            frame_ms: RwSignal::new(Vec::new()),
            streamed: RwSignal::new(None),
            pins: RwSignal::new(Pins::new()),
            last: StoredValue::new_local(None),
            running_since: RwSignal::new(BTreeMap::new()),
            clock: RwSignal::new(0.0),
            durations: RwSignal::new(BTreeMap::new()),
            ticker: StoredValue::new_local(None),
            in_flight: RwSignal::new(0),
            waiting: RwSignal::new(false),
            driver: StoredValue::new_local(None),
            mode: RwSignal::new(Load::NotLoaded),
            starting: RwSignal::new(false),
        }
    }

    /// Starts a run of `text` on `input`: the canvas shows it frame by frame. The first run
    /// waits for run mode's chunk ([`RunState::mode`] says it is loading).
    pub fn start(self, text: &str, input: Value, provider: &ProviderChoice) {
        let pins = self.pins.get_untracked();
        self.last.set_value(Some((input.clone(), provider.clone())));
        let (text, provider) = (text.to_owned(), provider.clone());
        self.begin(move |mode| self.launch(mode.start(&text, input, &provider, pins)));
    }

    /// Starts a run with run mode once it is loaded; while a run waits for it, asking again
    /// does nothing.
    fn begin(self, then: impl FnOnce(&'static dyn RunMode) + 'static) {
        if self.starting.get_untracked() {
            return;
        }
        self.starting.set(true);
        self.with_mode(move |mode| {
            self.starting.set(false);
            then(mode);
        });
    }

    /// Calls `then` with run mode: at once when its chunk is loaded, else once it is (a chunk
    /// that cannot be loaded stops the run with the reason).
    pub fn with_mode(self, then: impl FnOnce(&'static dyn RunMode) + 'static) {
        if let Some(mode) = engine::loaded() {
            return then(mode);
        }
        leptos::task::spawn_local(async move {
            match engine::run_mode(self.mode).await {
                Ok(mode) => then(mode),
                Err(reason) => {
                    self.starting.set(false);
                    self.phase.set(Phase::Stopped(reason));
                }
            }
        });
    }

    /// Fetches run mode's chunk ahead of a click (a pointer over Run, or focus on it).
    pub fn preload(self) {
        engine::preload(self.mode);
    }

    /// Run mode for a view that shows what it computes (tracked: the view redraws once the
    /// chunk is loaded; asking starts the load).
    pub fn mode_now(self) -> Option<&'static dyn RunMode> {
        self.mode.track();
        let mode = engine::loaded();
        if mode.is_none() {
            self.preload();
        }
        mode
    }

    /// Runs `text` again from `node` with the last run's input and provider: what does not
    /// depend on `node` keeps its output from the last run's trace (pinned).
    pub fn start_from(self, text: &str, node: &str) {
        let Some((input, provider)) = self.last.get_value() else {
            self.phase
                .set(Phase::Stopped("run the document once first".to_owned()));
            return;
        };
        let pins = self.pins.get_untracked();
        let (text, node) = (text.to_owned(), node.to_owned());
        self.begin(move |mode| {
            let session = self.events.with_untracked(|previous| {
                mode.start_from(&text, input, &provider, pins, previous, &node)
            });
            self.launch(session);
        });
    }

    fn launch(self, session: Result<Box<dyn Session>, String>) {
        self.running_since.set(BTreeMap::new());
        self.durations.set(BTreeMap::new());
        self.tick();
        self.events.set(Vec::new());
        self.marks.set(Vec::new());
        self.states.set(RunStates::default());
        self.frame_ms.set(Vec::new());
        self.streamed.set(None);
        self.in_flight.set(0);
        self.waiting.set(false);
        match session {
            Ok(mut session) => {
                session.set_auto_answer(self.auto_answer.get_untracked());
                self.driver.set_value(Some(session));
                self.phase.set(Phase::Running);
                self.schedule();
            }
            Err(reason) => {
                self.driver.set_value(None);
                self.phase.set(Phase::Stopped(reason));
            }
        }
    }

    pub fn pause(self) {
        if self.phase.get_untracked() == Phase::Running {
            self.phase.set(Phase::Paused(Pause::ByYou));
        }
    }

    /// Notes something the studio did at this point of the run, and folds it into the states.
    fn note(self, mark: Mark) {
        let at = self.events.with_untracked(Vec::len);
        self.states.update(|s| s.mark(&mark));
        self.marks.update(|m| m.push((at, mark)));
    }

    /// Leaves a pause: a node waiting at its breakpoint runs again (its clock starts again).
    fn go_on(self) {
        if let Phase::Paused(Pause::Breakpoint(node)) = self.phase.get_untracked() {
            self.running_since.update(|r| {
                r.insert(node, browser::now_ms());
            });
            self.note(Mark::Resumed);
        }
        self.phase.set(Phase::Running);
    }

    pub fn resume(self) {
        if self.phase.with_untracked(Phase::may_go_on) {
            self.go_on();
            self.schedule();
        }
    }

    /// Carries out the next action only, then stays paused.
    pub fn step(self) {
        if self.phase.with_untracked(Phase::may_go_on) {
            // A step past a breakpoint: the breakpoint has fired, so it does not stop it again.
            // Running for the step's length: a halt in it (a review, the end) says so instead.
            self.go_on();
            self.advance(f64::INFINITY, 1);
            if self.phase.get_untracked() == Phase::Running && self.in_flight.get_untracked() == 0 {
                self.phase.set(Phase::Paused(Pause::Stepped));
            }
        }
    }

    /// Stops the run: what was in progress is interrupted, what had not started is cancelled.
    pub fn stop(self) {
        if self.driver.with_value(Option::is_some) && self.phase.with_untracked(Phase::active) {
            self.driver.set_value(None);
            self.running_since.set(BTreeMap::new());
            self.note(Mark::Stopped);
            self.phase.set(Phase::Stopped("by you".to_owned()));
        }
    }

    /// Answers the pending review with `choice` (and the reviewer's note) and runs on.
    pub fn decide(self, choice: &str, note: Option<String>) {
        let Some(review) = self.phase.with_untracked(|p| p.review().cloned()) else {
            return;
        };
        let fed = self
            .driver
            .try_update_value(|d| d.as_mut().map(|d| d.decide(&review.id, choice, note)))
            .flatten();
        self.went_on(fed);
    }

    /// Answers the pending tool check as the person did, and runs on.
    pub fn answer_tool(self, passed: bool, evidence: String) {
        let Some(check) = self.phase.with_untracked(|p| p.tool().cloned()) else {
            return;
        };
        let fed = self
            .driver
            .try_update_value(|d| {
                d.as_mut()
                    .map(|d| d.answer_tool(&check.id, passed, evidence))
            })
            .flatten();
        self.went_on(fed);
    }

    /// After the person's answer was fed: the run goes on, or stops with the engine's reason.
    fn went_on(self, fed: Option<Result<(), String>>) {
        match fed {
            Some(Ok(())) => {
                self.phase.set(Phase::Running);
                self.schedule();
            }
            Some(Err(reason)) => self.phase.set(Phase::Stopped(reason)),
            None => {}
        }
    }

    fn schedule(self) {
        request_animation_frame(move || {
            if self.phase.get_untracked() != Phase::Running || self.waiting.get_untracked() {
                return;
            }
            let started = browser::now_ms();
            self.advance(SLICE_MS, usize::MAX);
            let spent = browser::now_ms() - started;
            self.frame_ms.update(|f| f.push(spent));
            if self.phase.get_untracked() == Phase::Running && !self.waiting.get_untracked() {
                self.schedule();
            }
        });
    }

    /// Starts a call a slice handed out (a model call to the server, or a wait); several are in
    /// flight at once. A model call's tokens stream into [`RunState::streamed`]; each answer is
    /// fed (the run feeds them in the order they were handed out) and the run goes on.
    fn send(self, action: logicmd::run::Action) {
        let node = action.kind.node().unwrap_or_default().to_owned();
        let id = action.id.clone();
        let is_wait = matches!(action.kind, logicmd::run::ActionKind::Wait { .. });
        let streaming = node.clone();
        // Several calls may stream at once: the panel shows the one that started last.
        let on_token = Box::new(move |token: &str| {
            self.streamed.update(|s| {
                if let Some((shown, text)) = s {
                    if *shown == streaming {
                        text.push_str(token);
                    }
                }
            });
        });
        let call = self.driver.try_update_value(|d| {
            d.as_mut()
                .filter(|d| d.calls_server())
                .map(|d| d.call_model(action, on_token))
        });
        let Some(Some(call)) = call else {
            return;
        };
        self.in_flight.update(|n| *n += 1);
        if !is_wait {
            self.streamed.set(Some((node, String::new())));
        }
        leptos::task::spawn_local(async move {
            let observation = call.await;
            self.in_flight.update(|n| *n = n.saturating_sub(1));
            let fed = self
                .driver
                .try_update_value(|d| d.as_mut().map(|d| d.feed(&id, observation)))
                .flatten();
            match fed {
                Some(Ok(())) => {
                    let was_waiting = self.waiting.get_untracked();
                    self.waiting.set(false);
                    if was_waiting && self.phase.get_untracked() == Phase::Running {
                        self.schedule();
                    }
                }
                Some(Err(reason)) => self.phase.set(Phase::Stopped(reason)),
                None => {}
            }
        });
    }

    /// Keeps [`RunState::clock`] going while the run is active (paused included: a node
    /// waiting at a breakpoint or for a server still shows its time), then stops.
    fn tick(self) {
        self.clock.set(browser::now_ms());
        if self.ticker.with_value(Option::is_some) {
            return;
        }
        let handle = set_interval_with_handle(
            move || {
                let active = matches!(
                    self.phase.get_untracked(),
                    Phase::Running | Phase::Paused(_)
                );
                if active {
                    self.clock.set(browser::now_ms());
                } else if let Some(handle) = self.ticker.try_update_value(Option::take).flatten() {
                    handle.clear();
                }
            },
            Duration::from_millis(ELAPSED_TICK_MS),
        );
        self.ticker.set_value(handle.ok());
    }

    /// Notes when nodes start and stop running, on the page clock.
    fn time_nodes(self, events: &[Value]) {
        let now = browser::now_ms();
        let mut changed = false;
        let mut since = self.running_since.get_untracked();
        let mut ran = Vec::new();
        for event in events {
            let Some(node) = event.get("node").and_then(Value::as_str) else {
                continue;
            };
            match event.get("event").and_then(Value::as_str) {
                Some("node_started") => changed |= since.insert(node.to_owned(), now).is_none(),
                Some("node_finished" | "node_skipped") => {
                    if let Some(started) = since.remove(node) {
                        changed = true;
                        ran.push((node.to_owned(), now - started));
                    }
                }
                _ => {}
            }
        }
        if changed {
            self.running_since.set(since);
        }
        if !ran.is_empty() {
            self.durations.update(|d| d.extend(ran));
        }
    }

    /// One slice of the engine; its events reach the canvas in one update.
    fn advance(self, budget_ms: f64, max_actions: usize) {
        let breakpoints = self.breakpoints.get_untracked();
        let sliced = self.driver.try_update_value(|d| {
            d.as_mut()
                .map(|d| d.slice(budget_ms, max_actions, &breakpoints, &browser::now_ms))
        });
        let Some(Some(Slice {
            events,
            calls,
            halt,
        })) = sliced
        else {
            return;
        };
        for call in calls {
            self.send(call);
        }
        if !events.is_empty() {
            self.time_nodes(&events);
            self.states
                .update(|s| events.iter().for_each(|e| s.apply(e)));
            self.events.update(|all| all.extend(events));
        }
        match halt {
            None => {}
            Some(Halt::Breakpoint(node)) => {
                self.note(Mark::Breakpoint(node.clone()));
                self.phase.set(Phase::Paused(Pause::Breakpoint(node)));
            }
            Some(Halt::Review(review)) => self.phase.set(Phase::Paused(Pause::Review(review))),
            Some(Halt::Finished) => {
                let status = self.states.with_untracked(|s| s.finished.clone());
                self.phase.set(Phase::Finished(
                    status.unwrap_or_else(|| "finished".to_owned()),
                ));
            }
            Some(Halt::Stuck(reason)) => self.phase.set(Phase::Stopped(reason)),
            Some(Halt::Waiting) => self.waiting.set(true),
            Some(Halt::Tool(check)) => self.phase.set(Phase::Paused(Pause::Tool(check))),
        }
    }

    /// Shows a trace (a dropped JSONL file) as if it had just run.
    pub fn replay(self, events: Vec<Value>) {
        self.driver.set_value(None);
        self.marks.set(Vec::new());
        self.durations.set(BTreeMap::new());
        self.states.set(RunStates::after(&events));
        let status = self.states.with_untracked(|s| s.finished.clone());
        self.events.set(events);
        self.phase.set(Phase::Finished(format!(
            "replayed trace: {}",
            status.unwrap_or_else(|| "unfinished".to_owned())
        )));
    }
}

impl Default for RunState {
    fn default() -> Self {
        RunState::new()
    }
}
