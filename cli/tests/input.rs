//! Every document and import is read through one bounded reader: oversized input is refused
//! with its size in MiB, bytes that are not UTF-8 are named with their place, and `-` reads
//! standard input.

mod harness;

use harness::{run_in, stderr, stdout, Scratch};

const MIB: usize = 1024 * 1024;
const VALID: &str =
    "---\nspec_version: \"1.0\"\nname: demo\nsteps:\n  a:\n    description: first\n---\n";

/// A valid frontmatter padded with comment lines to `bytes` bytes: the bound is the
/// frontmatter's (a long markdown body is not bounded, issue #30).
fn padded(bytes: usize) -> Vec<u8> {
    let open = VALID
        .strip_suffix("---\n")
        .expect("VALID ends with its closing line");
    let mut text = String::from(open);
    while text.len() + 15 + 2 + 4 <= bytes {
        text.push_str("# padding line\n");
    }
    text.push('#');
    text.push_str(&"x".repeat(bytes - text.len() - 1 - 4));
    text.push_str("\n---\n");
    text.into_bytes()
}

fn importer(reference: &str) -> String {
    format!("---\nspec_version: \"1.0\"\nname: x\nimports:\n  - ref: {reference}\n    as: d\n---\n")
}

#[test]
fn an_oversized_file_is_refused_with_its_size_in_mib() {
    let scratch = Scratch::new("oversized");
    scratch.write("big.logic.md", padded(9 * MIB));
    for command in ["validate", "lint"] {
        let out = run_in(&scratch.0, &[command, "big.logic.md"], None);
        assert_eq!(out.status.code(), Some(1), "{command}");
        insta::assert_snapshot!(format!("oversized_{command}"), stdout(&out));
    }
    let out = run_in(&scratch.0, &["compile", "big.logic.md"], None);
    assert_eq!(out.status.code(), Some(1));
    insta::assert_snapshot!("oversized_compile", stderr(&out));
}

#[test]
fn oversized_standard_input_is_refused_without_reading_it_all() {
    let scratch = Scratch::new("oversized-stdin");
    // Twenty MiB offered; the reader stops after the limit, so the size is not known.
    let out = run_in(&scratch.0, &["validate", "-"], Some(&padded(20 * MIB)));
    assert_eq!(out.status.code(), Some(1));
    insta::assert_snapshot!("oversized_stdin", stdout(&out));
}

#[test]
fn imports_are_read_through_the_bounded_reader() {
    let scratch = Scratch::new("import-reads");
    scratch.dir(".git");
    scratch.write("lib/big.logic.md", padded(9 * MIB));
    scratch.write(
        "lib/latin1.logic.md",
        b"---\nspec_version: \"1.0\"\nname: caf\xe9\n---\n".as_slice(),
    );
    scratch.dir("lib/folder.logic.md");
    for (case, reference) in [
        ("big", "lib/big.logic.md"),
        ("not_utf8", "lib/latin1.logic.md"),
        ("directory", "lib/folder.logic.md"),
    ] {
        scratch.write("x.logic.md", importer(reference));
        let out = run_in(&scratch.0, &["lint", "x.logic.md"], None);
        assert_eq!(out.status.code(), Some(1), "{case}");
        insta::assert_snapshot!(format!("import_{case}"), stdout(&out));
    }
}

#[test]
fn standard_input_for_commands_that_read_one_document() {
    let scratch = Scratch::new("stdin-commands");
    let tree = "---\nspec_version: \"1.0\"\nname: t\nsteps:\n  research: {description: r}\ndecision_trees:\n  route:\n    root: kind\n    nodes:\n      kind:\n        condition: \"{{ input.type }}\"\n        branches:\n          - {value: question, next: research}\n          - {default: true, next: clarify}\n    terminals:\n      clarify: {action: request_clarification}\n---\n";
    scratch.write("in.json", r#"{"type": "question"}"#);
    let out = run_in(
        &scratch.0,
        &["eval-tree", "-", "route", "--input", "in.json"],
        Some(tree.as_bytes()),
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    insta::assert_snapshot!("stdin_eval_tree", stdout(&out));

    let both = run_in(
        &scratch.0,
        &["eval-tree", "-", "route", "--input", "-"],
        Some(tree.as_bytes()),
    );
    assert_eq!(both.status.code(), Some(2));
    insta::assert_snapshot!("stdin_eval_tree_twice", stderr(&both));

    let out = run_in(&scratch.0, &["compile", "-"], Some(b"---\nname: x\n---\n"));
    assert_eq!(out.status.code(), Some(1));
    insta::assert_snapshot!("stdin_compile_invalid", stderr(&out));

    let out = run_in(&scratch.0, &["validate", "-"], Some(VALID.as_bytes()));
    assert_eq!(out.status.code(), Some(0));
    insta::assert_snapshot!("stdin_validate", stdout(&out));
}
