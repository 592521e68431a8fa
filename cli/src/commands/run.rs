//! `logicmd run FILE`: run a LOGIC.md document or a DRTL topology with the engine, a provider
//! (`--dry-run`, `--provider scripted:FILE`), a JSONL trace, a crash-safe state, and review pauses
//! that `--resume STATE --answer ACTION` continues. Exit 0 completed, 1 failed or refused (or the
//! document has errors), 2 usage or I/O, 3 paused for a review.

use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::ValueEnum;
use logicmd::run::session::{
    check_input, contracts_of, example_input, InputEnforcement, Session, Start,
};
use logicmd::run::{Observation, RunOptions, Source};
use serde_json::Value;

use super::front;
use crate::output;
use crate::run::clock::{clock_mode, ClockFlag};
use crate::run::driver::{wall_ms, Driver, Ending, Records, ReviewDecision};
use crate::run::durable::{Journal, Trace};
use crate::run::lock::Lock;
use crate::run::progress::{Progress, ProgressMode};
use crate::run::report::Report;
use crate::run::state::{self, Header, ProviderChoice, Settings};
use crate::run::summary::Summary;
use crate::run::tools::Checkers;
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
    /// Checked against the document's contracts.inputs, as its contracts.validation says
    /// (refused before the run under `strict`, a warning under `warn`). Default: {} (with
    /// --dry-run, an example value for every field contracts.inputs declares).
    #[arg(long, value_name = "JSON|@FILE")]
    input: Option<String>,
    /// Call no model: answers are synthetic, valid for each step's schema and the simple checks
    /// the document states (minItems, minimum, `length >= n`). No link is checked over the
    /// network either (std.check_links is unverifiable).
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
    /// Keep the run's state in FILE, a journal appended as the run goes (each answer the moment
    /// it arrives), so a crash loses nothing and no answered call is made again: `--resume
    /// FILE` finishes the run. One run at a time holds a state (FILE.lock). A pause without
    /// --state writes the state beside the trace, or in the temporary directory.
    #[arg(long, value_name = "FILE")]
    state: Option<PathBuf>,
    /// Go on with the run whose state is STATE (after a pause or a crash). Provider, input,
    /// clock and settings come from the state; --trace, --facts, --offline, --link-timeout,
    /// --no-wait and the OpenAI-compatible provider's options given again replace the recorded
    /// ones. A FILE given too must be the state's document.
    #[arg(long, value_name = "STATE", conflicts_with_all = ["input", "dry_run", "provider", "seed", "clock", "max_parallel"])]
    resume: Option<PathBuf>,
    /// With --resume: the decision for the review the run waits for, one of the actions it
    /// lists; NODE=ACTION when several reviews wait.
    #[arg(long, value_name = "ACTION", requires = "resume")]
    answer: Option<String>,
    /// A note to go with --answer (recorded in the trace).
    #[arg(long, value_name = "TEXT", requires = "answer")]
    note: Option<String>,
    /// Most model and tool calls in flight at once, carried out in parallel (the document's
    /// global.max_parallelism when lower); answers are still fed in a fixed order, so traces do
    /// not depend on timing [default: 4].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=1024))]
    max_parallel: Option<u64>,
    /// The run's clock: `fixed` starts at 0 and moves only by waits and reported latencies
    /// (the same input and answers give the same trace bytes); `real` is the wall clock
    /// [default: real with --provider openai, else fixed].
    #[arg(long, value_enum, value_name = "CLOCK")]
    clock: Option<ClockFlag>,
    /// Do not sleep through waits (backoffs, Retry-After) with a real provider or clock: the
    /// clock still advances by them.
    #[arg(long, alias = "fast")]
    no_wait: bool,
    /// Known entities for std.check_existence and std.check_citation: YAML or JSON, a map of
    /// rule target → known names, or one list for every target.
    #[arg(long, value_name = "FILE")]
    facts: Option<PathBuf>,
    /// Use no network: std.check_links is unverifiable (a failure under `block`). A list with
    /// nothing in it holds. (--dry-run makes no link request either.)
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

/// A run ready to drive, and what it says about itself.
struct Prepared {
    driver: Driver,
    document: String,
    header: Header,
    /// Held while the run goes on (`--state`, `--resume`).
    _lock: Option<Lock>,
}

