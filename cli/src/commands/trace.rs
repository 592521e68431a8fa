//! `logicmd trace check FILE [--rule [NAME=]FORMULA]… [--only builtins|rules] [--format json]`
//! and `logicmd trace export FILE --format otlp-json [-o OUT]`: a run's trace (JSON Lines, as
//! `logicmd run --trace` writes it) checked against temporal obligations, or exported as
//! OpenTelemetry spans.

use std::fs;
use std::path::{Path, PathBuf};

use clap::ValueEnum;
use logicmd::trace::{
    self, Builtin, ExportOptions, NotChecked, Rule, Trace, TraceLimits, Violation,
};
use serde_json::{json, Value};

use crate::input::read_bounded;
use crate::output::{self, Format};
use crate::{EXIT_INVALID, EXIT_OK, EXIT_USAGE};

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Subcommand)]
enum Command {
    /// Check a trace against the built-in obligations and your formulas (exit 1 on a violation).
    Check(CheckArgs),
    /// Export a trace as OpenTelemetry spans (OTLP/JSON, GenAI semantic conventions).
    Export(ExportArgs),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Only {
    /// Only the built-in rules.
    Builtins,
    /// Only the `--rule` formulas.
    Rules,
}

#[derive(clap::Args)]
struct CheckArgs {
    /// The trace: JSON Lines, one event a line (`-` reads standard input).
    file: PathBuf,
    /// A linear temporal logic formula over the events, named `NAME=FORMULA` or by its text:
    /// G/[] F/<> X U (future), Y P H S (past), ! & | ->, atoms `event(field=value, …)`.
    #[arg(long = "rule", value_name = "[NAME=]FORMULA")]
    rules: Vec<String>,
    /// Check only the built-in rules, or only the `--rule` formulas.
    #[arg(long, value_enum)]
    only: Option<Only>,
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum ExportFormat {
    /// OTLP/JSON: an `ExportTraceServiceRequest` a collector, Jaeger or Langfuse ingests.
    OtlpJson,
}

#[derive(clap::Args)]
struct ExportArgs {
    /// The trace: JSON Lines, one event a line (`-` reads standard input).
    file: PathBuf,
    #[arg(long, value_enum)]
    format: ExportFormat,
    /// Where to write (standard output when absent).
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Unix time of the run's start in milliseconds: span times are this plus each event's `t`
    /// (default: the start the trace records — a run on the wall clock — else 0).
    #[arg(long, value_name = "UNIX_MS")]
    base_time: Option<u64>,
    /// The resource's `service.name`.
    #[arg(long, default_value = "logicmd")]
    service_name: String,
    /// `gen_ai.workflow.name` of the run's span (default: the document's name).
    #[arg(long)]
    name: Option<String>,
    /// The trace id, 32 hexadecimal digits (default: derived from the whole trace, so runs
    /// that differ in any answer or in their start differ).
    #[arg(long, value_name = "HEX", value_parser = trace_id)]
    trace_id: Option<[u8; 16]>,
}

/// A trace id: 32 hexadecimal digits, not all zero.
fn trace_id(text: &str) -> Result<[u8; 16], String> {
    let bad = || format!("`{text}` is not a trace id: 32 hexadecimal digits, not all zero");
    if text.len() != 32 || !text.is_ascii() {
        return Err(bad());
    }
    let mut id = [0u8; 16];
    for (i, byte) in id.iter_mut().enumerate() {
        *byte = u8::from_str_radix(&text[2 * i..2 * i + 2], 16).map_err(|_| bad())?;
    }
    if id.iter().all(|b| *b == 0) {
        return Err(bad());
    }
    Ok(id)
}

pub fn run(args: &Args) -> u8 {
    match &args.command {
        Command::Check(args) => check(args),
        Command::Export(args) => export(args),
    }
}

fn display(path: &Path) -> String {
    if path.as_os_str() == "-" {
        "<stdin>".to_owned()
    } else {
        path.display().to_string()
    }
}

/// Reads the trace, or says why not (exit status 2).
fn read(path: &Path) -> Result<Trace, u8> {
    let file = display(path);
    let limits = TraceLimits::DEFAULT;
    let bytes = read_bounded(path, limits.max_bytes).map_err(|error| {
        eprintln!("error: cannot read {file}: {error}");
        EXIT_USAGE
    })?;
    trace::read_jsonl(&bytes, limits).map_err(|error| {
        match error.line {
            Some(line) => eprintln!("error: {file}:{line}: {}", error.message),
            None => eprintln!("error: {file}: {}", error.message),
        }
        EXIT_USAGE
    })
}

/// The rules to check, or the first formula that does not parse (shown with a caret).
fn rules(args: &CheckArgs) -> Result<Vec<Rule>, u8> {
    if args.only == Some(Only::Rules) && args.rules.is_empty() {
        eprintln!("error: `--only rules` needs at least one `--rule`");
        return Err(EXIT_USAGE);
    }
    let mut rules = Vec::new();
    if args.only != Some(Only::Rules) {
        rules.extend(Rule::builtins());
    }
    if args.only == Some(Only::Builtins) {
        return Ok(rules);
    }
    for text in &args.rules {
        match Rule::parse(text) {
            Ok(rule) => rules.push(rule),
            Err(error) => {
                eprintln!("error: --rule: {}", error.message);
                eprintln!("  | {text}");
                eprintln!("  | {}^", " ".repeat(error.column - 1));
                return Err(EXIT_USAGE);
            }
        }
    }
    Ok(rules)
}

fn check(args: &CheckArgs) -> u8 {
    let rules = match rules(args) {
        Ok(rules) => rules,
        Err(status) => return status,
    };
    let trace = match read(&args.file) {
        Ok(trace) => trace,
        Err(status) => return status,
    };
    let violations = trace::check(&trace.events, &rules);
    let unsettled = trace::not_checked(&trace.events, &rules);
    let file = display(&args.file);
    let found = Found {
        violations: &violations,
        not_checked: &unsettled,
    };
    match args.format {
        Format::Json => output::print(&json_report(&file, &trace, &rules, &found).to_string()),
        Format::Human => output::print(&human_report(&file, &trace, &rules, &found)),
    }
    if violations.is_empty() {
        EXIT_OK
    } else {
        EXIT_INVALID
    }
}

/// `event 6: node_started `report``: what a violation points at.
fn event_label(trace: &Trace, index: usize) -> String {
    let Some(event) = trace.events.get(index) else {
        return format!("event {index}");
    };
    let name = event["event"].as_str().unwrap_or("?");
    match event.get("node").and_then(Value::as_str) {
        Some(node) => format!("event {index}: {name} `{node}`"),
        None => format!("event {index}: {name}"),
    }
}

/// What a check found: the violations, and the rules the trace cannot settle yet.
pub(crate) struct Found<'a> {
    pub(crate) violations: &'a [Violation],
    pub(crate) not_checked: &'a [NotChecked],
}

impl Found<'_> {
    /// `Some(true)` holds, `Some(false)` violated, `None` not checked.
    fn holds(&self, rule: &Rule) -> Option<bool> {
        if self.not_checked.iter().any(|n| n.rule == rule.name()) {
            return None;
        }
        Some(!self.violations.iter().any(|v| v.rule == rule.name()))
    }
}

