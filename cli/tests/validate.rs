//! `logicmd validate` as users run it: exit statuses, output formats, discovery, bad input.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

const VALID: &str =
    "---\nspec_version: \"1.0\"\nname: demo\nsteps:\n  a:\n    description: first\n---\n# Demo\n";
const INVALID: &str = "---\nspec_version: \"1.0\"\nname: demo\nsteps:\n  a:\n    neds: []\n---\n";

struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("logicmd-cli-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    fn write(&self, name: &str, contents: impl AsRef<[u8]>) -> PathBuf {
        let path = self.0.join(name);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(&path, contents).unwrap();
        path
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

fn logicmd(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_logicmd"))
        .args(args)
        .output()
        .expect("the logicmd binary runs")
}

fn validate_json(paths: &[&Path]) -> (i32, Value) {
    let mut args = vec!["validate", "--format", "json"];
    let owned: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
    args.extend(owned.iter().map(String::as_str));
    let out = logicmd(&args);
    let json = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    (out.status.code().unwrap_or(-1), json)
}

#[test]
fn valid_file_exits_zero() {
    let dir = Scratch::new("valid");
    let file = dir.write("a.logic.md", VALID);
    let (code, json) = validate_json(&[&file]);
    assert_eq!(code, 0);
    assert_eq!(json[0]["valid"], true);
    assert_eq!(json[0]["diagnostics"], Value::Array(vec![]));
}

#[test]
fn invalid_file_exits_one_with_placed_diagnostics() {
    let dir = Scratch::new("invalid");
    let file = dir.write("a.logic.md", INVALID);
    let (code, json) = validate_json(&[&file]);
    assert_eq!(code, 1);
    let d = &json[0]["diagnostics"][0];
    assert_eq!(d["severity"], "error");
    assert_eq!(d["path"], "/steps/a");
    assert_eq!(d["keyword"], "additionalProperties");
    assert_eq!(
        (d["line"].as_u64(), d["column"].as_u64()),
        (Some(6), Some(5))
    );
    let keys: Vec<&str> = d.as_object().unwrap().keys().map(String::as_str).collect();
    for key in [
        "severity", "code", "message", "path", "keyword", "line", "column",
    ] {
        assert!(keys.contains(&key), "{key} missing from {keys:?}");
    }
}

#[test]
fn human_output_has_snippet_caret_and_suggestion() {
    let dir = Scratch::new("human");
    let file = dir.write("a.logic.md", INVALID);
    let out = logicmd(&["validate", &file.display().to_string()]);
    let text = String::from_utf8_lossy(&out.stdout).replace(&dir.0.display().to_string(), "[DIR]");
    insta::assert_snapshot!("human_output", text);
}

#[test]
fn directories_are_searched_and_globs_expanded() {
    let dir = Scratch::new("discover");
    dir.write("LOGIC.md", VALID);
    dir.write("agents/researcher.logic.md", VALID);
    dir.write("agents/broken.logic.md", INVALID);
    dir.write("README.md", "not a spec");
    let (code, json) = validate_json(&[&dir.0]);
    assert_eq!(code, 1);
    let files: Vec<&str> = json
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["file"].as_str().unwrap())
        .collect();
    assert_eq!(files.len(), 3, "{files:?}");
    assert!(files[0].ends_with("LOGIC.md"));

    let pattern = format!("{}/agents/r*.logic.md", dir.0.display());
    let out = logicmd(&["validate", "--format", "json", &pattern]);
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn usage_and_io_errors_exit_two() {
    // Without a path the working directory is read (as ruff does); an empty one has no file.
    let empty = Scratch::new("no-path");
    let out = Command::new(env!("CARGO_BIN_EXE_logicmd"))
        .arg("validate")
        .current_dir(&empty.0)
        .output()
        .expect("the logicmd binary runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no LOGIC.md or DRTL files found"));
    assert_eq!(
        logicmd(&["validate", "--format", "xml", "x"]).status.code(),
        Some(2)
    );
    let missing = logicmd(&["validate", "/definitely/not/here.logic.md"]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("no such file"));
    let dir = Scratch::new("empty");
    assert_eq!(
        logicmd(&["validate", &dir.0.display().to_string()])
            .status
            .code(),
        Some(2)
    );
}

