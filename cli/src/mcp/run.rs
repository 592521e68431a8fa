//! `run`, `resume_run` and `next_action`: runs driven by the CLI's driver around core's
//! `run::Session`, as `logicmd run` drives them (same preparation, input check, answerers and
//! report), with the trace's events as progress notifications and the request's cancellation
//! stopping the drive. Model calls go to the synthetic provider, a script given as text, or the
//! OpenAI-compatible server configured when the MCP server was started (`logicmd mcp --provider
//! openai ...`): its key is read from the server's environment and never appears in a result.

use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use logicmd::analysis::Depth;
use logicmd::next_action::{Decision, DecisionOptions, State, Step};
use logicmd::run::session::{
    check_input, contracts_of, example_input, Answerers, ClockMode, Models, Session, Start, Waits,
};
use logicmd::run::{Answer, Observation, Provider, RunOptions, Scripted};
use logicmd::Diagnostic;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use tokio::sync::mpsc::UnboundedSender;

use super::paused::{self, Paused};
use super::roots::Roots;
use super::schemas::DiagnosticSchema;
use super::shaped::Shaped;
use super::source::Source;
use super::tools::Misuse;
use crate::providers::{OpenAiProvider, Settings};
use crate::run::driver::{wall_ms, Driver, Ending, Records};
use crate::run::progress::{Progress, ProgressMode};
use crate::run::report::Report;
use crate::run::summary::Summary;
use crate::run::tools::Checkers;

/// Most model and tool calls in flight at once (as `logicmd run`'s default).
const MAX_PARALLEL: usize = 4;
/// A link check's time limit (as `logicmd run`'s default).
const LINK_TIMEOUT: Duration = Duration::from_secs(10);

/// What a long call sees of the server and of its request.
pub struct LongContext {
    pub roots: Roots,
    /// The OpenAI-compatible provider's settings, when the server allows it.
    pub openai: Option<Settings>,
    /// Each progress line (one per trace event) as it happens.
    pub progress: UnboundedSender<String>,
    pub cancel: Arc<AtomicBool>,
}

#[derive(Deserialize, JsonSchema, Clone, Copy, PartialEq)]
#[serde(rename_all = "snake_case")]
pub enum ProviderArg {
    /// Synthetic answers, valid for each step's schema and simple checks: no model is called.
    DryRun,
    /// The answers of `script`.
    Scripted,
    /// The OpenAI-compatible server the MCP server was started with (`--provider openai`).
    Openai,
}

#[derive(Deserialize, JsonSchema)]
pub struct RunArgs {
    #[serde(flatten)]
    source: Source,
    /// Who answers model calls.
    provider: ProviderArg,
    /// The run's input, checked against `contracts.inputs` as the document's
    /// `contracts.validation` says. Default: `{}` (with `dry_run`, an example value for every
    /// declared input).
    #[serde(default)]
    #[schemars(with = "Option<serde_json::Map<String, Value>>")]
    input: Option<Value>,
    /// With `scripted`: the answers, a YAML list or JSON Lines by node, attempt, tool rule or
    /// review (a trace works too).
    #[serde(default)]
    script: Option<String>,
    /// With `dry_run`: the seed of the synthetic answers.
    #[serde(default)]
    seed: Option<u64>,
    /// Include the run's trace (its events) in the result, for `trace_check`.
    #[serde(default)]
    trace: bool,
}

#[derive(Deserialize, JsonSchema)]
pub struct ResumeArgs {
    /// The `run_id` of the paused run.
    run_id: String,
    /// The review's decision: one of the `actions` it lists.
    action: String,
    /// The node of the review to answer, when several wait.
    #[serde(default)]
    node: Option<String>,
    /// A note to go with the decision (recorded in the trace).
    #[serde(default)]
    note: Option<String>,
    /// Include the run's whole trace in the result.
    #[serde(default)]
    trace: bool,
}

/// A run's report (as `logicmd run --format json`, with the run's id when it pauses).
#[allow(dead_code)]
#[derive(JsonSchema)]
pub struct RunReport {
    /// `completed`, `refused` (obligations unmet), `failed`, or `paused` (reviews wait: answer
    /// with `resume_run`); absent when the document could not run (see `diagnostics`).
    #[serde(skip_serializing_if = "Option::is_none")]
    status: Option<String>,
    /// The run's output, when it completed.
    #[serde(skip_serializing_if = "Option::is_none")]
    output: Option<Value>,
    /// Steps, calls, tokens, time.
    #[serde(skip_serializing_if = "Option::is_none")]
    summary: Option<serde_json::Map<String, Value>>,
    /// What was unmet, when refused: node, rule, reason.
    #[serde(skip_serializing_if = "Option::is_none")]
    unmet: Option<Vec<serde_json::Map<String, Value>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
    /// The reviews that wait: node, message, input, actions.
    #[serde(skip_serializing_if = "Option::is_none")]
    reviews: Option<Vec<serde_json::Map<String, Value>>>,
    /// The id `resume_run` takes, when paused.
    #[serde(skip_serializing_if = "Option::is_none")]
    run_id: Option<String>,
    /// The events, when asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    trace: Option<Vec<serde_json::Map<String, Value>>>,
    /// Why the document was not run (lint errors), or the warnings it ran despite.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<Vec<DiagnosticSchema>>")]
    diagnostics: Option<Vec<Diagnostic>>,
}

