//! `trace_check`: a run's trace (JSON Lines, as `run` and `logicmd run --trace` write it)
//! checked against the built-in temporal obligations and the caller's formulas, reported as
//! `logicmd trace check --format json` reports it.

use logicmd::trace::{self, Rule, TraceLimits};
use schemars::JsonSchema;
use serde::Deserialize;

use super::roots::Roots;
use super::shaped::Shaped;
use super::tools::{tool, Misuse, ToolDef};
use crate::commands::trace::Found;

#[derive(Deserialize, JsonSchema)]
pub struct TraceArgs {
    /// The trace's JSON Lines text, one event a line. Give this or `path`.
    #[serde(default)]
    trace: Option<String>,
    /// A trace file under the server's roots. Give this or `trace`.
    #[serde(default)]
    path: Option<String>,
    /// Linear temporal logic formulas over the events, `NAME=FORMULA` or just the formula:
    /// G/[] F/<> X U (future), Y P H S (past), ! & | ->, atoms `event(field=value, ...)`.
    #[serde(default)]
    rules: Vec<String>,
    /// `builtins`: only the built-in rules; `rules`: only `rules`; both when absent.
    #[serde(default)]
    only: Option<Only>,
}

#[derive(Deserialize, JsonSchema, Clone, Copy, PartialEq)]
#[serde(rename_all = "lowercase")]
enum Only {
    Builtins,
    Rules,
}

/// The report's shape (what `logicmd trace check --format json` prints).
#[allow(dead_code)]
#[derive(JsonSchema)]
pub struct TraceReport {
    /// The trace's name: its path, or `<text>`.
    file: String,
    /// How many events it has.
    events: usize,
    /// Every rule holds.
    holds: bool,
    /// Each rule checked and whether it holds.
    rules: Vec<RuleReport>,
    /// Where a rule fails: the event's 0-based index and 1-based line.
    violations: Vec<ViolationReport>,
    /// Rules the trace cannot settle yet (`terminates` while a review waits), and why.
    not_checked: Vec<NotCheckedReport>,
}

#[allow(dead_code)]
#[derive(JsonSchema)]
struct NotCheckedReport {
    rule: String,
    reason: String,
}

#[allow(dead_code)]
#[derive(JsonSchema)]
struct RuleReport {
    name: String,
    /// `builtin` or `formula`.
    kind: String,
    /// `true` holds, `false` violated, `null` not checked.
    holds: Option<bool>,
    /// `holds`, `violated` or `not checked`.
    status: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    description: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    formula: Option<String>,
}

#[allow(dead_code)]
#[derive(JsonSchema)]
struct ViolationReport {
    rule: String,
    index: usize,
    line: Option<usize>,
    event: Option<String>,
    node: Option<String>,
    message: String,
}

pub fn trace_check() -> ToolDef {
    tool(
        "trace_check",
        "Check a trace",
        "Check a run's trace (JSON Lines) against the built-in temporal obligations (every \
         started node ends, no completion after a failed gate, ...) and your LTL formulas (as \
         `logicmd trace check`).",
        |context, args: TraceArgs| {
            let rules = rules(&args)?;
            let (name, bytes) = read(&context.roots, args.trace, args.path)?;
            let trace = trace::read_jsonl(&bytes, TraceLimits::DEFAULT).map_err(|error| {
                Misuse(match error.line {
                    Some(line) => format!("{name}:{line}: {}", error.message),
                    None => format!("{name}: {}", error.message),
                })
            })?;
            let violations = trace::check(&trace.events, &rules);
            let not_checked = trace::not_checked(&trace.events, &rules);
            let found = Found {
                violations: &violations,
                not_checked: &not_checked,
            };
            Ok(Shaped::<TraceReport>::new(
                crate::commands::trace::json_report(&name, &trace, &rules, &found),
            ))
        },
    )
}

fn rules(args: &TraceArgs) -> Result<Vec<Rule>, Misuse> {
    if args.only == Some(Only::Rules) && args.rules.is_empty() {
        return Err(Misuse(
            "`only: rules` needs at least one formula in `rules`".into(),
        ));
    }
    let mut rules = Vec::new();
    if args.only != Some(Only::Rules) {
        rules.extend(Rule::builtins());
    }
    if args.only == Some(Only::Builtins) {
        return Ok(rules);
    }
    for text in &args.rules {
        let rule = Rule::parse(text).map_err(|error| {
            Misuse(format!(
                "rules: `{text}`: {} (column {})",
                error.message, error.column
            ))
        })?;
        rules.push(rule);
    }
    Ok(rules)
}

fn read(
    roots: &Roots,
    text: Option<String>,
    path: Option<String>,
) -> Result<(String, Vec<u8>), Misuse> {
    match (text, path) {
        (Some(text), None) => Ok(("<text>".to_owned(), text.into_bytes())),
        (None, Some(path)) => {
            let confined = roots.confine(&path).map_err(Misuse)?;
            let bytes = crate::input::read_bounded(&confined.file, TraceLimits::DEFAULT.max_bytes)
                .map_err(|error| Misuse(format!("cannot read `{path}`: {error}")))?;
            Ok((confined.relative, bytes))
        }
        (Some(_), Some(_)) => Err(Misuse("give `trace` or `path`, not both".into())),
        (None, None) => Err(Misuse(
            "give the trace as `trace` (JSON Lines), or a `path` under the roots".into(),
        )),
    }
}
