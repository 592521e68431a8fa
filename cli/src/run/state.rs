//! The state file: a JSON Lines journal. Its first line is the header — the document, the
//! driver's settings (the provider, the clock, the tool checkers, the trace's path) and how the
//! session started (`logicmd::run::session::Start`: the document itself, the input, the options)
//! — and every line after it is one of the session's records (an answer as it arrived, a feed),
//! appended as it happens. `--resume STATE` needs nothing else: the session replays the records
//! and no answered call is made again.

use std::fs;
use std::path::{Path, PathBuf};

use logicmd::run::session::{ClockMode, Record, Start};
use serde::{Deserialize, Serialize};
use serde_json::Value;

pub const FORMAT: &str = "logicmd-run-state";
/// Version 2: a journal (version 1 was one JSON object rewritten after every event).
pub const VERSION: u64 = 2;

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

impl ProviderChoice {
    /// A real provider: its calls cost time and money, its waits are real.
    pub fn is_real(&self) -> bool {
        matches!(self, ProviderChoice::OpenAi { .. })
    }
}

/// How the driver carries actions out.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    pub provider: ProviderChoice,
    pub clock: ClockMode,
    /// Waits are slept through when they are real (a real provider or clock); `--no-wait`
    /// turns that off.
    pub sleep: bool,
    pub max_parallel: usize,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub facts: Option<PathBuf>,
    pub offline: bool,
    pub link_timeout_ms: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trace: Option<PathBuf>,
}

/// The journal's first line.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Header {
    pub format: String,
    pub version: u64,
    /// The document as it was named when the run started.
    pub document: String,
    /// The document's absolute path (`None`: it was read from standard input).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub document_path: Option<PathBuf>,
    pub settings: Settings,
    pub start: Start,
}

impl Header {
    pub fn new(
        document: String,
        document_path: Option<PathBuf>,
        settings: Settings,
        start: Start,
    ) -> Header {
        Header {
            format: FORMAT.to_owned(),
            version: VERSION,
            document,
            document_path,
            settings,
            start,
        }
    }
}

/// A state file as read back.
pub struct Saved {
    pub header: Header,
    pub records: Vec<Record>,
    /// The bytes of its complete lines: a torn last line (a write a crash cut short) is not one.
    pub complete_bytes: u64,
}

/// Reads a state file; the error says what is wrong with it, and where.
pub fn read(path: &Path) -> Result<Saved, String> {
    let shown = path.display();
    let bytes = fs::read(path).map_err(|e| format!("cannot read the state {shown}: {e}"))?;
    let complete = bytes
        .iter()
        .rposition(|b| *b == b'\n')
        .map_or(0, |last| last + 1);
    let mut lines = bytes[..complete].split(|b| *b == b'\n');
    let first = lines.next().unwrap_or_default();
    let header: Value = serde_json::from_slice(first).map_err(|_| not_a_state(path))?;
    if header.get("format").and_then(Value::as_str) != Some(FORMAT) {
        return Err(not_a_state(path));
    }
    match header.get("version").and_then(Value::as_u64) {
        Some(VERSION) => {}
        Some(1) => {
            return Err(format!(
                "{shown} is a state of an older logicmd (version 1): finish the run with that \
                 version, or start it again"
            ))
        }
        other => {
            return Err(format!(
                "{shown}: state version {} is not supported (this build reads version {VERSION})",
                other.map_or_else(|| "?".to_owned(), |v| v.to_string())
            ))
        }
    }
    let header: Header = serde_json::from_value(header)
        .map_err(|e| format!("{shown}: line 1: the state is damaged: {e}"))?;
    let records = lines
        .enumerate()
        .filter(|(_, line)| !line.is_empty())
        .map(|(index, line)| {
            serde_json::from_slice(line)
                .map_err(|e| format!("{shown}: line {}: the state is damaged: {e}", index + 2))
        })
        .collect::<Result<Vec<Record>, String>>()?;
    Ok(Saved {
        header,
        records,
        complete_bytes: complete as u64,
    })
}

fn not_a_state(path: &Path) -> String {
    format!(
        "{} is not a logicmd run state (no `\"format\": \"{FORMAT}\"` on its first line)",
        path.display()
    )
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