fn human_report(file: &str, trace: &Trace, rules: &[Rule], found: &Found) -> String {
    let mut out = String::new();
    for unsettled in found.not_checked {
        out.push_str(&format!(
            "note[{}]: not checked: {}\n\n",
            unsettled.rule, unsettled.reason
        ));
    }
    for violation in found.violations {
        let line = trace.lines.get(violation.index).copied().unwrap_or(1);
        out.push_str(&format!(
            "error[{}]: {}\n  --> {file}:{line} ({})\n\n",
            violation.rule,
            violation.message,
            event_label(trace, violation.index)
        ));
    }
    let count = |holds: Option<bool>| rules.iter().filter(|r| found.holds(r) == holds).count();
    out.push_str(&format!(
        "{file}: {} rule{} on {} event{}: {} hold, {} violated",
        rules.len(),
        plural(rules.len()),
        trace.events.len(),
        plural(trace.events.len()),
        count(Some(true)),
        count(Some(false)),
    ));
    if !found.not_checked.is_empty() {
        out.push_str(&format!(", {} not checked", count(None)));
    }
    out
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

pub(crate) fn json_report(file: &str, trace: &Trace, rules: &[Rule], found: &Found) -> Value {
    let rules: Vec<Value> = rules
        .iter()
        .map(|rule| {
            let (kind, formula) = match rule {
                Rule::Builtin(builtin) => ("builtin", builtin.formula()),
                Rule::Formula { formula, .. } => ("formula", Some(formula.text())),
            };
            let holds = found.holds(rule);
            let status = match holds {
                Some(true) => "holds",
                Some(false) => "violated",
                None => "not checked",
            };
            let mut entry = json!({
                "name": rule.name(),
                "kind": kind,
                "holds": holds,
                "status": status,
            });
            if let Rule::Builtin(builtin) = rule {
                entry["description"] = Builtin::description(*builtin).into();
            }
            if let Some(formula) = formula {
                entry["formula"] = formula.trim().into();
            }
            entry
        })
        .collect();
    let violations: Vec<Value> = found
        .violations
        .iter()
        .map(|v| {
            let event = trace.events.get(v.index);
            json!({
                "rule": v.rule,
                "index": v.index,
                "line": trace.lines.get(v.index),
                "event": event.and_then(|e| e.get("event")),
                "node": event.and_then(|e| e.get("node")),
                "message": v.message,
            })
        })
        .collect();
    json!({
        "file": file,
        "events": trace.events.len(),
        "holds": violations.is_empty(),
        "rules": rules,
        "violations": violations,
        "not_checked": found.not_checked,
    })
}

fn export(args: &ExportArgs) -> u8 {
    let ExportFormat::OtlpJson = args.format;
    let trace = match read(&args.file) {
        Ok(trace) => trace,
        Err(status) => return status,
    };
    let options = ExportOptions {
        base_time_ms: args.base_time,
        service_name: args.service_name.clone(),
        workflow_name: args.name.clone(),
        trace_id: args.trace_id,
    };
    let exported = trace::export(&trace.events, &options).to_string();
    match &args.output {
        None => output::print(&exported),
        Some(path) => {
            if let Err(error) = fs::write(path, format!("{exported}\n")) {
                eprintln!("error: cannot write {}: {error}", path.display());
                return EXIT_USAGE;
            }
        }
    }
    EXIT_OK
}
