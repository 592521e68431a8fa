//! Fixture pairs `NAME.logic.md` + `NAME.expected.json` (the conformance suite's format) and
//! the strict rules they are checked by.

use std::fs;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

use logicmd::diagnostic::Diagnostic;
use logicmd::json::{entry_at, node_at, pointer_push};
use logicmd::{validate_bytes, Limits, Report};
use serde_json::Value;

use crate::json_eq::first_difference;

/// One fixture on disk.
#[derive(Debug, Clone)]
pub struct Fixture {
    pub name: String,
    pub input: PathBuf,
    pub expected: PathBuf,
}

/// How strictly the expected error list is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Strictness {
    /// Every expected error must be found (path and keyword exact); others may be present.
    Listed,
    /// As `Listed`, and the errors found are exactly as many as listed.
    Exact,
}

/// Every fixture under `dir`, sorted by path.
pub fn collect(root: &Path) -> Vec<Fixture> {
    let mut found = Vec::new();
    let mut pending = vec![root.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let Ok(entries) = fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                pending.push(path);
            } else if let Some(stem) = path
                .file_name()
                .and_then(|n| n.to_str())
                .and_then(|n| n.strip_suffix(".logic.md"))
            {
                let expected = path.with_file_name(format!("{stem}.expected.json"));
                let name = path
                    .strip_prefix(root)
                    .unwrap_or(&path)
                    .display()
                    .to_string();
                found.push(Fixture {
                    name,
                    input: path,
                    expected,
                });
            }
        }
    }
    found.sort_by(|a, b| a.input.cmp(&b.input));
    found
}

/// Checks one fixture; `Err` explains every way it failed.
pub fn check(fixture: &Fixture, strictness: Strictness) -> Result<(), String> {
    let bytes = fs::read(&fixture.input).map_err(|e| format!("cannot read input: {e}"))?;
    let expected_text = fs::read_to_string(&fixture.expected)
        .map_err(|e| format!("cannot read expected file: {e}"))?;
    let expected: Value = serde_json::from_str(&expected_text)
        .map_err(|e| format!("expected file is not JSON: {e}"))?;
    let report = catch_unwind(AssertUnwindSafe(|| validate_bytes(&bytes, Limits::DEFAULT)))
        .map_err(|_| "the validator panicked".to_owned())?;
    let mut problems = Vec::new();
    let errors: Vec<&Diagnostic> = report.diagnostics.iter().filter(|d| d.is_error()).collect();

    let expected_valid = expected["valid"]
        .as_bool()
        .ok_or("expected file lacks `valid`")?;
    if report.valid != expected_valid {
        problems.push(format!(
            "expected valid={expected_valid}, found valid={}; diagnostics: {}",
            report.valid,
            summary(&report.diagnostics)
        ));
    }
    let listed = expected["errors"].as_array().cloned().unwrap_or_default();
    for want in &listed {
        if !errors.iter().any(|d| matches(d, want)) {
            problems.push(format!(
                "missing error {want}; found: {}",
                summary(&report.diagnostics)
            ));
        }
    }
    if strictness == Strictness::Exact && !expected_valid && errors.len() != listed.len() {
        problems.push(format!(
            "expected exactly {} error(s), found {}: {}",
            listed.len(),
            errors.len(),
            summary(&report.diagnostics)
        ));
    }
    if let Some(parsed) = expected.get("parsed") {
        match &report.document {
            Some(document) => {
                if let Some(difference) = first_difference(parsed, document.json()) {
                    problems.push(format!("parsed frontmatter differs at {difference}"));
                }
            }
            None => problems.push("expected a parsed frontmatter, found none".to_owned()),
        }
    }
    problems.extend(placement_problems(&report));
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("\n    "))
    }
}

fn matches(diagnostic: &Diagnostic, want: &Value) -> bool {
    let field = |name: &str| want.get(name).and_then(Value::as_str);
    let number = |name: &str| want.get(name).and_then(Value::as_u64);
    field("path").is_none_or(|p| p == diagnostic.path)
        && field("keyword").is_none_or(|k| Some(k) == diagnostic.keyword.as_deref())
        && field("code").is_none_or(|c| c == diagnostic.code)
        && number("line").is_none_or(|l| l == u64::from(diagnostic.line))
        && number("column").is_none_or(|c| c == u64::from(diagnostic.column))
}

/// Every diagnostic must have a place, and a schema diagnostic's place must be its node: the
/// unknown key itself, or the value (object) at its path.
fn placement_problems(report: &Report) -> Vec<String> {
    let mut problems = Vec::new();
    for d in &report.diagnostics {
        if d.line == 0 || d.column == 0 {
            problems.push(format!(
                "diagnostic without a place: {} {}",
                d.code, d.message
            ));
            continue;
        }
        let (Some(document), Some(keyword), Some(span)) = (&report.document, &d.keyword, d.span)
        else {
            continue;
        };
        let expected_span = if keyword == "additionalProperties" {
            let key = d.message.split('`').nth(1).unwrap_or_default();
            entry_at(document.root(), &pointer_push(&d.path, key)).map(|e| e.key_span())
        } else if keyword == "propertyNames" {
            continue;
        } else {
            node_at(document.root(), &d.path).map(|n| n.span())
        };
        if expected_span != Some(span) {
            problems.push(format!(
                "{} at {} placed at {}:{} ({span:?}), expected {expected_span:?}",
                d.code, d.path, d.line, d.column
            ));
        }
    }
    problems
}

fn summary(diagnostics: &[Diagnostic]) -> String {
    if diagnostics.is_empty() {
        return "none".to_owned();
    }
    diagnostics
        .iter()
        .map(|d| {
            format!(
                "[{} {} path={:?} keyword={:?} {}:{} {}]",
                d.severity.as_str(),
                d.code,
                d.path,
                d.keyword,
                d.line,
                d.column,
                d.message
            )
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Runs `fixtures`, printing one line per fixture; panics listing every failure.
pub fn run_all(label: &str, fixtures: &[Fixture], strictness: Strictness) {
    let mut failures = Vec::new();
    for fixture in fixtures {
        match check(fixture, strictness) {
            Ok(()) => println!("pass  {}", fixture.name),
            Err(why) => {
                println!("FAIL  {}\n    {why}", fixture.name);
                failures.push(format!("{}:\n    {why}", fixture.name));
            }
        }
    }
    println!(
        "{label}: {}/{} fixtures pass",
        fixtures.len() - failures.len(),
        fixtures.len()
    );
    assert!(
        failures.is_empty(),
        "{label} failures:\n{}",
        failures.join("\n")
    );
}
