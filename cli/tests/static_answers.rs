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
    let texts: Vec<(String, String)> = names.iter().map(|n| (n.to_string(), fixture(n))).collect();
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
    let compiled = run_in(
        &scratch.0,
        &["compile", "--format", "json", "lib.logic.md"],
        None,
    );
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
            &[
                "run",
                "fixed.logic.md",
                "--provider",
                "scripted:answers.yaml",
                "--progress",
                "off"
            ]
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

/// Item 11: a reader that closes the pipe early (`| head -1`) ends the output, not the process
/// with a panic (exit 101): the exit status is the command's own, on standard output and error.
#[test]
fn a_closed_pipe_is_not_a_panic() {
    use std::process::{Command, Stdio};
    let mut broken =
        String::from("---\nspec_version: \"1.0\"\nname: big\ndescription: d\nsteps:\n");
    let mut fine = broken.clone();
    for i in 0..600 {
        broken.push_str(&format!(
            "  s{i}:\n    description: s\n    needs: [nope{i}]\n"
        ));
        fine.push_str(&format!(
            "  s{i}:\n    description: a step with enough words to fill a pipe\n"
        ));
    }
    broken.push_str("---\n");
    fine.push_str("---\n");
    let scratch = project(
        "pipe",
        &[("broken.logic.md", &broken), ("fine.logic.md", &fine)],
    );
    let cases: &[(&[&str], i32)] = &[
        (&["compile", "fine.logic.md"], 0),
        (&["compile", "broken.logic.md"], 1),
        (
            &["run", "--dry-run", "fine.logic.md", "--progress", "plain"],
            0,
        ),
        (&["run", "--dry-run", "broken.logic.md"], 1),
        (&["lint", "broken.logic.md"], 1),
        (&["eval", "[1, 2, 3].includes(4) +"], 1),
        (&["fmt", "-"], 0),
    ];
    for (args, expected) in cases {
        let mut child = Command::new(env!("CARGO_BIN_EXE_logicmd"))
            .args(*args)
            .current_dir(&scratch.0)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the logicmd binary runs");
        // Close both pipes before reading anything: every write meets a closed pipe.
        drop(child.stdout.take());
        drop(child.stderr.take());
        if let Some(mut input) = child.stdin.take() {
            use std::io::Write;
            let _ = input.write_all(fine.as_bytes());
        }
        let status = child.wait().expect("the binary finishes");
        assert_eq!(status.code(), Some(*expected), "logicmd {}", args.join(" "));
    }
}

/// Item 8: block scalars with keep chomping, empty ones and explicit indentation are formatted,
/// and `fmt --check` passes on the result; a file the formatter leaves alone is still printed by
/// `fmt -` (a pipeline keeps its text), with the reason on standard error.
#[test]
fn fmt_formats_every_block_scalar() {
    let messy = "---\nname: k\nspec_version: \"1.0\"\nsteps:\n  a:\n    instructions: |+\n        keep\n\n    description: x\n  b:\n    instructions: |\n    description: y\n  c:\n      instructions: >+\n          folded\n\n---\n";
    let aliased = "---\nspec_version: \"1.0\"\nname: k\nmetadata:\n  a: &x 1\n  b: *x\n---\n";
    let scratch = project(
        "fmt",
        &[("messy.logic.md", messy), ("aliased.logic.md", aliased)],
    );
    let mut runs = vec![
        format!(
            "$ logicmd fmt --check messy.logic.md\n{}",
            logicmd(&scratch, &["fmt", "--check", "messy.logic.md"])
        ),
        format!(
            "$ logicmd fmt messy.logic.md\n{}",
            logicmd(&scratch, &["fmt", "messy.logic.md"])
        ),
    ];
    runs.push(format!(
        "$ cat messy.logic.md\n{}",
        std::fs::read_to_string(scratch.0.join("messy.logic.md")).expect("formatted")
    ));
    runs.push(format!(
        "$ logicmd fmt --check messy.logic.md\n{}",
        logicmd(&scratch, &["fmt", "--check", "messy.logic.md"])
    ));
    let piped = run_in(&scratch.0, &["fmt", "-"], Some(aliased.as_bytes()));
    runs.push(format!(
        "$ logicmd fmt - < aliased.logic.md\n{}",
        transcript(&piped)
    ));
    insta::assert_snapshot!(runs.join("\n"));
}

