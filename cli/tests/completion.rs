//! `logicmd completion` and `logicmd man` as users install them: a script per shell that knows
//! every command and flag, and manual pages that render.

mod harness;

use std::process::Command;

use harness::{run_in, stdout, transcript, Scratch};

/// Every subcommand the CLI has, from its own help.
fn subcommands(scratch: &Scratch) -> Vec<String> {
    let help = stdout(&run_in(&scratch.0, &["--help"], None));
    help.split("Commands:")
        .nth(1)
        .unwrap_or_default()
        .lines()
        .skip(1)
        .take_while(|line| !line.trim().is_empty())
        .filter_map(|line| line.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_owned)
        .collect()
}

#[test]
fn every_shell_gets_a_script_naming_every_command_and_the_lint_flags() {
    let scratch = Scratch::new("completion");
    let commands = subcommands(&scratch);
    assert!(commands.len() >= 17, "{commands:?}");
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let out = run_in(&scratch.0, &["completion", shell], None);
        assert_eq!(out.status.code(), Some(0), "{shell}");
        let script = stdout(&out);
        for command in &commands {
            assert!(script.contains(command.as_str()), "{shell}: {command}");
        }
        for flag in ["fix", "unsafe-fixes", "max-warnings", "statistics"] {
            assert!(script.contains(flag), "{shell}: {flag}");
        }
        // The shells that complete values complete the formats.
        if ["bash", "zsh", "fish"].contains(&shell) {
            for value in ["sarif", "github"] {
                assert!(script.contains(value), "{shell}: {value}");
            }
        }
    }
    // The bash script parses.
    let script = stdout(&run_in(&scratch.0, &["completion", "bash"], None));
    let file = scratch.write("logicmd.bash", script);
    let checked = Command::new("bash")
        .arg("-n")
        .arg(&file)
        .output()
        .expect("bash runs");
    assert!(
        checked.status.success(),
        "{}",
        String::from_utf8_lossy(&checked.stderr)
    );
    let unknown = run_in(&scratch.0, &["completion", "tcsh"], None);
    assert_eq!(unknown.status.code(), Some(2));
}

#[test]
fn the_manual_pages_render() {
    let scratch = Scratch::new("man");
    let main = run_in(&scratch.0, &["man"], None);
    insta::assert_snapshot!("main_page", transcript(&main));
    let out = run_in(&scratch.0, &["man", "--output", "pages"], None);
    assert_eq!(out.status.code(), Some(0));
    let mut pages: Vec<String> = std::fs::read_dir(scratch.0.join("pages"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    pages.sort();
    let mut expected: Vec<String> = subcommands(&scratch)
        .iter()
        .map(|c| format!("logicmd-{c}.1"))
        .chain([
            "logicmd.1".to_owned(),
            "logicmd-trace-check.1".to_owned(),
            "logicmd-trace-export.1".to_owned(),
            "logicmd-evals-run.1".to_owned(),
            "logicmd-evals-compare.1".to_owned(),
        ])
        .collect();
    expected.sort();
    assert_eq!(pages, expected);
    // groff reads the lint page without a warning.
    let rendered = Command::new("groff")
        .args(["-k", "-man", "-Tutf8", "-ww", "-z"])
        .arg(scratch.0.join("pages/logicmd-lint.1"))
        .output();
    if let Ok(rendered) = rendered {
        assert!(rendered.status.success());
        assert_eq!(String::from_utf8_lossy(&rendered.stderr), "");
    }
}
