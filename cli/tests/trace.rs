//! `logicmd trace check` and `logicmd trace export` as users run them, on traces the engine
//! wrote (the scenario runs of `tests/trace/`): exit 0 when every rule holds, 1 with each
//! violation at `file:line`, 2 for a formula or a line that does not parse; JSON reports;
//! OTLP/JSON to standard output or a file.

mod harness;

#[path = "../../tests/trace/common.rs"]
mod common;

use std::process::Output;

use common::{run_scenario, SCENARIOS};
use harness::{run_in, Scratch};
use serde_json::Value;

fn jsonl(events: &[Value]) -> String {
    events.iter().map(|e| format!("{e}\n")).collect()
}

/// The trace of a scenario, written to `run.jsonl` in a scratch directory.
fn written(scratch: &Scratch, scenario: &str, edit: impl FnOnce(&mut Vec<Value>)) {
    let scenario = SCENARIOS.iter().find(|s| s.name == scenario).unwrap();
    let mut trace = run_scenario(scenario);
    edit(&mut trace);
    scratch.write("run.jsonl", jsonl(&trace));
}

fn logicmd(scratch: &Scratch, args: &[&str]) -> Output {
    run_in(&scratch.0, args, None)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn a_trace_that_keeps_every_obligation_exits_0() {
    let scratch = Scratch::new("trace-ok");
    written(&scratch, "retry", |_| {});
    let out = logicmd(&scratch, &["trace", "check", "run.jsonl"]);
    assert_eq!(text(&out.stderr), "");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        text(&out.stdout),
        "run.jsonl: 5 rules on 22 events: 5 hold, 0 violated\n"
    );
}

#[test]
fn each_violation_is_shown_at_its_line_and_the_status_is_1() {
    let scratch = Scratch::new("trace-broken");
    // The review's answer removed, and a blank line so lines and events differ.
    written(&scratch, "escalate", |trace| {
        trace.retain(|e| e["event"] != "review_answered");
        trace.insert(1, serde_json::json!(null));
    });
    let file = scratch.0.join("run.jsonl");
    let with_blank = std::fs::read_to_string(&file)
        .unwrap()
        .replacen("null\n", "\n", 1);
    std::fs::write(&file, with_blank).unwrap();
    let out = logicmd(
        &scratch,
        &[
            "trace",
            "check",
            "run.jsonl",
            "--rule",
            "reviewed=G(node_finished(node=assess) -> P review_answered(node=assess))",
        ],
    );
    assert_eq!(out.status.code(), Some(1));
    insta::assert_snapshot!("trace_check_broken", text(&out.stdout));
}

#[test]
fn json_reports_every_rule_and_violation() {
    let scratch = Scratch::new("trace-json");
    written(&scratch, "loop", |trace| {
        let end = trace.len() - 1;
        trace.swap(end, end - 1);
    });
    let out = logicmd(
        &scratch,
        &[
            "trace",
            "check",
            "run.jsonl",
            "--format",
            "json",
            "--rule",
            "G(gate_evaluated(gate=max_iterations) -> F node_started(node=ship))",
            "--rule",
            "bounded=G !node_finished(route.iteration > 2)",
        ],
    );
    assert_eq!(out.status.code(), Some(1));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    insta::assert_json_snapshot!("trace_check_json", report);
}

#[test]
fn only_chooses_builtins_or_formulas() {
    let scratch = Scratch::new("trace-only");
    written(&scratch, "chain", |_| {});
    let out = logicmd(
        &scratch,
        &[
            "trace",
            "check",
            "run.jsonl",
            "--only",
            "rules",
            "--rule",
            "never=G !run_finished",
        ],
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stdout),
        "error[never]: `run_finished` holds at event 12\n  --> run.jsonl:13 (event 12: run_finished)\n\nrun.jsonl: 1 rule on 13 events: 0 hold, 1 violated\n"
    );
    let out = logicmd(
        &scratch,
        &[
            "trace",
            "check",
            "run.jsonl",
            "--only",
            "builtins",
            "--rule",
            "never=G !run_finished",
        ],
    );
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        text(&out.stdout),
        "run.jsonl: 5 rules on 13 events: 5 hold, 0 violated\n"
    );
    let out = logicmd(
        &scratch,
        &["trace", "check", "run.jsonl", "--only", "rules"],
    );
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr),
        "error: `--only rules` needs at least one `--rule`\n"
    );
}

#[test]
fn a_formula_that_does_not_parse_is_shown_with_a_caret_and_the_status_is_2() {
    let scratch = Scratch::new("trace-formula");
    written(&scratch, "chain", |_| {});
    let out = logicmd(
        &scratch,
        &[
            "trace",
            "check",
            "run.jsonl",
            "--rule",
            "ok=G(node_started(node=) -> x)",
        ],
    );
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(text(&out.stdout), "");
    assert_eq!(
        text(&out.stderr),
        "error: --rule: expected a value: a JSON literal (\"text\", 3, true, false, null, [..], {..}) or a bare word\n  | ok=G(node_started(node=) -> x)\n  |                        ^\n"
    );
}