pub type RunResult = Shaped<RunReport>;

pub fn run(context: &LongContext, args: RunArgs) -> Result<RunResult, Misuse> {
    let loaded = args.source.load(&context.roots)?;
    let document = loaded.name.clone().unwrap_or_else(|| "<text>".to_owned());
    let text = match loaded.text() {
        Ok(text) => text.to_owned(),
        Err(problem) => return Ok(not_run(vec![problem])),
    };
    let prepared =
        match logicmd::run::prepare_reporting(&text, &loaded.options(Depth::Lint), &*loaded.loader)
        {
            Ok(prepared) => prepared,
            Err(problems) => return Ok(not_run(problems)),
        };
    let contracts = contracts_of(&prepared.source);
    let input = match args.input {
        Some(input) => input,
        None if args.provider == ProviderArg::DryRun => example_input(&contracts),
        None => json!({}),
    };
    let check = check_input(&contracts, &input);
    if check.rejects() {
        return Err(Misuse(format!(
            "`input` breaks contracts.inputs, and the document's contracts.validation rejects the run: {}",
            check.problems.join("; ")
        )));
    }
    let (models, model) = models(
        context,
        args.provider,
        args.script.as_deref(),
        loaded.file.as_deref(),
    )?;
    let simulated = models.simulated();
    let clock = if simulated {
        ClockMode::Fixed
    } else {
        ClockMode::Real
    };
    let options = RunOptions {
        max_parallelism: MAX_PARALLEL,
        seed: args.seed.unwrap_or(0),
        ..RunOptions::default()
    };
    let start = Start::new(prepared.source, input, options, clock, wall_ms());
    let answerers = Answerers {
        waits: Waits::for_run(&models, clock),
        models,
        facts: None,
    };
    let session = Session::start(start, answerers)
        .map_err(|error| Misuse(format!("cannot run {document}: {error}")))?;
    let mut driver = driver(context, session, model.clone(), simulated, Vec::new());
    let ending = drive(&mut driver)?;
    let mut report = finish(driver, ending, document, model, simulated, args.trace);
    if !prepared.tolerated.is_empty() {
        report["diagnostics"] = json!(prepared.tolerated);
    }
    Ok(Shaped::new(report))
}

pub fn resume(context: &LongContext, args: ResumeArgs) -> Result<RunResult, Misuse> {
    let Some(paused) = paused::take(&args.run_id) else {
        return Err(Misuse(format!(
            "no paused run `{}` (it ended, was answered already, or the server restarted)",
            args.run_id
        )));
    };
    let review = match review_of(&paused.session, &args) {
        Ok(review) => review,
        Err(why) => {
            // Not answered: it stays paused, under a new id.
            let kept = paused::keep(paused);
            return Err(Misuse(format!("{why} (the run waits still, as `{kept}`)")));
        }
    };
    let Paused {
        session,
        events,
        document,
        model,
        simulated,
    } = paused;
    let mut driver = driver(context, session, model.clone(), simulated, events);
    driver
        .session
        .answer(
            &review,
            Answer::Observed(Observation::ReviewAnswer {
                action: args.action.clone(),
                note: args.note.clone(),
            }),
            wall_ms(),
        )
        .map_err(|error| Misuse(format!("the run refused the answer: {error}")))?;
    driver.record().map_err(Misuse)?;
    let ending = drive(&mut driver)?;
    Ok(Shaped::new(finish(
        driver, ending, document, model, simulated, args.trace,
    )))
}

