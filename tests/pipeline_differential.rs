//! The parse + validate pipeline's whole output on every document we have — fixtures, examples,
//! the conformance suite, DRTL fixtures, fuzz finds and the generated benchmark documents — held
//! in snapshots taken from the pipeline before the throughput work of issue #17 (eager JSON view,
//! schema re-walked per document). Any change to a diagnostic (code, message, path, keyword,
//! span, line, column, help), to the JSON view, or to a span of the tree shows up as a diff.
//! `pipeline_differential_properties` compares the pipeline with the reference evaluator on
//! generated documents as well.

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

use logicmd::diagnostic::Diagnostic;
use logicmd::yaml::{Node, NodeValue};
use logicmd_tests::{conformance_dir, workspace_root};

#[path = "../core/benches/support/generate.rs"]
mod generate;

fn files(dir: &Path, suffixes: &[&str], out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            files(&path, suffixes, out);
        } else if suffixes.iter().any(|s| path.to_string_lossy().ends_with(s)) {
            out.push(path);
        }
    }
}

fn diagnostic_line(out: &mut String, d: &Diagnostic) {
    let span = d.span.map(|s| format!("{}..{}", s.start, s.end));
    let _ = writeln!(
        out,
        "  {}:{} {} {} [{}] {} {:?}: {}{}",
        d.line,
        d.column,
        d.severity.as_str(),
        d.code,
        d.path,
        d.keyword.as_deref().unwrap_or("-"),
        span,
        d.message,
        d.help
            .as_deref()
            .map(|h| format!(" | help: {h}"))
            .unwrap_or_default()
    );
}

/// One line per node: pointer, span (and key span), style, flow, alias, scalar value.
fn tree_lines(out: &mut String, node: &Node, pointer: &str, key_span: Option<(usize, usize)>) {
    let key = key_span
        .map(|(s, e)| format!(" key {s}..{e}"))
        .unwrap_or_default();
    let scalar = match &node.value {
        NodeValue::Null => "null".to_owned(),
        NodeValue::Bool(b) => b.to_string(),
        NodeValue::Int(i) => format!("int {i}"),
        NodeValue::Float(f) => format!("float {f:?}"),
        NodeValue::String(s) => format!("{s:?}"),
        NodeValue::Seq(items) => format!("seq {}", items.len()),
        NodeValue::Map(entries) => format!("map {}", entries.len()),
    };
    let _ = writeln!(
        out,
        "  {pointer} {}..{}{key} {:?}{}{} = {scalar}",
        node.span().start,
        node.span().end,
        node.style,
        if node.flow { " flow" } else { "" },
        if node.from_alias { " alias" } else { "" },
    );
    match &node.value {
        NodeValue::Seq(items) => {
            for (i, item) in items.iter().enumerate() {
                tree_lines(out, item, &format!("{pointer}/{i}"), None);
            }
        }
        NodeValue::Map(entries) => {
            for entry in entries {
                let span = (entry.key_span().start, entry.key_span().end);
                let child = logicmd::json::pointer_push(pointer, &entry.key);
                tree_lines(out, &entry.value, &child, Some(span));
            }
        }
        _ => {}
    }
}

/// Everything the LOGIC.md pipeline says about `text`.
fn logic_md_output(text: &str) -> String {
    let report = logicmd::validate(text);
    let mut out = format!("valid: {}\n", report.valid);
    for d in &report.diagnostics {
        diagnostic_line(&mut out, d);
    }
    if let Some(document) = &report.document {
        let _ = writeln!(out, "  json: {}", document.json());
        tree_lines(&mut out, document.root(), "", None);
    }
    out
}

/// Everything the DRTL pipeline says about `text`, and its YAML tree.
fn drtl_output(text: &str) -> String {
    let report = logicmd::drtl::validate(text);
    let mut out = String::new();
    for d in &report.diagnostics {
        diagnostic_line(&mut out, d);
    }
    let file = logicmd::yaml::parse_file(text, logicmd::Limits::DEFAULT);
    if let Some(root) = &file.root {
        tree_lines(&mut out, root, "", None);
    }
    out
}

/// The outputs of every file under `dir` (relative names, sorted) with `suffixes`.
fn outputs(dir: &Path, suffixes: &[&str], output: fn(&str) -> String) -> String {
    let mut paths = Vec::new();
    files(dir, suffixes, &mut paths);
    paths.sort();
    let mut all = String::new();
    for path in paths {
        let text = fs::read_to_string(&path).expect("a readable UTF-8 file");
        let name = path
            .strip_prefix(dir)
            .unwrap_or(&path)
            .display()
            .to_string();
        let _ = write!(all, "== {name}\n{}", output(&text));
    }
    all
}

#[test]
fn fixtures() {
    let dir = workspace_root().join("tests/fixtures");
    insta::assert_snapshot!(outputs(&dir, &[".logic.md"], logic_md_output));
}

#[test]
fn examples() {
    let dir = workspace_root().join("examples");
    insta::assert_snapshot!(outputs(&dir, &[".logic.md"], logic_md_output));
}

#[test]
fn conformance_suite() {
    let Some(dir) = conformance_dir() else {
        eprintln!("SKIPPED: conformance suite not found");
        return;
    };
    insta::assert_snapshot!(outputs(&dir, &[".logic.md"], logic_md_output));
}

#[test]
fn fuzz_finds() {
    let dir = workspace_root().join("tests/fuzz");
    insta::assert_snapshot!(outputs(&dir, &[".txt"], logic_md_output));
}

#[test]
fn drtl_documents() {
    let root = workspace_root();
    let mut all = outputs(&root.join("tests/drtl"), &[".drtl.yaml"], drtl_output);
    all.push_str(&outputs(
        &root.join("examples"),
        &[".drtl.yaml"],
        drtl_output,
    ));
    insta::assert_snapshot!(all);
}

/// The generated documents are large; their output is held as a digest plus its first lines.
#[test]
fn generated_documents() {
    let mut all = String::new();
    for steps in [1_000, 5_000] {
        let output = logic_md_output(&generate::generated(steps));
        let head: Vec<&str> = output
            .lines()
            .filter(|line| !line.starts_with("  json:"))
            .take(40)
            .collect();
        let _ = writeln!(
            all,
            "== steps {steps}: {} lines, fnv1a {:016x}\n{}",
            output.lines().count(),
            fnv1a(output.as_bytes()),
            head.join("\n")
        );
    }
    insta::assert_snapshot!(all);
}

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &b| {
        (hash ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}
