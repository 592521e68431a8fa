//! The studio's driver of the sans-IO engine: it carries out the engine's actions in the page,
//! in time slices, and stops where the user must act (a breakpoint, a review) or the run ends.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use logicmd::analysis::Options;
use logicmd::run::{
    prepare_reporting, rerun_pins, Action, ActionKind, Answer, Observation, Provider, Run,
    RunOptions, Scripted, Source, Synthetic, Verdict,
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
    /// The provider could not answer (a script without the answer, for instance).
    Stuck(String),
    /// A model call for the server: the run goes on once [`Driver::feed`] gives its answer.
    Call(Action),
    /// A verification needs the world (a tool): the person answers it in the node card.
    Tool(ToolCheck),
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
    run: Run,
    synthetic: Synthetic,
    script: Option<Scripted>,
    /// Model calls go to this server (the studio's `fetch` carries them out).
    pub endpoint: Option<Endpoint>,
    queue: VecDeque<Action>,
    /// Tool checks the script does not answer are answered "unverifiable" (else a person
    /// answers them).
    pub auto_answer: bool,
    /// Nodes whose breakpoint has fired (each fires once a run).
    released: BTreeSet<String>,
    over: bool,
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
        let script = match provider {
            ProviderChoice::Synthetic | ProviderChoice::OpenAi(_) => None,
            ProviderChoice::Scripted(text) => {
                Some(Scripted::parse(text).map_err(|e| format!("The script cannot be read: {e}"))?)
            }
        };
        let options = RunOptions {
            pins,
            ..RunOptions::default()
        };
        let synthetic = Synthetic::new(&source, options.seed);
        let run = Run::start(source, input, options).map_err(|e| e.message)?;
        Ok(Driver {
            run,
            synthetic,
            script,
            endpoint: match provider {
                ProviderChoice::OpenAi(endpoint) => Some(endpoint.clone()),
                _ => None,
            },
            queue: VecDeque::new(),
            auto_answer: true,
            released: BTreeSet::new(),
            over: false,
        })
    }

    /// Carries out actions until `budget_ms` of `now` has passed, `max_actions` were carried out,
    /// or something halts the run. `breakpoints` are node names to pause before.
    pub fn slice(
        &mut self,
        budget_ms: f64,
        max_actions: usize,
        breakpoints: &BTreeSet<String>,
        now: impl Fn() -> f64,
    ) -> (Vec<Value>, Option<Halt>) {
        let started = now();
        let mut done = 0;
        let halt = loop {
            if done >= max_actions || now() - started >= budget_ms {
                break None;
            }
            if let Some(halt) = self.one(breakpoints) {
                break Some(halt);
            }
            done += 1;
        };
        (self.run.take_events(), halt)
    }

    /// Carries out the next action, or says why it cannot.
    fn one(&mut self, breakpoints: &BTreeSet<String>) -> Option<Halt> {
        if self.over {
            return Some(Halt::Finished);
        }
        if self.queue.is_empty() {
            self.queue.extend(self.run.next());
        }
        let Some(action) = self.queue.front().cloned() else {
            // Only reviews outstanding: the review halt was given when it was handed out.
            return Some(Halt::Stuck("the run waits for a review".to_owned()));
        };
        if action.kind.is_terminal() {
            self.queue.pop_front();
            self.over = true;
            return Some(Halt::Finished);
        }
        if !self.run.is_outstanding(&action.id) {
            self.queue.pop_front();
            return None;
        }
        if let ActionKind::CallModel { node, .. } = &action.kind {
            if breakpoints.contains(node) && self.released.insert(node.clone()) {
                return Some(Halt::Breakpoint(node.clone()));
            }
        }
        self.queue.pop_front();
        if self.endpoint.is_some() && matches!(action.kind, ActionKind::CallModel { .. }) {
            return Some(Halt::Call(action));
        }
        match self.observe(&action) {
            Ok(Some(observation)) => match self.run.feed(&action.id, observation) {
                Ok(()) => None,
                Err(error) => Some(Halt::Stuck(error.message)),
            },
            Ok(None) => match action.kind {
                ActionKind::AskReview {
                    node,
                    input,
                    message,
                    actions,
                } => Some(Halt::Review(Review {
                    id: action.id,
                    node,
                    message,
                    input,
                    actions,
                })),
                ActionKind::CallTool {
                    node,
                    name,
                    arguments,
                } => Some(Halt::Tool(ToolCheck {
                    id: action.id,
                    node,
                    tool: name,
                    arguments,
                })),
                _ => None,
            },
            Err(reason) => Some(Halt::Stuck(reason)),
        }
    }

    /// The observation for `action`: the script's answer when it has one, else the synthetic
    /// provider's; a tool nobody answers is "unverifiable" with auto-answer on, else left to
    /// the person like a review (`Ok(None)`).
    fn observe(&mut self, action: &Action) -> Result<Option<Observation>, String> {
        if let Some(script) = &mut self.script {
            match script.answer(action, &mut |_| {}) {
                Answer::Observed(observation) => return Ok(Some(observation)),
                Answer::Unanswered(reason) => {
                    if matches!(action.kind, ActionKind::CallModel { .. }) {
                        return Err(reason);
                    }
                }
            }
        }
        match &action.kind {
            ActionKind::AskReview { .. } => Ok(None),
            ActionKind::CallTool { .. } if !self.auto_answer => Ok(None),
            ActionKind::CallTool { .. } => Ok(Some(Observation::ToolResult(Verdict {
                passed: false,
                evidence: None,
                unverifiable: true,
            }))),
            _ => match self.synthetic.answer(action, &mut |_| {}) {
                Answer::Observed(observation) => Ok(Some(observation)),
                Answer::Unanswered(reason) => Err(reason),
            },
        }
    }

    /// Feeds the answer to a model call handed out by [`Halt::Call`].
    pub fn feed(&mut self, id: &str, observation: Observation) -> Result<(), String> {
        self.run.feed(id, observation).map_err(|e| e.message)
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
        self.run
            .feed(id, Observation::ToolResult(verdict))
            .map_err(|e| e.message)
    }

    /// Answers the review `id` with `choice`; the run goes on from there.
    pub fn decide(&mut self, id: &str, choice: &str) -> Result<(), String> {
        let observation = Observation::ReviewAnswer {
            action: choice.to_owned(),
            note: None,
        };
        self.run.feed(id, observation).map_err(|e| e.message)
    }
}

/// Outputs given in advance, by trace node id.
pub type Pins = BTreeMap<String, Value>;

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

/// Most actions a dry run carries out looking for a node's model call.
const DRY_RUN_ACTIONS: usize = 10_000;

/// What the model will be sent for `node`'s first call: a dry run of the engine with synthetic
/// answers up to that call (so it cannot differ from what a run sends), reviews answered with
/// their first action. `None` when the run never calls a model for `node`.
pub fn compiled_request(text: &str, input: Value, node: &str) -> Result<Option<Action>, String> {
    let mut driver = Driver::start(text, input, &ProviderChoice::Synthetic, Pins::new())?;
    let breakpoints = BTreeSet::from([node.to_owned()]);
    for _ in 0..DRY_RUN_ACTIONS {
        match driver.one(&breakpoints) {
            None => {}
            Some(Halt::Breakpoint(_)) => return Ok(driver.queue.front().cloned()),
            Some(Halt::Review(review)) => {
                let first = review.actions.first().cloned().unwrap_or_default();
                driver.decide(&review.id, &first)?;
            }
            Some(_) => return Ok(None),
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
