//! `logicmd evals run | compare`: whole outputs (summary, rows, report) of an eval with a
//! scripted provider and two variants, resuming an interrupted eval, the answer cache, the same
//! rows on one thread and on many, bad datasets, and compare.

mod harness;

use std::fs;
use std::path::Path;
use std::process::Output;

use harness::{run_in, stderr, stdout, Scratch};
use serde_json::Value;

fn scratch(name: &str) -> Scratch {
    let scratch = Scratch::new(&format!("evals-{name}"));
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/evals");
    for entry in fs::read_dir(fixtures).expect("the fixtures exist") {
        let path = entry.expect("a fixture").path();
        let file = path
            .file_name()
            .expect("a name")
            .to_string_lossy()
            .into_owned();
        scratch.write(&file, fs::read(&path).expect("readable"));
    }
    scratch
}

fn logicmd(scratch: &Scratch, args: &[&str]) -> Output {
    run_in(&scratch.0, args, None)
}

/// `logicmd evals run capital.logic.md --data DATA --dry-run` with `extra` flags.
fn dry_run(scratch: &Scratch, data: &str, extra: &[&str]) -> Output {
    let mut args = vec![
        "evals",
        "run",
        "capital.logic.md",
        "--data",
        data,
        "--dry-run",
    ];
    args.extend(extra);
    logicmd(scratch, &args)
}

