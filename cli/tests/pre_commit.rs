//! The pre-commit hooks (`.pre-commit-hooks.yaml`): each runs a `logicmd` command that exists,
//! on exactly the files discovery would find, called as pre-commit calls it (the staged file
//! names appended).

mod harness;

use harness::{project, run_in, transcript};
use serde_json::Value;

fn hooks() -> Vec<Value> {
    let text = include_str!("../../.pre-commit-hooks.yaml");
    let file = logicmd::yaml::parse_file(text, logicmd::Limits::DEFAULT);
    assert_eq!(file.diagnostics, []);
    let root = file.root.expect("a YAML document");
    match logicmd::json::to_json(&root) {
        Value::Array(hooks) => hooks,
        other => panic!("a list of hooks, not {other}"),
    }
}

#[test]
fn every_hook_runs_a_logicmd_command_on_the_documents_discovery_finds() {
    let hooks = hooks();
    let ids: Vec<&str> = hooks.iter().map(|h| h["id"].as_str().unwrap()).collect();
    assert_eq!(
        ids,
        [
            "logicmd-lint",
            "logicmd-lint-fix",
            "logicmd-fmt",
            "logicmd-check"
        ]
    );
    for hook in &hooks {
        for key in ["id", "name", "description", "entry", "language", "files"] {
            assert!(hook[key].is_string(), "{}: {key}", hook["id"]);
        }
        let files = regex::Regex::new(hook["files"].as_str().unwrap()).expect("a regex");
        let formats_only_logic = hook["id"] == "logicmd-fmt";
        for (path, matched) in [
            ("LOGIC.md", true),
            ("agents/researcher.logic.md", true),
            (".logic/index.md", true),
            ("flows/publish.drtl.yaml", !formats_only_logic),
            ("flows/publish.drtl.yml", !formats_only_logic),
            ("README.md", false),
            ("docs/LOGIC.md.bak", false),
            ("notes.md", false),
        ] {
            // pre-commit matches with `re.search`: an unanchored search.
            assert_eq!(files.is_match(path), matched, "{}: {path}", hook["id"]);
        }
    }
}

#[test]
fn the_hooks_run_as_pre_commit_calls_them() {
    let scratch = project(
        "pre-commit",
        &[
            ("a.logic.md", "---\nname: a\nspec_version: \"1.0\"\nsteps:\n  x:\n    description: X\n    needs: [y, y]\n  y:\n    description: Y\n---\n"),
            ("b.logic.md", "---\nspec_version: \"1.0\"\nname: b\n---\n"),
        ],
    );
    let mut all = String::new();
    for hook in hooks() {
        let entry = hook["entry"].as_str().unwrap();
        let mut args: Vec<&str> = entry.split_whitespace().skip(1).collect();
        args.extend(["a.logic.md", "b.logic.md"]);
        all.push_str(&format!("$ {entry} a.logic.md b.logic.md\n"));
        all.push_str(&transcript(&run_in(&scratch.0, &args, None)));
        all.push('\n');
    }
    insta::assert_snapshot!("hooks", all);
}
