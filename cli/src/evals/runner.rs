//! One case run by one variant, with nothing written: the ending, the events and the wall
//! time. Simulated answers (synthetic, scripted) are core's loop (`logicmd::evals::
//! run_simulated`, the same in Python and on Ray); a real provider is driven exactly as
//! `logicmd run` drives a run (core's session, the CLI's driver, model calls on threads).

use std::sync::Arc;
use std::time::{Duration, Instant};

use logicmd::evals::{run_simulated, Case, Ending, Ran, Simulated};
use logicmd::run::session::{
    check_input, contracts_of, Answerers, ClockMode, Models, Session, Start, Waits,
};
use logicmd::run::{RunOptions, Source};
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
    /// Synthetic or scripted answers, from inside the session.
    Simulated(Simulated),
    /// An OpenAI-compatible server, and the model named in the cache key.
    OpenAi {
        provider: Arc<OpenAiProvider>,
        model: String,
    },
}

impl Provider {
    /// The model named in the cache key.
    pub fn model(&self) -> String {
        match self {
            Provider::Simulated(answers) => answers.identity(),
            Provider::OpenAi { model, .. } => format!("openai:{model}"),
        }
    }

    pub fn seed(&self) -> u64 {
        match self {
            Provider::Simulated(Simulated::Synthetic { seed }) => *seed,
            _ => 0,
        }
    }
}

const MAX_PARALLEL: usize = 4;
const LINK_TIMEOUT: Duration = Duration::from_secs(10);

/// Runs `case` with `variant`: its ending, its trace events, and the time it took (a real
/// provider's wall time; simulated answers' own clock).
pub fn run_case(variant: &Variant, case: &Case, provider: &Provider) -> Ran {
    let provider = match provider {
        Provider::Simulated(answers) => return run_simulated(&variant.source, case, answers),
        Provider::OpenAi { provider, .. } => Arc::clone(provider),
    };
    let started = Instant::now();
    let (ending, events) = drive(variant, case, provider);
    Ran {
        ending,
        events,
        latency_ms: started.elapsed().as_millis().min(u128::from(u64::MAX)) as u64,
    }
}

fn drive(variant: &Variant, case: &Case, provider: Arc<OpenAiProvider>) -> (Ending, Vec<Value>) {
    let check = check_input(&contracts_of(&variant.source), &case.input);
    if check.rejects() {
        return (Ending::InvalidInput(check.problems), Vec::new());
    }
    let options = RunOptions {
        max_parallelism: MAX_PARALLEL,
        ..RunOptions::default()
    };
    let clock = ClockMode::Real;
    let start = Start::new(
        variant.source.clone(),
        case.input.clone(),
        options,
        clock,
        wall_ms(),
    );
    let answerers = Answerers {
        models: Models::Caller,
        waits: Waits::Caller,
        facts: None,
    };
    let session = match Session::start(start, answerers) {
        Ok(session) => session,
        Err(error) => return (Ending::Failed(format!("cannot run: {error}")), Vec::new()),
    };
    let checkers = Checkers {
        offline: false,
        dry_run: false,
        link_timeout: LINK_TIMEOUT,
    };
    let progress = Progress::new(ProgressMode::Off, Box::new(std::io::sink()));
    let mut driver = Driver::new(
        session,
        Some(provider),
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
