//! The studio's driver of the core's run session (`logicmd::run::session::Session`, the same
//! driver the CLI and the npm package use): the session keeps every rule of running — the order
//! answers are fed in, the clock, what a call nobody answers becomes, the synthetic and scripted
//! answers — and this module only slices its work into animation frames, hands the calls a
//! server answers (and the waits between them) to the page's `fetch` and timers, and stops
//! where the user must act (a breakpoint, a review, a tool check) or the run ends.

use std::collections::BTreeSet;

use logicmd::analysis::Options;
use logicmd::run::session::{
    no_checker, Answerers, ClockMode, Models, Next, Session, Start, Waits,
};
use logicmd::run::{
    prepare_reporting, rerun_pins, Action, ActionKind, Answer, Observation, RunOptions, Scripted,
    Source, Verdict,
};
use serde_json::Value;

use super::openai::Endpoint;
use crate::analysis::{bundled_files, DOCUMENT_ID};

/// Who answers model calls.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProviderChoice {
    /// Answers valid for each step's schema, no network (the default).
    Synthetic,
    /// Answers from a script (YAML list or JSON Lines, or a trace), as `--provider scripted:FILE`.
    Scripted(String),
    /// An OpenAI-compatible server, called from the page with `fetch`.
    OpenAi(Endpoint),
}

/// Why a slice stopped before its time ran out.
#[derive(Debug, Clone, PartialEq)]
pub enum Halt {
    /// A breakpoint: the node's first model call is next.
    Breakpoint(String),
    /// A review waits for a person: (action id, node, message, input, actions).
    Review(Review),
    /// The run is over.
    Finished,
    /// The driving itself failed (an answer the run refused).
    Stuck(String),
    /// Nothing to do until a call handed out (to the server, or a wait) is answered.
    Waiting,
    /// A verification needs the world (a tool): the person answers it in the node card.
    Tool(ToolCheck),
}

/// What one slice did: its events, the calls to carry out now (model calls for the server and
/// waits to sleep through, all at once: they are in flight together), and why it stopped.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Slice {
    pub events: Vec<Value>,
    pub calls: Vec<Action>,
    pub halt: Option<Halt>,
}

/// A tool check waiting for a person: which node, which rule, on what.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolCheck {
    pub id: String,
    pub node: String,
    pub tool: String,
    pub arguments: Value,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Review {
    pub id: String,
    pub node: String,
    pub message: Option<String>,
    pub input: Value,
    pub actions: Vec<String>,
}

pub struct Driver {
    session: Session,
    /// Model calls go to this server (the studio's `fetch` carries them out).
    pub endpoint: Option<Endpoint>,
    /// Tool checks nothing answers are answered "unverifiable" (else a person answers them).
    pub auto_answer: bool,
}

impl Driver {
    /// Prepares `text` as the studio's document and starts a run on `input`, the nodes in
    /// `pins` finishing at once with their pinned output.
    pub fn start(
        text: &str,
        input: Value,
        provider: &ProviderChoice,
        pins: Pins,
    ) -> Result<Driver, String> {
        Driver::with_source(prepare_text(text)?, input, provider, pins)
    }

    /// Runs `text` again from node `from`: every node `previous` (the last run's trace)
    /// finished that does not depend on `from` keeps its output (pinned), so only `from` and
    /// what depends on it call the model. `pins` (the user's) win over the previous outputs.
    pub fn start_from(
        text: &str,
        input: Value,
        provider: &ProviderChoice,
        pins: Pins,
        previous: &[Value],
        from: &str,
    ) -> Result<Driver, String> {
        let source = prepare_text(text)?;
        let mut all = rerun_pins(&source, previous, from).map_err(|e| e.message)?;
        all.extend(pins);
        Driver::with_source(source, input, provider, all)
    }

    fn with_source(
        source: Source,
        input: Value,
        provider: &ProviderChoice,
        pins: Pins,
    ) -> Result<Driver, String> {
        let models = match provider {
            ProviderChoice::Synthetic => Models::Synthetic,
            ProviderChoice::Scripted(text) => Models::Scripted(
                Scripted::parse(text).map_err(|e| format!("The script cannot be read: {e}"))?,
            ),
            ProviderChoice::OpenAi(_) => Models::Caller,
        };
        let options = RunOptions {
            pins,
            ..RunOptions::default()
        };
        // The trace keeps the fixed clock (reproducible); a server's waits are still slept.
        let answerers = Answerers {
            waits: Waits::for_run(&models, ClockMode::Fixed),
            models,
            facts: None,
        };
        let start = Start::new(source, input, options, ClockMode::Fixed, 0);
        let session = Session::start(start, answerers).map_err(|e| e.message)?;
        Ok(Driver {
            session,
            endpoint: match provider {
                ProviderChoice::OpenAi(endpoint) => Some(endpoint.clone()),
                _ => None,
            },
            auto_answer: true,
        })
    }

