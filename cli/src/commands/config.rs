//! `logicmd config [PATH]`: the settings in effect for a document or directory, and where each
//! came from (a line of `logicmd.toml` or `pyproject.toml`, or the default).

use std::path::PathBuf;

use serde_json::{json, Value};

use crate::config::{Finder, Found};
use crate::output::{self, Format};
use crate::{EXIT_OK, EXIT_USAGE};

#[derive(clap::Args)]
pub struct Args {
    /// The document or directory whose settings to show.
    #[arg(value_name = "PATH", default_value = ".")]
    path: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
}

/// One setting as shown: its key, its value (as TOML writes it, or a description of the
/// default) and where it came from.
struct Shown {
    key: String,
    value: Value,
    text: String,
    from: String,
}

pub fn run(args: &Args) -> u8 {
    if !args.path.exists() && args.path.as_os_str() != "-" {
        eprintln!("error: {}: no such file or directory", args.path.display());
        return EXIT_USAGE;
    }
    let found = match Finder::default().for_document(&args.path) {
        Ok(found) => found,
        Err(shown) => {
            eprintln!("{shown}");
            return EXIT_USAGE;
        }
    };
    let found = found.as_deref();
    let shown = settings(found);
    let file = found.map(|f| f.file.display().to_string());
    if args.format == Format::Json {
        let listed: Vec<Value> = shown
            .iter()
            .map(|s| json!({"key": s.key, "value": s.value, "from": s.from}))
            .collect();
        let report = json!({"file": file, "settings": listed});
        output::print(&serde_json::to_string_pretty(&report).unwrap_or_default());
        return EXIT_OK;
    }
    output::print(&match &file {
        Some(file) => format!("settings: {file}"),
        None => "settings: none found (logicmd.toml, or pyproject.toml with [tool.logicmd]); the defaults apply".to_owned(),
    });
    let key_width = shown.iter().map(|s| s.key.len()).max().unwrap_or(0);
    let value_width = shown.iter().map(|s| s.text.len()).max().unwrap_or(0);
    for s in &shown {
        output::print(
            format!(
                "{:<key_width$} = {:<value_width$}  # {}",
                s.key, s.text, s.from
            )
            .trim_end(),
        );
    }
    EXIT_OK
}

fn settings(found: Option<&Found>) -> Vec<Shown> {
    let at = |line: u32| match found {
        Some(found) => format!("{}:{line}", found.file.display()),
        None => "default".to_owned(),
    };
    let settings = found.map(|f| &f.settings);
    let lint = settings.map(|s| &s.lint);
    let mut shown = Vec::new();
    let mut push = |key: &str, value: Value, from: String| {
        shown.push(Shown {
            key: key.to_owned(),
            text: toml_text(&value),
            value,
            from,
        });
    };
    match settings.and_then(|s| s.root.as_ref()) {
        Some(root) => push("root", json!(root.value), at(root.line)),
        None => push(
            "root",
            Value::Null,
            "default: each file's nearest directory with .git, LOGIC.md or .logic/".to_owned(),
        ),
    }
    match settings.and_then(|s| s.extend_exclude.as_ref()) {
        Some(list) => push("extend-exclude", json!(list.value), at(list.line)),
        None => push("extend-exclude", json!([]), "default".to_owned()),
    }
    match lint.and_then(|l| l.select.as_ref()) {
        Some(list) => push("lint.select", json!(list.value), at(list.line)),
        None => push(
            "lint.select",
            json!(["logic", "drtl", "check"]),
            "default: every rule".to_owned(),
        ),
    }
    match lint.and_then(|l| l.ignore.as_ref()) {
        Some(list) => push("lint.ignore", json!(list.value), at(list.line)),
        None => push("lint.ignore", json!([]), "default".to_owned()),
    }
    let per_file = lint
        .map(|l| l.per_file_ignores.as_slice())
        .unwrap_or_default();
    if per_file.is_empty() {
        push("lint.per-file-ignores", json!({}), "default".to_owned());
    }
    for entry in per_file {
        let key = format!("lint.per-file-ignores.\"{}\"", entry.value.pattern);
        push(&key, json!(entry.value.ignore), at(entry.line));
    }
    let severity = lint.map(|l| l.severity.as_slice()).unwrap_or_default();
    if severity.is_empty() {
        push(
            "lint.severity",
            json!({}),
            "default: each rule's own (`logicmd lint --rules`)".to_owned(),
        );
    }
    for entry in severity {
        let key = format!("lint.severity.{}", entry.value.code);
        push(&key, json!(entry.value.severity.as_str()), at(entry.line));
    }
    shown
}

/// `value` as TOML writes it: `"text"`, `["a", "b"]`, `{}`; `(per file)` for an unset root.
fn toml_text(value: &Value) -> String {
    match value {
        Value::Null => "(per file)".to_owned(),
        Value::Array(items) => format!(
            "[{}]",
            items.iter().map(toml_text).collect::<Vec<_>>().join(", ")
        ),
        Value::Object(map) if map.is_empty() => "{}".to_owned(),
        other => other.to_string(),
    }
}