/// Item 10: a path segment may be quoted (`overrides["reasoning.max_iterations"]`, spec §9.1's
/// dotted override keys) everywhere a path is taken; an unquoted path that would write a nested
/// map beside such a key is refused, naming the quoted path.
#[test]
fn edit_paths_take_quoted_segments() {
    let workflow = fixture("../../../examples/research-workflow.logic.md");
    let scratch = project("quoted", &[("workflow.logic.md", &workflow)]);
    let runs: Vec<String> = [
        "nodes.researcher.overrides[\"reasoning.max_iterations\"]=3",
        "nodes.researcher.overrides['quality_gates.pre_output[0].severity']=warning",
        "nodes.researcher.overrides.reasoning.max_iterations=3",
        "nodes.researcher.overrides[\"unclosed=3",
        "global.max_parallelism=many",
    ]
    .iter()
    .map(|set| {
        format!(
            "$ logicmd edit workflow.logic.md --set {set}\n{}",
            logicmd(&scratch, &["edit", "workflow.logic.md", "--set", set])
        )
    })
    .collect();
    insta::assert_snapshot!(runs.join("\n"));
}

/// Item 5: removing a workflow node removes what only points at it (`depends_on` entries, edges);
/// removing a step refuses while an invariant's `on_breach` or a terminal's `action` names it,
/// and never leaves an emptied `fallback: {}` behind.
#[test]
fn removing_a_node_or_step_leaves_nothing_dangling() {
    let workflow = fixture("../../../examples/research-workflow.logic.md");
    let steps = fixture("remove.logic.md");
    let scratch = project(
        "remove",
        &[
            ("workflow.logic.md", &workflow),
            ("remove.logic.md", &steps),
        ],
    );
    let runs: Vec<String> = [
        ("workflow.logic.md", "nodes.researcher"),
        ("workflow.logic.md", "nodes.synthesizer"),
        ("remove.logic.md", "steps.gather"),
        ("remove.logic.md", "steps.fallback_step"),
        ("remove.logic.md", "steps.breach"),
        ("remove.logic.md", "steps.terminal"),
    ]
    .iter()
    .map(|(file, path)| {
        format!(
            "$ logicmd edit {file} --remove {path}\n{}",
            logicmd(&scratch, &["edit", file, "--remove", path])
        )
    })
    .collect();
    insta::assert_snapshot!(runs.join("\n"));
}

/// Item 14: `--rename-step` renames the step in `visual.inspector` keys too.
#[test]
fn rename_step_renames_inspector_keys() {
    let steps = fixture("remove.logic.md");
    let scratch = project("rename", &[("remove.logic.md", &steps)]);
    insta::assert_snapshot!(logicmd(
        &scratch,
        &[
            "edit",
            "remove.logic.md",
            "--rename-step",
            "gather",
            "collect"
        ]
    ));
}

/// Items 6 and 14: what lint missed — tree cycles, branches after a default, two defaults, `if`
/// with `default`, `default: false` alone, a step in its own `parallel_steps`, `execution:
/// parallel` with nothing to run, repeated tree values, durations without a unit or of zero, an
/// inspector key naming a missing step.
#[test]
fn lint_finds_what_it_missed() {
    let scratch = with_fixtures("misses", &["lint-misses.logic.md", "tree-cycles.logic.md"]);
    insta::assert_snapshot!(logicmd(&scratch, &["lint", "lint-misses.logic.md"]));
    insta::assert_snapshot!(
        "tree_cycles",
        logicmd(&scratch, &["lint", "tree-cycles.logic.md"])
    );
}

/// Item 7: branch targets are alternatives, not steps that run together: the execution order
/// says which step chooses among them, and "in parallel" only of steps that can run together.
#[test]
fn compile_does_not_call_alternatives_parallel() {
    let doc = "---\nspec_version: \"1.0\"\nname: br\ndescription: d\nsteps:\n  a:\n    description: a\n    branches:\n      - if: \"{{ output.x > 1 }}\"\n        then: b\n      - default: true\n        then: c\n  side:\n    description: runs beside a\n  b:\n    description: b\n    needs: [a]\n  c:\n    description: c\n    needs: [a]\n  d:\n    description: d\n    needs: [side]\n---\n";
    let scratch = project("alternatives", &[("br.logic.md", doc)]);
    insta::assert_snapshot!(logicmd(&scratch, &["compile", "br.logic.md"]));
}