/// The id of the review `args` answer, checked against the actions it offers.
fn review_of(session: &Session, args: &ResumeArgs) -> Result<String, String> {
    let reviews = crate::run::resume::open_reviews(session);
    let candidates: Vec<&(String, String, Vec<String>)> = reviews
        .iter()
        .filter(|(_, node, _)| args.node.as_ref().is_none_or(|wanted| wanted == node))
        .collect();
    let nodes = || {
        reviews
            .iter()
            .map(|(_, node, _)| format!("`{node}`"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let (id, node, actions) = match candidates.as_slice() {
        [one] => *one,
        [] => {
            return Err(format!(
                "no review waits at that node (reviews wait at: {})",
                nodes()
            ))
        }
        _ => return Err(format!("several reviews wait ({}): give `node`", nodes())),
    };
    if !actions.contains(&args.action) {
        return Err(format!(
            "`{}` is not an action of the review at `{node}` (choose one of: {})",
            args.action,
            actions.join(", ")
        ));
    }
    Ok(id.clone())
}

fn models(
    context: &LongContext,
    provider: ProviderArg,
    script: Option<&str>,
    document: Option<&Path>,
) -> Result<(Models, Option<Arc<OpenAiProvider>>), Misuse> {
    match provider {
        ProviderArg::DryRun => Ok((Models::Synthetic, None)),
        ProviderArg::Scripted => {
            let script = script.ok_or_else(|| {
                Misuse("`scripted` needs `script`: the answers as YAML or JSON Lines".into())
            })?;
            let scripted =
                Scripted::parse(script).map_err(|problem| Misuse(format!("script: {problem}")))?;
            Ok((Models::Scripted(scripted), None))
        }
        ProviderArg::Openai => {
            let provider = openai(context, document)?;
            Ok((Models::Caller, Some(Arc::new(provider))))
        }
    }
}

/// The server's provider; `document` (a file under the roots) finds its `logicmd.toml`.
fn openai(context: &LongContext, document: Option<&Path>) -> Result<OpenAiProvider, Misuse> {
    let Some(settings) = &context.openai else {
        return Err(Misuse(
            "this server calls no model: start it with `logicmd mcp --provider openai` (and \
             --base-url, --model, --api-key-env as `logicmd run` takes them) to allow it; or use \
             `dry_run` or `scripted`"
                .into(),
        ));
    };
    OpenAiProvider::from_settings(settings, document).map_err(Misuse)
}

fn driver(
    context: &LongContext,
    session: Session,
    model: Option<Arc<OpenAiProvider>>,
    simulated: bool,
    events: Vec<Value>,
) -> Driver {
    let checkers = Checkers {
        offline: false,
        dry_run: simulated,
        link_timeout: LINK_TIMEOUT,
    };
    let progress = Progress::new(
        ProgressMode::Plain,
        Box::new(Lines::new(context.progress.clone())),
    );
    let mut driver = Driver::new(
        session,
        model,
        checkers,
        Records::Memory(Vec::new()),
        progress,
    );
    driver.events = events;
    driver.cancel = Some(Arc::clone(&context.cancel));
    driver
}

fn drive(driver: &mut Driver) -> Result<Ending, Misuse> {
    driver
        .record()
        .and_then(|()| driver.drive())
        .map_err(Misuse)
}

/// The report; a paused run is kept for `resume_run`.
fn finish(
    driver: Driver,
    ending: Ending,
    document: String,
    model: Option<Arc<OpenAiProvider>>,
    simulated: bool,
    with_trace: bool,
) -> Value {
    let summary = Summary::of(&driver.events);
    let mut report = Report {
        ending: &ending,
        summary: &summary,
        trace: None,
        state: None,
        document: &document,
    }
    .json();
    if with_trace {
        report["trace"] = Value::Array(driver.events.clone());
    }
    if let Ending::Paused(_) = ending {
        let id = paused::keep(Paused {
            session: driver.session,
            events: driver.events,
            document,
            model,
            simulated,
        });
        report["run_id"] = id.into();
    }
    report
}

fn not_run(diagnostics: Vec<Diagnostic>) -> RunResult {
    Shaped::new(json!({ "diagnostics": diagnostics }))
}

/// The driver's progress display, a line at a time, to the request's progress notifications.
struct Lines {
    sender: UnboundedSender<String>,
    pending: Vec<u8>,
}

impl Lines {
    fn new(sender: UnboundedSender<String>) -> Lines {
        Lines {
            sender,
            pending: Vec::new(),
        }
    }
}

impl std::io::Write for Lines {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.pending.extend_from_slice(bytes);
        while let Some(end) = self.pending.iter().position(|b| *b == b'\n') {
            let line: Vec<u8> = self.pending.drain(..=end).collect();
            let text = String::from_utf8_lossy(&line).trim_end().to_owned();
            // The request may be gone (cancelled): the line has nowhere to go.
            let _ = self.sender.send(text);
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[derive(Deserialize, JsonSchema)]
pub struct NextActionArgs {
    /// The agent's state: `{user_input, current_task, available_tools: [{name, description,
    /// parameters}], short_term_memory: [...]}`.
    #[schemars(with = "serde_json::Map<String, Value>")]
    state: Value,
    /// A LOGIC.md document (text) whose reasoning strategy, gates and rules apply.
    #[serde(default)]
    spec: Option<String>,
    /// A LOGIC.md file under the roots whose reasoning applies (instead of `spec`).
    #[serde(default)]
    spec_path: Option<String>,
    /// Who decides.
    provider: ProviderArg,
    /// With `scripted`: answers keyed by node `next_action` and attempt.
    #[serde(default)]
    script: Option<String>,
    /// Model calls for one action, the first included: invalid answers are asked again with the
    /// reason (1 to 20; default 3).
    #[serde(default)]
    max_attempts: Option<u32>,
}

#[derive(Serialize, JsonSchema)]
pub struct NextActionResult {
    /// An action was decided.
    decided: bool,
    /// The action: `execute_tool`, `ask_user` or `complete_task`, with its fields.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<serde_json::Map<String, Value>>")]
    action: Option<Value>,
    /// Model calls made.
    attempts: u32,
    /// Why answers were refused (each attempt's problems).
    refused: Vec<String>,
    /// The spec's problems, when it could not be used.
    #[schemars(with = "Vec<DiagnosticSchema>")]
    diagnostics: Vec<Diagnostic>,
}

pub fn next_action(
    context: &LongContext,
    args: NextActionArgs,
) -> Result<NextActionResult, Misuse> {
    let state = State::from_json(args.state)
        .map_err(|error| Misuse(format!("`state` is not an agent state: {error}")))?;
    let mut spec = None;
    let mut spec_file = None;
    if args.spec.is_some() || args.spec_path.is_some() {
        let source = Source {
            text: args.spec,
            path: args.spec_path,
        };
        let loaded = source.load(&context.roots)?;
        spec_file.clone_from(&loaded.file);
        let analysis = logicmd::analysis::analyze_bytes(
            &loaded.bytes,
            &loaded.options(Depth::Validate),
            &*loaded.loader,
        );
        match analysis.document() {
            Some(document) if analysis.valid => spec = Some(document.json().clone()),
            _ => {
                return Ok(NextActionResult {
                    decided: false,
                    action: None,
                    attempts: 0,
                    refused: Vec::new(),
                    diagnostics: analysis.diagnostics,
                })
            }
        }
    }
    let mut provider: Box<dyn Provider> = match args.provider {
        ProviderArg::DryRun => {
            let source = logicmd::run::Source::Logic {
                spec: json!({ "name": crate::commands::next_action::NODE }),
                nodes: Default::default(),
            };
            Box::new(logicmd::run::Synthetic::new(&source, 0))
        }
        ProviderArg::Scripted => {
            let script = args.script.as_deref().ok_or_else(|| {
                Misuse("`scripted` needs `script`: the answers as YAML or JSON Lines".into())
            })?;
            Box::new(Scripted::parse(script).map_err(|p| Misuse(format!("script: {p}")))?)
        }
        ProviderArg::Openai => Box::new(openai(context, spec_file.as_deref())?),
    };
    let max_attempts = args.max_attempts.unwrap_or(3);
    if !(1..=20).contains(&max_attempts) {
        return Err(Misuse("`max_attempts` is 1 to 20".into()));
    }
    let options = DecisionOptions { max_attempts, spec };
    let (mut decision, mut request) = Decision::start(state, options)
        .map_err(|problems| Misuse(format!("the state cannot be used: {}", problems.join("; "))))?;
    let mut refused = Vec::new();
    loop {
        if context.cancel.load(std::sync::atomic::Ordering::Relaxed) {
            return Err(Misuse(crate::run::driver::CANCELLED.into()));
        }
        let answer =
            crate::commands::next_action::ask(provider.as_mut(), &request, decision.attempts())
                .map_err(Misuse)?;
        let _ = context
            .progress
            .send(format!("attempt {}", decision.attempts()));
        match decision.feed(&answer) {
            Step::Done(action) => {
                return Ok(NextActionResult {
                    decided: true,
                    action: Some(serde_json::to_value(action).unwrap_or_default()),
                    attempts: decision.attempts(),
                    refused,
                    diagnostics: Vec::new(),
                })
            }
            Step::Retry {
                request: next,
                problems,
            } => {
                refused.push(problems.join("; "));
                request = next;
            }
            Step::Failed(problems) => {
                refused.push(problems.join("; "));
                return Ok(NextActionResult {
                    decided: false,
                    action: None,
                    attempts: decision.attempts(),
                    refused,
                    diagnostics: Vec::new(),
                });
            }
        }
    }
}
