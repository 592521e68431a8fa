//! The report for people: each file's diagnostics (rustc-style, from core's renderer), an `ok` or
//! `FAIL` line per file, a summary; or, with `--statistics`, how many each rule gave.

use std::collections::BTreeMap;

use logicmd::Severity;
use serde_json::{json, Value};

use super::color::Paint;
use super::{Checked, Reported, Tally};
use crate::output;

pub fn print(checked: &[Checked], tally: Tally, quiet: bool, paint: Paint) {
    let mut failed = 0;
    for c in checked {
        if !quiet {
            for fix in &c.fixes.applied {
                output::print(&format!(
                    "{} {}: {} [{}]",
                    paint.ok("fixed"),
                    c.file,
                    fix.title,
                    fix.code
                ));
            }
        }
        if !c.diagnostics.is_empty() {
            output::print(&diagnostics(c, paint));
        }
        if !c.passes() {
            failed += 1;
        }
        if quiet {
            continue;
        }
        let counts = match (count(c, Severity::Error), count(c, Severity::Warning)) {
            (0, 0) => String::new(),
            (e, 0) => format!(" ({e} error{})", plural(e)),
            (0, w) => format!(" ({w} warning{})", plural(w)),
            (e, w) => format!(" ({e} error{}, {w} warning{})", plural(e), plural(w)),
        };
        let verdict = if c.passes() {
            paint.ok("ok  ")
        } else {
            paint.fail("FAIL")
        };
        output::print(&format!("{verdict}  {}{counts}", c.file));
    }
    if quiet {
        return;
    }
    let summary = format!(
        "{} file{} checked: {} {}, {failed} {}",
        checked.len(),
        plural(checked.len()),
        checked.len() - failed,
        tally.good,
        tally.bad
    );
    output::print(&format!("\n{}", paint.bold(&summary)));
    if tally.fixing {
        output::print(&fix_summary(checked));
    }
}

/// A file's diagnostics, rendered and painted.
fn diagnostics(c: &Checked, paint: Paint) -> String {
    let index = logicmd::source::LineIndex::new(&c.text);
    c.diagnostics
        .iter()
        .map(|d| {
            let rendered = logicmd::render::render(d, &c.file, &c.text, &index);
            paint.diagnostic(&rendered, d.severity, d.line > 0)
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn count(c: &Checked, severity: Severity) -> usize {
    c.diagnostics
        .iter()
        .filter(|d| d.severity == severity)
        .count()
}

/// Each (code, severity) with how many diagnostics it gave, most first, then by code.
fn counts(files: &[Reported<'_>]) -> Vec<(usize, Severity, String)> {
    let mut by_code: BTreeMap<(String, Severity), usize> = BTreeMap::new();
    for diagnostic in files.iter().flat_map(|f| f.diagnostics) {
        *by_code
            .entry((diagnostic.code.clone(), diagnostic.severity))
            .or_default() += 1;
    }
    let mut counted: Vec<(usize, Severity, String)> = by_code
        .into_iter()
        .map(|((code, severity), n)| (n, severity, code))
        .collect();
    counted.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
    counted
}

/// `--statistics`: a count, a severity and a code a line.
pub fn statistics(files: &[Reported<'_>], paint: Paint) {
    let counted = counts(files);
    let width = counted.first().map_or(1, |(n, _, _)| n.to_string().len());
    for (n, severity, code) in &counted {
        output::print(&format!(
            "{n:>width$}  {}  {code}",
            paint.severity(*severity, &format!("{:<7}", severity.as_str()))
        ));
    }
    let total: usize = counted.iter().map(|(n, _, _)| n).sum();
    output::print(&paint.bold(&format!(
        "{total} diagnostic{} in {} file{}",
        plural(total),
        files.len(),
        plural(files.len())
    )));
}

/// `--statistics --format json`.
pub fn counts_json(files: &[Reported<'_>]) -> Value {
    Value::Array(
        counts(files)
            .into_iter()
            .map(|(n, severity, code)| json!({"code": code, "severity": severity, "count": n}))
            .collect(),
    )
}

/// `3 problems fixed in 2 files; 1 left (1 fixable with --unsafe-fixes)`.
fn fix_summary(checked: &[Checked]) -> String {
    let fixed: usize = checked.iter().map(|c| c.fixes.applied.len()).sum();
    let files = checked
        .iter()
        .filter(|c| !c.fixes.applied.is_empty())
        .count();
    let left: usize = checked.iter().map(|c| c.diagnostics.len()).sum();
    let fixable: usize = checked.iter().map(|c| c.fixes.unsafe_fixable).sum();
    let more = if fixable > 0 {
        format!(" ({fixable} fixable with --unsafe-fixes)")
    } else {
        String::new()
    };
    format!(
        "{fixed} problem{} fixed in {files} file{}; {left} left{more}",
        plural(fixed),
        plural(files)
    )
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}