/// Wall times are measured, so they vary: every `… ms` column and `latency_ms` is blanked.
fn untimed(text: &str) -> String {
    let latency = regex::Regex::new(r#""latency_ms":\d+"#).unwrap();
    let text = latency.replace_all(text, "\"latency_ms\":_");
    // A fingerprint is a digest of the fixtures: its shape is asserted, not its bits.
    let fingerprint = regex::Regex::new(r#""fingerprint":"[0-9a-f]{32}""#).unwrap();
    let text = fingerprint.replace_all(&text, "\"fingerprint\":\"…\"");
    let columns = regex::Regex::new(r"(?m)^(\S+\s+\d+\s+\d+\s+\S+\s+\d+)\s+\d+\s+\d+").unwrap();
    let text = columns.replace_all(&text, "$1  _  _");
    // The report's summary: not-completed, p50, p95, tokens.
    let cells =
        regex::Regex::new(r"(<td>\d+</td>)<td>\d+</td><td>\d+</td>(<td>\d+/\d+</td>)").unwrap();
    cells
        .replace_all(&text, "$1<td>_</td><td>_</td>$2")
        .into_owned()
}

fn transcript(scratch: &Scratch, output: &Output) -> String {
    let text = format!(
        "exit: {:?}\n--- stdout\n{}--- stderr\n{}",
        output.status.code(),
        stdout(output),
        stderr(output)
    );
    untimed(&scratch.redact(&text))
}

/// The rows of a results file without their traces (their size is the trace's business).
fn rows(scratch: &Scratch, file: &str) -> String {
    let text = fs::read_to_string(scratch.0.join(file)).expect("results written");
    let lines: Vec<String> = text
        .lines()
        .map(|line| {
            let mut row: Value = serde_json::from_str(line).expect("a row");
            let events = row["trace"].as_array().map_or(0, Vec::len);
            row["trace"] = Value::String(format!("({events} events)"));
            untimed(&row.to_string())
        })
        .collect();
    lines.join("\n")
}

const SCRIPTED: &[&str] = &[
    "evals",
    "run",
    "capital.logic.md",
    "--variant",
    "capital-v2.logic.md",
    "--data",
    "cases.jsonl",
    "--provider",
    "scripted:answers.yaml",
    "--scorer",
    "subset",
    "--scorer",
    "schema:city.schema.json",
    "--scorer",
    "expr:{{ output.city == expected.city }}",
    "--scorer",
    "trace:terminates",
];

#[test]
fn a_scripted_eval_of_two_variants_scores_every_case() {
    let scratch = scratch("scripted");
    let mut args = SCRIPTED.to_vec();
    args.extend(["--jobs", "3", "--out", "results.jsonl"]);
    let output = logicmd(&scratch, &args);
    insta::assert_snapshot!(transcript(&scratch, &output));
    insta::assert_snapshot!(rows(&scratch, "results.jsonl"));
    let report = fs::read_to_string(scratch.0.join("results.html")).expect("the report is written");
    insta::assert_snapshot!(untimed(&report));
}

#[test]
fn an_interrupted_eval_goes_on_where_it_stopped() {
    let scratch = scratch("resume");
    let mut args = SCRIPTED.to_vec();
    args.extend(["--out", "results.jsonl"]);
    logicmd(&scratch, &args);
    let whole = fs::read_to_string(scratch.0.join("results.jsonl")).unwrap();
    // Two rows written, the third cut short mid-line.
    let lines: Vec<&str> = whole.lines().collect();
    let cut = format!("{}\n{}\n{}", lines[0], lines[1], &lines[2][..40]);
    fs::write(scratch.0.join("results.jsonl"), cut).unwrap();
    let output = logicmd(&scratch, &args);
    insta::assert_snapshot!(stderr(&output), @r#"resuming results.jsonl: 2 rows kept, 4 to run"#);
    let again = fs::read_to_string(scratch.0.join("results.jsonl")).unwrap();
    assert_eq!(again.lines().count(), 6);
    assert_eq!(again.lines().take(2).collect::<Vec<_>>(), lines[..2]);
    assert_eq!(untimed(&again), untimed(&whole));
    // Resuming with other scorers would mix two measures in one file.
    let other = dry_run(
        &scratch,
        "cases.jsonl",
        &["--scorer", "exact", "--out", "results.jsonl"],
    );
    insta::assert_snapshot!(transcript(&scratch, &other), @r#"
    exit: Some(2)
    --- stdout
    --- stderr
    note: 1 case lists metadata.obligations, which only a trace scorer checks: add --scorer trace (every built-in rule and theirs) or --scorer trace:RULE
    error: results.jsonl holds rows scored by [subset, schema:city.schema.json, expr:{{ output.city == expected.city }}, trace:terminates], not by [exact]: give the same --scorer list to resume, or --restart
    "#);
}

#[test]
fn cached_answers_are_not_run_again() {
    let scratch = scratch("cache");
    let mut args = SCRIPTED.to_vec();
    args.extend(["--out", "results.jsonl", "--cache", "cache", "--restart"]);
    logicmd(&scratch, &args);
    let first = fs::read_to_string(scratch.0.join("results.jsonl")).unwrap();
    // Two variants; `fr` and `fr-trace` have the same input, so one answer each per variant.
    let entries: Vec<_> = fs::read_dir(scratch.0.join("cache"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(entries.len(), 4);
    // An answer changed in the cache shows in the rows: they come from it, not from new runs.
    for entry in &entries {
        let text = fs::read_to_string(entry).unwrap();
        fs::write(entry, text.replace("Paris", "Lyon")).unwrap();
    }
    logicmd(&scratch, &args);
    let second = fs::read_to_string(scratch.0.join("results.jsonl")).unwrap();
    assert!(first.contains("\"output\":{\"city\":\"Paris\"}"));
    assert!(!second.contains("\"output\":{\"city\":\"Paris\"}"));
    let cities: Vec<Value> = second
        .lines()
        .map(|line| serde_json::from_str::<Value>(line).unwrap()["output"]["city"].clone())
        .collect();
    let lyon = Value::from("Lyon");
    assert_eq!(
        cities,
        [
            &lyon,
            &Value::Null,
            &lyon,
            &Value::Null,
            &lyon,
            &Value::Null
        ]
        .map(Clone::clone)
    );
}

#[test]
fn one_thread_or_many_give_the_same_rows() {
    let scratch = scratch("jobs");
    let cases: String = (0..40)
        .map(|i| format!("{{\"id\": \"c{i}\", \"input\": {{\"country\": \"n{i}\"}}}}\n"))
        .collect();
    scratch.write("many.jsonl", cases);
    let run = |jobs: &str, out: &str| {
        dry_run(
            &scratch,
            "many.jsonl",
            &[
                "--seed",
                "7",
                "--scorer",
                "schema:city.schema.json",
                "--jobs",
                jobs,
                "--out",
                out,
            ],
        );
        untimed(&fs::read_to_string(scratch.0.join(out)).unwrap())
    };
    let one = run("1", "one.jsonl");
    assert_eq!(one.lines().count(), 40);
    assert_eq!(one, run("8", "eight.jsonl"));
}

#[test]
fn a_bad_dataset_is_refused_at_its_line_and_column() {
    let scratch = scratch("bad");
    scratch.write(
        "bad.jsonl",
        "{\"id\": \"a\", \"input\": {}}\n{\"id\": \"b\", \"input\": {,}}\n",
    );
    scratch.write("bad.csv", "id,input\na,\"{}\nb,2\n");
    let jsonl = dry_run(&scratch, "bad.jsonl", &[]);
    let csv = dry_run(&scratch, "bad.csv", &[]);
    let scorer = dry_run(&scratch, "cases.jsonl", &["--scorer", "close-enough"]);
    insta::assert_snapshot!(format!("{}{}{}", transcript(&scratch, &jsonl), transcript(&scratch, &csv), transcript(&scratch, &scorer)), @r#"
    exit: Some(2)
    --- stdout
    --- stderr
    error: bad.jsonl:2:23: invalid JSON: key must be a string
    exit: Some(2)
    --- stdout
    --- stderr
    error: bad.csv:2:3: a quoted cell is never closed: expected `"`
    exit: Some(2)
    --- stdout
    --- stderr
    error: unknown scorer `close-enough`: use exact, equal, subset, schema:FILE, expr:{{ … }}, trace, trace:RULE or judge
    "#);
}

#[test]
fn compare_says_what_regressed() {
    let scratch = scratch("compare");
    let base = [
        "--data",
        "cases.jsonl",
        "--provider",
        "scripted:answers.yaml",
        "--scorer",
        "subset",
    ];
    let mut before = vec!["evals", "run", "capital.logic.md", "--out", "before.jsonl"];
    before.extend(base);
    let mut after = vec![
        "evals",
        "run",
        "capital-v2.logic.md",
        "--out",
        "after.jsonl",
    ];
    after.extend(base);
    logicmd(&scratch, &before);
    logicmd(&scratch, &after);
    let output = logicmd(
        &scratch,
        &["evals", "compare", "before.jsonl", "after.jsonl"],
    );
    let reverse = logicmd(
        &scratch,
        &["evals", "compare", "after.jsonl", "before.jsonl"],
    );
    insta::assert_snapshot!(format!("{}{}", transcript(&scratch, &output), transcript(&scratch, &reverse)), @r#"
    exit: Some(1)
    --- stdout
    2 regressed, 0 fixed, 0 still passing, 1 still failing
      regressed: fr (completed → failed) [subset]
      regressed: fr-trace (completed → failed) [subset]
    --- stderr
    exit: Some(0)
    --- stdout
    0 regressed, 2 fixed, 0 still passing, 1 still failing
      fixed: fr (failed → completed) [subset]
      fixed: fr-trace (failed → completed) [subset]
    --- stderr
    "#);
}

#[test]
fn the_judge_is_answered_by_the_script_and_never_by_synthetic_answers() {
    let scratch = scratch("judge");
    let run = |answers: &[&str], out: &str| {
        let mut args = vec![
            "evals",
            "run",
            "capital.logic.md",
            "--data",
            "cases.jsonl",
            "--scorer",
            "judge",
            "--out",
            out,
        ];
        args.extend(answers);
        logicmd(&scratch, &args);
        let text = fs::read_to_string(scratch.0.join(out)).unwrap();
        let first: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
        format!("{} {}", first["pass"], first["scores"])
    };
    let scripted = run(&["--provider", "scripted:judged.yaml"], "scripted.jsonl");
    let synthetic = run(&["--dry-run"], "synthetic.jsonl");
    insta::assert_snapshot!(format!("{scripted}\n{synthetic}"), @r#"
    true {"judge":{"pass":true,"value":0.8,"reason":"names a capital city"}}
    false {"judge":{"pass":false,"reason":"no judge answered: a script's `node: judge` entry or a model provider judges, synthetic answers do not"}}
    "#);
}

#[test]
fn flags_of_the_other_engine_and_alike_model_variants_are_refused() {
    let scratch = scratch("engines");
    // An interpreter without the package, as Python says it.
    scratch.write(
        "python-without-ray",
        "#!/bin/sh\necho 'Traceback (most recent call last):' >&2\necho \"ModuleNotFoundError: No module named 'ray'\" >&2\nexit 1\n",
    );
    make_executable(&scratch.0.join("python-without-ray"));
    let eval = |extra: &[&str]| {
        let mut args = vec![
            "evals",
            "run",
            "capital.logic.md",
            "--data",
            "cases.jsonl",
            "--out",
            "rows.jsonl",
        ];
        args.extend(extra);
        transcript(&scratch, &logicmd(&scratch, &args))
    };
    let outputs = [
        eval(&["--dry-run", "--address", "ray://head:10001"]),
        eval(&["--provider", "openai", "--engine", "ray"]),
        eval(&["--dry-run", "--engine", "ray", "--jobs", "4"]),
        eval(&["--dry-run", "--engine", "ray", "--cache", "answers"]),
        eval(&["--dry-run", "--model", "a", "--model", "b"]),
        eval(&[
            "--provider",
            "scripted:answers.yaml",
            "--model",
            "a",
            "--model",
            "b",
        ]),
        eval(&["--provider", "openai", "--model", "a", "--model", "a"]),
        eval(&["--dry-run", "--model", "gpt-4o"]),
        eval(&["--dry-run", "--base-url", "http://127.0.0.1:9/v1"]),
        eval(&["--provider", "scripted:answers.yaml", "--no-stream"]),
        eval(&["--provider", "scripted:answers.yaml", "--seed", "3"]),
        eval(&["--dry-run", "--report", "no-such-dir/report.html"]),
        eval(&["--provider", "scripted:answers.yaml", "--model", "gpt-4o"]),
        eval(&[
            "--dry-run",
            "--engine",
            "ray",
            "--python",
            "./no-such-python",
        ]),
        eval(&[
            "--dry-run",
            "--engine",
            "ray",
            "--python",
            "./python-without-ray",
        ]),
    ];
    insta::assert_snapshot!(outputs.join(""), @r#"
    exit: Some(2)
    --- stdout
    --- stderr
    error: --address names a Ray cluster: give it with --engine ray
    exit: Some(2)
    --- stdout
    --- stderr
    error: --engine ray takes --dry-run or --provider scripted:FILE: an OpenAI-compatible provider on Ray needs one rate budget shared by every worker, which is not built yet
    exit: Some(2)
    --- stdout
    --- stderr
    error: --jobs sizes the local pool; Ray sizes its own tasks: leave it out with --engine ray
    exit: Some(2)
    --- stdout
    --- stderr
    error: --cache keeps answers on this machine, which Ray workers do not read: leave it out with --engine ray
    exit: Some(2)
    --- stdout
    --- stderr
    error: several --model variants need --provider openai: synthetic and scripted answers do not depend on the model, so every variant would answer alike
    exit: Some(2)
    --- stdout
    --- stderr
    error: several --model variants need --provider openai: synthetic and scripted answers do not depend on the model, so every variant would answer alike
    exit: Some(2)
    --- stdout
    --- stderr
    error: a --model is given twice: give each model once
    exit: Some(2)
    --- stdout
    --- stderr
    error: --model names the model --provider openai asks: synthetic and scripted answers do not depend on it, so it would change nothing here
    exit: Some(2)
    --- stdout
    --- stderr
    error: --base-url is for the server --provider openai asks: synthetic and scripted answers ask none, so it would change nothing here
    exit: Some(2)
    --- stdout
    --- stderr
    error: --no-stream is for the server --provider openai asks: synthetic and scripted answers ask none, so it would change nothing here
    exit: Some(2)
    --- stdout
    --- stderr
    error: --seed seeds the synthetic answers of --dry-run: other answers do not depend on it, so it would change nothing here
    exit: Some(2)
    --- stdout
    --- stderr
    error: --report no-such-dir/report.html: the directory no-such-dir does not exist
    exit: Some(2)
    --- stdout
    --- stderr
    error: --model names the model --provider openai asks: synthetic and scripted answers do not depend on it, so it would change nothing here
    exit: Some(2)
    --- stdout
    --- stderr
    error: --engine ray runs the cases through Python: cannot start `./no-such-python` (No such file or directory (os error 2)); name the interpreter with --python or LOGICMD_PYTHON
    exit: Some(2)
    --- stdout
    --- stderr
    error: --engine ray runs the cases through the Python package: `./python-without-ray` cannot import it (ModuleNotFoundError: No module named 'ray'); install it with `pip install 'logicmd[ray]'`, or name another interpreter with --python or LOGICMD_PYTHON
    "#);
    assert!(!scratch.0.join("rows.jsonl").exists(), "nothing ran");
}

#[cfg(unix)]
fn make_executable(path: &Path) {
    use std::os::unix::fs::PermissionsExt;
    fs::set_permissions(path, fs::Permissions::from_mode(0o755)).expect("chmod");
}

/// What an eval writes never replaces what it reads, resumed rows must be this eval's, and
/// rows from Ray are exactly the rows asked for: nothing missing, nothing twice.
#[test]
fn outputs_inputs_foreign_rows_and_rays_rows_are_held_to_the_eval() {
    let scratch = scratch("held");
    let base = [
        "evals",
        "run",
        "capital.logic.md",
        "--data",
        "cases.jsonl",
        "--dry-run",
    ];
    let eval = |extra: &[&str]| {
        let args: Vec<&str> = base.iter().chain(extra).copied().collect();
        transcript(&scratch, &logicmd(&scratch, &args))
    };
    let local = eval(&["--out", "local.jsonl"]);
    assert!(local.starts_with("exit: Some(0)"), "{local}");
    let row = fs::read_to_string(scratch.0.join("local.jsonl")).expect("rows");
    let first = row.lines().next().expect("a row");
    // Interpreters that pass the import check, then give no row, or one row twice.
    scratch.write("row.jsonl", format!("{first}\n"));
    for (name, rows) in [
        ("python-silent", ""),
        ("python-twice", "cat row.jsonl row.jsonl\n"),
    ] {
        scratch.write(
            name,
            format!("#!/bin/sh\n[ \"$1\" = \"-c\" ] && exit 0\n{rows}"),
        );
        make_executable(&scratch.0.join(name));
    }
    scratch.write(
        "other.jsonl",
        "{\"id\": \"elsewhere\", \"input\": {\"country\": \"Peru\"}}\n",
    );
    scratch.write("none.jsonl", "\n\n");
    let nothing = [
        "evals",
        "run",
        "capital.logic.md",
        "--data",
        "none.jsonl",
        "--dry-run",
        "--out",
        "none-rows.jsonl",
    ];
    let outputs = [
        eval(&["--out", "-"]),
        transcript(&scratch, &logicmd(&scratch, &nothing)),
        eval(&["--out", "rows.html"]),
        eval(&["--out", "cases.jsonl", "--restart"]),
        eval(&["--out", "rows.jsonl", "--report", "capital.logic.md"]),
        transcript(
            &scratch,
            &dry_run(&scratch, "other.jsonl", &["--out", "local.jsonl"]),
        ),
        eval(&[
            "--engine",
            "ray",
            "--python",
            "./python-silent",
            "--out",
            "silent.jsonl",
        ]),
        eval(&[
            "--engine",
            "ray",
            "--python",
            "./python-twice",
            "--out",
            "twice.jsonl",
        ]),
    ];
    insta::assert_snapshot!(outputs.join(""), @r#"
    exit: Some(2)
    --- stdout
    --- stderr
    error: --out names the results file (it is what an interrupted eval resumes from): `-` is not one
    exit: Some(2)
    --- stdout
    --- stderr
    error: none.jsonl holds no cases: an eval of nothing would pass
    exit: Some(2)
    --- stdout
    --- stderr
    error: --out and the report are the same file (rows.html): give --report another name
    exit: Some(2)
    --- stdout
    --- stderr
    error: --out would overwrite the dataset (cases.jsonl): name another file
    exit: Some(2)
    --- stdout
    --- stderr
    error: the report would overwrite the document (capital.logic.md): name another file
    exit: Some(2)
    --- stdout
    --- stderr
    error: local.jsonl holds rows of another eval (case `fr`, variant `capital.logic.md` is not in this one): resume with the same --data and documents, or --restart
    exit: Some(2)
    --- stdout
    --- stderr
    note: 1 case lists metadata.obligations, which only a trace scorer checks: add --scorer trace (every built-in rule and theirs) or --scorer trace:RULE
    error: Ray gave 0 of the 3 rows asked for (case `de`, variant `capital.logic.md` is missing): the rows it gave are kept in silent.jsonl; run again to resume
    exit: Some(2)
    --- stdout
    --- stderr
    note: 1 case lists metadata.obligations, which only a trace scorer checks: add --scorer trace (every built-in rule and theirs) or --scorer trace:RULE
    error: Ray gave a row that was not asked for, or twice: case `fr`, variant `capital.logic.md`
    "#);
    assert_eq!(
        fs::read_to_string(scratch.0.join("cases.jsonl")).expect("the dataset"),
        fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/evals/cases.jsonl"))
            .expect("the fixture"),
        "the dataset is untouched"
    );
}

/// `compare` fails (1) when a case of BEFORE is missing from AFTER, and refuses (2) results
/// scored by other scorers or holding a case twice.
#[test]
fn compare_counts_missing_cases_and_refuses_what_does_not_compare() {
    let scratch = scratch("compare-held");
    let run = |out: &str, scorer: &str| {
        let args = [
            "evals",
            "run",
            "capital.logic.md",
            "--data",
            "cases.jsonl",
            "--dry-run",
        ];
        let mut args = args.to_vec();
        args.extend(["--scorer", scorer, "--out", out]);
        logicmd(&scratch, &args)
    };
    run("before.jsonl", "subset");
    run("other.jsonl", "exact");
    scratch.write("empty.jsonl", "");
    let before = fs::read_to_string(scratch.0.join("before.jsonl")).expect("rows");
    let first = before.lines().next().expect("a row");
    scratch.write("twice.jsonl", format!("{before}{first}\n"));
    let compare = |after: &str| {
        transcript(
            &scratch,
            &logicmd(&scratch, &["evals", "compare", "before.jsonl", after]),
        )
    };
    let outputs = [
        compare("empty.jsonl"),
        compare("other.jsonl"),
        compare("twice.jsonl"),
    ];
    insta::assert_snapshot!(outputs.join(""), @r#"
    exit: Some(1)
    --- stdout
    0 regressed, 0 fixed, 0 still passing, 0 still failing
      only in before.jsonl: fr
      only in before.jsonl: de
      only in before.jsonl: fr-trace
    --- stderr
    exit: Some(2)
    --- stdout
    --- stderr
    error: before.jsonl was scored by [subset] and other.jsonl by [exact]: compare results scored alike
    exit: Some(2)
    --- stdout
    --- stderr
    error: twice.jsonl holds case `fr` of variant `capital.logic.md` twice
    "#);
}

/// `trace:RULE` names a built-in or is NAME=FORMULA: a mistyped built-in is a usage error with
/// its closest name, not a formula every case fails.
#[test]
fn a_mistyped_built_in_trace_rule_is_a_usage_error() {
    let scratch = scratch("trace-typo");
    let args = [
        "evals",
        "run",
        "capital.logic.md",
        "--data",
        "cases.jsonl",
        "--dry-run",
        "--scorer",
        "trace:terminats",
        "--out",
        "rows.jsonl",
    ];
    insta::assert_snapshot!(transcript(&scratch, &logicmd(&scratch, &args)), @r"
    exit: Some(2)
    --- stdout
    --- stderr
    error: `trace:terminats` names no built-in rule (did you mean `terminates`?): use one of needs-before-start, verified-output, reviews-answered, terminates, retries-bounded, or NAME=FORMULA
    ");
}

/// A kept row is made from its case, the document, the script and the scorers: when any of
/// them changed since, resuming runs that case again instead of keeping a stale answer.
#[test]
fn a_resumed_eval_runs_again_what_changed_since() {
    let scratch = scratch("changed");
    let mut args = SCRIPTED.to_vec();
    args.extend(["--out", "results.jsonl"]);
    logicmd(&scratch, &args);
    let unchanged = logicmd(&scratch, &args);
    // Edits: one case's expected value, the second document.
    let cases = fs::read_to_string(scratch.0.join("cases.jsonl")).unwrap();
    scratch.write("cases.jsonl", cases.replace("\"Berlin\"", "\"Bonn\""));
    let v2 = fs::read_to_string(scratch.0.join("capital-v2.logic.md")).unwrap();
    scratch.write(
        "capital-v2.logic.md",
        v2.replace("description:", "description: Now"),
    );
    let edited = logicmd(&scratch, &args);
    let rows: Vec<Value> = fs::read_to_string(scratch.0.join("results.jsonl"))
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let de = rows
        .iter()
        .find(|r| r["id"] == "de" && r["variant"] == "capital.logic.md")
        .expect("the edited case's row");
    // A scripted answer's latency is the script's (200 ms), not the wall time.
    let facts = rows
        .iter()
        .map(|r| format!("{} {} {}", r["id"], r["variant"], r["latency_ms"]))
        .collect::<Vec<_>>()
        .join("\n");
    // A schema edited in place changes every row.
    scratch.write(
        "city.schema.json",
        "{\"type\": \"object\", \"required\": [\"city\", \"country\"]}",
    );
    let schema = logicmd(&scratch, &args);
    insta::assert_snapshot!(
        format!(
            "{}{}{}\n{}\n{facts}",
            stderr(&unchanged),
            stderr(&edited),
            stderr(&schema),
            de["scores"]["subset"]
        ),
        @r#"
    resuming results.jsonl: 6 rows kept, 0 to run
    4 rows of results.jsonl were made from a case, document, import, script, schema or server that has changed since: they run again
    resuming results.jsonl: 2 rows kept, 4 to run
    6 rows of results.jsonl were made from a case, document, import, script, schema or server that has changed since: they run again

    {"pass":false,"reason":"/city: expected \"Bonn\", got \"Paris\""}
    "fr" "capital.logic.md" 200
    "fr-trace" "capital.logic.md" 200
    "fr" "capital-v2.logic.md" 0
    "de" "capital.logic.md" 200
    "de" "capital-v2.logic.md" 0
    "fr-trace" "capital-v2.logic.md" 0
    "#
    );
}

/// The summary says which runs went on past a contract that only warns, and a long list of
/// case ids is cut to the first ten (the report and `evals compare` list them all).
#[test]
fn the_summary_names_warned_runs_and_keeps_long_lists_short() {
    let scratch = Scratch::new("evals-warned");
    let contracts = "contracts:\n  inputs:\n    - {name: q, type: string, required: true}\n  outputs:\n    - {name: answer, type: string, required: true}\n  validation:\n    mode: warn\n";
    scratch.write(
        "warned.logic.md",
        format!("---\nspec_version: \"1.0\"\nname: warned\n{contracts}steps:\n  ask:\n    description: Ask\n---\n"),
    );
    scratch.write(
        "other.logic.md",
        format!("---\nspec_version: \"1.0\"\nname: other\n{contracts}steps:\n  reply:\n    description: Reply\n---\n"),
    );
    scratch.write(
        "answers.yaml",
        "- {node: ask, text: '{\"answer\": \"a\", \"extra\": 1}'}\n",
    );
    let cases: String = (0..12)
        .map(|i| format!("{{\"id\": \"c{i}\", \"input\": {{}}}}\n"))
        .collect();
    scratch.write("cases.jsonl", cases);
    let output = logicmd(
        &scratch,
        &[
            "evals",
            "run",
            "warned.logic.md",
            "--variant",
            "other.logic.md",
            "--data",
            "cases.jsonl",
            "--provider",
            "scripted:answers.yaml",
            "--scorer",
            "expr:{{ output.answer == 'a' }}",
            "--out",
            "rows.jsonl",
        ],
    );
    insta::assert_snapshot!(transcript(&scratch, &output), @r#"
    exit: Some(1)
    --- stdout
    variant           cases  passed    rate  not completed   p50 ms   p95 ms   tokens in/out
    warned.logic.md      12      12  100.0%              0  _  _             0/0
    other.logic.md       12       0    0.0%             12  _  _             0/0
      warned.logic.md · expr:{{ output.answer == 'a' }}: 12/12 passed
      other.logic.md · expr:{{ output.answer == 'a' }}: 0/12 passed
      warned.logic.md · 12 runs went on past a broken contract (contracts.validation warns): c0, c1, c2, c3, c4, c5, c6, c7, c8, c9, and 2 more
      other.logic.md · 12 runs went on past a broken contract (contracts.validation warns): c0, c1, c2, c3, c4, c5, c6, c7, c8, c9, and 2 more
    other.logic.md against warned.logic.md: 12 regressed (c0, c1, c2, c3, c4, c5, c6, c7, c8, c9, and 2 more), 0 fixed
    results: rows.jsonl
    report: rows.html
    --- stderr
    "#);
}

/// What an imported file says is part of what a row was made from: switching the import from
/// strict to warn runs the cases again (the kept rows would say the old contract's verdict).
#[test]
fn an_edited_import_runs_the_cases_again() {
    let scratch = Scratch::new("evals-import");
    let shared = |mode: &str| {
        format!("---\nspec_version: \"1.0\"\nname: shared\ncontracts:\n  inputs:\n    - {{name: q, type: string, required: true}}\n  validation:\n    mode: {mode}\n---\n")
    };
    scratch.write("shared.logic.md", shared("strict"));
    scratch.write(
        "agent.logic.md",
        "---\nspec_version: \"1.0\"\nname: agent\nimports:\n  - ref: ./shared.logic.md\n    as: shared\nsteps:\n  ask:\n    description: Ask\n---\n",
    );
    scratch.write("cases.jsonl", "{\"id\": \"a\", \"input\": {}}\n");
    let args = [
        "evals",
        "run",
        "agent.logic.md",
        "--data",
        "cases.jsonl",
        "--dry-run",
        "--out",
        "rows.jsonl",
    ];
    let strict = logicmd(&scratch, &args);
    scratch.write("shared.logic.md", shared("warn"));
    let warn = logicmd(&scratch, &args);
    insta::assert_snapshot!(format!("{}{}", transcript(&scratch, &strict), transcript(&scratch, &warn)), @r#"
    exit: Some(1)
    --- stdout
    variant          cases  passed    rate  not completed   p50 ms   p95 ms   tokens in/out
    agent.logic.md       1       0    0.0%              1  _  _             0/0
    results: rows.jsonl
    report: rows.html
    --- stderr
    exit: Some(0)
    --- stdout
    variant          cases  passed    rate  not completed   p50 ms   p95 ms   tokens in/out
    agent.logic.md       1       1  100.0%              0  _  _            11/6
      agent.logic.md · 1 run went on past a broken contract (contracts.validation warns): a
    results: rows.jsonl
    report: rows.html
    --- stderr
    1 row of rows.jsonl was made from a case, document, import, script, schema or server that has changed since: they run again
    "#);
}

/// A results file holding a case twice (two evals wrote it at once) is not resumed: its
/// summary would count that case twice. An `expr:` scorer reading a name it is not given
/// (`outptu`) is a usage error: it would read `undefined` and pass or fail every case.
#[test]
fn a_results_file_with_a_case_twice_and_a_misspelt_expression_are_refused() {
    let scratch = scratch("twice-resumed");
    let mut args = SCRIPTED.to_vec();
    args.extend(["--out", "results.jsonl"]);
    logicmd(&scratch, &args);
    let text = fs::read_to_string(scratch.0.join("results.jsonl")).unwrap();
    let first = text.lines().next().unwrap();
    scratch.write("results.jsonl", format!("{text}{first}\n"));
    let twice = logicmd(&scratch, &args);
    let misspelt = dry_run(
        &scratch,
        "cases.jsonl",
        &[
            "--scorer",
            "expr:{{ outptu.city != '' }}",
            "--out",
            "other.jsonl",
        ],
    );
    insta::assert_snapshot!(format!("{}{}", transcript(&scratch, &twice), transcript(&scratch, &misspelt)), @r#"
    exit: Some(2)
    --- stdout
    --- stderr
    error: results.jsonl holds case `fr` of variant `capital.logic.md` twice (two evals wrote it at once?): --restart starts it over
    exit: Some(2)
    --- stdout
    --- stderr
    error: scorer `expr:{{ outptu.city != '' }}` reads `outptu`, which it is not given (did you mean `output`?): an expression reads output, expected, input, metadata, trace
    "#);
}
