//! `logicmd evals run DOC --data CASES`: every case by every variant on a pool of threads,
//! rows appended to `--out` as they finish (in case order), a summary table, an HTML report.
//! An eval run again with the same `--out` goes on where it stopped.

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use logicmd::evals::{
    cache_key, failed_on_the_server, fingerprint, judge_action, judge_answer, judge_simulated,
    read_cases, row, server_failure, Case, Ending, Judged, MadeFrom, Row, Scorer, Simulated,
};

use super::cache::Cache;
use super::interrupt::{Interrupt, EXIT_INTERRUPTED};
use super::runner::{run_case, Provider, Variant};
use super::streak::{Streak, SAME_FAILURES};
use super::{html, pool, progress, ray, results, table};
use crate::commands::front;
use crate::providers::settings::Server;
use crate::providers::{OpenAiProvider, Settings};
use crate::run::lock::Lock;
use crate::{output, EXIT_INVALID, EXIT_OK, EXIT_USAGE};
use logicmd::run::{Observation, Usage};

#[derive(clap::Args)]
#[command(after_help = "\
Exit status: 0 every row passed, 1 a row did not pass (or a document has errors), 2 usage or I/O
(or ten cases in a row failed alike against a server), 130 interrupted (Ctrl-C: the cases in flight
finish; a second Ctrl-C stops at once). Run the same command again to resume: kept rows whose case,
document, script or schema changed since are run again.

Scorers (--scorer, repeatable): exact, equal, subset, schema:FILE, 'expr:{{ output.x == expected.x }}',
trace (every built-in obligation), trace:RULE (a built-in's name or NAME=FORMULA). A case's
metadata.obligations adds trace rules for that case.

Variants: the document and each --variant, each asked of each --model when more than one is given
(rows name them DOC@MODEL).

Engines: `local` runs cases on a pool of threads (--jobs); `ray` runs them as Ray tasks through the
Python package (pip install 'logicmd[ray]'), with --dry-run or --provider scripted:FILE.

Examples:
  logicmd evals run agent.logic.md --data cases.jsonl --dry-run --scorer subset
  logicmd evals run agent.logic.md --variant agent-v2.logic.md --data cases.csv --provider scripted:answers.yaml
  logicmd evals run agent.logic.md --data cases.jsonl --provider openai --model gpt-4o --model gpt-4o-mini
  logicmd evals run agent.logic.md --data cases.jsonl --dry-run --engine ray --address ray://head:10001
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
    /// The model to ask, over any `model` the document or logicmd.toml names (repeatable: each
    /// document runs with each model).
    #[arg(
        long = "model",
        value_name = "MODEL",
        help_heading = "OpenAI-compatible provider"
    )]
    models: Vec<String>,
    #[command(flatten)]
    server: Server,
    /// Seed of the synthetic answers of --dry-run [default: 0].
    #[arg(long, value_name = "N")]
    seed: Option<u64>,
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
    #[command(flatten)]
    pub(super) ray: ray::Flags,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ProgressFlag {
    Auto,
    Off,
}

/// A variant, who answers its model calls, and what its rows are made from.
struct Arm {
    variant: Variant,
    provider: Provider,
    made: MadeFrom,
}

/// One case by one variant.
struct Work<'a> {
    case: &'a Case,
    arm: &'a Arm,
}

impl Work<'_> {
    /// What this work's row is made from (see [`fingerprint`]).
    fn fingerprint(&self) -> String {
        fingerprint(&self.arm.made, self.case)
    }
}