#[test]
fn bad_input_exits_one_with_a_clear_message() {
    let dir = Scratch::new("bad");
    let mut bomb = String::from("---\na0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
    for i in 1..12 {
        let p = i - 1;
        bomb.push_str(&format!(
            "a{i}: &a{i} [{}]\n",
            vec![format!("*a{p}"); 10].join(", ")
        ));
    }
    bomb.push_str("---\n");
    let deep = format!(
        "---\na: {}{}\n---\n",
        "[".repeat(10_000),
        "]".repeat(10_000)
    );
    // The bound is the frontmatter's (a long body is not bounded): padding inside it.
    let mut huge = String::from("---\nname: x\n");
    huge.push_str(&"# padding line\n".repeat(20 * 1024 * 1024 / 15 + 1));
    huge.push_str("---\n");
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        ("lone.logic.md", b"---".to_vec(), "never closed"),
        (
            "garbage.logic.md",
            (0..=255u8).cycle().take(4096).collect(),
            "UTF-8",
        ),
        (
            "no-open.logic.md",
            b"name: x\n".to_vec(),
            "does not start with a `---` line",
        ),
        (
            "empty-fm.logic.md",
            b"---\n---\n".to_vec(),
            "frontmatter is empty",
        ),
        (
            "list.logic.md",
            b"---\n- a\n---\n".to_vec(),
            "must be a mapping",
        ),
        (
            "dup.logic.md",
            b"---\nname: a\nname: b\n---\n".to_vec(),
            "duplicate key `name`",
        ),
        ("bomb.logic.md", bomb.into_bytes(), "more than"),
        ("deep.logic.md", deep.into_bytes(), "nests deeper than"),
        ("huge.logic.md", huge.into_bytes(), "over the 8 MiB limit"),
    ];
    for (name, contents, message) in cases {
        let file = dir.write(name, contents);
        let out = logicmd(&["validate", &file.display().to_string()]);
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "{name}: {text}");
        assert!(
            text.contains(message),
            "{name}: expected `{message}` in\n{text}"
        );
        assert!(
            !String::from_utf8_lossy(&out.stderr).contains("panicked"),
            "{name}"
        );
    }
}

#[test]
fn lint_reports_semantic_problems_and_exits_one_only_on_errors() {
    let dir = Scratch::new("lint");
    let warn_only = dir.write(
        "warn.logic.md",
        "---\nspec_version: \"1.0\"\nname: w\nsteps:\n  a:\n    description: a\n    execution: parallel\n    parallel_steps: [ghost]\n---\n",
    );
    let out = logicmd(&["lint", "--format", "json", &warn_only.display().to_string()]);
    assert_eq!(out.status.code(), Some(0));
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json[0]["diagnostics"][0]["code"], "unknown-parallel-step");
    assert_eq!(json[0]["diagnostics"][0]["severity"], "warning");
    let broken = dir.write(
        "cycle.logic.md",
        "---\nspec_version: \"1.0\"\nname: c\nsteps:\n  a: {description: a, needs: [b]}\n  b: {description: b, needs: [a]}\n---\n",
    );
    let out = logicmd(&["lint", &broken.display().to_string()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("a -> b -> a"));
    let rules = logicmd(&["lint", "--rules"]);
    let listed = String::from_utf8_lossy(&rules.stdout);
    assert!(listed.lines().count() >= 30);
    let code = listed
        .lines()
        .position(|line| line.starts_with("max-iterations-zero "))
        .expect("max-iterations-zero is listed");
    let lines: Vec<&str> = listed.lines().collect();
    assert!(lines[code].contains(" error "), "{}", lines[code]);
    assert!(
        lines[code + 1]
            .trim_start()
            .starts_with("why: Output is forced after"),
        "{}",
        lines[code + 1]
    );
}

#[test]
fn compile_prints_levels_order_and_scaffolds() {
    let dir = Scratch::new("compile");
    let file = dir.write(
        "c.logic.md",
        "---\nspec_version: \"1.0\"\nname: c\nreasoning: {strategy: cot}\nsteps:\n  a: {description: first}\n  b: {description: second}\n  c: {description: third, needs: [a, b], output_schema: {type: object}}\n---\n",
    );
    let path = file.display().to_string();
    let out = logicmd(&["compile", &path, "--format", "json"]);
    assert_eq!(out.status.code(), Some(0));
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["levels"], serde_json::json!([["a", "b"], ["c"]]));
    assert_eq!(json["order"], serde_json::json!(["a", "b", "c"]));
    let step = logicmd(&["compile", &path, "--step", "c"]);
    insta::assert_snapshot!("compile_one_step", String::from_utf8_lossy(&step.stdout));
    let missing = logicmd(&["compile", &path, "--step", "zzz"]);
    assert_eq!(missing.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&missing.stderr).replace(&dir.0.display().to_string(), "[DIR]"),
        "error: [DIR]/c.logic.md: there is no step `zzz` (steps: a, b, c)\n"
    );
    let cyclic = dir.write(
        "cy.logic.md",
        "---\nspec_version: \"1.0\"\nname: cy\nsteps:\n  a: {needs: [a]}\n---\n",
    );
    let out = logicmd(&["compile", &cyclic.display().to_string()]);
    assert_eq!(out.status.code(), Some(1));
    insta::assert_snapshot!(
        "compile_cycle",
        String::from_utf8_lossy(&out.stderr).replace(&dir.0.display().to_string(), "[DIR]")
    );
}