    /// Carries the run on until `budget_ms` of `now` has passed, `max_actions` steps were taken,
    /// or something halts it. `breakpoints` are node names to pause before.
    pub fn slice(
        &mut self,
        budget_ms: f64,
        max_actions: usize,
        breakpoints: &BTreeSet<String>,
        now: impl Fn() -> f64,
    ) -> Slice {
        self.session.set_breakpoints(breakpoints.clone());
        let started = now();
        let mut slice = Slice::default();
        let mut done = 0;
        slice.halt = loop {
            if done >= max_actions || now() - started >= budget_ms {
                break None;
            }
            done += 1;
            match self.session.next(0) {
                Next::Fed => {}
                Next::Act(action) => match self.act(action) {
                    Ok(Some(call)) => slice.calls.push(call),
                    Ok(None) => {}
                    Err(halt) => break Some(halt),
                },
                Next::Breakpoint(action) => {
                    break Some(Halt::Breakpoint(
                        action.kind.node().unwrap_or_default().to_owned(),
                    ))
                }
                // The reviews and tools a person answers halted when they were handed out.
                Next::Waiting | Next::Paused(_) => break Some(Halt::Waiting),
                Next::Ended(_) => break Some(Halt::Finished),
            }
        };
        slice.events = self.session.take_events();
        slice
    }

    /// What to do about an action handed out: a call for the page to carry out, nothing (it is
    /// answered already), or a halt for the person.
    fn act(&mut self, action: Action) -> Result<Option<Action>, Halt> {
        match action.kind {
            ActionKind::CallModel { .. } | ActionKind::Wait { .. } => Ok(Some(action)),
            ActionKind::CallTool { name, .. } if self.auto_answer => {
                let reason = no_checker(&name);
                self.session
                    .answer(&action.id, Answer::Unanswered(reason), 0)
                    .map_err(|e| Halt::Stuck(e.message))?;
                Ok(None)
            }
            ActionKind::CallTool {
                node,
                name,
                arguments,
            } => {
                self.session
                    .park(&action.id)
                    .map_err(|e| Halt::Stuck(e.message))?;
                Err(Halt::Tool(ToolCheck {
                    id: action.id,
                    node,
                    tool: name,
                    arguments,
                }))
            }
            ActionKind::AskReview {
                node,
                input,
                message,
                actions,
            } => Err(Halt::Review(Review {
                id: action.id,
                node,
                message,
                input,
                actions,
            })),
            _ => Ok(None),
        }
    }

    /// Feeds the answer to a call handed out by a slice (a model call's, or `Waited`).
    pub fn feed(&mut self, id: &str, observation: Observation) -> Result<(), String> {
        self.session
            .answer(id, Answer::Observed(observation), 0)
            .map_err(|e| e.message)
    }

    /// Answers the tool check `id` as a person did: passed or not, with their evidence.
    pub fn answer_tool(&mut self, id: &str, passed: bool, evidence: String) -> Result<(), String> {
        let verdict = Verdict {
            passed,
            evidence: Some(evidence)
                .filter(|e| !e.trim().is_empty())
                .map(Value::String),
            unverifiable: false,
        };
        self.feed(id, Observation::ToolResult(verdict))
    }

    /// Answers the review `id` with `choice`; the run goes on from there.
    pub fn decide(&mut self, id: &str, choice: &str) -> Result<(), String> {
        let observation = Observation::ReviewAnswer {
            action: choice.to_owned(),
            note: None,
        };
        self.feed(id, observation)
    }
}

/// Outputs given in advance, by trace node id.
pub type Pins = std::collections::BTreeMap<String, Value>;

/// `text` prepared as the studio's document, or why it cannot run.
fn prepare_text(text: &str) -> Result<Source, String> {
    let options = Options::lint(DOCUMENT_ID);
    prepare_reporting(text, &options, &bundled_files())
        .map(|prepared| prepared.source)
        .map_err(|errors| {
            let listed: Vec<String> = errors
                .iter()
                .map(|d| format!("{}:{}: {}", d.line, d.column, d.message))
                .collect();
            format!("The document cannot run: {}", listed.join("; "))
        })
}

/// Most steps a dry run takes looking for a node's model call.
const DRY_RUN_STEPS: usize = 10_000;

/// What the model will be sent for `node`'s first call: a dry run of the session with synthetic
/// answers up to that call (so it cannot differ from what a run sends), reviews answered with
/// their first action. `None` when the run never calls a model for `node`.
pub fn compiled_request(text: &str, input: Value, node: &str) -> Result<Option<Action>, String> {
    let mut driver = Driver::start(text, input, &ProviderChoice::Synthetic, Pins::new())?;
    driver
        .session
        .set_breakpoints(BTreeSet::from([node.to_owned()]));
    for _ in 0..DRY_RUN_STEPS {
        match driver.session.next(0) {
            Next::Breakpoint(action) => return Ok(Some(action)),
            Next::Fed => {}
            Next::Act(action) => match driver.act(action) {
                Ok(_) => {}
                Err(Halt::Review(review)) => {
                    let first = review.actions.first().cloned().unwrap_or_default();
                    driver.decide(&review.id, &first)?;
                }
                Err(_) => return Ok(None),
            },
            _ => return Ok(None),
        }
    }
    Ok(None)
}

/// Whether `node` of `text` can be pinned to `output` (the engine refuses pins on nodes that
/// check or route, and on names the document does not have): a run is started to ask it.
pub fn check_pin(text: &str, node: &str, output: Value) -> Result<(), String> {
    let pins = Pins::from([(node.to_owned(), output)]);
    Driver::start(text, Value::Null, &ProviderChoice::Synthetic, pins).map(|_| ())
}

#[cfg(test)]
mod tests;