/// Item 3: `check` follows DRTL §9.3's three ways to refuse — a blocking verify, a gate that
/// checks the output and routes its failure to termination or a review, a review — and every
/// example the project ships passes it. Item 4: a loop is bounded only by what the run
/// evaluates, so an edge label without `{{ }}` bounds nothing (and lint says it is a label).
#[test]
fn check_reads_refusals_as_the_run_does() {
    let names = [
        "check/gate-terminates.drtl.yaml",
        "check/spec-9-2.drtl.yaml",
        "check/guard-only.drtl.yaml",
        "check/label-loop.drtl.yaml",
    ];
    let scratch = with_fixtures("check", &names);
    let mut runs: Vec<String> = names
        .iter()
        .map(|name| {
            format!(
                "$ logicmd check {name}\n{}",
                logicmd(&scratch, &["check", name])
            )
        })
        .collect();
    runs.push(format!(
        "$ logicmd lint check/label-loop.drtl.yaml\n{}",
        logicmd(&scratch, &["lint", "check/label-loop.drtl.yaml"])
    ));
    insta::assert_snapshot!(runs.join("\n"));
}

/// Every example the project ships passes its own `lint` and `check`, or carries a comment
/// naming the spec inconsistency it keeps (`# Spec inconsistency`).
#[test]
fn every_shipped_example_passes_lint_and_check() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples");
    let mut checked = 0;
    let mut failures = Vec::new();
    let mut stack = vec![root.clone()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("examples/ is readable") {
            let path = entry.expect("a directory entry").path();
            let name = path.to_string_lossy().into_owned();
            if path.is_dir() {
                if !name.ends_with("node_modules") {
                    stack.push(path);
                }
                continue;
            }
            if !(name.ends_with(".logic.md") || name.ends_with(".drtl.yaml")) {
                continue;
            }
            let text = std::fs::read_to_string(&path).expect("an example is readable");
            if text.contains("# Spec inconsistency") {
                continue;
            }
            for command in ["lint", "check"] {
                let out = run_in(&root, &[command, &name], None);
                checked += 1;
                if out.status.code() != Some(0) {
                    failures.push(format!("{command} {name}\n{}", transcript(&out)));
                }
            }
        }
    }
    assert!(
        checked >= 20,
        "only {checked} runs: the examples were not found"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Item 12: discovery walks as ripgrep does: `.gitignore` honoured, dependencies and build output
/// left out in directories and globs alike, `--exclude` patterns, a symbolic-link loop reported
/// and not followed (each file found once), a file whose name is not UTF-8 found all the same.
#[cfg(unix)]
#[test]
fn discovery_honours_gitignore_refuses_loops_and_excludes() {
    use std::os::unix::ffi::OsStrExt;
    let doc = "---\nspec_version: \"1.0\"\nname: d\ndescription: d\n---\n";
    let mut files: Vec<(String, &str)> = [
        "LOGIC.md",
        "a.logic.md",
        "sub/b.logic.md",
        "sub/deeper/c.logic.md",
        "ignored/x.logic.md",
        "sub/skip.logic.md",
        "node_modules/p/x.logic.md",
        "target/x.logic.md",
        "build/x.logic.md",
        "vendor/x.logic.md",
        ".git/x.logic.md",
        ".logic/index.md",
        "drafts/d.logic.md",
    ]
    .iter()
    .map(|f| (f.to_string(), doc))
    .collect();
    files.push((".gitignore".into(), "ignored/\nsub/skip.logic.md\n"));
    let refs: Vec<(&str, &str)> = files.iter().map(|(f, t)| (f.as_str(), *t)).collect();
    let scratch = project("discovery", &refs);
    std::os::unix::fs::symlink(&scratch.0, scratch.0.join("sub/loop")).expect("a link");
    let odd = std::ffi::OsStr::from_bytes(b"sub/odd-\xff.logic.md");
    std::fs::write(scratch.0.join(odd), doc).expect("a non-UTF-8 name");
    let runs: Vec<String> = [
        vec!["validate", "."],
        vec!["validate", "--exclude", "drafts/", "."],
        vec!["validate", "**/*.logic.md"],
        vec!["validate", "sub"],
        vec!["validate", "ignored/x.logic.md"],
    ]
    .iter()
    .map(|args| {
        let out = run_in(&scratch.0, args, None);
        // A non-UTF-8 name is shown lossily; the snapshot keeps it readable.
        let text = scratch.redact(&transcript(&out)).replace('\u{fffd}', "?");
        format!("$ logicmd {}\n{text}", args.join(" "))
    })
    .collect();
    insta::assert_snapshot!(runs.join("\n"));
}

/// Item 13: JSON and exit statuses a tool can rely on: a missing operand is a record, not `[]`;
/// `compile --format json` says why there is no scaffold; `check --format json` says whether each
/// file passed; `--root` that names no directory is a usage error (2); `lint` without a path
/// reads the working directory.
#[test]
fn json_and_exit_statuses_tell_the_whole_story() {
    let good = "---\nspec_version: \"1.0\"\nname: g\ndescription: d\nsteps:\n  a:\n    description: a\n---\n";
    let bad = "---\nspec_version: \"1.0\"\nname: b\ndescription: d\nsteps:\n  a:\n    description: a\n    needs: [ghost]\n---\n";
    let scratch = project("json", &[("good.logic.md", good), ("bad.logic.md", bad)]);
    let runs: Vec<String> = [
        vec![
            "validate",
            "--format",
            "json",
            "missing.logic.md",
            "good.logic.md",
        ],
        vec!["compile", "--format", "json", "bad.logic.md"],
        vec!["check", "--format", "json", "good.logic.md", "bad.logic.md"],
        vec!["lint", "--root", "/nonexistent", "good.logic.md"],
        vec!["compile", "--root", "good.logic.md", "good.logic.md"],
        vec!["lint"],
    ]
    .iter()
    .map(|args| format!("$ logicmd {}\n{}", args.join(" "), logicmd(&scratch, args)))
    .collect();
    insta::assert_snapshot!(runs.join("\n"));
}

/// Item 16: messages say what is wrong in the user's terms: a topology is not a frontmatter, a
/// missing `id` is one problem, a NUL is named where it is, an unclosed `(` has no internal
/// offset, an edit names what can be done, a workflow reference reads as a sentence.
#[test]
fn messages_speak_the_users_terms() {
    let scratch = project(
        "messages",
        &[
            ("noid.drtl.yaml", "bogus: 1\nnodes:\n  - {type: generate, prompt: x, output_key: a}\n"),
            ("nul.logic.md", "---\nspec_version: \"1.0\"\nname: \"a\0b\"\n---\n"),
            (
                "wf.logic.md",
                "---\nspec_version: \"1.0\"\nname: w\ndescription: d\nnodes:\n  a:\n    logic_ref: ./a.logic.md\n    depends_on: [researcher]\nedges:\n  - {from: a, to: zz}\n---\n",
            ),
            ("a.logic.md", "---\nspec_version: \"1.0\"\nname: a\ndescription: d\n---\n"),
            ("t.drtl.yaml", "name: t\nnodes:\n  - {id: a, type: generate, prompt: x, output_key: a}\n"),
        ],
    );
    let runs: Vec<String> = [
        vec!["lint", "noid.drtl.yaml"],
        vec!["validate", "nul.logic.md"],
        vec!["lint", "wf.logic.md"],
        vec!["eval", "(1 + 2"],
        vec!["edit", "t.drtl.yaml", "--rename-step", "a", "b"],
    ]
    .iter()
    .map(|args| format!("$ logicmd {}\n{}", args.join(" "), logicmd(&scratch, args)))
    .collect();
    insta::assert_snapshot!(runs.join("\n"));
}

/// Item 17: the size bound is the frontmatter's (spec §15.1.8: the body is not validated), so a
/// valid frontmatter with a 50 MB body is valid and `fmt` keeps its body; classic Mac line endings
/// (a lone CR) are line breaks; `--version` declares the spec versions it supports (§14.2).
#[test]
fn the_body_is_not_bounded_cr_is_a_line_break_versions_are_declared() {
    let frontmatter = "---\nname: big\nspec_version: \"1.0\"\ndescription: d\n---\n";
    let body = "# Body\n".to_owned() + &"words of the markdown body\n".repeat(2_000_000);
    let big = format!("{frontmatter}{body}");
    let scratch = project(
        "big",
        &[
            ("big.logic.md", &big),
            ("cr.logic.md", "---\rspec_version: \"1.0\"\rname: cr\rdescription: d\rsteps:\r  a:\r    description: a\r    needs: [ghost]\r---\r# body\r"),
            ("crfmt.logic.md", "---\rname: cr\rspec_version: \"1.0\"\rdescription: d\r---\r"),
        ],
    );
    assert!(big.len() > 50_000_000);
    let mut runs: Vec<String> = [
        vec!["validate", "big.logic.md"],
        vec!["lint", "cr.logic.md"],
        vec!["fmt", "big.logic.md", "crfmt.logic.md"],
    ]
    .iter()
    .map(|args| format!("$ logicmd {}\n{}", args.join(" "), logicmd(&scratch, args)))
    .collect();
    let formatted = std::fs::read_to_string(scratch.0.join("big.logic.md")).expect("formatted");
    assert_eq!(formatted.len(), big.len(), "the body is kept whole");
    assert!(
        formatted.starts_with("---\nspec_version: \"1.0\"\nname: big\n"),
        "{}",
        &formatted[..80]
    );
    assert!(formatted.ends_with(&body), "the body is kept as it was");
    runs.push(format!(
        "$ cat crfmt.logic.md\n{:?}",
        std::fs::read_to_string(scratch.0.join("crfmt.logic.md")).expect("formatted")
    ));
    let version = run_in(&scratch.0, &["--version"], None);
    runs.push(format!(
        "$ logicmd --version\n{}",
        transcript(&version).replace(env!("CARGO_PKG_VERSION"), "[VERSION]")
    ));
    insta::assert_snapshot!(runs.join("\n"));
}

/// Item 19: a URI or an absolute import is unsupported (a warning: nothing is fetched or read
/// outside the project), not an error; an import nothing refers to is not run; `eval-tree` and
/// `next-action` take objects; a boolean tree node reads its condition's truthiness; the graph
/// draws the step a decision tree reads.
#[test]
fn the_low_items_answer_as_documented() {
    let lib = "---\nspec_version: \"1.0\"\nname: lib\ndescription: d\nsteps:\n  helper:\n    description: h\n---\n";
    let main = "---\nspec_version: \"1.0\"\nname: main\ndescription: d\nimports:\n  - ref: https://example.com/shared.logic.md\n    as: remote\n  - ref: /etc/shared.logic.md\n    as: absolute\n  - ref: ./lib.logic.md\n    as: lib\nsteps:\n  a:\n    description: a\n---\n";
    let tree = "---\nspec_version: \"1.0\"\nname: t\ndescription: d\nsteps:\n  classify:\n    description: c\n  deep:\n    description: d\n    needs: [classify]\n  quick:\n    description: q\n    needs: [classify]\ndecision_trees:\n  route:\n    description: r\n    root: size\n    nodes:\n      size:\n        condition: \"{{ input.tokens > 1000 || steps.classify.output.research }}\"\n        branches:\n          - value: true\n            next: deep\n          - value: false\n            next: quick\n---\n";
    let scratch = project(
        "low",
        &[
            ("lib.logic.md", lib),
            ("main.logic.md", main),
            ("tree.logic.md", tree),
            ("small.json", "{\"tokens\": 10}"),
            ("list.json", "[]"),
            ("null.json", "null"),
            ("state.json", "[]"),
        ],
    );
    let runs: Vec<String> = [
        vec!["lint", "main.logic.md"],
        vec!["compile", "--format", "json", "main.logic.md"],
        vec![
            "eval-tree",
            "tree.logic.md",
            "route",
            "--input",
            "small.json",
        ],
        vec![
            "eval-tree",
            "tree.logic.md",
            "route",
            "--input",
            "list.json",
        ],
        vec![
            "eval-tree",
            "tree.logic.md",
            "route",
            "--input",
            "null.json",
        ],
        vec!["next-action", "--state", "state.json"],
        vec!["graph", "--format", "mermaid", "tree.logic.md"],
    ]
    .iter()
    .map(|args| format!("$ logicmd {}\n{}", args.join(" "), logicmd(&scratch, args)))
    .collect();
    insta::assert_snapshot!(runs.join("\n"));
}

/// Item 15: `lint --rules` lists every rule — LOGIC.md's, DRTL's and the obligation rules — with
/// its severity, what it finds, why, and its fixture (whole output); `--format json` lists the
/// same rules as JSON (item 13).
#[test]
fn lint_rules_lists_every_rule_with_its_fixture() {
    let scratch = project("rules", &[]);
    insta::assert_snapshot!(logicmd(&scratch, &["lint", "--rules"]));
    let json = run_in(&scratch.0, &["lint", "--rules", "--format", "json"], None);
    let listed: serde_json::Value = serde_json::from_slice(&json.stdout).expect("JSON");
    let human = harness::stdout(&run_in(&scratch.0, &["lint", "--rules"], None));
    let rules = listed.as_array().expect("a list");
    assert_eq!(rules.len(), human.matches("fixture: ").count());
    let families: std::collections::BTreeSet<&str> =
        rules.iter().filter_map(|r| r["family"].as_str()).collect();
    assert_eq!(families, ["check", "drtl", "logic"].into());
    for rule in rules {
        for field in ["code", "severity", "summary", "reason", "fixture"] {
            assert!(rule[field].is_string(), "{rule}: {field}");
        }
    }
}
