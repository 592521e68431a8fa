//! `logicmd run FILE`: run a LOGIC.md document or a DRTL topology with the engine, a provider
//! (`--dry-run`, `--provider scripted:FILE`), a JSONL trace, a crash-safe state, and review pauses
//! that `--resume STATE --answer ACTION` continues. Exit 0 completed, 1 failed or refused (or the
//! document has errors), 2 usage or I/O, 3 paused for a review.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use clap::ValueEnum;
use logicmd::run::{ActionKind, Observation, Run, RunOptions, Source};
use serde_json::Value;

use super::front;
use crate::output;
use crate::run::clock::{Clock, ClockMode};
use crate::run::driver::{Driver, Durable, Ending, ReviewDecision};
use crate::run::durable::Trace;
use crate::run::progress::{Progress, ProgressMode};
use crate::run::report::Report;
use crate::run::state::{self, Batch, ProviderChoice, Settings, State};
use crate::run::summary::Summary;
use crate::run::tools::{Checkers, Facts};
use crate::run::{inputs, resume};
use crate::{EXIT_INVALID, EXIT_OK, EXIT_USAGE};

/// Exit status: the run waits for a review.
const EXIT_PAUSED: u8 = 3;
const DEFAULT_MAX_PARALLEL: usize = 4;
const DEFAULT_LINK_TIMEOUT_S: u64 = 10;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum RunFormat {
    /// Status, output, summary (progress goes to standard error).
    Human,
    /// One JSON object: {status, output, summary, unmet?, error?, reviews?, state?, resume?}.
    Json,
}

#[derive(clap::Args)]
#[command(after_help = "\
Exit status: 0 completed, 1 failed or refused (or the document has errors), 2 usage or I/O
error, 3 paused for a review (the state is written and the command to resume is printed).

Examples:
  logicmd run examples/competitive-analyst.logic.md --dry-run
  logicmd run agent.logic.md --provider scripted:answers.yaml --input @in.json --trace run.jsonl
  logicmd run agent.logic.md --provider openai --base-url http://127.0.0.1:11434/v1 --model llama3.1
  logicmd run flow.drtl.yaml --dry-run --state run.state.json
  logicmd run flow.drtl.yaml --resume run.state.json --answer approve")]
pub struct Args {
    /// The LOGIC.md document or DRTL topology; `-` reads standard input. With --resume it may
    /// be left out: the run goes on with the document as it was when it started.
    #[arg(value_name = "FILE", required_unless_present = "resume")]
    file: Option<PathBuf>,
    /// The run's input: JSON text, or @FILE to read it from a file (@- for standard input).
    /// Checked against the document's contracts.inputs. Default: {} (with --dry-run, a
    /// placeholder for every field contracts.inputs declares).
    #[arg(long, value_name = "JSON|@FILE")]
    input: Option<String>,
    /// Call no model: answers are synthetic, valid for each step's schema and the simple checks
    /// the document states (minItems, minimum, `length >= n`).
    #[arg(long, conflicts_with = "provider")]
    dry_run: bool,
    /// Who answers model calls: `openai` (an OpenAI-compatible server: OpenAI, Ollama, llama.cpp
    /// server, vLLM, LM Studio; see the provider options below), or scripted:FILE (a YAML list or
    /// JSON Lines of answers by node, attempt, tool rule or review; a trace works too).
    #[arg(long, value_name = "openai|scripted:FILE")]
    provider: Option<String>,
    #[command(flatten)]
    openai: crate::providers::Settings,
    /// Seed of the synthetic answers of --dry-run.
    #[arg(long, value_name = "N", requires = "dry_run")]
    seed: Option<u64>,
    /// Write the trace to FILE: JSON Lines, one event a line, flushed per event.
    #[arg(long, value_name = "FILE")]
    trace: Option<PathBuf>,
    /// Keep the run's state in FILE, replaced atomically after every event, so a crash loses
    /// nothing: `--resume FILE` finishes the run. A pause without --state writes the state
    /// beside the trace, or in the temporary directory.
    #[arg(long, value_name = "FILE")]
    state: Option<PathBuf>,
    /// Go on with the run whose state is STATE (after a pause or a crash). Provider, input,
    /// clock and settings come from the state; --trace, --facts, --offline, --link-timeout,
    /// --no-wait and --max-parallel given again replace the recorded ones.
    #[arg(long, value_name = "STATE", conflicts_with_all = ["input", "dry_run", "provider", "seed", "clock"])]
    resume: Option<PathBuf>,
    /// With --resume: the decision for the review the run waits for, one of the actions it
    /// lists; NODE=ACTION when several reviews wait.
    #[arg(long, value_name = "ACTION", requires = "resume")]
    answer: Option<String>,
    /// A note to go with --answer (recorded in the trace).
    #[arg(long, value_name = "TEXT", requires = "answer")]
    note: Option<String>,
    /// Most model and tool calls in flight at once (the document's global.max_parallelism when
    /// lower) [default: 4].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=1024))]
    max_parallel: Option<u64>,
    /// The run's clock: `fixed` starts at 0 and moves only by waits and reported latencies
    /// (the same input and answers give the same trace bytes); `real` is the wall clock
    /// [default: fixed].
    #[arg(long, value_enum, value_name = "CLOCK")]
    clock: Option<ClockMode>,
    /// On a real clock, do not sleep through waits (backoffs): the clock still advances by them.
    #[arg(long, alias = "fast")]
    no_wait: bool,
    /// Known entities for std.check_existence and std.check_citation: YAML or JSON, a map of
    /// rule target → known names, or one list for every target.
    #[arg(long, value_name = "FILE")]
    facts: Option<PathBuf>,
    /// Use no network: std.check_links is unverifiable (a failure under `block`).
    #[arg(long)]
    offline: bool,
    /// Seconds each link check may take [default: 10].
    #[arg(long, value_name = "SECONDS", value_parser = clap::value_parser!(u64).range(1..=600))]
    link_timeout: Option<u64>,
    /// Output format of the result.
    #[arg(long, value_enum, default_value_t = RunFormat::Human)]
    format: RunFormat,
    /// Progress on standard error: auto (live on a terminal, else plain lines), live, plain, off.
    #[arg(long, value_enum, default_value_t = ProgressMode::Auto)]
    progress: ProgressMode,
    /// Directory imports, workflow nodes and prompt files may be read from (default: as for
    /// lint).
    #[arg(long, value_name = "DIR", value_parser = super::existing_dir)]
    root: Option<PathBuf>,
}

