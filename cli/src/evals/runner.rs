//! One case run by one variant, driven exactly as `logicmd run` drives a run (core's session,
//! the CLI's driver), with nothing written: the ending, the events and the wall time.

use std::sync::Arc;
use std::time::{Duration, Instant};

use logicmd::evals::{Case, Ending};
use logicmd::run::session::{
    check_input, contracts_of, Answerers, ClockMode, Models, Session, Start, Waits,
};
use logicmd::run::{RunOptions, Scripted, Source};
use serde_json::Value;

use crate::providers::OpenAiProvider;
use crate::run::driver::{wall_ms, Driver, Ending as DriveEnding, Records};
use crate::run::progress::{Progress, ProgressMode};
use crate::run::tools::Checkers;

/// A document to run: its name in the results, its text (for the cache key) and what runs.
pub struct Variant {
    pub name: String,
    pub text: String,
    pub source: Source,
}

/// Who answers the model calls of every case.
pub enum Provider {
    Synthetic {
        seed: u64,
    },
    /// The script's text: each case starts it from its beginning.
    Scripted {
        text: String,
    },
    OpenAi {
        provider: Arc<OpenAiProvider>,
        model: String,
    },
}

impl Provider {
    /// The model named in the cache key.
    pub fn model(&self) -> String {
        match self {
            Provider::Synthetic { seed } => format!("synthetic:{seed}"),
            Provider::Scripted { text } => format!(
                "scripted:{}",
                logicmd::evals::cache_key(text, &Value::Null, "", 0)
            ),
            Provider::OpenAi { model, .. } => format!("openai:{model}"),
        }
    }

    pub fn seed(&self) -> u64 {
        match self {
            Provider::Synthetic { seed } => *seed,
            _ => 0,
        }
    }
}

const MAX_PARALLEL: usize = 4;
const LINK_TIMEOUT: Duration = Duration::from_secs(10);

/// Runs `case` with `variant`: its ending, its trace events, and the wall time it took.
pub fn run_case(variant: &Variant, case: &Case, provider: &Provider) -> (Ending, Vec<Value>, u64) {
    let started = Instant::now();
    let (ending, events) = drive(variant, case, provider);
    let took = started.elapsed().as_millis().min(u128::from(u64::MAX)) as u64;
    (ending, events, took)
}

fn drive(variant: &Variant, case: &Case, provider: &Provider) -> (Ending, Vec<Value>) {
    let check = check_input(&contracts_of(&variant.source), &case.input);
    if check.rejects() {
        return (Ending::InvalidInput(check.problems), Vec::new());
    }
    let (models, model, clock) = match provider {
        Provider::Synthetic { .. } => (Models::Synthetic, None, ClockMode::Fixed),
        Provider::Scripted { text } => match Scripted::parse(text) {
            Ok(script) => (Models::Scripted(script), None, ClockMode::Fixed),
            Err(problem) => return (Ending::Failed(format!("the script: {problem}")), Vec::new()),
        },
        Provider::OpenAi { provider, .. } => {
            (Models::Caller, Some(Arc::clone(provider)), ClockMode::Real)
        }
    };
    let waits = Waits::for_run(&models, clock);
    let options = RunOptions {
        max_parallelism: MAX_PARALLEL,
        seed: provider.seed(),
        ..RunOptions::default()
    };
    let start = Start::new(
        variant.source.clone(),
        case.input.clone(),
        options,
        clock,
        wall_ms(),
    );
    let answerers = Answerers {
        models,
        waits,
        facts: None,
    };
    let session = match Session::start(start, answerers) {
        Ok(session) => session,
        Err(error) => return (Ending::Failed(format!("cannot run: {error}")), Vec::new()),
    };
    let checkers = Checkers {
        offline: false,
        dry_run: !matches!(provider, Provider::OpenAi { .. }),
        link_timeout: LINK_TIMEOUT,
    };
    let progress = Progress::new(ProgressMode::Off, Box::new(std::io::sink()));
    let mut driver = Driver::new(
        session,
        model,
        checkers,
        Records::Memory(Vec::new()),
        progress,
    );
    let ending = match driver.drive() {
        Ok(DriveEnding::Completed(output)) => Ending::Completed(output),
        Ok(DriveEnding::Refused(unmet)) => Ending::Refused(unmet),
        Ok(DriveEnding::Failed(error)) | Err(error) => Ending::Failed(error),
        Ok(DriveEnding::Paused(_)) => Ending::Paused,
    };
    (ending, std::mem::take(&mut driver.events))
}
