//! The state file: the engine's snapshot plus what the driver needs to go on exactly as it
//! would have (the provider, the clock, the tool checkers' settings, the trace's path, and the
//! batch of actions being carried out), so `--resume STATE` needs nothing else.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::clock::ClockMode;

const FORMAT: &str = "logicmd-run-state";
const VERSION: u64 = 1;

/// Who answers model calls.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ProviderChoice {
    /// `--dry-run`: schema-valid answers that meet the document's simple checks.
    Synthetic { seed: u64 },
    /// `--provider scripted:FILE` (an absolute path).
    Scripted { script: PathBuf },
    /// `--provider openai`: an OpenAI-compatible server; the document's path finds logicmd.toml.
    #[serde(rename = "openai")]
    OpenAi {
        settings: crate::providers::Settings,
        document: Option<PathBuf>,
    },
}

/// How the driver carries actions out.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    pub provider: ProviderChoice,
    pub clock: ClockMode,
    /// Real sleeps for `Wait` on a real clock (`--no-wait` turns them off).
    pub sleep: bool,
    pub max_parallel: usize,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub facts: Option<PathBuf>,
    pub offline: bool,
    pub link_timeout_ms: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trace: Option<PathBuf>,
}

/// The actions being carried out (fed in this order), and the clock when they were handed out.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Batch {
    pub ids: Vec<String>,
    pub started_at: u64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct State {
    pub format: String,
    pub version: u64,
    /// The document as it was named when the run started.
    pub document: String,
    pub settings: Settings,
    pub batch: Batch,
    /// The engine's snapshot (`Run::snapshot`).
    pub run: Value,
}

impl State {
    pub fn new(document: String, settings: Settings, batch: Batch, run: Value) -> State {
        State {
            format: FORMAT.to_owned(),
            version: VERSION,
            document,
            settings,
            batch,
            run,
        }
    }

    pub fn to_json(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }

    /// Reads a state file; the error says what is wrong with it.
    pub fn read(path: &Path) -> Result<State, String> {
        let value = crate::commands::read_json(path)?;
        if value.get("format").and_then(Value::as_str) != Some(FORMAT) {
            return Err(format!(
                "{} is not a logicmd run state (no `\"format\": \"{FORMAT}\"`)",
                path.display()
            ));
        }
        let version = value.get("version").and_then(Value::as_u64);
        if version != Some(VERSION) {
            return Err(format!(
                "{}: state version {} is not supported (this build reads version {VERSION})",
                path.display(),
                version.map_or_else(|| "?".to_owned(), |v| v.to_string())
            ));
        }
        serde_json::from_value(value)
            .map_err(|e| format!("{}: the state is damaged: {e}", path.display()))
    }
}

/// An absolute version of `path` (relative to the working directory), so a state file works
/// from any directory.
pub fn absolute(path: &Path) -> PathBuf {
    if path.is_absolute() {
        return path.to_path_buf();
    }
    std::env::current_dir()
        .map(|cwd| cwd.join(path))
        .unwrap_or_else(|_| path.to_path_buf())
}

/// Where a paused run's state goes when `--state` was not given: beside the trace
/// (`run.jsonl` → `run.state.json`), else in the temporary directory.
pub fn default_state_path(trace: Option<&Path>, document: &Path) -> PathBuf {
    match trace {
        Some(trace) => trace.with_extension("state.json"),
        None => {
            let stem = document
                .file_name()
                .and_then(|n| n.to_str())
                .map(|n| n.split('.').next().unwrap_or(n))
                .filter(|n| !n.is_empty() && *n != "-")
                .unwrap_or("run");
            std::env::temp_dir().join(format!(
                "logicmd-run-{stem}-{}.state.json",
                std::process::id()
            ))
        }
    }
}
