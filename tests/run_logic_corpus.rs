//! Every runnable document the project ships or conforms to, run end to end with the synthetic
//! provider (`logicmd run --dry-run`): the conformance suite's `valid/` and `edge-cases/`, the
//! examples (the studio's menu includes them), and the spec's §11 example. Tool calls get an
//! unverifiable verdict and a review pauses the run. Each must end completed, failed, refused or
//! paused (the document's own verdict), never with an engine error, a stall or an endless run;
//! the table of outcomes is a snapshot.

#[path = "run/logic/driver.rs"]
mod driver;

use std::fs;
use std::path::{Path, PathBuf};

use driver::{run, source_with, End};
use logicmd::run::Synthetic;
use logicmd_tests::{conformance_dir_or_skip, workspace_root};
use serde_json::{json, Value};

/// Generous: the largest corpus document needs well under a hundred rounds.
const MAX_ROUNDS: usize = 2_000;

/// Every `*.logic.md` under `dir`, as paths relative to `dir`, sorted.
fn documents(dir: &Path) -> Vec<String> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(at) = stack.pop() {
        for entry in fs::read_dir(&at).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.to_string_lossy().ends_with(".logic.md") {
                if let Ok(relative) = path.strip_prefix(dir) {
                    found.push(relative.to_string_lossy().replace('\\', "/"));
                }
            }
        }
    }
    found.sort();
    found
}

/// Every file under `dir` (relative path, text): the loader a document next to them sees.
fn files(dir: &Path) -> Vec<(String, String)> {
    documents(dir)
        .into_iter()
        .filter_map(|relative| {
            let text = fs::read_to_string(dir.join(&relative)).ok()?;
            Some((relative, text))
        })
        .collect()
}

/// The input a document's run gets: a value for each of its declared inputs.
fn input_for(source: &logicmd::run::Source) -> Value {
    let logicmd::run::Source::Logic { spec, .. } = source else {
        return json!({});
    };
    let mut input = serde_json::Map::new();
    for field in spec
        .pointer("/contracts/inputs")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        if let Some(name) = field.get("name").and_then(Value::as_str) {
            let value = match field.get("type").and_then(Value::as_str) {
                Some("number" | "integer") => json!(1),
                Some("boolean") => json!(true),
                Some("array") => json!([]),
                Some("object") => json!({}),
                _ => json!(format!("{name} value")),
            };
            input.insert(name.to_owned(), value);
        }
    }
    Value::Object(input)
}

/// One row of the table: the document, how its run ended, and the counts that tell the story.
/// A document `prepare` refuses (lint finds errors: files it names are missing, branches to
/// steps it never defines) does not run: its row names the diagnostics' codes.
fn outcome(root: &Path, relative: &str) -> Value {
    let text = fs::read_to_string(root.join(relative)).unwrap_or_default();
    let source = match source_with(&text, relative, &files(root)) {
        Ok(source) => source,
        Err(problems) => {
            let mut codes: Vec<&str> = problems
                .lines()
                .filter_map(|line| line.split_whitespace().nth(1))
                .collect();
            codes.dedup();
            return json!({"document": relative, "end": "not prepared", "detail": codes});
        }
    };
    let input = input_for(&source);
    let mut provider = Synthetic::new(&source, 7);
    let driven = run(source.clone(), input.clone(), &mut provider, MAX_ROUNDS);
    let mut again = Synthetic::new(&source, 7);
    let repeated = run(source, input, &mut again, MAX_ROUNDS);
    assert_eq!(
        serde_json::to_string(&repeated.trace).ok(),
        serde_json::to_string(&driven.trace).ok(),
        "{relative}: the same run gave another trace"
    );
    let detail = match &driven.end {
        End::Failed(error) => json!(error),
        End::Paused(review) => json!(review.kind.node()),
        End::Unanswered(_, reason) => json!(reason),
        End::Refused(unmet) => unmet.clone(),
        _ => Value::Null,
    };
    json!({
        "document": relative,
        "end": driven.end.label(),
        "detail": detail,
        "events": driven.trace.len(),
        "model_calls": driven.events("model_requested").len(),
    })
}

fn table() -> Vec<Value> {
    let mut rows = Vec::new();
    if let Some(conformance) = conformance_dir_or_skip() {
        for kind in ["valid", "edge-cases"] {
            let dir = conformance.join(kind);
            for relative in documents(&dir) {
                let mut row = outcome(&dir, &relative);
                row["document"] = json!(format!("conformance/{kind}/{relative}"));
                rows.push(row);
            }
        }
    }
    let examples: PathBuf = workspace_root().join("examples");
    for relative in documents(&examples) {
        let mut row = outcome(&examples, &relative);
        row["document"] = json!(format!("examples/{relative}"));
        rows.push(row);
    }
    rows
}

/// The LOGIC.md texts the studio's examples menu includes (`include_str!` paths).
fn studio_examples() -> Vec<String> {
    let menu = fs::read_to_string(workspace_root().join("web/src/examples.rs")).unwrap_or_default();
    menu.split("include_str!(\"../../")
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .filter(|path| path.ends_with(".logic.md"))
        .map(str::to_owned)
        .collect()
}

#[test]
fn every_document_runs_to_its_own_verdict() {
    let rows = table();
    let listed: Vec<&str> = rows.iter().filter_map(|r| r["document"].as_str()).collect();
    let menu = studio_examples();
    assert!(menu.len() >= 4, "{menu:?}");
    for path in &menu {
        assert!(
            listed.contains(&path.as_str()),
            "{path} is not in the corpus"
        );
    }
    assert!(listed.contains(&"examples/studio/spec-complete-example.logic.md"));
    let ends = |label: &str| rows.iter().filter(|r| r["end"] == label).count();
    let verdicts = ["completed", "failed", "refused", "paused", "not prepared"];
    for row in &rows {
        assert!(
            verdicts.contains(&row["end"].as_str().unwrap_or_default()),
            "an engine error, a stall or an endless run: {row}"
        );
    }
    let summary = json!({
        "documents": rows.len(),
        "completed": ends("completed"),
        "failed": ends("failed"),
        "refused": ends("refused"),
        "paused": ends("paused"),
        "not prepared": ends("not prepared"),
    });
    eprintln!("dry-run corpus: {summary}");
    insta::with_settings!({
        snapshot_path => "run/logic/snapshots",
        prepend_module_to_snapshot => false,
        omit_expression => true,
    }, {
        insta::assert_json_snapshot!("corpus", json!({"summary": summary, "runs": rows}));
    });
}
