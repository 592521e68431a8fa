//! A run as versioned JSON, and back: the source, the input, the options, the clock and every
//! observation fed. Reading it replays the observations into a fresh run, which (the engine
//! being deterministic) rebuilds the exact state without carrying any call out again.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{Fed, Run, RunError, RunOptions, Source};

/// The snapshot format's name and version: a reader refuses any other.
const FORMAT: &str = "logicmd-run";
const VERSION: u64 = 1;

#[derive(Serialize, Deserialize)]
struct Snapshot {
    format: String,
    version: u64,
    source: Source,
    input: Value,
    options: RunOptions,
    clock: u64,
    fed: Vec<Fed>,
}

pub(super) fn write(run: &Run) -> Value {
    let snapshot = Snapshot {
        format: FORMAT.to_owned(),
        version: VERSION,
        source: run.source.clone(),
        input: run.input.clone(),
        options: run.options.clone(),
        clock: run.kernel.now,
        fed: run.history.clone(),
    };
    serde_json::to_value(snapshot).unwrap_or(Value::Null)
}

pub(super) fn read(value: &Value) -> Result<Run, RunError> {
    let format = value.get("format").and_then(Value::as_str);
    let version = value.get("version").and_then(Value::as_u64);
    if format != Some(FORMAT) {
        return Err(RunError::new(
            "not a logicmd run snapshot (no `format: logicmd-run`)",
        ));
    }
    if version != Some(VERSION) {
        return Err(RunError::new(format!(
            "snapshot version {} is not supported (this build reads version {VERSION})",
            version.map_or_else(|| "?".to_owned(), |v| v.to_string())
        )));
    }
    let snapshot: Snapshot = serde_json::from_value(value.clone())
        .map_err(|error| RunError::new(format!("the snapshot is damaged: {error}")))?;
    let mut run = Run::start(snapshot.source, snapshot.input, snapshot.options)?;
    for fed in snapshot.fed {
        run.set_clock(fed.at);
        run.feed(&fed.id, fed.observation).map_err(|error| {
            RunError::new(format!(
                "the snapshot does not replay (at action `{}`): {error}",
                fed.id
            ))
        })?;
    }
    run.set_clock(snapshot.clock);
    Ok(run)
}