pub fn run(args: &Args) -> u8 {
    match eval(args) {
        Ok(status) => status,
        Err((message, status)) => {
            if status == EXIT_INTERRUPTED {
                eprintln!("{message}");
            } else if !message.is_empty() {
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
    engine_fits(args)?;
    let scorers = args
        .scorers
        .iter()
        .map(|spec| Scorer::parse(spec, &read_file))
        .collect::<Result<Vec<_>, _>>()
        .map_err(usage)?;
    let data = read_bounded(&args.data.to_string_lossy(), MAX_DATA_BYTES).map_err(usage)?;
    let cases = read_cases(&args.data.to_string_lossy(), &data)
        .map_err(|e| usage(format!("{}:{e}", args.data.display())))?;
    if cases.is_empty() {
        return Err(usage(format!(
            "{} holds no cases: an eval of nothing would pass",
            args.data.display()
        )));
    }
    let arms = arms(args, &scorers)?;
    outputs_fit(args)?;
    obligations_scored(&cases, &scorers);
    // One eval at a time writes a results file: two would interleave their rows.
    let _lock = Lock::acquire_for(&args.out, ("the results file", "write it")).map_err(usage)?;
    let interrupt = Interrupt::install(&args.out.display().to_string());
    let (mut rows, mut keep) = resumed(args)?;
    same_scorers(args, &rows, &scorers)?;
    same_eval(args, &rows, &cases, &arms)?;
    let (changed, unanswered) = changed_since(&mut rows, &cases, &arms);
    if changed + unanswered > 0 {
        keep = Some(results::rewrite(&args.out, &rows).map_err(usage)?);
    }
    let rows_of = |n: usize| match n {
        1 => format!("1 row of {} was", args.out.display()),
        n => format!("{n} rows of {} were", args.out.display()),
    };
    if changed > 0 {
        eprintln!(
            "{} made from a case, document, import, script, schema or server that has changed since: they run again",
            rows_of(changed)
        );
    }
    if unanswered > 0 {
        eprintln!(
            "{} cut short on the server's side (no answer to keep): they run again",
            rows_of(unanswered)
        );
    }
    let done: BTreeSet<(String, String)> = rows
        .iter()
        .map(|r| (r.id.clone(), r.variant.clone()))
        .collect();
    let work: Vec<Work> = cases
        .iter()
        .flat_map(|case| arms.iter().map(move |arm| Work { case, arm }))
        .filter(|w| !done.contains(&(w.case.id.clone(), w.arm.variant.name.clone())))
        .collect();
    if !rows.is_empty() {
        eprintln!(
            "resuming {}: {} rows kept, {} to run",
            args.out.display(),
            rows.len(),
            work.len()
        );
    }
    let mut writer = results::Writer::open(&args.out, keep).map_err(usage)?;
    interrupt.kept(rows.len() as u64);
    match args.ray.engine {
        ray::Engine::Local => locally(args, &work, &scorers, (&mut writer, &interrupt), &mut rows)?,
        ray::Engine::Ray => on_ray(
            args,
            (&work, &scorers),
            &done,
            (&mut writer, keep, &interrupt),
            &mut rows,
        )?,
    }
    // The file's rows, kept ones first, in case and variant order for the report.
    let case_at: HashMap<&str, usize> = cases
        .iter()
        .enumerate()
        .map(|(i, c)| (c.id.as_str(), i))
        .collect();
    let variant_at: HashMap<&str, usize> = arms
        .iter()
        .enumerate()
        .map(|(i, arm)| (arm.variant.name.as_str(), i))
        .collect();
    let order = |row: &Row| {
        let at =
            |map: &HashMap<&str, usize>, key: &str| map.get(key).copied().unwrap_or(usize::MAX);
        (at(&case_at, &row.id), at(&variant_at, &row.variant))
    };
    rows.sort_by_key(|row| order(row));
    let report = report_path(args);
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

/// Runs `work` on a pool of threads, each row written as it comes. Stops early on Ctrl-C, and
/// when cases against a server keep failing alike (see [`Streak`]).
fn locally(
    args: &Args,
    work: &[Work],
    scorers: &[Scorer],
    (writer, interrupt): (&mut results::Writer, &Interrupt),
    rows: &mut Vec<Row>,
) -> Result<(), Stop> {
    let cache = args
        .cache
        .as_deref()
        .map(Cache::open)
        .transpose()
        .map_err(usage)?;
    let jobs = args.jobs.map_or_else(default_jobs, |n| n as usize);
    let against_a_server = work
        .iter()
        .any(|w| matches!(w.arm.provider, Provider::OpenAi { .. }));
    let mut streak = Streak::new(against_a_server.then_some(SAME_FAILURES));
    let gave_up = AtomicBool::new(false);
    let mut bar = progress::Bar::new(work.len(), args.progress == ProgressFlag::Auto);
    let mut failure = None;
    let mut keep = |row: Row, bar: &mut progress::Bar| {
        bar.step(row.pass);
        if failure.is_none() {
            match writer.append(&row) {
                Ok(()) => interrupt.wrote(),
                Err(error) => failure = Some(error),
            }
        }
        rows.push(row);
    };
    let mut stopped_by = None;
    // A row that could not be made (its answer could not be cached).
    let mut unkept = None;
    pool::run_in_order(
        work,
        jobs,
        &|| interrupt.requested() || gave_up.load(Ordering::SeqCst),
        |w| scored(w, scorers, cache.as_ref()),
        |_, result| match result {
            Ok(row) if stopped_by.is_none() => match streak.take(row) {
                Ok(released) => released.into_iter().for_each(|row| keep(row, &mut bar)),
                Err(error) => {
                    gave_up.store(true, Ordering::SeqCst);
                    stopped_by = Some(error);
                }
            },
            // Cases still in flight when the eval gave up: dropped, they run again.
            Ok(_) => {}
            Err(error) => unkept = unkept.take().or(Some(error)),
        },
    );
    if stopped_by.is_none() {
        streak
            .rest()
            .into_iter()
            .for_each(|row| keep(row, &mut bar));
    }
    bar.finish();
    if let Some(error) = failure.or(unkept) {
        return Err(usage(error));
    }
    if let Some(error) = stopped_by {
        return Err(usage(format!(
            "stopped: {SAME_FAILURES} cases in a row failed alike on the server's side, and the rest would too: {error}\n{} kept in {} (not the failed ones): fix what the error says, then run the same command again to resume",
            super::interrupt::rows_are(rows.len() as u64),
            args.out.display()
        )));
    }
    if interrupt.requested() {
        return Err((interrupt.stopped(), EXIT_INTERRUPTED));
    }
    Ok(())
}

/// Runs the cases `work` still needs on Ray (scored by `scorers`), and keeps the rows that were
/// not done: written as
/// batches finish (an interruption keeps them), then, once all are in, written again in case
/// order after the `keep` bytes resumed from — the file the local pool writes.
fn on_ray(
    args: &Args,
    (work, scorers): (&[Work], &[Scorer]),
    done: &BTreeSet<(String, String)>,
    (writer, keep, interrupt): (&mut results::Writer, Option<u64>, &Interrupt),
    rows: &mut Vec<Row>,
) -> Result<(), Stop> {
    if work.is_empty() {
        return Ok(());
    }
    let mut cases: Vec<&Case> = work.iter().map(|w| w.case).collect();
    cases.dedup_by(|a, b| a.id == b.id);
    let answers = match &work[0].arm.provider {
        Provider::Simulated(Simulated::Synthetic { seed }) => {
            ray::Answers::Synthetic { seed: *seed }
        }
        Provider::Simulated(Simulated::Scripted { .. }) => ray::Answers::Scripted {
            script: args
                .provider
                .as_deref()
                .and_then(|p| p.strip_prefix("scripted:"))
                .unwrap_or_default(),
        },
        Provider::OpenAi { .. } => return Err(usage(RAY_ANSWERS.to_owned())),
    };
    let documents = std::iter::once(&args.document)
        .chain(&args.variants)
        .map(|path| path.to_string_lossy().into_owned())
        .collect();
    let request = ray::Request {
        documents,
        root: args.root.as_deref(),
        scorers: &args.scorers,
        answers,
        cases,
    };
    let mut bar = progress::Bar::new(work.len(), args.progress == ProgressFlag::Auto);
    let mut ran = Vec::new();
    let asked: BTreeSet<(&str, &str)> = work
        .iter()
        .map(|w| (w.case.id.as_str(), w.arm.variant.name.as_str()))
        .collect();
    let names: Vec<String> = scorers.iter().map(Scorer::name).collect();
    let fingerprints: HashMap<(&str, &str), String> = work
        .iter()
        .map(|w| {
            let key = (w.case.id.as_str(), w.arm.variant.name.as_str());
            (key, w.fingerprint())
        })
        .collect();
    let mut given = BTreeSet::new();
    let finished = ray::run(&args.ray, &request, &mut |row| {
        // A case half done before runs again whole; its done half is kept as it was.
        if done.contains(&(row.id.clone(), row.variant.clone())) {
            return Ok(());
        }
        // Only the rows asked for, each once, scored as asked: anything else is not this eval.
        let key = (row.id.clone(), row.variant.clone());
        if !asked.contains(&(key.0.as_str(), key.1.as_str())) || !given.insert(key) {
            return Err(format!(
                "Ray gave a row that was not asked for, or twice: case `{}`, variant `{}`",
                row.id, row.variant
            ));
        }
        if row.scores.keys().ne(names.iter()) {
            return Err(format!(
                "Ray gave case `{}` scored by [{}], not by the scorers asked",
                row.id,
                row.scores.keys().cloned().collect::<Vec<_>>().join(", ")
            ));
        }
        if fingerprints.get(&(row.id.as_str(), row.variant.as_str())) != Some(&row.fingerprint) {
            return Err(format!(
                "Ray's row for case `{}`, variant `{}` was made from another text than this eval's (did a document, the script or a schema change while it ran?)",
                row.id, row.variant
            ));
        }
        bar.step(row.pass);
        writer.append(&row)?;
        interrupt.wrote();
        ran.push(row);
        // Ctrl-C: the rows so far are kept; the interpreter is stopped.
        if interrupt.requested() {
            return Err("interrupted".to_owned());
        }
        Ok(())
    });
    bar.finish();
    if interrupt.requested() {
        return Err((interrupt.stopped(), EXIT_INTERRUPTED));
    }
    finished.map_err(usage)?;
    if let Some((id, variant)) = asked
        .iter()
        .find(|(id, variant)| !given.contains(&((*id).to_owned(), (*variant).to_owned())))
    {
        return Err(usage(format!(
            "Ray gave {} of the {} rows asked for (case `{id}`, variant `{variant}` is missing): the rows it gave are kept in {}; run again to resume",
            given.len(),
            asked.len(),
            args.out.display()
        )));
    }
    let position: HashMap<(&str, &str), usize> = work
        .iter()
        .enumerate()
        .map(|(i, w)| ((w.case.id.as_str(), w.arm.variant.name.as_str()), i))
        .collect();
    ran.sort_by_key(|row| {
        position
            .get(&(row.id.as_str(), row.variant.as_str()))
            .copied()
            .unwrap_or(usize::MAX)
    });
    *writer = results::Writer::open(&args.out, keep).map_err(usage)?;
    for row in &ran {
        writer.append(row).map_err(usage)?;
    }
    rows.extend(ran);
    Ok(())
}

const RAY_ANSWERS: &str = "--engine ray takes --dry-run or --provider scripted:FILE: an OpenAI-compatible provider on Ray needs one rate budget shared by every worker, which is not built yet";

/// Flags that only one engine reads are refused with the other.
fn engine_fits(args: &Args) -> Result<(), Stop> {
    let refused = match args.ray.engine {
        ray::Engine::Local => args
            .ray
            .address
            .as_ref()
            .map(|_| "--address names a Ray cluster: give it with --engine ray"),
        ray::Engine::Ray => {
            if args.provider.as_deref() == Some("openai") {
                Some(RAY_ANSWERS)
            } else if args.cache.is_some() {
                Some("--cache keeps answers on this machine, which Ray workers do not read: leave it out with --engine ray")
            } else if args.jobs.is_some() {
                Some("--jobs sizes the local pool; Ray sizes its own tasks: leave it out with --engine ray")
            } else {
                None
            }
        }
    };
    if let Some(message) = refused {
        return Err(usage(message.to_owned()));
    }
    if args.ray.engine == ray::Engine::Ray {
        ray::probe(&args.ray.python).map_err(usage)?;
    }
    Ok(())
}

/// Every document by every model: the document first, then each --variant; one model (or
/// none) keeps the document's name, several name each variant DOC@MODEL.
fn arms(args: &Args, scorers: &[Scorer]) -> Result<Vec<Arm>, Stop> {
    let models: Vec<Option<&str>> = if args.models.is_empty() {
        vec![None]
    } else {
        args.models.iter().map(|m| Some(m.as_str())).collect()
    };
    let distinct: BTreeSet<&Option<&str>> = models.iter().collect();
    if distinct.len() < models.len() {
        return Err(usage(
            "a --model is given twice: give each model once".to_owned(),
        ));
    }
    let mut arms = Vec::new();
    for path in std::iter::once(&args.document).chain(&args.variants) {
        for model in &models {
            let mut variant = variant(path, args.root.as_deref())?;
            if let (Some(model), true) = (model, models.len() > 1) {
                variant.name = format!("{}@{model}", variant.name);
            }
            let provider = provider(args, *model, models.len())?;
            let made = MadeFrom::new((&variant.text, &variant.source), &provider.model(), scorers);
            arms.push(Arm {
                variant,
                provider,
                made,
            });
        }
    }
    let names: BTreeSet<&str> = arms.iter().map(|a| a.variant.name.as_str()).collect();
    if names.len() < arms.len() {
        return Err(usage(
            "two variants have the same name: give each document once".to_owned(),
        ));
    }
    Ok(arms)
}

/// The row of one work item: from the cache when it has the answer, else run (and kept).
fn scored(work: &Work, scorers: &[Scorer], cache: Option<&Cache>) -> Result<Row, String> {
    let provider = &work.arm.provider;
    let variant = &work.arm.variant;
    let key = cache_key(
        &variant.text,
        &work.case.input,
        &provider.model(),
        provider.seed(),
    );
    let ran = match cache.and_then(|c| c.get(&key)) {
        Some(cached) => cached,
        None => {
            let ran = run_case(variant, work.case, provider);
            // A server that failed gave no answer to keep.
            if let (Some(cache), None) = (cache, server_failure(&ran.ending, &ran.events)) {
                cache.put(&key, &ran)?;
            }
            ran
        }
    };
    let judgement = judged(work, provider, scorers, &ran.ending);
    let judged = match &judgement {
        Ok(Some((answer, _))) => Judged::Answered(answer),
        Ok(None) => Judged::Nobody,
        Err(error) => Judged::CallFailed(error),
    };
    let mut row = row(
        work.case,
        (&variant.name, work.fingerprint()),
        ran,
        scorers,
        judged,
    );
    // The judge's call is part of what the case cost.
    if let Ok(Some((_, Some(usage)))) = &judgement {
        row.tokens.input += usage.input_tokens;
        row.tokens.output += usage.output_tokens;
        if let Some(cost) = usage.cost {
            row.cost = Some(row.cost.unwrap_or(0.0) + cost);
        }
    }
    Ok(row)
}

/// What the judge said of a completed run's output, when a judge scores it: from the
/// script's `node: judge` entries, or the OpenAI-compatible server (the synthetic provider does
/// not judge). A server-side failure is retried as a step's call would be (three attempts, the
/// server's `Retry-After` or 1 s, 2 s between them), then said as such.
fn judged(
    work: &Work,
    provider: &Provider,
    scorers: &[Scorer],
    ending: &Ending,
) -> Result<Option<(String, Option<Usage>)>, String> {
    let Ending::Completed(output) = ending else {
        return Ok(None);
    };
    if !scorers.iter().any(|s| matches!(s, Scorer::Judge)) {
        return Ok(None);
    }
    match provider {
        Provider::Simulated(answers) => {
            Ok(
                judge_simulated(&work.arm.variant.source, work.case, output, answers)
                    .map(|text| (text, None)),
            )
        }
        Provider::OpenAi { provider, .. } => {
            let action = judge_action(&work.arm.variant.source, work.case, output);
            for attempt in 1..=JUDGE_ATTEMPTS {
                let Some(observation) = provider.call(&action, &mut |_| {}) else {
                    return Ok(None);
                };
                match observation {
                    Observation::ModelError(failure)
                        if failure.retryable && attempt < JUDGE_ATTEMPTS =>
                    {
                        let wait = failure.retry_after_ms.unwrap_or(1_000 << (attempt - 1));
                        std::thread::sleep(std::time::Duration::from_millis(wait));
                    }
                    Observation::ModelError(failure) => {
                        return Err(format!("{}: {}", failure.kind, failure.message))
                    }
                    answered => {
                        let usage = match &answered {
                            Observation::ModelResponse { usage, .. } => *usage,
                            _ => None,
                        };
                        let answer = judge_answer(logicmd::run::Answer::Observed(answered));
                        return Ok(answer.map(|text| (text, usage)));
                    }
                }
            }
            Ok(None)
        }
    }
}

const JUDGE_ATTEMPTS: u32 = 3;

/// Kept rows must belong to this eval's cases and variants: rows of another dataset or
/// document would be counted as this one's.
fn same_eval(args: &Args, rows: &[Row], cases: &[Case], arms: &[Arm]) -> Result<(), Stop> {
    let ids: BTreeSet<&str> = cases.iter().map(|c| c.id.as_str()).collect();
    let variants: BTreeSet<&str> = arms.iter().map(|a| a.variant.name.as_str()).collect();
    let mut seen = BTreeSet::new();
    if let Some(row) = rows.iter().find(|r| !seen.insert((&r.id, &r.variant))) {
        return Err(usage(format!(
            "{} holds case `{}` of variant `{}` twice (two evals wrote it at once?): --restart starts it over",
            args.out.display(),
            row.id,
            row.variant
        )));
    }
    match rows
        .iter()
        .find(|r| !ids.contains(r.id.as_str()) || !variants.contains(r.variant.as_str()))
    {
        Some(row) => Err(usage(format!(
            "{} holds rows of another eval (case `{}`, variant `{}` is not in this one): resume with the same --data and documents, or --restart",
            args.out.display(),
            row.id,
            row.variant
        ))),
        None => Ok(()),
    }
}

/// Drops the kept rows that were made from something that has changed since (a case's input,
/// expected value or metadata, a document or what it imports, the script, a schema, the
/// server), and those that failed on the server's side (they hold no answer): their cases run
/// again. How many of each were dropped.
fn changed_since(rows: &mut Vec<Row>, cases: &[Case], arms: &[Arm]) -> (usize, usize) {
    let case_of: HashMap<&str, &Case> = cases.iter().map(|c| (c.id.as_str(), c)).collect();
    let arm_of: HashMap<&str, &Arm> = arms.iter().map(|a| (a.variant.name.as_str(), a)).collect();
    let (mut changed, mut unanswered) = (0, 0);
    rows.retain(|row| {
        let same = match (
            case_of.get(row.id.as_str()),
            arm_of.get(row.variant.as_str()),
        ) {
            (Some(case), Some(arm)) => Work { case, arm }.fingerprint() == row.fingerprint,
            _ => false,
        };
        let unanswered_row = same && failed_on_the_server(row);
        changed += usize::from(!same);
        unanswered += usize::from(unanswered_row);
        same && !unanswered_row
    });
    (changed, unanswered)
}

/// A case's `metadata.obligations` is checked by a trace scorer; without one, say it is not.
fn obligations_scored(cases: &[Case], scorers: &[Scorer]) {
    if scorers.iter().any(|s| matches!(s, Scorer::Trace { .. })) {
        return;
    }
    let listing = cases
        .iter()
        .filter(|c| {
            c.metadata
                .as_ref()
                .is_some_and(|m| m.get("obligations").is_some())
        })
        .count();
    if listing > 0 {
        let cases = if listing == 1 {
            "1 case lists".to_owned()
        } else {
            format!("{listing} cases list")
        };
        eprintln!(
            "note: {cases} metadata.obligations, which only a trace scorer checks: add --scorer trace (every built-in rule and theirs) or --scorer trace:RULE"
        );
    }
}

/// The results and the report are two files, and neither is one this eval reads.
fn outputs_fit(args: &Args) -> Result<(), Stop> {
    if args.out.as_os_str() == "-" {
        return Err(usage(
            "--out names the results file (it is what an interrupted eval resumes from): `-` is not one".to_owned(),
        ));
    }
    let report = report_path(args);
    if same_file(&args.out, &report) {
        return Err(usage(format!(
            "--out and the report are the same file ({}): give --report another name",
            args.out.display()
        )));
    }
    let mut inputs = vec![("the dataset", args.data.clone())];
    for path in std::iter::once(&args.document).chain(&args.variants) {
        inputs.push(("the document", path.clone()));
    }
    if let Some(script) = args
        .provider
        .as_deref()
        .and_then(|p| p.strip_prefix("scripted:"))
    {
        inputs.push(("the script", PathBuf::from(script)));
    }
    for spec in &args.scorers {
        if let Some(file) = spec.strip_prefix("schema:") {
            inputs.push(("a scorer's schema", PathBuf::from(file)));
        }
    }
    // Found before the eval runs, not after hours of it.
    for (flag, output) in [("--out", &args.out), ("--report", &report)] {
        let dir = output
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        if !dir.is_dir() {
            return Err(usage(format!(
                "{flag} {}: the directory {} does not exist",
                output.display(),
                dir.display()
            )));
        }
    }
    for (flag, output) in [("--out", &args.out), ("the report", &report)] {
        if let Some((what, input)) = inputs.iter().find(|(_, input)| same_file(output, input)) {
            return Err(usage(format!(
                "{flag} would overwrite {what} ({}): name another file",
                input.display()
            )));
        }
    }
    Ok(())
}

/// The report's path: --report, or --out with the extension .html.
fn report_path(args: &Args) -> PathBuf {
    args.report
        .clone()
        .unwrap_or_else(|| args.out.with_extension("html"))
}

/// Whether two paths name one file (as written, or once resolved when both exist).
fn same_file(a: &Path, b: &Path) -> bool {
    let absolute = |p: &Path| std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
    if absolute(a) == absolute(b) {
        return true;
    }
    matches!((a.canonicalize(), b.canonicalize()), (Ok(x), Ok(y)) if x == y)
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

/// Who answers `model`'s calls (`models` of them are asked in this eval).
fn provider(args: &Args, model: Option<&str>, models: usize) -> Result<Provider, Stop> {
    let simulated = |answers| {
        if models > 1 {
            Err(usage("several --model variants need --provider openai: synthetic and scripted answers do not depend on the model, so every variant would answer alike".to_owned()))
        } else if model.is_some() {
            Err(usage("--model names the model --provider openai asks: synthetic and scripted answers do not depend on it, so it would change nothing here".to_owned()))
        } else if let Some(flag) = server_flag(&args.server) {
            Err(usage(format!("{flag} is for the server --provider openai asks: synthetic and scripted answers ask none, so it would change nothing here")))
        } else {
            Ok(Provider::Simulated(answers))
        }
    };
    if args.seed.is_some() && !args.dry_run {
        return Err(usage(
            "--seed seeds the synthetic answers of --dry-run: other answers do not depend on it, so it would change nothing here".to_owned(),
        ));
    }
    if args.dry_run {
        return simulated(Simulated::Synthetic {
            seed: args.seed.unwrap_or(0),
        });
    }
    match args.provider.as_deref() {
        Some("openai") => {
            let settings = Settings {
                model: model.map(str::to_owned),
                server: args.server.clone(),
            };
            let resolved = settings
                .resolve(Some(&args.document), &|name| std::env::var(name).ok())
                .map_err(usage)?;
            // The cache key and the rows' fingerprints name the model asked, wherever its name
            // came from, and the server asked (a local server answers any model name).
            let model = format!("{}@{}", resolved.model.clone().unwrap_or_default(), resolved.base_url);
            Ok(Provider::OpenAi { provider: Arc::new(OpenAiProvider::new(resolved)), model })
        }
        Some(spec) => match spec.split_once(':') {
            Some(("scripted", path)) if !path.is_empty() => simulated(Simulated::Scripted { script: read_file(path).map_err(usage)? }),
            _ => Err(usage(format!("unknown provider `{spec}`: use `openai`, `scripted:FILE`, or --dry-run"))),
        },
        None => Err(usage(
            "say who answers model calls: --dry-run (synthetic answers), --provider openai or --provider scripted:FILE".to_owned(),
        )),
    }
}

/// The first server flag given, by its name.
fn server_flag(server: &Server) -> Option<&'static str> {
    [
        (server.base_url.is_some(), "--base-url"),
        (server.api_key_env.is_some(), "--api-key-env"),
        (server.timeout.is_some(), "--timeout"),
        (server.no_stream, "--no-stream"),
    ]
    .into_iter()
    .find_map(|(given, flag)| given.then_some(flag))
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
