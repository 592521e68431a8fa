//! `logicmd lint --fix`, `--diff` and `--unsafe-fixes` as users run them: core's fixes applied
//! through its edit (comments kept), what was fixed and what is left, nothing written by `--diff`.

mod harness;

use std::fs;

use harness::{run_in, transcript, Scratch};

/// Typos a fix repairs (a strategy, a `needs` name twice), a comment on every line that changes,
/// and a problem no fix repairs (a verification without `on_fail`).
const TYPOS: &str = r#"---
# An agent with typos.
spec_version: "1.0"
name: demo
reasoning:
  strategy: reac   # the strategy
steps:
  gather:
    description: Gather
  report:
    needs: [gathr, gathr]  # twice
    description: Report
    verification:
      check: "{{ steps.gather.output.ok }}"
---
# Body kept
"#;

/// A decision tree without a default branch: only an unsafe fix (which terminal is a choice).
const NO_DEFAULT: &str = r#"---
spec_version: "1.0"
name: router
steps:
  done:
    description: Done
decision_trees:
  route:
    root: kind
    nodes:
      kind:
        condition: "{{ input.kind }}"
        branches:
          - value: a
            next: done
    terminals:
      done: {action: finish}
---
"#;

const CLEAN: &str =
    "---\nspec_version: \"1.0\"\nname: clean\nsteps:\n  a:\n    description: A\n---\n";

fn logicmd(scratch: &Scratch, args: &[&str]) -> String {
    scratch.redact(&transcript(&run_in(&scratch.0, args, None)))
}

/// The transcript of `commands`, then the files as they are after them.
fn session(scratch: &Scratch, commands: &[&[&str]], files: &[&str]) -> String {
    let mut all = harness::session(scratch, commands);
    for file in files {
        let text = fs::read_to_string(scratch.0.join(file)).expect("the file is there");
        all.push_str(&format!("=== {file}\n{text}"));
    }
    all
}

#[test]
fn fix_writes_the_safe_fixes_keeps_comments_and_reports_what_is_left() {
    let scratch = Scratch::new("lint-fix");
    scratch.write("typos.logic.md", TYPOS);
    scratch.write("clean.logic.md", CLEAN);
    let all = session(
        &scratch,
        &[&["lint", "--fix", "."], &["lint", "--fix", "."]],
        &["typos.logic.md"],
    );
    assert_eq!(
        fs::read_to_string(scratch.0.join("clean.logic.md")).unwrap(),
        CLEAN
    );
    insta::assert_snapshot!("fix", all);
}

#[test]
fn diff_shows_what_fix_would_change_and_writes_nothing() {
    let scratch = Scratch::new("lint-fix-diff");
    scratch.write("typos.logic.md", TYPOS);
    scratch.write("clean.logic.md", CLEAN);
    let all = session(&scratch, &[&["lint", "--diff", "."]], &[]);
    assert_eq!(
        fs::read_to_string(scratch.0.join("typos.logic.md")).unwrap(),
        TYPOS
    );
    insta::assert_snapshot!("diff", all);
    let clean = logicmd(&scratch, &["lint", "--diff", "clean.logic.md"]);
    assert_eq!(
        clean,
        "exit: 0\n--- stdout\n--- stderr\nwould fix 0 problems in 0 files\n"
    );
}

#[test]
fn unsafe_fixes_are_counted_and_applied_only_when_asked() {
    let scratch = Scratch::new("lint-fix-unsafe");
    scratch.write("router.logic.md", NO_DEFAULT);
    let all = session(
        &scratch,
        &[
            &["lint", "--fix", "router.logic.md"],
            &["lint", "--diff", "--unsafe-fixes", "router.logic.md"],
            &["lint", "--fix", "--unsafe-fixes", "router.logic.md"],
        ],
        &["router.logic.md"],
    );
    insta::assert_snapshot!("unsafe", all);
}

#[test]
fn json_reports_the_fixes_applied() {
    let scratch = Scratch::new("lint-fix-json");
    scratch.write("typos.logic.md", TYPOS);
    let out = run_in(
        &scratch.0,
        &["lint", "--fix", "--format", "json", "typos.logic.md"],
        None,
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    insta::assert_json_snapshot!("json", report[0]["fixed"]);
    assert_eq!(report[0]["diagnostics"].as_array().map(Vec::len), Some(1));
    // Without --fix the report has no `fixed` at all.
    let out = run_in(
        &scratch.0,
        &["lint", "--format", "json", "typos.logic.md"],
        None,
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert!(report[0].get("fixed").is_none());
}

#[test]
fn misuse_is_a_usage_error() {
    let scratch = Scratch::new("lint-fix-misuse");
    let all = session(
        &scratch,
        &[
            &["lint", "--fix", "-"],
            &["lint", "--unsafe-fixes", "."],
            &["lint", "--diff", "--fix", "."],
        ],
        &[],
    );
    insta::assert_snapshot!("misuse", all);
}

#[test]
fn the_fix_report_in_colour() {
    let scratch = Scratch::new("lint-fix-colour");
    scratch.write("typos.logic.md", TYPOS);
    let out = run_in(
        &scratch.0,
        &["lint", "--fix", "--color", "always", "typos.logic.md"],
        None,
    );
    insta::assert_snapshot!("fix_colour", transcript(&out).replace('\u{1b}', "␛"));
}

/// An imported step read with dots (`steps.d.gather` reads a member of a step `d`) is written
/// in brackets, as the language server's quick fix writes it.
#[test]
fn fix_writes_an_imported_step_in_brackets() {
    let scratch = Scratch::new("lint-fix-imported");
    scratch.write(
        "lib/d.logic.md",
        "---\nspec_version: \"1.0\"\nname: lib\nsteps:\n  gather:\n    description: Gather\n---\n",
    );
    let main = "---\nspec_version: \"1.0\"\nname: main\nimports:\n  - ref: ./lib/d.logic.md\n    as: d\nsteps:\n  other:\n    description: o\n    needs: [d.gather]\n    verification:\n      check: \"{{ steps.d.gather.output.ok }}\"\n      on_fail: retry\n---\n";
    scratch.write("main.logic.md", main);
    let out = logicmd(&scratch, &["lint", "--fix", "main.logic.md"]);
    assert_eq!(
        fs::read_to_string(scratch.0.join("main.logic.md")).unwrap(),
        main.replace("steps.d.gather", "steps['d.gather']"),
        "{out}"
    );
    assert!(out.starts_with("exit: 0\n"), "{out}");
}
