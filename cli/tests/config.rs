//! Project settings as users write them: `logicmd.toml` or `[tool.logicmd]` in `pyproject.toml`,
//! the nearest above each file; what `lint`, `check`, `fmt` and `lint --fix` do with them;
//! `logicmd config`; bad settings refused with the place and the closest name.

mod harness;

use std::fs;

use harness::{project, session};

/// A repeated `needs` entry (a warning with a safe fix), a step without a description (an
/// info), structured output nothing checks (check's warning).
const AGENT: &str = "---\nspec_version: \"1.0\"\nname: a\nsteps:\n  a:\n    description: A\n  b:\n    needs: [a, a]\n    output_schema: {type: object}\n---\n";

const SETTINGS: &str = r#"extend-exclude = ["drafts/"]

[lint]
ignore = ["missing-description"]
per-file-ignores = { "legacy/**" = ["duplicate-dependency"] }
severity = { unverified-contract = "error" }

[provider]
model = "gpt-4o-mini"
"#;

#[test]
fn settings_select_re_grade_and_exclude_for_every_file_command() {
    let scratch = project(
        "config-project",
        &[
            ("logicmd.toml", SETTINGS),
            ("a.logic.md", AGENT),
            ("legacy/b.logic.md", AGENT),
            ("drafts/c.logic.md", "not even a document"),
        ],
    );
    let all = session(
        &scratch,
        &[
            &["lint"],
            &["check"],
            &["fmt", "--check"],
            &["config"],
            &["config", "legacy/b.logic.md", "--format", "json"],
        ],
    );
    insta::assert_snapshot!("project", all);
}

#[test]
fn the_nearest_settings_file_wins_whole_and_pyproject_counts_only_with_tool_logicmd() {
    let scratch = project(
        "config-nearest",
        &[
            ("logicmd.toml", SETTINGS),
            (
                "py/pyproject.toml",
                "[project]\nname = \"x\"\n\n[tool.logicmd.lint]\nselect = [\"check\"]\n",
            ),
            ("py/a.logic.md", AGENT),
            ("other/pyproject.toml", "[tool.ruff]\nline-length = 90\n"),
            ("other/a.logic.md", AGENT),
        ],
    );
    let all = session(
        &scratch,
        &[
            &["config", "py"],
            &["lint", "py", "other"],
            &["config", "other/a.logic.md"],
        ],
    );
    insta::assert_snapshot!("nearest", all);
}

#[test]
fn bad_settings_stop_every_command_with_the_place_and_the_closest_name() {
    let scratch = project(
        "config-bad",
        &[
            (
                "logicmd.toml",
                "rot = \"specs\"\n[lint]\nignore = [\"missing-descripton\"]\nseverity = { unknown-need = \"warning\" }\n[fmt]\n",
            ),
            ("a.logic.md", AGENT),
        ],
    );
    let all = session(&scratch, &[&["lint"], &["config"], &["fmt"]]);
    insta::assert_snapshot!("bad", all);
    assert_eq!(
        fs::read_to_string(scratch.0.join("a.logic.md")).unwrap(),
        AGENT
    );
}

#[test]
fn fix_leaves_ignored_rules_alone() {
    let scratch = project(
        "config-fix",
        &[
            ("logicmd.toml", SETTINGS),
            ("a.logic.md", AGENT),
            ("legacy/b.logic.md", AGENT),
        ],
    );
    let all = session(&scratch, &[&["lint", "--fix"]]);
    assert_eq!(
        fs::read_to_string(scratch.0.join("legacy/b.logic.md")).unwrap(),
        AGENT,
        "duplicate-dependency is ignored under legacy/: not fixed either"
    );
    assert_ne!(
        fs::read_to_string(scratch.0.join("a.logic.md")).unwrap(),
        AGENT
    );
    insta::assert_snapshot!("fix", all);
}
