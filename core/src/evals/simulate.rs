//! A case run with answers from inside the session (synthetic or scripted), on a fixed clock:
//! nothing to wait for, so it is a plain loop, the same for the CLI's pool, Python and a Ray
//! worker. It answers what is left to the caller exactly as `logicmd run --dry-run` does: no
//! link is checked (no request is made), a fact rule without facts is unverifiable, a review
//! waits for a person (the run pauses).

use serde_json::Value;

use super::case::Case;
use super::row::{Ending, Ran};
use crate::run::session::{
    check_input, contracts_of, no_checker, Answerers, ClockMode, Models, Next, Session, Start,
    Waits,
};
use crate::run::{ActionKind, Answer, RunOptions, Scripted, Source};

/// Who answers a simulated case.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Simulated {
    /// The synthetic provider with this seed.
    Synthetic {
        /// The seed of the synthetic answers.
        seed: u64,
    },
    /// A script's text (each case starts it from its beginning).
    Scripted {
        /// The script (YAML or JSON Lines).
        script: String,
    },
}

/// What `logicmd run --dry-run` says of a link it does not check.
pub const LINKS_NOT_CHECKED: &str = "dry run: links are not checked (no request is made)";

/// The most model and tool calls a case's run has in flight (as `logicmd run`'s default).
const MAX_PARALLELISM: usize = 4;

impl Simulated {
    /// Who answers, as a row's fingerprint and the answer cache name it: the seed, or the
    /// script's digest.
    pub fn identity(&self) -> String {
        match self {
            Simulated::Synthetic { seed } => format!("synthetic:{seed}"),
            Simulated::Scripted { script } => format!(
                "scripted:{}",
                super::row::cache_key(script, &Value::Null, "", 0)
            ),
        }
    }
}

/// Runs `case` on `source` with simulated answers: how it ended, its trace events, and how
/// long it took on its own clock (the latencies the answers declare and the waits it passed;
/// the wall time of a simulated run says nothing of the document).
pub fn run_simulated(source: &Source, case: &Case, answers: &Simulated) -> Ran {
    let (ending, events) = simulate(source, case, answers);
    // The run's clock starts at 0: its last event's time is how long it took.
    let latency_ms = events
        .iter()
        .filter_map(|e| e.get("t").and_then(Value::as_u64))
        .max()
        .unwrap_or(0);
    Ran {
        ending,
        events,
        latency_ms,
    }
}

fn simulate(source: &Source, case: &Case, answers: &Simulated) -> (Ending, Vec<Value>) {
    let check = check_input(&contracts_of(source), &case.input);
    if check.rejects() {
        return (Ending::InvalidInput(check.problems), Vec::new());
    }
    let (models, seed) = match answers {
        Simulated::Synthetic { seed } => (Models::Synthetic, *seed),
        Simulated::Scripted { script } => match Scripted::parse(script) {
            Ok(script) => (Models::Scripted(script), 0),
            Err(problem) => return (Ending::Failed(format!("the script: {problem}")), Vec::new()),
        },
    };
    let options = RunOptions {
        max_parallelism: MAX_PARALLELISM,
        seed,
        ..RunOptions::default()
    };
    let start = Start::new(
        source.clone(),
        case.input.clone(),
        options,
        ClockMode::Fixed,
        0,
    );
    let answerers = Answerers {
        models,
        waits: Waits::Instant,
        facts: None,
    };
    let mut session = match Session::start(start, answerers) {
        Ok(session) => session,
        Err(error) => return (Ending::Failed(format!("cannot run: {error}")), Vec::new()),
    };
    let ending = drive(&mut session);
    (ending, session.take_events())
}

fn drive(session: &mut Session) -> Ending {
    loop {
        let action = match session.next(0) {
            Next::Act(action) => action,
            Next::Fed | Next::Breakpoint(_) => continue,
            Next::Paused(_) => return Ending::Paused,
            Next::Waiting => {
                return Ending::Failed(
                    "the run waits for an answer, yet nothing is being carried out".into(),
                )
            }
            Next::Ended(action) => {
                return match action.kind {
                    ActionKind::Complete { output } => Ending::Completed(output),
                    ActionKind::Refuse { unmet } => Ending::Refused(unmet),
                    ActionKind::Fail { error } => Ending::Failed(error),
                    other => Ending::Failed(format!("the run ended on {other:?}")),
                }
            }
        };
        let answer = match &action.kind {
            ActionKind::CallTool { name, .. } if name == "std.check_links" => {
                Answer::Unanswered(LINKS_NOT_CHECKED.to_owned())
            }
            ActionKind::CallTool { name, .. } => Answer::Unanswered(no_checker(name)),
            ActionKind::CallModel { .. } => {
                Answer::Unanswered("no provider answers model calls".to_owned())
            }
            // A review is a person's: left unanswered, the run pauses on it.
            _ => Answer::Unanswered(String::new()),
        };
        if let Err(error) = session.answer(&action.id, answer, 0) {
            return Ending::Failed(format!(
                "the run refused the answer to `{}`: {error}",
                action.id
            ));
        }
    }
}

/// The judge's answer text for `output` of `case`, from a script (its `node: judge` entries;
/// each case starts the script afresh). The synthetic provider does not judge: its answers are
/// made up, and a made-up verdict would pass or fail at random.
pub fn judge_simulated(
    source: &Source,
    case: &Case,
    output: &Value,
    answers: &Simulated,
) -> Option<String> {
    let Simulated::Scripted { script } = answers else {
        return None;
    };
    let mut script = Scripted::parse(script).ok()?;
    let action = super::judge::judge_action(source, case, output);
    super::judge::judge_answer(crate::run::Provider::answer(
        &mut script,
        &action,
        &mut |_| {},
    ))
}
