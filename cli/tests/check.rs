//! `logicmd check` as users run it: several paths, rustc-style `file:line:col` for every finding,
//! one JSON object per file, the errors of a document that does not validate, bounded reading.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Runs `logicmd` in the workspace root (so relative paths print as given), with `stdin`.
fn logicmd(args: &[&str], stdin: &str) -> Output {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_logicmd"))
        .args(args)
        .current_dir(workspace())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the logicmd binary runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("logicmd-check-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    fn write(&self, name: &str, contents: &str) -> String {
        let path = self.0.join(name);
        fs::write(&path, contents).unwrap();
        path.display().to_string()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

const SPEC: &str = "tests/drtl/spec-verified-pattern.drtl.yaml";
const UNVERIFIED: &str = "tests/drtl/unverified-publish.drtl.yaml";

#[test]
fn every_finding_is_printed_at_its_file_line_and_column() {
    let out = logicmd(&["check", SPEC, UNVERIFIED], "");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stdout(&out),
        "info[human-override]: `publish` is reachable through a human override: review `escalation` can choose `override` for the output of `generate_summary` (generate_summary -> extract_claims -> verify_claims -> safety_gate -> escalation -> publish)
  --> tests/drtl/spec-verified-pattern.drtl.yaml:49:17
   |
49 |           next: publish
   |                 ^^^^^^^
   = at `/nodes/4/actions/1/override/next`

ok    tests/drtl/spec-verified-pattern.drtl.yaml
error[unverified-output]: the output of `draft` can reach `publish` unchecked: no blocking verify, no gate that checks it and refuses on failure, no review on the way: draft -> facts -> gate -> publish
  --> tests/drtl/unverified-publish.drtl.yaml:19:14
   |
19 |     on_pass: publish
   |              ^^^^^^^
   = at `/nodes/2/on_pass`
   = help: before this end, verify it with a `block` rule, gate on it with the fail branch to `terminate` or a review, or send it to a review (DRTL §9.3)

FAIL  tests/drtl/unverified-publish.drtl.yaml (1 error)

2 files checked: 1 passed, 1 failed
"
    );
    let spec_alone = logicmd(&["check", SPEC], "");
    assert_eq!(spec_alone.status.code(), Some(0), "an info is not an error");
}

#[test]
fn json_has_one_object_per_file_like_the_other_commands() {
    let out = logicmd(&["check", "--format", "json", SPEC, UNVERIFIED], "");
    assert_eq!(out.status.code(), Some(1));
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        json,
        json!([
            {
                "file": SPEC,
                "valid": true,
                "passed": true,
                "diagnostics": [{
                    "severity": "info",
                    "code": "human-override",
                    "message": "`publish` is reachable through a human override: review `escalation` can choose `override` for the output of `generate_summary` (generate_summary -> extract_claims -> verify_claims -> safety_gate -> escalation -> publish)",
                    "path": "/nodes/4/actions/1/override/next",
                    "keyword": null,
                    "line": 49,
                    "column": 17
                }]
            },
            {
                "file": UNVERIFIED,
                "valid": true,
                "passed": false,
                "diagnostics": [{
                    "severity": "error",
                    "code": "unverified-output",
                    "message": "the output of `draft` can reach `publish` unchecked: no blocking verify, no gate that checks it and refuses on failure, no review on the way: draft -> facts -> gate -> publish",
                    "path": "/nodes/2/on_pass",
                    "keyword": null,
                    "line": 19,
                    "column": 14,
                    "help": "before this end, verify it with a `block` rule, gate on it with the fail branch to `terminate` or a review, or send it to a review (DRTL §9.3)"
                }]
            }
        ])
    );
}

#[test]
fn directories_and_globs_are_searched_like_lint() {
    // `valid` is the schema's verdict (all these are valid); passing means no error finding.
    let validity = |args: &[&str]| -> Value {
        let out = logicmd(args, "");
        let json: Value = serde_json::from_slice(&out.stdout).unwrap();
        json.as_array()
            .unwrap()
            .iter()
            .map(|f| {
                assert_eq!(f["valid"], true, "{f}");
                let errors = f["diagnostics"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|d| d["severity"] == "error");
                (f["file"].as_str().unwrap().to_owned(), Value::Bool(!errors))
            })
            .collect::<serde_json::Map<String, Value>>()
            .into()
    };
    assert_eq!(
        validity(&["check", "--format", "json", "tests/drtl"]),
        json!({
            "tests/drtl/debate-protocol.drtl.yaml": false,
            "tests/drtl/fan-out-aggregate.drtl.yaml": true,
            "tests/drtl/gate-fail-terminates.drtl.yaml": true,
            "tests/drtl/gate-review.drtl.yaml": true,
            "tests/drtl/linear.drtl.yaml": false,
            "tests/drtl/loop-guard.drtl.yaml": true,
            "tests/drtl/loop-no-guard.drtl.yaml": false,
            "tests/drtl/review-new-generate-unverified.drtl.yaml": false,
            "tests/drtl/review-new-generate.drtl.yaml": true,
            "tests/drtl/review-override-loop.drtl.yaml": true,
            "tests/drtl/spec-verified-pattern.drtl.yaml": true,
            "tests/drtl/unverified-publish.drtl.yaml": false,
            "tests/drtl/verified-publish.drtl.yaml": true
        })
    );
    assert_eq!(
        validity(&["check", "--format", "json", "tests/drtl/review-*.drtl.yaml"]),
        json!({
            "tests/drtl/review-new-generate-unverified.drtl.yaml": false,
            "tests/drtl/review-new-generate.drtl.yaml": true,
            "tests/drtl/review-override-loop.drtl.yaml": true
        })
    );
    let missing = logicmd(&["check", "tests/drtl/nothing-here.drtl.yaml"], "");
    assert_eq!(missing.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&missing.stderr),
        "error: tests/drtl/nothing-here.drtl.yaml: no such file or directory\n"
    );
}

