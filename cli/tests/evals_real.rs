//! `logicmd evals run --provider openai` against a real HTTP server on 127.0.0.1 (`loopback`):
//! each case's run and then its judge are real model calls, as the server counts them.

mod harness;
mod loopback;

use std::fs;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use harness::Scratch;
use loopback::{completion, error, Loopback, Recorded, Reply};
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
    eval_command(scratch, server, args)
        .output()
        .expect("logicmd runs")
        .status
        .code()
}

/// The command of [`eval`], not started.
fn eval_command(scratch: &Scratch, server: &Loopback, args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_logicmd"));
    command
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
        .stdin(Stdio::null());
    command
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
    // Each row's tokens are its run's call and its judge's call (11 in, 7 out each).
    let tokens: Vec<String> = rows.iter().map(|row| row["tokens"].to_string()).collect();
    assert_eq!(tokens, [r#"{"input":22,"output":14}"#; 3]);
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

/// A project of `n` cases asking for France's capital.
fn many_cases(name: &str, n: usize) -> Scratch {
    let scratch = project(name);
    let cases: String = (0..n)
        .map(|i| format!("{{\"id\": \"c{i}\", \"input\": {{\"country\": \"France\"}}, \"expected\": {{\"city\": \"Paris\"}}}}\n"))
        .collect();
    scratch.write("cases.jsonl", cases);
    scratch
}

const MANY: &[&str] = &[
    "--model",
    "m",
    "--jobs",
    "1",
    "--scorer",
    "subset",
    "--out",
    "rows.jsonl",
];

/// A server that refuses every call alike (a revoked key): after ten cases in a row failed
/// with the same error the eval stops instead of asking for every case, and keeps none of
/// those rows, so running it again once the key works runs them.
#[test]
fn an_eval_stops_when_every_case_fails_alike() {
    let server = Loopback::answering(|_| error(401, "invalid api key", &[]));
    let scratch = many_cases("evals-alike", 40);
    let output = eval_command(&scratch, &server, MANY)
        .output()
        .expect("logicmd runs");
    assert_eq!(output.status.code(), Some(2));
    insta::assert_snapshot!(scratch.redact(&String::from_utf8_lossy(&output.stderr)), @r#"
    error: stopped: 10 cases in a row failed alike on the server's side, and the rest would too: step `answer`: AuthenticationError: HTTP 401 Unauthorized: invalid api key
    0 rows are kept in rows.jsonl (not the failed ones): fix what the error says, then run the same command again to resume
    "#);
    assert_eq!(
        fs::read_to_string(scratch.0.join("rows.jsonl")).unwrap(),
        ""
    );
    // One thread: the tenth failure stops it before many more cases are asked.
    assert!(
        server.requests().len() <= 12,
        "{} calls",
        server.requests().len()
    );
}

fn start_slow_eval(scratch: &Scratch, server: &Loopback) -> Child {
    eval_command(scratch, server, MANY)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("logicmd starts")
}

fn rows_written(scratch: &Scratch) -> usize {
    fs::read_to_string(scratch.0.join("rows.jsonl"))
        .map(|text| text.lines().count())
        .unwrap_or(0)
}

/// Waits (bounded) until the eval has written a row.
fn until_a_row(scratch: &Scratch) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while rows_written(scratch) == 0 {
        assert!(Instant::now() < deadline, "no row was written");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn interrupt(child: &Child) {
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(status.success());
}

/// Ctrl-C: the first lets the case in flight finish and says how many rows are kept; a
/// second stops at once. Either way the eval says it resumes, and it does.
#[test]
fn ctrl_c_says_what_is_kept_and_the_eval_resumes() {
    let server = Loopback::answering(|_| {
        Reply::Slow(
            Duration::from_millis(400),
            Box::new(completion(r#"{"city": "Paris"}"#)),
        )
    });
    let scratch = many_cases("evals-ctrl-c", 8);
    let child = start_slow_eval(&scratch, &server);
    until_a_row(&scratch);
    interrupt(&child);
    let once = child.wait_with_output().expect("it ends");
    let kept = rows_written(&scratch);
    assert!((1..8).contains(&kept), "{kept} rows");
    let count = regex::Regex::new(r"\d+ rows? (is|are) kept").unwrap();
    let said = count
        .replace_all(&String::from_utf8_lossy(&once.stderr), "N rows are kept")
        .into_owned();
    assert_eq!(once.status.code(), Some(130));
    insta::assert_snapshot!(said.trim(), @r#"
    interrupted: no new case starts; finishing the cases in flight (Ctrl-C again stops at once)
    interrupted: N rows are kept in rows.jsonl; run the same command again to resume
    "#);

    // Once the server is asked, the eval is running (its Ctrl-C handler is in place).
    let asked = server.requests().len();
    let child = start_slow_eval(&scratch, &server);
    let deadline = Instant::now() + Duration::from_secs(60);
    while server.requests().len() == asked {
        assert!(Instant::now() < deadline, "the resumed eval asked nothing");
        std::thread::sleep(Duration::from_millis(10));
    }
    interrupt(&child);
    std::thread::sleep(Duration::from_millis(50));
    interrupt(&child);
    let twice = child.wait_with_output().expect("it ends");
    assert_eq!(twice.status.code(), Some(130));
    let now = rows_written(&scratch);
    let said = String::from_utf8_lossy(&twice.stderr);
    let kept = if now == 1 {
        "1 row is".to_owned()
    } else {
        format!("{now} rows are")
    };
    assert!(
        said.contains(&format!("interrupted: {kept} kept in rows.jsonl")),
        "{said}"
    );

    let status = eval_command(&scratch, &server, MANY)
        .output()
        .expect("logicmd runs");
    assert_eq!(status.status.code(), Some(0));
    assert_eq!(rows_written(&scratch), 8);
}

/// A model whose every answer breaks the document's schema is measured, not taken for a dead
/// server: the eval runs every case and keeps every row (exit 1).
#[test]
fn a_models_bad_answers_never_stop_an_eval() {
    let server = Loopback::answering(|_| completion("not json at all"));
    let scratch = many_cases("evals-bad-answers", 14);
    let output = eval_command(&scratch, &server, MANY)
        .output()
        .expect("logicmd runs");
    assert_eq!(
        output.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(rows_written(&scratch), 14);
}

/// Rows a server failed (its run's calls, or the judge's) hold no answer: the cache does not
/// keep them and a resume asks them again, once the server answers.
#[test]
fn what_the_server_failed_is_asked_again_and_never_cached() {
    let down = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    let judge_down = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    let (d, j) = (down.clone(), judge_down.clone());
    let server = Loopback::answering(move |request| {
        let judging = request.body["messages"][0]["content"]
            .as_str()
            .unwrap_or("")
            .starts_with("You are a strict evaluator");
        let ordering = std::sync::atomic::Ordering::SeqCst;
        if judging && j.load(ordering) {
            error(503, "judge overloaded", &[])
        } else if !judging && d.load(ordering) && request.body.to_string().contains("Germany") {
            error(503, "overloaded", &[])
        } else {
            answer(request)
        }
    });
    let scratch = project("evals-server-failed");
    let args = [
        "--model",
        "m",
        "--scorer",
        "subset",
        "--scorer",
        "judge",
        "--cache",
        "answers",
        "--out",
        "rows.jsonl",
    ];
    assert_eq!(eval(&scratch, &server, &args), Some(1));
    let first: Vec<String> = rows(&scratch)
        .iter()
        .map(|r| {
            format!(
                "{} {} {}",
                r["id"], r["status"], r["scores"]["judge"]["reason"]
            )
        })
        .collect();
    down.store(false, std::sync::atomic::Ordering::SeqCst);
    judge_down.store(false, std::sync::atomic::Ordering::SeqCst);
    let asked = server.requests().len();
    let output = eval_command(&scratch, &server, &args)
        .output()
        .expect("logicmd runs");
    let again: Vec<String> = rows(&scratch)
        .iter()
        .map(|r| format!("{} {} {}", r["id"], r["status"], r["pass"]))
        .collect();
    insta::assert_snapshot!(
        format!(
            "{}\n{}--- after\n{}\nasked again: {}",
            first.join("\n"),
            String::from_utf8_lossy(&output.stderr),
            again.join("\n"),
            server.requests().len() - asked
        ),
        @r#"
    "fr" "completed" "the judge's call failed: ServerError: HTTP 503 Service Unavailable: judge overloaded"
    "de" "failed" "no output to score: the run failed"
    "fr-trace" "completed" "the judge's call failed: ServerError: HTTP 503 Service Unavailable: judge overloaded"
    note: 1 case lists metadata.obligations, which only a trace scorer checks: add --scorer trace (every built-in rule and theirs) or --scorer trace:RULE
    3 rows of rows.jsonl were cut short on the server's side (no answer to keep): they run again
    --- after
    "fr" "completed" true
    "de" "completed" false
    "fr-trace" "completed" true
    asked again: 4
    "#
    );
}

/// One eval at a time writes a results file (two would interleave their rows), and rows asked
/// of another server are asked again: a local server answers any model name.
#[test]
fn one_eval_writes_a_results_file_and_another_server_is_asked_again() {
    let slow = Loopback::answering(|_| {
        Reply::Slow(
            Duration::from_millis(300),
            Box::new(completion(r#"{"city": "Paris"}"#)),
        )
    });
    let scratch = many_cases("evals-one-writer", 6);
    let first = start_slow_eval(&scratch, &slow);
    until_a_row(&scratch);
    let second = eval_command(&scratch, &slow, MANY)
        .output()
        .expect("logicmd runs");
    let refused = String::from_utf8_lossy(&second.stderr).into_owned();
    interrupt(&first);
    interrupt(&first);
    let _ = first.wait_with_output();
    let holder = regex::Regex::new(r"\(pid \d+: [^)]*\)").unwrap();
    insta::assert_snapshot!(holder.replace(&refused, "(pid N: …)"), @r#"error: the results file rows.jsonl is in use by another logicmd run (pid N: …): one run at a time may write it (wait for it to end, or stop it)"#);
    // The same command against another server: every kept row is asked again.
    let other = Loopback::answering(|_| completion(r#"{"city": "Paris"}"#));
    let output = eval_command(&scratch, &other, MANY)
        .output()
        .expect("logicmd runs");
    let said = regex::Regex::new(r"^\d+ rows? of rows.jsonl (was|were)")
        .unwrap()
        .replace(
            &String::from_utf8_lossy(&output.stderr),
            "N rows of rows.jsonl were",
        )
        .into_owned();
    insta::assert_snapshot!(said, @r#"N rows of rows.jsonl were made from a case, document, import, script, schema or server that has changed since: they run again"#);
    assert_eq!(other.requests().len(), 6);
}
