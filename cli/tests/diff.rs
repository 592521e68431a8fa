//! `logicmd diff` as users run it: two files, JSON, colour, no change, refusals, and as git's
//! diff driver and difftool in a real repository.

mod harness;

use std::process::Command;

use harness::{project, run_with_env, session, transcript, Scratch};

const OLD: &str = "---\n# A pipeline.\nspec_version: \"1.0\"\nname: pipeline\nreasoning:\n  max_iterations: 8\nsteps:\n  gather:\n    description: Gather sources\n    instructions: Find three sources.\n  legacy:\n    description: Old\n  report:\n    description: Report\n    needs: [gather, legacy]\n---\n";
const NEW: &str = "---\nspec_version: \"1.0\"\nname: pipeline\nreasoning:\n  max_iterations: 10\nsteps:\n  collect:\n    description: Gather sources\n    instructions: Find five sources.\n  report:\n    description: Report\n    needs: [collect, verify]\n  verify:\n    description: Verify\n    needs: [collect]\n---\n";
const TOPOLOGY: &str = "name: t\nnodes:\n  - {id: a, type: generate, prompt: p, output_key: x}\n";

#[test]
fn two_files_in_text_json_and_colour() {
    let scratch = project(
        "diff",
        &[
            ("old.logic.md", OLD),
            ("new.logic.md", NEW),
            ("same.logic.md", &OLD.replace("# A pipeline.\n", "")),
            ("flow.drtl.yaml", TOPOLOGY),
            ("broken.logic.md", "---\nname: [\n---\n"),
        ],
    );
    let mut all = session(
        &scratch,
        &[
            &["diff", "old.logic.md", "new.logic.md"],
            &[
                "diff",
                "old.logic.md",
                "new.logic.md",
                "--exit-code",
                "--format",
                "json",
            ],
            &["diff", "old.logic.md", "same.logic.md", "--exit-code"],
            &["diff", "old.logic.md", "flow.drtl.yaml"],
            &["diff", "old.logic.md", "broken.logic.md"],
            &["diff", "old.logic.md"],
        ],
    );
    let coloured = run_with_env(
        &scratch.0,
        &["diff", "old.logic.md", "new.logic.md"],
        &[("CLICOLOR_FORCE", "1")],
    );
    all.push_str("$ CLICOLOR_FORCE=1 logicmd diff old.logic.md new.logic.md\n");
    all.push_str(&transcript(&coloured).replace('\u{1b}', "␛"));
    insta::assert_snapshot!("files", all);
}

fn git(dir: &std::path::Path, args: &[&str]) -> std::process::Output {
    Command::new("git")
        .args(["-c", "user.name=t", "-c", "user.email=t@example.com"])
        .args(args)
        .current_dir(dir)
        .env("PATH", path_with_logicmd())
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("HOME", dir)
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .output()
        .expect("git runs")
}

/// PATH with the directory of the binary under test first, so git finds this `logicmd`.
fn path_with_logicmd() -> String {
    let binary = std::path::Path::new(env!("CARGO_BIN_EXE_logicmd"));
    let dir = binary.parent().expect("a directory").display().to_string();
    format!("{dir}:{}", std::env::var("PATH").unwrap_or_default())
}

#[test]
fn git_uses_it_as_the_diff_driver_and_as_difftool() {
    let scratch = Scratch::new("diff-git");
    let dir = &scratch.0;
    if Command::new("git").arg("--version").output().is_err() {
        return; // no git on this machine: nothing to drive
    }
    for args in [
        &["init", "-q", "-b", "main"][..],
        &["config", "diff.logicmd.command", "logicmd diff"],
    ] {
        assert!(git(dir, args).status.success());
    }
    scratch.write(".gitattributes", "*.logic.md diff=logicmd\n");
    scratch.write("pipeline.logic.md", OLD);
    assert!(git(dir, &["add", "."]).status.success());
    assert!(git(dir, &["commit", "-q", "-m", "first"]).status.success());
    scratch.write("pipeline.logic.md", NEW);
    let driven = git(dir, &["diff"]);
    // difftool on its own (no driver): git hands over a temporary copy and the work tree file.
    assert!(git(dir, &["config", "--unset", "diff.logicmd.command"])
        .status
        .success());
    let difftool = git(dir, &["difftool", "-y", "-x", "logicmd diff"]);
    let temporary = regex::Regex::new(r"(?m)^--- /.*$").expect("a regex");
    let difftool = scratch.redact(&transcript(&difftool));
    let all = format!(
        "$ git diff\n{}\n$ git difftool -y -x 'logicmd diff'\n{}",
        transcript(&driven),
        temporary.replace(&difftool, "--- [the old version, in a temporary file]")
    );
    insta::assert_snapshot!("git", all);
}