#[test]
fn a_document_that_does_not_validate_is_reported_with_its_errors() {
    let dir = Scratch::new("invalid");
    let file = dir.write(
        "bad.drtl.yaml",
        "name: bad\nnodes:\n  - {id: draft, type: generate, prompt: Write., output_key: text}\n  - id: gate\n    type: gate\n    input: draft.text\n    condition: \"input.x == = 0\"\n    on_pass: publsh\n    on_fail: terminate\n  - {id: publish, type: transform, operations: [{set: state.variables.x, value: true}]}\nedges:\n  - {from: draft, to: gate}\n",
    );
    let out = logicmd(&["check", &file], "");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stdout(&out),
        format!(
            "error[expression-syntax]: invalid expression: unexpected character `=` (assignment is not allowed; compare with `==` or `===`)
 --> {file}:7:28
  |
7 |     condition: \"input.x == = 0\"
  |                            ^
  = at `/nodes/1/condition`

error[drtl-unknown-route]: `gate` routes to `publsh`, which is not a node
 --> {file}:8:14
  |
8 |     on_pass: publsh
  |              ^^^^^^
  = at `/nodes/1/on_pass`
  = help: did you mean `publish`?

FAIL  {file} (2 errors)

1 file checked: 0 passed, 1 failed
"
        )
    );
}

#[test]
fn logic_md_from_standard_input() {
    let text = "---\nspec_version: \"1.0\"\nname: s\nsteps:\n  a:\n    description: a\n    output_schema: {type: object}\nfallback:\n  escalation:\n    - {level: 1, trigger: \"{{ confidence > 1.5 }}\", action: ask}\n---\n";
    let out = logicmd(&["check", "-"], text);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stdout(&out),
        "warning[unverified-contract]: step `a` promises structured output but nothing checks it: add a `verification` or a `quality_gates.pre_output`/`post_output` gate
 --> <stdin>:5:3
  |
5 |   a:
  |   ^
  = at `/steps/a`

error[escalation-never-fires]: escalation level 1 can never fire: `{{ confidence > 1.5 }}` is false for every confidence in [0, 1]
  --> <stdin>:10:27
   |
10 |     - {level: 1, trigger: \"{{ confidence > 1.5 }}\", action: ask}
   |                           ^^^^^^^^^^^^^^^^^^^^^^^^
   = at `/fallback/escalation/0/trigger`

FAIL  <stdin> (1 error, 1 warning)

1 file checked: 0 passed, 1 failed
"
    );
}

/// A topology that never ends (a link to `/dev/zero`) is refused after the size limit, not
/// read until memory runs out.
#[cfg(unix)]
#[test]
fn graph_and_check_read_at_most_the_size_limit() {
    let dir = Scratch::new("endless");
    let endless = dir.0.join("endless.drtl.yaml");
    std::os::unix::fs::symlink("/dev/zero", &endless).unwrap();
    let endless = endless.display().to_string();
    for command in ["graph", "check"] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_logicmd"))
            .args([command, endless.as_str()])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Drain the pipes while waiting, so a large report cannot block the child.
        let drain = |mut pipe: Box<dyn std::io::Read + Send>| {
            std::thread::spawn(move || {
                let mut bytes = Vec::new();
                let _ = pipe.read_to_end(&mut bytes);
                bytes
            })
        };
        let stdout = drain(Box::new(child.stdout.take().unwrap()));
        let stderr = drain(Box::new(child.stderr.take().unwrap()));
        let started = Instant::now();
        let status = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break status;
            }
            if started.elapsed() > Duration::from_secs(60) {
                let _ = child.kill();
                panic!("`logicmd {command}` kept reading an endless file");
            }
            std::thread::sleep(Duration::from_millis(50));
        };
        let out = Output {
            status,
            stdout: stdout.join().unwrap(),
            stderr: stderr.join().unwrap(),
        };
        assert_eq!(out.status.code(), Some(1), "{command}");
        let printed = String::from_utf8_lossy(if command == "graph" {
            &out.stderr
        } else {
            &out.stdout
        })
        .into_owned();
        assert!(
            printed.starts_with("error[input-too-large]: the file is over the 8 MiB limit"),
            "{command}: {printed}"
        );
    }
}