/// Why the command stops before or outside the run: the message and the exit status.
struct Stop(String, u8);

impl Stop {
    fn usage(message: impl Into<String>) -> Stop {
        Stop(message.into(), EXIT_USAGE)
    }
}

pub fn run(args: &Args) -> u8 {
    let prepared = match &args.resume {
        Some(state) => resumed(args, state),
        None => started(args),
    };
    let (mut driver, document) = match prepared {
        Ok(prepared) => prepared,
        Err(Stop(message, status)) => {
            if !message.is_empty() {
                eprintln!("error: {message}");
            }
            return status;
        }
    };
    let ending = match driver.drive() {
        Ok(ending) => ending,
        Err(message) => {
            eprintln!("error: {message}");
            return EXIT_USAGE;
        }
    };
    finish(args, &mut driver, &document, &ending)
}

/// Reports the ending; a pause writes the state first (where `--state` did not already).
fn finish(args: &Args, driver: &mut Driver, document: &str, ending: &Ending) -> u8 {
    let mut state_path = driver.durable.as_ref().map(|d| d.path.clone());
    if let (Ending::Paused(_), None) = (ending, &state_path) {
        let path = state::default_state_path(
            driver.settings.clone().trace.as_deref(),
            Path::new(document),
        );
        let durable = Durable {
            path: path.clone(),
            document: document.to_owned(),
            settings: driver.settings.clone(),
        };
        if let Err(message) = driver.save_state(&durable) {
            eprintln!("error: {message}");
            return EXIT_USAGE;
        }
        state_path = Some(path);
    }
    let summary = Summary::of(&driver.events);
    let settings = driver.settings.clone();
    let report = Report {
        ending,
        summary: &summary,
        trace: settings.trace.as_deref(),
        state: state_path.as_deref(),
        document,
    };
    match args.format {
        RunFormat::Human => output::print(&report.human()),
        RunFormat::Json => {
            output::print(&serde_json::to_string_pretty(&report.json()).unwrap_or_default())
        }
    }
    match ending {
        Ending::Completed(_) => EXIT_OK,
        Ending::Refused(_) | Ending::Failed(_) => EXIT_INVALID,
        Ending::Paused(_) => EXIT_PAUSED,
    }
}