#[test]
fn eval_and_eval_tree() {
    let dir = Scratch::new("eval");
    let context = dir.write(
        "ctx.json",
        r#"{"output": {"confidence": 0.9, "items": [1, 2]}}"#,
    );
    let out = logicmd(&[
        "eval",
        "output.confidence > 0.8 ? 'high' : 'low'",
        "--context",
        &context.display().to_string(),
    ]);
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "\"high\"");
    let out = logicmd(&[
        "eval",
        "{{ output.items.length * 2 }}",
        "--context",
        &context.display().to_string(),
    ]);
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "4");
    let bad = logicmd(&["eval", "1 +"]);
    assert_eq!(bad.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&bad.stderr),
        "error[expression-syntax]: expected a value, found the end of the expression\n  | 1 +\n  |    ^\n"
    );
    let spec = dir.write(
        "tree.logic.md",
        "---\nspec_version: \"1.0\"\nname: t\nsteps:\n  research: {description: r}\ndecision_trees:\n  route:\n    root: kind\n    nodes:\n      kind:\n        condition: \"{{ input.type }}\"\n        branches:\n          - {value: question, next: research}\n          - {default: true, next: clarify}\n    terminals:\n      clarify: {action: request_clarification}\n---\n",
    );
    let input = dir.write("in.json", r#"{"type": "question"}"#);
    let out = logicmd(&[
        "eval-tree",
        &spec.display().to_string(),
        "route",
        "--input",
        &input.display().to_string(),
    ]);
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        json,
        serde_json::json!({"path": ["kind"], "reached": "research", "kind": "step"})
    );
}

#[test]
fn edit_prints_or_writes_in_place_keeping_comments() {
    let dir = Scratch::new("edit");
    let text = "---\n# agent\nspec_version: \"1.0\"\nname: e\nsteps:\n  a:\n    description: first   # keep me\n  b:\n    description: second\n---\nBody\n";
    let file = dir.write("e.logic.md", text);
    let path = file.display().to_string();
    let out = logicmd(&[
        "edit",
        &path,
        "--set",
        "steps.a.confidence.minimum=0.7",
        "--connect",
        "a",
        "b",
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    insta::assert_snapshot!("edit_printed", String::from_utf8_lossy(&out.stdout));
    assert_eq!(
        fs::read_to_string(&file).unwrap(),
        text,
        "not written without --in-place"
    );
    let out = logicmd(&["edit", &path, "--rename-step", "a", "start", "--in-place"]);
    assert_eq!(out.status.code(), Some(0));
    insta::assert_snapshot!("edit_renamed", fs::read_to_string(&file).unwrap());
    let refused = logicmd(&["edit", &path, "--set", "spec_version=2.0"]);
    assert_eq!(refused.status.code(), Some(1));
    insta::assert_snapshot!("edit_refused", String::from_utf8_lossy(&refused.stderr));
}

#[test]
fn fmt_check_and_rewrite() {
    let dir = Scratch::new("fmt");
    let file = dir.write(
        "f.logic.md",
        "---\nname: f   # the name\nspec_version: \"1.0\"\n---\n",
    );
    let path = file.display().to_string();
    assert_eq!(logicmd(&["fmt", "--check", &path]).status.code(), Some(1));
    assert_eq!(logicmd(&["fmt", &path]).status.code(), Some(0));
    assert_eq!(
        fs::read_to_string(&file).unwrap(),
        "---\nspec_version: \"1.0\"\nname: f # the name\n---\n"
    );
    assert_eq!(logicmd(&["fmt", "--check", &path]).status.code(), Some(0));
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples");
    assert_eq!(
        logicmd(&["fmt", "--check", &examples.display().to_string()])
            .status
            .code(),
        Some(0),
        "examples are formatted"
    );
}

#[test]
fn graph_and_check_on_logic_and_drtl() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let drtl = root
        .join("tests/drtl/unverified-publish.drtl.yaml")
        .display()
        .to_string();
    let out = logicmd(&["check", &drtl, "--format", "json"]);
    assert_eq!(out.status.code(), Some(1));
    let reports: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(reports[0]["diagnostics"][0]["code"], "unverified-output");
    assert_eq!(reports[0]["diagnostics"][0]["path"], "/nodes/2/on_pass");
    let verified = root
        .join("tests/drtl/verified-publish.drtl.yaml")
        .display()
        .to_string();
    assert_eq!(logicmd(&["check", &verified]).status.code(), Some(0));
    let example = root
        .join("examples/competitive-analyst.logic.md")
        .display()
        .to_string();
    let graph: Value = serde_json::from_slice(&logicmd(&["graph", &example]).stdout).unwrap();
    assert_eq!(graph["nodes"].as_array().unwrap().len(), 4);
    assert!(graph["nodes"][0]["inspector"].as_array().unwrap().len() >= 3);
    for format in ["dot", "mermaid", "svg"] {
        let out = logicmd(&["graph", &drtl, "--format", format]);
        assert_eq!(out.status.code(), Some(0), "{format}");
        assert!(!out.stdout.is_empty());
    }
    let lint = logicmd(&["lint", &root.join("tests/drtl").display().to_string()]);
    assert_eq!(
        lint.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&lint.stdout)
    );
}
