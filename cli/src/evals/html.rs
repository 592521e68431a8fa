//! The HTML report: one self-contained page (no request leaves it) with the summary, then the
//! cases — regressions against the first variant first, then failures, then the rest — each
//! with every variant's verdict, the output's differences from the first variant, and a link
//! to its trace.

use std::collections::{HashMap, HashSet};
use std::fmt::Write;

use logicmd::evals::{summarize, Row};
use serde_json::Value;
use similar::{ChangeTag, TextDiff};

use super::table::rate;

/// Cases shown at most (regressions and failures first); the results file has them all.
const MAX_CASES: usize = 2000;

const STYLE: &str = "body{font:14px/1.45 system-ui,sans-serif;margin:2rem;color:#1b1f24;background:#fff}
h1{font-size:1.4rem}h2{font-size:1.15rem;margin-top:2rem}table{border-collapse:collapse;margin:.5rem 0}
th,td{border:1px solid #d0d7de;padding:.35rem .6rem;text-align:left;vertical-align:top}th{background:#f6f8fa}
.pass{color:#116329;font-weight:600}.fail{color:#a40e26;font-weight:600}.regressed{background:#fff1f0}
pre{margin:0;white-space:pre-wrap;word-break:break-word;font:12px/1.4 ui-monospace,monospace;max-height:18rem;overflow:auto}
.add{background:#dafbe1}.del{background:#ffebe9}.reason{color:#57606a;font-size:12px}
details{margin:.3rem 0}summary{cursor:pointer}:target{outline:2px solid #0969da}";

const SCRIPT: &str = "function openTarget(){var e=document.getElementById(location.hash.slice(1));if(e&&e.tagName==='DETAILS'){e.open=true;}}window.addEventListener('hashchange',openTarget);openTarget();";

/// The report of `rows` (in case, then variant order) of the dataset `data`.
pub fn report(rows: &[Row], data: &str) -> String {
    let variants: Vec<String> = summarize(rows).into_iter().map(|s| s.variant).collect();
    let mut page = String::new();
    let _ = write!(
        page,
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>logicmd evals: {}</title><style>{STYLE}</style></head><body><main><h1>logicmd evals: {}</h1>",
        escape(data),
        escape(data)
    );
    summary_table(&mut page, rows);
    let by_key = index(rows);
    let cases = ordered_cases(rows, &by_key, &variants);
    let _ = write!(page, "<h2>Cases</h2>");
    if cases.len() > MAX_CASES {
        let _ = write!(page, "<p>The first {MAX_CASES} of {} cases (regressions and failures first); the results file has every row.</p>", cases.len());
    }
    let _ = write!(page, "<table><thead><tr><th scope=\"col\">case</th>");
    for variant in &variants {
        let _ = write!(page, "<th scope=\"col\">{}</th>", escape(variant));
    }
    page.push_str("</tr></thead><tbody>");
    for (id, regressed) in cases.iter().take(MAX_CASES) {
        case_row(&mut page, &by_key, &variants, id, *regressed);
    }
    page.push_str("</tbody></table><h2>Traces</h2>");
    for (id, _) in cases.iter().take(MAX_CASES) {
        for (index, variant) in variants.iter().enumerate() {
            if let Some(row) = find(&by_key, id, variant) {
                let lines: Vec<String> = row.trace.iter().map(Value::to_string).collect();
                let _ = write!(
                    page,
                    "<details id=\"{}\"><summary>{} · {} ({} events)</summary><pre>{}</pre></details>",
                    anchor(id, index),
                    escape(id),
                    escape(variant),
                    row.trace.len(),
                    escape(&lines.join("\n"))
                );
            }
        }
    }
    let _ = writeln!(page, "</main><script>{SCRIPT}</script></body></html>");
    page
}

fn summary_table(page: &mut String, rows: &[Row]) {
    page.push_str("<h2>Summary</h2><table><thead><tr><th scope=\"col\">variant</th><th scope=\"col\">cases</th><th scope=\"col\">passed</th><th scope=\"col\">rate</th><th scope=\"col\">not completed</th><th scope=\"col\">p50 ms</th><th scope=\"col\">p95 ms</th><th scope=\"col\">tokens in/out</th><th scope=\"col\">scorers</th></tr></thead><tbody>");
    for s in summarize(rows) {
        let scorers: Vec<String> = s
            .scorers
            .iter()
            .map(|t| format!("{}: {}/{}", escape(&t.scorer), t.passed, t.scored))
            .collect();
        let _ = write!(
            page,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}/{}</td><td>{}</td></tr>",
            escape(&s.variant),
            s.cases,
            s.passed,
            rate(s.passed, s.cases),
            s.not_completed,
            s.latency_ms_p50,
            s.latency_ms_p95,
            s.tokens_input,
            s.tokens_output,
            scorers.join("<br>")
        );
    }
    page.push_str("</tbody></table>");
}

/// Case ids, regressions first (the first variant passes, another does not), then cases some
/// variant fails, then the rest; each with whether it regressed.
fn ordered_cases(rows: &[Row], by_key: &Index, variants: &[String]) -> Vec<(String, bool)> {
    let mut seen = HashSet::new();
    let ids: Vec<&str> = rows
        .iter()
        .map(|r| r.id.as_str())
        .filter(|id| seen.insert(*id))
        .collect();
    let rank = |id: &str| {
        let verdicts: Vec<bool> = variants
            .iter()
            .filter_map(|v| find(by_key, id, v))
            .map(|r| r.pass)
            .collect();
        let regressed = verdicts.first() == Some(&true) && verdicts.iter().any(|p| !p);
        let failing = verdicts.iter().any(|p| !p);
        (
            if regressed {
                0
            } else if failing {
                1
            } else {
                2
            },
            regressed,
        )
    };
    let mut ranked: Vec<(usize, String, bool)> = ids
        .iter()
        .map(|id| {
            let (order, regressed) = rank(id);
            (order, (*id).to_owned(), regressed)
        })
        .collect();
    ranked.sort_by_key(|(order, _, _)| *order);
    ranked
        .into_iter()
        .map(|(_, id, regressed)| (id, regressed))
        .collect()
}

fn case_row(page: &mut String, rows: &Index, variants: &[String], id: &str, regressed: bool) {
    let class = if regressed {
        " class=\"regressed\""
    } else {
        ""
    };
    let _ = write!(
        page,
        "<tr{class}><th scope=\"row\">{}{}</th>",
        escape(id),
        if regressed {
            "<br><span class=\"fail\">regressed</span>"
        } else {
            ""
        }
    );
    let baseline = variants.first().and_then(|v| find(rows, id, v));
    for (index, variant) in variants.iter().enumerate() {
        page.push_str("<td>");
        match find(rows, id, variant) {
            Some(row) => cell(
                page,
                row,
                baseline.filter(|_| index > 0),
                &anchor(id, index),
            ),
            None => page.push_str("not run"),
        }
        page.push_str("</td>");
    }
    page.push_str("</tr>");
}

fn cell(page: &mut String, row: &Row, baseline: Option<&Row>, trace: &str) {
    let (class, word) = if row.pass {
        ("pass", "pass")
    } else {
        ("fail", "fail")
    };
    let _ = write!(
        page,
        "<span class=\"{class}\">{word}</span> · {} · <a href=\"#{trace}\">trace</a>",
        escape(&row.status)
    );
    if let Some(error) = &row.error {
        let _ = write!(page, "<div class=\"reason\">{}</div>", escape(error));
    }
    for warning in &row.warnings {
        let _ = write!(
            page,
            "<div class=\"reason\">warning: {}</div>",
            escape(warning)
        );
    }
    for (name, score) in &row.scores {
        if score.get("pass") != Some(&Value::Bool(true)) {
            let reason = score.get("reason").and_then(Value::as_str).unwrap_or("");
            let _ = write!(
                page,
                "<div class=\"reason\">{}: {}</div>",
                escape(name),
                escape(reason)
            );
        }
    }
    let output = pretty(&row.output);
    match baseline {
        Some(base) if base.output != row.output => {
            page.push_str("<pre>");
            let before = pretty(&base.output);
            for change in TextDiff::from_lines(&before, &output).iter_all_changes() {
                let (class, sign) = match change.tag() {
                    ChangeTag::Insert => ("add", "+"),
                    ChangeTag::Delete => ("del", "-"),
                    ChangeTag::Equal => ("", " "),
                };
                let _ = write!(
                    page,
                    "<span class=\"{class}\">{sign}{}</span>",
                    escape(&change.to_string())
                );
            }
            page.push_str("</pre>");
        }
        Some(_) => page.push_str("<div class=\"reason\">same output as the first variant</div>"),
        None => {
            let _ = write!(page, "<pre>{}</pre>", escape(&output));
        }
    }
}

/// Rows by (case id, variant): looked up once per cell, so the report is linear in its rows.
type Index<'a> = HashMap<(&'a str, &'a str), &'a Row>;

fn index(rows: &[Row]) -> Index<'_> {
    rows.iter()
        .map(|r| ((r.id.as_str(), r.variant.as_str()), r))
        .collect()
}

fn find<'a>(rows: &Index<'a>, id: &str, variant: &str) -> Option<&'a Row> {
    rows.get(&(id, variant)).copied()
}

fn pretty(value: &Value) -> String {
    let mut text = serde_json::to_string_pretty(value).unwrap_or_default();
    text.push('\n');
    text
}

/// A trace's anchor: the case id's bytes in hex (any id makes a valid, unique anchor).
fn anchor(id: &str, variant: usize) -> String {
    let hex: String = id.bytes().map(|b| format!("{b:02x}")).collect();
    format!("trace-{variant}-{hex}")
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