/// A new run: the document prepared, the input read and checked, the engine started.
fn started(args: &Args) -> Result<(Driver, String), Stop> {
    let Some(file) = &args.file else {
        return Err(Stop::usage("give the FILE to run"));
    };
    let document = super::each_file::display_name(file);
    if file.as_os_str() == "-" && args.input.as_deref() == Some("@-") {
        return Err(Stop::usage(
            "the document and `--input` cannot both be standard input (`-`)",
        ));
    }
    let provider = provider_choice(args)?;
    let text = super::read_text(file).map_err(|status| Stop(String::new(), status))?;
    let prepared = front::prepare_run(file, &text, args.root.as_deref()).map_err(|problems| {
        eprintln!("{}", output::human(&document, &text, &problems));
        Stop(
            format!("{document} was not run: fix the errors above first"),
            EXIT_INVALID,
        )
    })?;
    if !prepared.tolerated.is_empty() {
        eprintln!("{}", output::human(&document, &text, &prepared.tolerated));
        eprintln!("note: {document} runs despite these warnings");
    }
    let source = prepared.source;
    let input = run_input(args, &source)?;
    let settings = Settings {
        provider,
        clock: args.clock.unwrap_or(ClockMode::Fixed),
        sleep: !args.no_wait,
        max_parallel: args
            .max_parallel
            .map_or(DEFAULT_MAX_PARALLEL, |n| n as usize),
        facts: args.facts.as_deref().map(state::absolute),
        offline: args.offline,
        link_timeout_ms: args.link_timeout.unwrap_or(DEFAULT_LINK_TIMEOUT_S) * 1000,
        trace: args.trace.as_deref().map(state::absolute),
    };
    let clock = Clock::new(settings.clock);
    let options = RunOptions {
        max_parallelism: settings.max_parallel,
        start_ms: clock.now(),
        ..RunOptions::default()
    };
    let provider = resume::provider(&settings.provider, &source).map_err(Stop::usage)?;
    let run = Run::start(source, input, options)
        .map_err(|e| Stop(format!("cannot run {document}: {e}"), EXIT_INVALID))?;
    let mut driver = new_driver(args, run, provider, clock, &settings, &document, None)?;
    // The state first: a crash before it leaves an earlier run's state and trace as they were,
    // consistent with each other.
    let events = driver.run.take_events();
    driver.write_state().map_err(Stop::usage)?;
    if let Some(path) = &settings.trace {
        let trace = Trace::create(path)
            .map_err(|e| Stop::usage(format!("cannot write {}: {e}", path.display())))?;
        driver.trace = Some(trace);
    }
    driver.append(events).map_err(Stop::usage)?;
    Ok((driver, document))
}

fn provider_choice(args: &Args) -> Result<ProviderChoice, Stop> {
    if args.dry_run {
        return Ok(ProviderChoice::Synthetic {
            seed: args.seed.unwrap_or(0),
        });
    }
    match args.provider.as_deref() {
        Some("openai") => Ok(ProviderChoice::OpenAi {
            settings: args.openai.clone(),
            document: args.file.as_deref().filter(|f| f.as_os_str() != "-").map(state::absolute),
        }),
        Some(spec) => match spec.split_once(':') {
            Some(("scripted", path)) if !path.is_empty() => Ok(ProviderChoice::Scripted {
                script: state::absolute(Path::new(path)),
            }),
            _ => Err(Stop::usage(format!(
                "unknown provider `{spec}`: use `openai`, `scripted:FILE`, or --dry-run"
            ))),
        },
        None => Err(Stop::usage(
            "say who answers model calls: --dry-run (synthetic answers), --provider openai or --provider scripted:FILE",
        )),
    }
}

/// `--input`, or the default, checked against `contracts.inputs`.
fn run_input(args: &Args, source: &Source) -> Result<Value, Stop> {
    let spec = match source {
        Source::Logic { spec, .. } => Some(spec),
        Source::Drtl { .. } => None,
    };
    let input = match (&args.input, spec) {
        (Some(argument), _) => inputs::read(argument).map_err(Stop::usage)?,
        (None, Some(spec)) if args.dry_run => inputs::placeholder(spec),
        (None, _) => Value::Object(Default::default()),
    };
    let problems = spec.map(|s| inputs::check(s, &input)).unwrap_or_default();
    if problems.is_empty() {
        Ok(input)
    } else {
        Err(Stop::usage(problems.join("\nerror: ")))
    }
}

fn new_driver(
    args: &Args,
    run: Run,
    provider: Box<dyn logicmd::run::Provider>,
    clock: Clock,
    settings: &Settings,
    document: &str,
    trace: Option<Trace>,
) -> Result<Driver, Stop> {
    let facts = match &settings.facts {
        Some(path) => Some(Facts::read(path).map_err(Stop::usage)?),
        None => None,
    };
    let durable_path = args
        .state
        .as_deref()
        .or(args.resume.as_deref())
        .map(state::absolute);
    Ok(Driver {
        run,
        provider,
        checkers: Arc::new(Checkers {
            facts,
            offline: settings.offline,
            link_timeout: Duration::from_millis(settings.link_timeout_ms),
        }),
        clock,
        sleep: settings.sleep && settings.clock == ClockMode::Real,
        max_parallel: settings.max_parallel,
        decision: None,
        durable: durable_path.map(|path| Durable {
            path,
            document: document.to_owned(),
            settings: settings.clone(),
        }),
        settings: settings.clone(),
        trace,
        progress: Progress::new(
            Progress::resolve(args.progress),
            Box::new(std::io::stderr()),
        ),
        events: Vec::new(),
        batch: Batch::default(),
        held: Vec::new(),
        resumed_batch: None,
    })
}

