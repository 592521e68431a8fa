//! Where the OpenAI-compatible provider's settings come from, strongest first: command-line
//! flags, the environment (`OPENAI_BASE_URL`, the API key's variable), the nearest
//! `logicmd.toml` above the document (`[provider] base_url, model, api_key_env, timeout,
//! stream`), then defaults. The key itself is only ever read from the environment.

use std::io::Read;
use std::path::{Path, PathBuf};

use logicmd::run::openai::Secret;
use serde::Deserialize;

/// The server asked when nothing else says.
pub const DEFAULT_BASE_URL: &str = "https://api.openai.com/v1";
/// The variable the key is read from when nothing names another.
pub const DEFAULT_API_KEY_ENV: &str = "OPENAI_API_KEY";
/// The variable a base URL is read from.
pub const BASE_URL_ENV: &str = "OPENAI_BASE_URL";
/// A model call's time limit when its step sets none: local models on a CPU are slow.
pub const DEFAULT_TIMEOUT_MS: u64 = 120_000;
/// The project settings file.
pub const SETTINGS_FILE: &str = "logicmd.toml";

/// The flags of the OpenAI-compatible provider, for a command to flatten. (`--provider` is
/// the command's own choice of provider.)
// They are kept in a paused run's state file (never the key: it is read from the environment
// again on `--resume`).
#[derive(clap::Args, Debug, Clone, Default, PartialEq, Eq, serde::Serialize, Deserialize)]
#[command(next_help_heading = "OpenAI-compatible provider")]
pub struct Settings {
    /// The model to ask, over any `model` the document or logicmd.toml names.
    #[arg(long, value_name = "MODEL")]
    pub model: Option<String>,
    #[command(flatten)]
    #[serde(flatten)]
    pub server: Server,
}

/// The provider's flags other than the model: where the server is and how it is asked (a
/// command that asks several models flattens these and its own `--model`).
#[derive(clap::Args, Debug, Clone, Default, PartialEq, Eq, serde::Serialize, Deserialize)]
#[command(next_help_heading = "OpenAI-compatible provider")]
pub struct Server {
    /// The server's base URL (the part before `/chat/completions`). Else $OPENAI_BASE_URL,
    /// then `base_url` in logicmd.toml, then https://api.openai.com/v1.
    #[arg(long, value_name = "URL")]
    pub base_url: Option<String>,
    /// The environment variable that holds the API key. Else `api_key_env` in logicmd.toml,
    /// then OPENAI_API_KEY (none set: no key is sent, as local servers need none).
    #[arg(long, value_name = "VAR")]
    pub api_key_env: Option<String>,
    /// A model call's time limit when its step sets no `timeout` (`90s`, `2m`). Else `timeout`
    /// in logicmd.toml, then 120s.
    #[arg(long, value_name = "DURATION")]
    pub timeout: Option<String>,
    /// Wait for whole answers instead of streaming tokens as they arrive.
    #[arg(long)]
    pub no_stream: bool,
}

impl Settings {
    /// The flags given again (on `--resume`) replace these.
    pub fn given_again(&mut self, flags: &Settings) {
        let replace = |mine: &mut Option<String>, given: &Option<String>| {
            if given.is_some() {
                mine.clone_from(given);
            }
        };
        replace(&mut self.model, &flags.model);
        replace(&mut self.server.base_url, &flags.server.base_url);
        replace(&mut self.server.api_key_env, &flags.server.api_key_env);
        replace(&mut self.server.timeout, &flags.server.timeout);
        self.server.no_stream |= flags.server.no_stream;
    }
}

/// Settings with every source applied.
#[derive(Debug, Clone, PartialEq)]
pub struct Resolved {
    pub base_url: String,
    pub model: Option<String>,
    /// The model came from `--model`: it wins over the document's.
    pub model_overrides_document: bool,
    pub api_key: Option<Secret>,
    pub timeout_ms: u64,
    pub stream: bool,
}

/// `[provider]` in logicmd.toml.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct ProviderTable {
    base_url: Option<String>,
    model: Option<String>,
    api_key_env: Option<String>,
    timeout: Option<TimeoutValue>,
    stream: Option<bool>,
}

#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum TimeoutValue {
    Seconds(u64),
    Text(String),
}

/// logicmd.toml: other tables belong to other features.
#[derive(Debug, Default, Deserialize)]
struct ProjectFile {
    #[serde(default)]
    provider: Option<ProviderTable>,
}

