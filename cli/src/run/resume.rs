//! Going on with a run from its state file: the engine's own resume (a replay of every
//! observation), the provider brought to the same place (a script's used answers used again),
//! the trace checked against the replayed events and completed, and the batch the run was in
//! the middle of picked up where it stopped.

use logicmd::run::{Action, ActionKind, Observation, Provider, Run, RunOptions, Source};
use serde::Deserialize;
use serde_json::Value;

use super::durable::{event_line, Trace};
use super::state::{ProviderChoice, State};

/// The provider a run was started with.
pub fn provider(choice: &ProviderChoice, source: &Source) -> Result<Box<dyn Provider>, String> {
    match choice {
        ProviderChoice::Synthetic { seed } => {
            Ok(Box::new(logicmd::run::Synthetic::new(source, *seed)))
        }
        ProviderChoice::Scripted { script } => {
            let bytes = crate::input::read_bounded(script, logicmd::Limits::DEFAULT.max_bytes)
                .map_err(|e| format!("cannot read the script {}: {e}", script.display()))?;
            let text = crate::input::utf8_text(bytes)
                .map_err(|problem| format!("the script {} {problem}", script.display()))?;
            let scripted = logicmd::run::Scripted::parse(&text)
                .map_err(|problem| format!("{}: {problem}", script.display()))?;
            Ok(Box::new(scripted))
        }
        ProviderChoice::OpenAi { settings, document } => Ok(Box::new(
            crate::providers::OpenAiProvider::from_settings(settings, document.as_deref())?,
        )),
    }
}

/// The parts of the engine's snapshot a replay reads (its documented, versioned format).
#[derive(Deserialize)]
struct Snapshot {
    source: Source,
    input: Value,
    options: RunOptions,
    fed: Vec<Fed>,
}

#[derive(Deserialize)]
struct Fed {
    id: String,
    at: u64,
    observation: Observation,
}

/// The run in `state` and its provider, at the point the state was written.
pub fn restore(state: &State) -> Result<(Run, Box<dyn Provider>), String> {
    let run = Run::resume(&state.run).map_err(|e| format!("cannot resume: {e}"))?;
    let snapshot: Snapshot = serde_json::from_value(state.run.clone())
        .map_err(|e| format!("cannot resume: the snapshot is damaged: {e}"))?;
    let mut provider = provider(&state.settings.provider, &snapshot.source)?;
    if matches!(state.settings.provider, ProviderChoice::Scripted { .. }) {
        replay_questions(snapshot, &mut *provider)?;
    }
    Ok((run, provider))
}

/// Asks `provider` every question the run asked before the state was written, in the same
/// order, so a script's answers already used are used up again (the synthetic provider keeps no
/// state and needs none of this).
fn replay_questions(snapshot: Snapshot, provider: &mut dyn Provider) -> Result<(), String> {
    let mut shadow = Run::start(snapshot.source, snapshot.input, snapshot.options)
        .map_err(|e| format!("cannot resume: {e}"))?;
    for fed in snapshot.fed {
        let asked = shadow
            .outstanding()
            .into_iter()
            .find(|a| a.id == fed.id)
            .filter(|a| !matches!(a.kind, ActionKind::Wait { .. }));
        if let Some(action) = asked {
            let _ = provider.answer(&action, &mut |_| {});
        }
        shadow.set_clock(fed.at);
        shadow
            .feed(&fed.id, fed.observation)
            .map_err(|e| format!("cannot resume: the snapshot does not replay: {e}"))?;
    }
    Ok(())
}

/// Opens the trace of a resumed run: its lines must be the first replayed events exactly (a
/// torn last line is cut off); the events it lacks are returned to be appended.
pub fn reopen_trace(path: &std::path::Path, replayed: &[Value]) -> Result<(Trace, usize), String> {
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

/// Splits what is handed out after a resume: the rest of the batch the run was in (in its
/// order), and the actions the next batch starts with. `ready` is in the order the engine
/// handed the actions out, which is the order the uninterrupted run would have seen them in.
pub fn split_batch(batch_ids: &[String], mut ready: Vec<Action>) -> (Vec<Action>, Vec<Action>) {
    let mut current = Vec::new();
    for id in batch_ids {
        if let Some(position) = ready.iter().position(|a| &a.id == id) {
            current.push(ready.remove(position));
        }
    }
    (current, ready)
}
