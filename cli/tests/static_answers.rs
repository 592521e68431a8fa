//! Issue #30: static answers a user can rely on, each as users meet it on the command line, with
//! the whole output snapshotted. Files live in `cli/tests/static_answers/`; each test runs in a
//! scratch project holding the files it names.

mod harness;

use harness::{project, run_in, transcript, Scratch};

/// The text of `cli/tests/static_answers/NAME`.
fn fixture(name: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/static_answers")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A scratch project with the named fixtures (at their own names).
fn with_fixtures(test: &str, names: &[&str]) -> Scratch {
    let texts: Vec<(String, String)> = names
        .iter()
        .map(|n| (n.to_string(), fixture(n)))
        .collect();
    let files: Vec<(&str, &str)> = texts
        .iter()
        .map(|(n, t)| (n.as_str(), t.as_str()))
        .collect();
    project(test, &files)
}

/// `logicmd ARGS` in `scratch`, as a transcript.
fn logicmd(scratch: &Scratch, args: &[&str]) -> String {
    scratch.redact(&transcript(&run_in(&scratch.0, args, None)))
}

/// Item 1: every field the schema types as an expression, written without `{{ }}`, as prose, as
/// text around `{{ }}`, empty, or with a stray `}}`, is an error with its effect and a fix.
#[test]
fn conditions_that_are_text_are_errors() {
    let scratch = with_fixtures("conditions", &["conditions.logic.md"]);
    insta::assert_snapshot!(logicmd(&scratch, &["lint", "conditions.logic.md"]));
    insta::assert_snapshot!(
        "conditions_compile_refused",
        logicmd(&scratch, &["compile", "conditions.logic.md"])
    );
}

/// Item 1: `eval` reads text without `{{` as one expression, so a stray `}}` is an error, not
/// text moved to the end.
#[test]
fn eval_reads_one_expression() {
    let scratch = project("eval", &[]);
    let runs: Vec<String> = [
        "output.ok == true",
        "1 }} 2",
        "{{ 1 }} 2 }}",
        "{{ 1 + 1 }}",
        "n = {{ 1 + 1 }}",
        "{{ '}}' }}",
    ]
    .iter()
    .map(|e| format!("$ logicmd eval {e:?}\n{}", logicmd(&scratch, &["eval", e])))
    .collect();
    insta::assert_snapshot!(runs.join("\n"));
}

/// Item 2: an imported document's expressions read its own steps (`as` is their namespace,
/// spec §2.2), in every place they are written, and the run, lint and compile agree.
#[test]
fn imported_expressions_read_their_own_namespace() {
    let scratch = project(
        "imports",
        &[
            ("lib.logic.md", &fixture("imports/lib.logic.md")),
            ("main.logic.md", &fixture("imports/main.logic.md")),
            ("answers.yaml", &fixture("imports/answers.yaml")),
        ],
    );
    insta::assert_snapshot!(
        "imports_lint",
        logicmd(&scratch, &["lint", "main.logic.md"])
    );
    let compiled = run_in(&scratch.0, &["compile", "--format", "json", "lib.logic.md"], None);
    assert_eq!(compiled.status.code(), Some(0), "{}", transcript(&compiled));
    // The importer without its wrong step: compiled and run.
    let main = fixture("imports/main.logic.md");
    let cut = main.find("  wrong:").expect("the fixture has `wrong`");
    let fixed = format!("{}---\n", &main[..cut]);
    scratch.write("fixed.logic.md", &fixed);
    insta::assert_snapshot!(
        "imports_compile",
        logicmd(&scratch, &["compile", "fixed.logic.md"])
    );
    insta::assert_snapshot!(
        "imports_run",
        logicmd(
            &scratch,
            &["run", "fixed.logic.md", "--provider", "scripted:answers.yaml", "--progress", "off"]
        )
    );
}

/// Item 9: `run` refuses, with exit 1 and the errors shown like `lint`, every document `lint`
/// fails: a missing need, a branch to a missing step, a condition that is text. Warnings are
/// shown and the run goes on.
#[test]
fn run_refuses_what_lint_fails() {
    let doc = |step_a: &str| {
        format!("---\nspec_version: \"1.0\"\nname: r\ndescription: d\nsteps:\n  a:\n    description: a\n{step_a}  b:\n    description: b\n---\n")
    };
    let scratch = project(
        "run-lint",
        &[
            ("need.logic.md", &doc("    needs: [ghost]\n")),
            (
                "branch.logic.md",
                &doc("    branches:\n      - if: \"{{ output.ok }}\"\n        then: nowhere\n      - default: true\n        then: b\n"),
            ),
            (
                "check.logic.md",
                &doc("    verification:\n      check: \"output.ok\"\n      on_fail: abort\n"),
            ),
            (
                "warned.logic.md",
                &doc("    parallel_steps: [b]\n"),
            ),
        ],
    );
    let runs: Vec<String> = ["need", "branch", "check", "warned"]
        .iter()
        .map(|name| {
            let file = format!("{name}.logic.md");
            format!(
                "$ logicmd run {file} --dry-run\n{}",
                logicmd(&scratch, &["run", &file, "--dry-run", "--progress", "off"])
            )
        })
        .collect();
    insta::assert_snapshot!(runs.join("\n"));
}
