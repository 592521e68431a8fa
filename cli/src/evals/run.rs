//! `logicmd evals run DOC --data CASES`: every case by every variant on a pool of threads,
//! rows appended to `--out` as they finish (in case order), a summary table, an HTML report.
//! An eval run again with the same `--out` goes on where it stopped.

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use logicmd::evals::{
    cache_key, judge_action, judge_answer, judge_simulated, read_cases, row, Case, Ending, Row,
    Scorer, Simulated,
};

use super::cache::{Cache, Cached};
use super::runner::{run_case, Provider, Variant};
use super::{html, pool, progress, results, table};
use crate::commands::front;
use crate::providers::OpenAiProvider;
use crate::{output, EXIT_INVALID, EXIT_OK, EXIT_USAGE};

#[derive(clap::Args)]
#[command(after_help = "\
Exit status: 0 every row passed, 1 a row did not pass (or a document has errors), 2 usage or I/O.

Scorers (--scorer, repeatable): exact, equal, subset, schema:FILE, 'expr:{{ output.x == expected.x }}',
trace (every built-in obligation), trace:RULE (a built-in's name or NAME=FORMULA). A case's
metadata.obligations adds trace rules for that case.

Examples:
  logicmd evals run agent.logic.md --data cases.jsonl --dry-run --scorer subset
  logicmd evals run agent.logic.md --variant agent-v2.logic.md --data cases.csv --provider scripted:answers.yaml
  logicmd evals compare before.jsonl after.jsonl")]
pub struct Args {
    /// The document to evaluate (the first variant).
    #[arg(value_name = "DOC")]
    document: PathBuf,
    /// The cases: JSON Lines (or .csv) of {id, input, expected?, metadata?}.
    #[arg(long, value_name = "FILE")]
    data: PathBuf,
    /// Another document to run over the same cases (repeatable); rows name it as given.
    #[arg(long = "variant", value_name = "DOC")]
    variants: Vec<PathBuf>,
    /// How each output is scored (repeatable; see below). A row passes when its run completed
    /// and every scorer passed.
    #[arg(long = "scorer", value_name = "SCORER")]
    scorers: Vec<String>,
    /// Call no model: synthetic answers valid for each step (as `logicmd run --dry-run`).
    #[arg(long, conflicts_with = "provider")]
    dry_run: bool,
    /// Who answers model calls: `openai` (see the provider options) or scripted:FILE (every
    /// case starts the script from its beginning).
    #[arg(long, value_name = "openai|scripted:FILE")]
    provider: Option<String>,
    #[command(flatten)]
    openai: crate::providers::Settings,
    /// Seed of the synthetic answers of --dry-run.
    #[arg(long, value_name = "N", requires = "dry_run", default_value_t = 0)]
    seed: u64,
    /// Cases run at once, each on its own thread [default: the number of CPUs].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=1024))]
    jobs: Option<u64>,
    /// The results, one row a line. When FILE exists, its rows are kept and only the cases
    /// it lacks are run (resume); --restart starts it over.
    #[arg(long, value_name = "FILE", default_value = "evals.jsonl")]
    out: PathBuf,
    /// Start --out over instead of resuming it.
    #[arg(long)]
    restart: bool,
    /// The HTML report [default: --out with the extension .html].
    #[arg(long, value_name = "FILE")]
    report: Option<PathBuf>,
    /// Keep answers in DIR by (document, input, model, seed): a case run again with the same
    /// four is read from there, not run.
    #[arg(long, value_name = "DIR")]
    cache: Option<PathBuf>,
    /// A progress bar on standard error while cases run (only on a terminal).
    #[arg(long, value_enum, default_value_t = ProgressFlag::Auto)]
    progress: ProgressFlag,
    /// Directory imports, workflow nodes and prompt files may be read from.
    #[arg(long, value_name = "DIR", value_parser = crate::commands::existing_dir)]
    root: Option<PathBuf>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ProgressFlag {
    Auto,
    Off,
}

/// One case by one variant.
struct Work<'a> {
    case: &'a Case,
    variant: &'a Variant,
}

pub fn run(args: &Args) -> u8 {
    match eval(args) {
        Ok(status) => status,
        Err((message, status)) => {
            if !message.is_empty() {
                eprintln!("error: {message}");
            }
            status
        }
    }
}

type Stop = (String, u8);

fn usage(message: String) -> Stop {
    (message, EXIT_USAGE)
}

fn eval(args: &Args) -> Result<u8, Stop> {
    let provider = provider(args)?;
    let scorers = args
        .scorers
        .iter()
        .map(|spec| Scorer::parse(spec, &read_file))
        .collect::<Result<Vec<_>, _>>()
        .map_err(usage)?;
    let data = read_bounded(&args.data.to_string_lossy(), MAX_DATA_BYTES).map_err(usage)?;
    let cases = read_cases(&args.data.to_string_lossy(), &data)
        .map_err(|e| usage(format!("{}:{e}", args.data.display())))?;
    let mut variants = vec![variant(&args.document, args.root.as_deref())?];
    for path in &args.variants {
        variants.push(variant(path, args.root.as_deref())?);
    }
    let names: BTreeSet<&str> = variants.iter().map(|v| v.name.as_str()).collect();
    if names.len() < variants.len() {
        return Err(usage(
            "two variants have the same name: give each document once".to_owned(),
        ));
    }
    let (mut rows, keep) = resumed(args)?;
    same_scorers(args, &rows, &scorers)?;
    let done: BTreeSet<(String, String)> = rows
        .iter()
        .map(|r| (r.id.clone(), r.variant.clone()))
        .collect();
    let work: Vec<Work> = cases
        .iter()
        .flat_map(|case| variants.iter().map(move |variant| Work { case, variant }))
        .filter(|w| !done.contains(&(w.case.id.clone(), w.variant.name.clone())))
        .collect();
    if !rows.is_empty() {
        eprintln!(
            "resuming {}: {} rows kept, {} to run",
            args.out.display(),
            rows.len(),
            work.len()
        );
    }
    let cache = args
        .cache
        .as_deref()
        .map(Cache::open)
        .transpose()
        .map_err(usage)?;
    let mut writer = results::Writer::open(&args.out, keep).map_err(usage)?;
    let jobs = args.jobs.map_or_else(default_jobs, |n| n as usize);
    let mut bar = progress::Bar::new(work.len(), args.progress == ProgressFlag::Auto);
    let mut failure = None;
    pool::run_in_order(
        &work,
        jobs,
        |w| scored(w, &provider, &scorers, cache.as_ref()),
        |_, result| match result {
            Ok(row) => {
                bar.step(row.pass);
                if failure.is_none() {
                    failure = writer.append(&row).err();
                }
                rows.push(row);
            }
            Err(error) => failure = failure.take().or(Some(error)),
        },
    );
    bar.finish();
    if let Some(error) = failure {
        return Err(usage(error));
    }
    // The file's rows, kept ones first, in case and variant order for the report.
    let case_at: HashMap<&str, usize> = cases
        .iter()
        .enumerate()
        .map(|(i, c)| (c.id.as_str(), i))
        .collect();
    let variant_at: HashMap<&str, usize> = variants
        .iter()
        .enumerate()
        .map(|(i, v)| (v.name.as_str(), i))
        .collect();
    let order = |row: &Row| {
        let at =
            |map: &HashMap<&str, usize>, key: &str| map.get(key).copied().unwrap_or(usize::MAX);
        (at(&case_at, &row.id), at(&variant_at, &row.variant))
    };
    rows.sort_by_key(|row| order(row));
    let report = args
        .report
        .clone()
        .unwrap_or_else(|| args.out.with_extension("html"));
    let page = html::report(&rows, &args.data.to_string_lossy());
    std::fs::write(&report, page)
        .map_err(|e| usage(format!("cannot write {}: {e}", report.display())))?;
    output::print(&table::summary(&rows));
    output::print(&format!(
        "results: {}\nreport: {}",
        args.out.display(),
        report.display()
    ));
    Ok(if rows.iter().all(|r| r.pass) {
        EXIT_OK
    } else {
        EXIT_INVALID
    })
}

/// The row of one work item: from the cache when it has the answer, else run (and kept).
fn scored(
    work: &Work,
    provider: &Provider,
    scorers: &[Scorer],
    cache: Option<&Cache>,
) -> Result<Row, String> {
    let key = cache_key(
        &work.variant.text,
        &work.case.input,
        &provider.model(),
        provider.seed(),
    );
    let cached = cache.and_then(|c| c.get(&key));
    let (ending, events, latency_ms) = match cached {
        Some(cached) => (cached.ending, cached.events, cached.latency_ms),
        None => {
            let (ending, events, latency_ms) = run_case(work.variant, work.case, provider);
            if let Some(cache) = cache {
                let answer = Cached {
                    ending,
                    events,
                    latency_ms,
                };
                cache.put(&key, &answer)?;
                (answer.ending, answer.events, answer.latency_ms)
            } else {
                (ending, events, latency_ms)
            }
        }
    };
    let judged = judged(work, provider, scorers, &ending);
    Ok(row(
        work.case,
        &work.variant.name,
        &ending,
        events,
        scorers,
        judged.as_deref(),
        latency_ms,
    ))
}

/// The judge's answer on a completed run's output, when a judge scores it: from the script's
/// `node: judge` entries, or the OpenAI-compatible server (the synthetic provider does not
/// judge).
fn judged(work: &Work, provider: &Provider, scorers: &[Scorer], ending: &Ending) -> Option<String> {
    let Ending::Completed(output) = ending else {
        return None;
    };
    if !scorers.iter().any(|s| matches!(s, Scorer::Judge)) {
        return None;
    }
    match provider {
        Provider::Simulated(answers) => {
            judge_simulated(&work.variant.source, work.case, output, answers)
        }
        Provider::OpenAi { provider, .. } => {
            let action = judge_action(&work.variant.source, work.case, output);
            let observation = provider.call(&action, &mut |_| {})?;
            judge_answer(logicmd::run::Answer::Observed(observation))
        }
    }
}

/// Kept rows must have been scored as this run scores, or the results would mix two measures.
fn same_scorers(args: &Args, rows: &[Row], scorers: &[Scorer]) -> Result<(), Stop> {
    let names: Vec<String> = scorers.iter().map(Scorer::name).collect();
    match rows.iter().find(|row| row.scores.keys().ne(names.iter())) {
        Some(row) => Err(usage(format!(
            "{} holds rows scored by [{}], not by [{}]: give the same --scorer list to resume, or --restart",
            args.out.display(),
            row.scores.keys().cloned().collect::<Vec<_>>().join(", "),
            names.join(", ")
        ))),
        None => Ok(()),
    }
}

fn resumed(args: &Args) -> Result<(Vec<Row>, Option<u64>), Stop> {
    if args.restart || !args.out.exists() {
        return Ok((Vec::new(), None));
    }
    let (rows, kept) = results::read(&args.out, true).map_err(usage)?;
    Ok((rows, Some(kept)))
}

fn variant(path: &Path, root: Option<&Path>) -> Result<Variant, Stop> {
    let name = path.to_string_lossy().into_owned();
    let text = read_file(&name).map_err(usage)?;
    let prepared = front::prepare_run(path, &text, root).map_err(|problems| {
        eprintln!("{}", output::human(&name, &text, &problems));
        (
            format!("{name} was not run: fix the errors above first"),
            EXIT_INVALID,
        )
    })?;
    Ok(Variant {
        name,
        text,
        source: prepared.source,
    })
}

fn provider(args: &Args) -> Result<Provider, Stop> {
    if args.dry_run {
        return Ok(Provider::Simulated(Simulated::Synthetic {
            seed: args.seed,
        }));
    }
    match args.provider.as_deref() {
        Some("openai") => {
            let provider = OpenAiProvider::from_settings(&args.openai, Some(&args.document)).map_err(usage)?;
            let model = args.openai.model.clone().unwrap_or_default();
            Ok(Provider::OpenAi { provider: Arc::new(provider), model })
        }
        Some(spec) => match spec.split_once(':') {
            Some(("scripted", path)) if !path.is_empty() => Ok(Provider::Simulated(Simulated::Scripted { script: read_file(path).map_err(usage)? })),
            _ => Err(usage(format!("unknown provider `{spec}`: use `openai`, `scripted:FILE`, or --dry-run"))),
        },
        None => Err(usage(
            "say who answers model calls: --dry-run (synthetic answers), --provider openai or --provider scripted:FILE".to_owned(),
        )),
    }
}

/// The largest dataset read (a million short cases fit).
const MAX_DATA_BYTES: usize = 1 << 30;

fn read_file(path: &str) -> Result<String, String> {
    read_bounded(path, logicmd::Limits::DEFAULT.max_bytes)
}

fn read_bounded(path: &str, limit: usize) -> Result<String, String> {
    let bytes = crate::input::read_bounded(Path::new(path), limit)
        .map_err(|e| format!("cannot read {path}: {e}"))?;
    crate::input::utf8_text(bytes).map_err(|problem| format!("{path} {problem}"))
}

fn default_jobs() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}
