//! `logicmd evals run --provider openai` against a real HTTP server on 127.0.0.1 (`loopback`):
//! each case's run and then its judge are real model calls, as the server counts them.

mod harness;
mod loopback;

use std::fs;
use std::path::Path;
use std::process::{Command, Stdio};

use harness::Scratch;
use loopback::{completion, Loopback, Recorded, Reply};
use serde_json::Value;

fn answer(request: &Recorded) -> Reply {
    let system = request.body["messages"][0]["content"]
        .as_str()
        .unwrap_or("");
    if system.starts_with("You are a strict evaluator") {
        completion(r#"{"pass": true, "score": 0.9, "reason": "a capital city"}"#)
    } else {
        completion(r#"{"city": "Paris"}"#)
    }
}

/// A scratch project with the capital document and its cases.
fn project(name: &str) -> Scratch {
    let scratch = Scratch::new(name);
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/evals");
    for name in ["capital.logic.md", "cases.jsonl"] {
        scratch.write(name, fs::read(fixtures.join(name)).expect("a fixture"));
    }
    scratch
}

/// `logicmd evals run capital.logic.md --data cases.jsonl --provider openai …` against
/// `server`, with `args` added: its exit code.
fn eval(scratch: &Scratch, server: &Loopback, args: &[&str]) -> Option<i32> {
    Command::new(env!("CARGO_BIN_EXE_logicmd"))
        .current_dir(&scratch.0)
        .args(["evals", "run", "capital.logic.md", "--data", "cases.jsonl"])
        .args([
            "--provider",
            "openai",
            "--no-stream",
            "--base-url",
            &server.base_url(),
        ])
        .args(args)
        .env_remove("OPENAI_API_KEY")
        .env_remove("OPENAI_BASE_URL")
        .stdin(Stdio::null())
        .output()
        .expect("logicmd runs")
        .status
        .code()
}

/// The rows of `rows.jsonl`.
fn rows(scratch: &Scratch) -> Vec<Value> {
    fs::read_to_string(scratch.0.join("rows.jsonl"))
        .expect("rows written")
        .lines()
        .map(|line| serde_json::from_str(line).expect("a row"))
        .collect()
}

#[test]
fn every_case_and_its_judge_are_real_model_calls() {
    let server = Loopback::answering(answer);
    let scratch = project("evals-real");
    let args = ["--model", "m", "--scorer", "subset", "--scorer", "judge"];
    let status = eval(
        &scratch,
        &server,
        &[&args[..], &["--jobs", "2", "--out", "rows.jsonl"]].concat(),
    );
    assert_eq!(status, Some(1), "`de` expects Berlin");
    let rows = rows(&scratch);
    let verdicts: Vec<String> = rows
        .iter()
        .map(|row| format!("{} {} {}", row["id"], row["pass"], row["scores"]))
        .collect();
    insta::assert_snapshot!(verdicts.join("\n"), @r#"
    "fr" true {"subset":{"pass":true},"judge":{"pass":true,"value":0.9,"reason":"a capital city"}}
    "de" false {"subset":{"pass":false,"reason":"/city: expected \"Berlin\", got \"Paris\""},"judge":{"pass":true,"value":0.9,"reason":"a capital city"}}
    "fr-trace" true {"subset":{"pass":true},"judge":{"pass":true,"value":0.9,"reason":"a capital city"}}
    "#);
    let requests = server.requests();
    let judged = requests
        .iter()
        .filter(|r| {
            r.body["messages"][0]["content"]
                .as_str()
                .unwrap_or("")
                .starts_with("You are a strict evaluator")
        })
        .count();
    assert_eq!((requests.len(), judged), (6, 3));
}

/// Each `--model` is a variant: every case is asked of each model, rows name it DOC@MODEL.
#[test]
fn each_model_is_a_variant_asked_of_every_case() {
    let server = Loopback::answering(|request| match request.body["model"].as_str() {
        Some("good") => completion(r#"{"city": "Paris"}"#),
        _ => completion(r#"{"city": "Berlin"}"#),
    });
    let scratch = project("evals-models");
    let args = [
        "--model",
        "good",
        "--model",
        "bad",
        "--scorer",
        "subset",
        "--out",
        "rows.jsonl",
    ];
    assert_eq!(
        eval(&scratch, &server, &args),
        Some(1),
        "each model misses a case"
    );
    let rows = rows(&scratch);
    let verdicts: Vec<String> = rows
        .iter()
        .map(|row| format!("{} {} {}", row["id"], row["variant"], row["pass"]))
        .collect();
    insta::assert_snapshot!(verdicts.join("\n"), @r#"
    "fr" "capital.logic.md@good" true
    "fr" "capital.logic.md@bad" false
    "de" "capital.logic.md@good" false
    "de" "capital.logic.md@bad" true
    "fr-trace" "capital.logic.md@good" true
    "fr-trace" "capital.logic.md@bad" false
    "#);
    let mut asked: Vec<String> = server
        .requests()
        .iter()
        .map(|r| r.body["model"].to_string())
        .collect();
    asked.sort();
    assert_eq!(
        asked,
        [r#""bad""#; 3]
            .into_iter()
            .chain([r#""good""#; 3])
            .collect::<Vec<_>>()
    );
}