#[test]
fn a_bad_line_is_named_and_the_status_is_2() {
    let scratch = Scratch::new("trace-bad-line");
    scratch.write(
        "run.jsonl",
        "{\"event\": \"run_started\"}\n\n{\"event\": \"node_started\", }\n",
    );
    let out = logicmd(&scratch, &["trace", "check", "run.jsonl"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr),
        "error: run.jsonl:3: column 27: not JSON: trailing comma\n"
    );
    let out = logicmd(
        &scratch,
        &["trace", "export", "missing.jsonl", "--format", "otlp-json"],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).starts_with("error: cannot read missing.jsonl: "),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn a_trace_is_read_from_standard_input() {
    let scratch = Scratch::new("trace-stdin");
    let scenario = SCENARIOS.iter().find(|s| s.name == "tree").unwrap();
    let trace = jsonl(&run_scenario(scenario));
    let out = run_in(&scratch.0, &["trace", "check", "-"], Some(trace.as_bytes()));
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        text(&out.stdout),
        "<stdin>: 5 rules on 14 events: 5 hold, 0 violated\n"
    );
}

#[test]
fn export_writes_otlp_json_to_standard_output_or_a_file() {
    let scratch = Scratch::new("trace-export");
    written(&scratch, "workflow-retry-source", |_| {});
    let args = [
        "trace",
        "export",
        "run.jsonl",
        "--format",
        "otlp-json",
        "--base-time",
        "1767225600000",
        "--name",
        "research",
    ];
    let out = logicmd(&scratch, &args);
    assert_eq!(out.status.code(), Some(0));
    let exported: Value = serde_json::from_slice(&out.stdout).unwrap();
    let spans = exported["resourceSpans"][0]["scopeSpans"][0]["spans"]
        .as_array()
        .unwrap();
    assert_eq!(spans[0]["name"], "invoke_workflow research");
    assert_eq!(spans[0]["startTimeUnixNano"], "1767225600000000000");
    let out = logicmd(&scratch, &[&args[..], &["-o", "spans.json"]].concat());
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(text(&out.stdout), "");
    let written: Value =
        serde_json::from_str(&std::fs::read_to_string(scratch.0.join("spans.json")).unwrap())
            .unwrap();
    assert_eq!(written, exported);
    let out = logicmd(&scratch, &["trace", "export", "run.jsonl"]);
    assert_eq!(out.status.code(), Some(2), "the format is required");

    // The document's name by default; a trace id the caller gives, checked.
    let base = ["trace", "export", "run.jsonl", "--format", "otlp-json"];
    let out = logicmd(&scratch, &base);
    let exported: Value = serde_json::from_slice(&out.stdout).unwrap();
    let root = &exported["resourceSpans"][0]["scopeSpans"][0]["spans"][0];
    assert_eq!(root["name"], "invoke_workflow contract-workflow");
    let id = "0123456789abcdef0123456789abcdef";
    let out = logicmd(&scratch, &[&base[..], &["--trace-id", id]].concat());
    let exported: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        exported["resourceSpans"][0]["scopeSpans"][0]["spans"][0]["traceId"],
        id
    );
    let out = logicmd(&scratch, &[&base[..], &["--trace-id", "00"]].concat());
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("`00` is not a trace id: 32 hexadecimal digits, not all zero"),
        "{}",
        text(&out.stderr)
    );
}

/// A paused trace (a review waits) has no end yet: `terminates` is "not checked", never
/// counted as holding, in the human and the JSON report.
#[test]
fn a_rule_a_paused_trace_cannot_settle_is_reported_not_checked() {
    let scratch = Scratch::new("trace-paused");
    written(&scratch, "escalate-paused", |_| {});
    let out = logicmd(&scratch, &["trace", "check", "run.jsonl"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let events = std::fs::read_to_string(scratch.0.join("run.jsonl"))
        .unwrap()
        .lines()
        .count();
    assert_eq!(
        text(&out.stdout),
        format!("note[terminates]: not checked: the run is paused for a review: its end is still to come\n\nrun.jsonl: 5 rules on {events} events: 4 hold, 0 violated, 1 not checked\n")
    );
    let out = logicmd(
        &scratch,
        &["trace", "check", "run.jsonl", "--format", "json"],
    );
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let terminates = report["rules"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == "terminates")
        .unwrap();
    assert_eq!(terminates["holds"], Value::Null);
    assert_eq!(terminates["status"], "not checked");
    assert_eq!(
        report["not_checked"],
        serde_json::json!([{"rule": "terminates", "reason": "the run is paused for a review: its end is still to come"}])
    );
}