pub fn run(args: &Args) -> u8 {
    let prepared = match &args.resume {
        Some(state) => resumed(args, state),
        None => started(args),
    };
    let mut prepared = match prepared {
        Ok(prepared) => prepared,
        Err(Stop(message, status)) => {
            if !message.is_empty() {
                eprintln!("error: {message}");
            }
            return status;
        }
    };
    let ending = match prepared.driver.drive() {
        Ok(ending) => ending,
        Err(message) => {
            eprintln!("error: {message}");
            return EXIT_USAGE;
        }
    };
    let status = finish(args, &mut prepared, &ending);
    release(prepared);
    status
}

/// Ends the command: the state's lock is released; the run itself (every event, the session,
/// files whose bytes are all written, none buffered) is left for the process's exit to free at
/// once — dropping it value by value took 6% of a 5,000-step run (docs/perf.md, issue #38).
fn release(prepared: Prepared) {
    let Prepared { driver, _lock, .. } = prepared;
    drop(_lock);
    std::mem::forget(driver);
}

/// Reports the ending; a pause writes the state first (where `--state` did not already).
fn finish(args: &Args, prepared: &mut Prepared, ending: &Ending) -> u8 {
    let settings = prepared.header.settings.clone();
    let mut state_path = args
        .state
        .as_deref()
        .or(args.resume.as_deref())
        .map(state::absolute);
    if let (Ending::Paused(_), None) = (ending, &state_path) {
        let path =
            state::default_state_path(settings.trace.as_deref(), Path::new(&prepared.document));
        let records = match &prepared.driver.records {
            Records::Memory(records) => records.as_slice(),
            Records::Journal(_) => &[],
        };
        let header = serde_json::to_value(&prepared.header).unwrap_or_default();
        if let Err(error) = Journal::create(&path, &header, records) {
            eprintln!("error: cannot write the state {}: {error}", path.display());
            return EXIT_USAGE;
        }
        state_path = Some(path);
    }
    let summary = Summary::of(&prepared.driver.events);
    let report = Report {
        ending,
        summary: &summary,
        trace: settings.trace.as_deref(),
        state: state_path.as_deref(),
        document: &prepared.document,
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

/// A new run: the document prepared, the input read and checked, the session started.
fn started(args: &Args) -> Result<Prepared, Stop> {
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
        clock: clock_mode(args.clock, provider.is_real()),
        provider,
        sleep: !args.no_wait,
        max_parallel: args
            .max_parallel
            .map_or(DEFAULT_MAX_PARALLEL, |n| n as usize),
        facts: args.facts.as_deref().map(state::absolute),
        offline: args.offline,
        link_timeout_ms: args.link_timeout.unwrap_or(DEFAULT_LINK_TIMEOUT_S) * 1000,
        trace: args.trace.as_deref().map(state::absolute),
    };
    // The lock first: nothing of another run's state is touched before it is ours.
    let lock = args
        .state
        .as_deref()
        .map(Lock::acquire)
        .transpose()
        .map_err(Stop::usage)?;
    let state_path = args.state.as_deref().map(state::absolute);
    let options = RunOptions {
        max_parallelism: settings.max_parallel,
        seed: match settings.provider {
            ProviderChoice::Synthetic { seed } => seed,
            _ => 0,
        },
        ..RunOptions::default()
    };
    let start = Start::new(source, input, options, settings.clock, wall_ms());
    let document_path = (file.as_os_str() != "-").then(|| state::absolute(file));
    let header = Header::new(
        document.clone(),
        document_path,
        settings.clone(),
        start.clone(),
    );
    let (answerers, model) = resume::answerers(&settings).map_err(Stop::usage)?;
    let mut session = Session::start(start, answerers)
        .map_err(|e| Stop(format!("cannot run {document}: {e}"), EXIT_INVALID))?;
    session.keep_journal();
    // The state first: a crash before it leaves an earlier run's state and trace as they were,
    // consistent with each other.
    let records = match &state_path {
        Some(path) => {
            let value = serde_json::to_value(&header).unwrap_or_default();
            Records::Journal(Journal::create(path, &value, &[]).map_err(|e| {
                Stop::usage(format!("cannot write the state {}: {e}", path.display()))
            })?)
        }
        None => Records::Memory(Vec::new()),
    };
    let mut driver = Driver::new(session, model, checkers(&settings), records, progress(args));
    if let Some(path) = &settings.trace {
        let trace = Trace::create(path)
            .map_err(|e| Stop::usage(format!("cannot write {}: {e}", path.display())))?;
        driver.trace = Some(trace);
    }
    driver.record().map_err(Stop::usage)?;
    Ok(Prepared {
        driver,
        document,
        header,
        _lock: lock,
    })
}

fn checkers(settings: &Settings) -> Checkers {
    Checkers {
        offline: settings.offline,
        dry_run: matches!(settings.provider, ProviderChoice::Synthetic { .. }),
        link_timeout: Duration::from_millis(settings.link_timeout_ms),
    }
}

fn progress(args: &Args) -> Progress {
    Progress::new(
        Progress::resolve(args.progress),
        Box::new(std::io::stderr()),
    )
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

/// `--input`, or the default, checked against `contracts.inputs` as the document's
/// `contracts.validation` says: refused here when it rejects the run, a warning when the run
/// records the violation and goes on.
fn run_input(args: &Args, source: &Source) -> Result<Value, Stop> {
    let contracts = contracts_of(source);
    let input = match &args.input {
        Some(argument) => inputs::read(argument).map_err(Stop::usage)?,
        None if args.dry_run => example_input(&contracts),
        None => Value::Object(Default::default()),
    };
    let check = check_input(&contracts, &input);
    if check.rejects() {
        return Err(Stop::usage(format!(
            "--input breaks contracts.inputs, and the document's contracts.validation rejects the run:\n{}",
            listed(&check.problems)
        )));
    }
    if check.enforcement == InputEnforcement::Record && !check.problems.is_empty() {
        eprintln!(
            "warning: --input breaks contracts.inputs; the run goes on (contracts.validation records it in the trace):\n{}",
            listed(&check.problems)
        );
    }
    Ok(input)
}

fn listed(problems: &[String]) -> String {
    problems
        .iter()
        .map(|p| format!("  - {p}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// A run going on from its state file.
fn resumed(args: &Args, path: &Path) -> Result<Prepared, Stop> {
    let lock = Lock::acquire(path).map_err(Stop::usage)?;
    let saved = state::read(path).map_err(Stop::usage)?;
    let header = saved.header;
    same_document(args, path, &header)?;
    let mut header = Header {
        settings: overridden(args, &header.settings),
        ..header
    };
    let settings = header.settings.clone();
    let (answerers, model) = resume::answerers(&settings).map_err(Stop::usage)?;
    let mut session = Session::restore(header.start.clone(), saved.records, answerers)
        .map_err(|e| Stop::usage(format!("cannot resume: {e}")))?;
    session.keep_journal();
    let replayed = session.take_events();
    let (trace, written) = match &settings.trace {
        Some(trace_path) => {
            let (trace, written) =
                resume::reopen_trace(trace_path, &replayed).map_err(Stop::usage)?;
            (Some(trace), written)
        }
        None => (None, replayed.len()),
    };
    let decision = decision(args, &session)?;
    let journal = Journal::reopen(path, saved.complete_bytes)
        .map_err(|e| Stop::usage(format!("cannot write the state {}: {e}", path.display())))?;
    let document = header.document.clone();
    let mut driver = Driver::new(
        session,
        model,
        checkers(&settings),
        Records::Journal(journal),
        progress(args),
    );
    driver.trace = trace;
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
    header.settings = settings;
    Ok(Prepared {
        driver,
        document,
        header,
        _lock: Some(lock),
    })
}

/// A FILE given with `--resume` must be the document the state runs: a state carries its own
/// document, and running it under another's name would report one and run the other.
fn same_document(args: &Args, state: &Path, header: &Header) -> Result<(), Stop> {
    let Some(file) = &args.file else {
        return Ok(());
    };
    let given = (file.as_os_str() != "-").then(|| canonical(&state::absolute(file)));
    let recorded = header.document_path.as_deref().map(canonical);
    if given == recorded {
        return Ok(());
    }
    Err(Stop::usage(format!(
        "{} is the state of a run of {}, not of {}: resume it with `logicmd run --resume {}`, \
         or run {} without --resume",
        state.display(),
        header.document,
        super::each_file::display_name(file),
        state.display(),
        super::each_file::display_name(file),
    )))
}

fn canonical(path: &Path) -> PathBuf {
    path.canonicalize().unwrap_or_else(|_| path.to_path_buf())
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
    if let ProviderChoice::OpenAi {
        settings: recorded, ..
    } = &mut settings.provider
    {
        recorded.given_again(&args.openai);
    }
    if let Some(seconds) = args.link_timeout {
        settings.link_timeout_ms = seconds * 1000;
    }
    settings
}

/// `--answer`: which open review it decides, checked against the actions it offers.
fn decision(args: &Args, session: &Session) -> Result<Option<ReviewDecision>, Stop> {
    let Some(answer) = &args.answer else {
        return Ok(None);
    };
    let reviews = resume::open_reviews(session);
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
                format!("{:?}", session.status()).to_lowercase()
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
