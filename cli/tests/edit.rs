//! `logicmd edit` as users run it: edits apply in the order given, removing a step leaves
//! nothing dangling, comments after quoted values survive.

use std::fs;
use std::path::PathBuf;
use std::process::{Command, Output};

const STEPS: &str = "---\nspec_version: \"1.0\"\nname: \"demo\"  # the name\nsteps:\n  a:\n    description: first\n  c:\n    description: last\n    needs: [a]\n---\n";

struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir =
            std::env::temp_dir().join(format!("logicmd-cli-edit-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    fn write(&self, contents: &str) -> String {
        let path = self.0.join("doc.logic.md");
        fs::write(&path, contents).unwrap();
        path.display().to_string()
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

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// Issue #13: `--rename-step`, `--connect`, `--disconnect`, `--set` and `--remove` apply in the
/// order given; repeating one is allowed.
#[test]
fn edits_apply_in_command_line_order() {
    let dir = Scratch::new("order");
    let file = dir.write(STEPS);
    let out = logicmd(&[
        "edit",
        &file,
        "--rename-step",
        "a",
        "b",
        "--set",
        "steps.d={description: added}",
        "--connect",
        "b",
        "d",
        "--connect",
        "c",
        "d",
        "--disconnect",
        "b",
        "c",
        "--remove",
        "steps.d.needs[0]",
    ]);
    assert_eq!(stderr(&out), "");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        stdout(&out),
        "---\nspec_version: \"1.0\"\nname: \"demo\"  # the name\nsteps:\n  b:\n    description: first\n  c:\n    description: last\n  d:\n    description: added\n    needs:\n      - c\n---\n"
    );
    // The other way round, `b` does not exist yet when it is connected.
    let out = logicmd(&[
        "edit",
        &file,
        "--connect",
        "b",
        "c",
        "--rename-step",
        "a",
        "b",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(stderr(&out), "error[edit-refused]: there is no step `b`\n");
}

/// Issue #13, defect 9: `--remove steps.a` takes the references to `a` along and says so.
#[test]
fn removing_a_step_leaves_no_dangling_needs() {
    let dir = Scratch::new("remove");
    let file = dir.write(STEPS);
    let out = logicmd(&["edit", &file, "--remove", "steps.a"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        stdout(&out),
        "---\nspec_version: \"1.0\"\nname: \"demo\"  # the name\nsteps:\n  c:\n    description: last\n---\n"
    );
    assert_eq!(stderr(&out), "note: step `c` no longer needs `a`\n");
}

/// The rule for removing a step is in `--help`.
#[test]
fn help_says_what_removing_a_step_does() {
    let help = stdout(&logicmd(&["edit", "--help"]));
    let remove: Vec<&str> = help
        .lines()
        .skip_while(|l| !l.trim_start().starts_with("--remove"))
        .take_while(|l| !l.trim_start().starts_with("--rename-step"))
        .flat_map(str::split_whitespace)
        .collect();
    assert_eq!(
        remove.join(" "),
        "--remove <PATH> Remove an entry or list item, with its comments. Removing a step (`steps.NAME`), a workflow node (`nodes.NAME`) or a topology node (`nodes[I]`) also removes what only points at it: `needs`, `parallel_steps` and `depends_on` entries, branches and decision-tree branches routing to it, degradations falling back to it, edges and gate routes (a review action routed to it ends the run instead), inspector controls bound to it, its canvas position. It is refused while an expression or input reads its output, or an invariant's `on_breach` or a terminal's `action` runs it"
    );
    assert!(
        help.contains("Edits apply one after another, in the order given"),
        "{help}"
    );
}

/// Issue #13, defect 1: setting a quoted value keeps the comment after it.
#[test]
fn set_keeps_the_comment_after_a_quoted_value() {
    let dir = Scratch::new("set");
    let file = dir.write(STEPS);
    let out = logicmd(&["edit", &file, "--set", "name=renamed", "--in-place"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        fs::read_to_string(&file).unwrap(),
        STEPS.replace("\"demo\"  # the name", "\"renamed\"  # the name")
    );
}
