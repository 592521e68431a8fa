//! What a run is answered by (a new run's and a resumed one's alike), and going on with a run
//! from its state file: the session replays the journal (no answer is asked for again), the
//! trace is checked against the replayed events and completed.

use std::path::Path;
use std::sync::Arc;

use logicmd::run::session::{Answerers, ClockMode, Facts, Models, Session, Waits};
use logicmd::run::{ActionKind, Scripted};
use serde_json::Value;

use super::durable::{event_line, Trace};
use super::state::{ProviderChoice, Settings};
use crate::providers::OpenAiProvider;

/// Who answers what, as `settings` say: the session's answerers, and the real server model
/// calls go to (none for the synthetic and scripted providers).
pub fn answerers(settings: &Settings) -> Result<(Answerers, Option<Arc<OpenAiProvider>>), String> {
    let (models, server) = match &settings.provider {
        ProviderChoice::Synthetic { .. } => (Models::Synthetic, None),
        ProviderChoice::Scripted { script } => (Models::Scripted(read_script(script)?), None),
        ProviderChoice::OpenAi { settings, document } => {
            let provider = OpenAiProvider::from_settings(settings, document.as_deref())?;
            (Models::Caller, Some(Arc::new(provider)))
        }
    };
    let real = settings.provider.is_real() || settings.clock == ClockMode::Real;
    let waits = if real && settings.sleep {
        Waits::Caller
    } else {
        Waits::Instant
    };
    let facts = match &settings.facts {
        Some(path) => Some(read_facts(path)?),
        None => None,
    };
    Ok((
        Answerers {
            models,
            waits,
            facts,
        },
        server,
    ))
}

fn read_script(path: &Path) -> Result<Scripted, String> {
    let text = read_text(path).map_err(|e| format!("cannot read the script {e}"))?;
    Scripted::parse(&text).map_err(|problem| format!("{}: {problem}", path.display()))
}

fn read_facts(path: &Path) -> Result<Facts, String> {
    let text = read_text(path).map_err(|e| format!("cannot read {e}"))?;
    Facts::parse(&text).map_err(|problem| format!("{}:{problem}", path.display()))
}

fn read_text(path: &Path) -> Result<String, String> {
    let bytes = crate::input::read_bounded(path, logicmd::Limits::DEFAULT.max_bytes)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    crate::input::utf8_text(bytes).map_err(|problem| format!("{} {problem}", path.display()))
}

/// The reviews `session` waits for: each one's action id, node and the actions it offers (what
/// `--answer` and the MCP server's `resume_run` choose among).
pub fn open_reviews(session: &Session) -> Vec<(String, String, Vec<String>)> {
    session
        .outstanding()
        .into_iter()
        .filter_map(|action| match action.kind {
            ActionKind::AskReview { node, actions, .. } => Some((action.id, node, actions)),
            _ => None,
        })
        .collect()
}

/// Opens the trace of a resumed run: its lines must be the first replayed events exactly (a
/// torn last line is cut off); the events it lacks are returned to be appended.
pub fn reopen_trace(path: &Path, replayed: &[Value]) -> Result<(Trace, usize), String> {
    let (trace, lines) = Trace::reopen(path)
        .map_err(|e| format!("cannot open the trace {}: {e}", path.display()))?;
    if lines.len() > replayed.len() {
        return Err(format!(
            "the trace {} has {} events, more than the state knows of ({}): it is not this run's trace",
            path.display(),
            lines.len(),
            replayed.len()
        ));
    }
    if let Some(index) = lines
        .iter()
        .zip(replayed)
        .position(|(line, event)| *line != event_line(event))
    {
        return Err(format!(
            "the trace {} differs from the run at line {}: it is not this run's trace",
            path.display(),
            index + 1
        ));
    }
    Ok((trace, lines.len()))
}