impl Settings {
    /// Applies the environment (`env` looks a variable up) and the nearest logicmd.toml in the
    /// directory of `document` or above it (the working directory for standard input).
    pub fn resolve(
        &self,
        document: Option<&Path>,
        env: &dyn Fn(&str) -> Option<String>,
    ) -> Result<Resolved, String> {
        let env = |name: &str| env(name).filter(|v| !v.trim().is_empty());
        let (file, table) = match nearest_settings_file(&search_start(document)) {
            Some(file) => {
                let table = read_settings_file(&file)?;
                (Some(file), table)
            }
            None => (None, ProviderTable::default()),
        };
        let in_file = |key: &str| match &file {
            Some(file) => format!("`{key}` in {}", file.display()),
            None => format!("`{key}`"),
        };

        let (base_url, base_url_from) = if let Some(url) = &self.server.base_url {
            (url.clone(), "--base-url".to_owned())
        } else if let Some(url) = env(BASE_URL_ENV) {
            (url, BASE_URL_ENV.to_owned())
        } else if let Some(url) = &table.base_url {
            (url.clone(), in_file("base_url"))
        } else {
            (DEFAULT_BASE_URL.to_owned(), "the default".to_owned())
        };
        let base_url = check_base_url(&base_url, &base_url_from)?;

        let (variable, named_by) = if let Some(var) = &self.server.api_key_env {
            (var.clone(), Some("--api-key-env".to_owned()))
        } else if let Some(var) = &table.api_key_env {
            (var.clone(), Some(in_file("api_key_env")))
        } else {
            (DEFAULT_API_KEY_ENV.to_owned(), None)
        };
        let api_key = match (env(&variable), named_by) {
            // Keys hold no white space: a trailing newline from `$(cat key-file)` is not part
            // of it (and would make the header invalid).
            (Some(key), _) => Secret::new(key.trim()),
            (None, Some(named_by)) => {
                return Err(format!(
                    "the API key variable `{variable}` (named by {named_by}) is not set"
                ))
            }
            (None, None) => None,
        };

        let timeout_ms = match (&self.server.timeout, &table.timeout) {
            (Some(text), _) => parse_timeout(text, "--timeout")?,
            (None, Some(TimeoutValue::Text(text))) => parse_timeout(text, &in_file("timeout"))?,
            (None, Some(TimeoutValue::Seconds(0))) => {
                return Err(format!(
                    "{}: expected a time limit above zero",
                    in_file("timeout")
                ))
            }
            (None, Some(TimeoutValue::Seconds(seconds))) => seconds.saturating_mul(1_000),
            (None, None) => DEFAULT_TIMEOUT_MS,
        };

        Ok(Resolved {
            base_url,
            model: self.model.clone().or(table.model.clone()),
            model_overrides_document: self.model.is_some(),
            api_key,
            timeout_ms,
            stream: !self.server.no_stream && table.stream.unwrap_or(true),
        })
    }
}

/// Where the search for logicmd.toml starts: the document's directory (the working directory
/// for a bare file name, and for standard input).
pub fn search_start(document: Option<&Path>) -> PathBuf {
    document
        .and_then(Path::parent)
        .filter(|dir| !dir.as_os_str().is_empty())
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf)
}

/// The nearest logicmd.toml in `start` or an ancestor.
fn nearest_settings_file(start: &Path) -> Option<PathBuf> {
    let start = start.canonicalize().unwrap_or_else(|_| start.to_path_buf());
    start
        .ancestors()
        .map(|dir| dir.join(SETTINGS_FILE))
        .find(|file| file.is_file())
}

/// The most of a settings file read.
const SETTINGS_LIMIT: u64 = 1024 * 1024;

fn read_settings_file(file: &Path) -> Result<ProviderTable, String> {
    let shown = file.display();
    let mut text = Vec::new();
    std::fs::File::open(file)
        .and_then(|f| f.take(SETTINGS_LIMIT + 1).read_to_end(&mut text))
        .map_err(|e| format!("{shown}: {e}"))?;
    if text.len() as u64 > SETTINGS_LIMIT {
        return Err(format!("{shown}: over the 1 MiB limit of a settings file"));
    }
    let text = String::from_utf8(text).map_err(|e| format!("{shown}: not UTF-8 ({e})"))?;
    // The key is a secret: a file (often committed) is no place for it.
    if let Ok(table) = toml::from_str::<toml::Table>(&text) {
        if table
            .get("provider")
            .and_then(toml::Value::as_table)
            .is_some_and(|p| p.contains_key("api_key"))
        {
            return Err(format!(
                "{shown}: `api_key` in [provider]: the key is never read from a file; put it in an environment variable and name that with `api_key_env`"
            ));
        }
    }
    let project: ProjectFile =
        toml::from_str(&text).map_err(|e| format!("{shown}: {}", e.to_string().trim_end()))?;
    Ok(project.provider.unwrap_or_default())
}

fn check_base_url(url: &str, from: &str) -> Result<String, String> {
    let trimmed = url.trim().trim_end_matches('/');
    let rest = trimmed
        .strip_prefix("http://")
        .or_else(|| trimmed.strip_prefix("https://"));
    match rest {
        Some(rest) if !rest.is_empty() && !rest.starts_with('/') => Ok(trimmed.to_owned()),
        _ => Err(format!(
            "{from}: `{}` is not a base URL; expected http://HOST[:PORT]/PATH or https://…, e.g. http://127.0.0.1:11434/v1",
            shown_url(url)
        )),
    }
}

fn parse_timeout(text: &str, from: &str) -> Result<u64, String> {
    let duration = logicmd::duration::parse_duration(text)
        .map_err(|e| format!("{from}: `{text}` is not a duration ({e}); e.g. 90s or 2m"))?;
    let ms = duration.as_millis().min(u128::from(u64::MAX)) as u64;
    if ms == 0 {
        return Err(format!("{from}: expected a time limit above zero"));
    }
    Ok(ms)
}

/// A URL as messages show it: without the user and password it may carry.
pub fn shown_url(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_owned();
    };
    let authority_end = rest.find('/').unwrap_or(rest.len());
    match rest[..authority_end].rfind('@') {
        Some(at) => format!("{scheme}://{}", &rest[at + 1..]),
        None => url.to_owned(),
    }
}