/// A run going on from its state file.
fn resumed(args: &Args, path: &Path) -> Result<(Driver, String), Stop> {
    let saved = State::read(path).map_err(Stop::usage)?;
    let settings = overridden(args, &saved.settings);
    let (mut run, provider) = resume::restore(&saved).map_err(Stop::usage)?;
    let replayed = run.take_events();
    let (trace, written) = match &settings.trace {
        Some(trace_path) => {
            let (trace, written) =
                resume::reopen_trace(trace_path, &replayed).map_err(Stop::usage)?;
            (Some(trace), written)
        }
        None => (None, replayed.len()),
    };
    let at = saved.run.get("clock").and_then(Value::as_u64).unwrap_or(0);
    let clock = Clock::resumed(settings.clock, at);
    let document = saved.document.clone();
    let decision = decision(args, &run)?;
    let ready = run.next();
    let mut driver = new_driver(args, run, provider, clock, &settings, &document, trace)?;
    driver.decision = decision;
    driver.progress.note(&format!(
        "resuming {document} from {} ({} events so far)",
        path.display(),
        replayed.len()
    ));
    let (shown, missing) = replayed.split_at(written.min(replayed.len()));
    for event in shown {
        driver.progress.absorb(event);
        driver.events.push(event.clone());
    }
    driver.append(missing.to_vec()).map_err(Stop::usage)?;
    let (current, held) = resume::split_batch(&saved.batch.ids, ready);
    driver.batch = saved.batch;
    driver.held = held;
    if !current.is_empty() {
        driver.resumed_batch = Some(current);
    }
    Ok((driver, document))
}

/// The recorded settings, with what was given again on the command line.
fn overridden(args: &Args, recorded: &Settings) -> Settings {
    let mut settings = recorded.clone();
    if let Some(trace) = &args.trace {
        settings.trace = Some(state::absolute(trace));
    }
    if let Some(facts) = &args.facts {
        settings.facts = Some(state::absolute(facts));
    }
    settings.offline |= args.offline;
    settings.sleep &= !args.no_wait;
    if let Some(seconds) = args.link_timeout {
        settings.link_timeout_ms = seconds * 1000;
    }
    if let Some(n) = args.max_parallel {
        settings.max_parallel = n as usize;
    }
    settings
}

/// `--answer`: which outstanding review it decides, checked against the actions it offers.
fn decision(args: &Args, run: &Run) -> Result<Option<ReviewDecision>, Stop> {
    let Some(answer) = &args.answer else {
        return Ok(None);
    };
    let reviews: Vec<(String, String, Vec<String>)> = run
        .outstanding()
        .into_iter()
        .filter_map(|action| match action.kind {
            ActionKind::AskReview { node, actions, .. } => Some((action.id, node, actions)),
            _ => None,
        })
        .collect();
    let (node, choice) = match answer.split_once('=') {
        Some((node, choice)) => (Some(node), choice),
        None => (None, answer.as_str()),
    };
    let candidates: Vec<&(String, String, Vec<String>)> = reviews
        .iter()
        .filter(|(_, n, _)| node.is_none_or(|node| node == n))
        .collect();
    let (id, node, actions) = match candidates.as_slice() {
        [one] => *one,
        [] if reviews.is_empty() => {
            return Err(Stop::usage(format!(
                "--answer: the run does not wait for a review (it is {})",
                format!("{:?}", run.status()).to_lowercase()
            )))
        }
        [] => {
            return Err(Stop::usage(format!(
                "--answer: no review waits at `{}` (reviews wait at: {})",
                node.unwrap_or_default(),
                names(reviews.iter().map(|(_, n, _)| n))
            )))
        }
        _ => {
            return Err(Stop::usage(format!(
                "--answer: several reviews wait ({}): say which, as NODE=ACTION",
                names(reviews.iter().map(|(_, n, _)| n))
            )))
        }
    };
    if !actions.iter().any(|a| a == choice) {
        return Err(Stop::usage(format!(
            "--answer: `{choice}` is not an action of the review at `{node}` (choose one of: {})",
            actions.join(", ")
        )));
    }
    Ok(Some(ReviewDecision {
        action_id: id.clone(),
        answer: Observation::ReviewAnswer {
            action: choice.to_owned(),
            note: args.note.clone(),
        },
    }))
}

fn names<'a>(names: impl Iterator<Item = &'a String>) -> String {
    names
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ")
}
