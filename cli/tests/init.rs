//! `logicmd init` as users run it: the list, every template written, then linted, checked and
//! dry-run by the same binary; names, output files, refusals.

mod harness;

use std::fs;

use harness::{run_in, shell_words, transcript, Scratch};

fn logicmd(scratch: &Scratch, args: &[&str]) -> String {
    scratch.redact(&transcript(&run_in(&scratch.0, args, None)))
}

#[test]
fn the_list_names_every_template_in_both_formats() {
    let scratch = Scratch::new("init-list");
    insta::assert_snapshot!("list_human", logicmd(&scratch, &["init", "--list"]));
    insta::assert_snapshot!(
        "list_json",
        logicmd(&scratch, &["init", "--list", "--format", "json"])
    );
}

/// What a user does after `init`: every template, written under its own name, lints and passes
/// the obligation analysis without a finding, and its dry run completes.
#[test]
fn every_template_is_written_then_lints_checks_and_dry_runs() {
    let scratch = Scratch::new("init-all");
    let mut all = String::new();
    for template in logicmd::templates::TEMPLATES {
        let name = format!("my-{}", template.name);
        let file = template.file_name(&name);
        for args in [
            vec!["init", "--template", template.name, "--name", &name],
            vec!["lint", &file],
            vec!["check", &file],
            vec!["run", &file, "--dry-run"],
        ] {
            all.push_str(&format!("$ logicmd {}\n", shell_words(&args)));
            all.push_str(&logicmd(&scratch, &args));
            all.push('\n');
        }
        let written = fs::read_to_string(scratch.0.join(&file)).expect("init wrote the file");
        let expected = logicmd::templates::render(template, Some(&name)).expect("renders");
        assert_eq!(written, expected, "{}", template.name);
    }
    insta::assert_snapshot!("every_template", all);
}

#[test]
fn the_name_comes_from_the_flag_the_output_file_or_the_template() {
    let scratch = Scratch::new("init-names");
    let mut all = String::new();
    for args in [
        &["init"][..],
        &[
            "init",
            "--template",
            "react",
            "--output",
            "agents/researcher.logic.md",
        ],
        &[
            "init",
            "--template",
            "debate",
            "--name",
            "Design review: v2",
        ],
        &["init", "--template", "fact-check", "--output", "-"],
    ] {
        all.push_str(&format!("$ logicmd {}\n", shell_words(args)));
        all.push_str(&logicmd(&scratch, args));
        all.push('\n');
    }
    for file in [
        "minimal.logic.md",
        "agents/researcher.logic.md",
        "Design-review-v2.drtl.yaml",
    ] {
        let text = fs::read_to_string(scratch.0.join(file)).expect("written");
        let name_line = text.lines().find(|l| l.starts_with("name:")).unwrap_or("");
        all.push_str(&format!("{file}: {name_line}\n"));
    }
    insta::assert_snapshot!("names", all);
}

#[test]
fn refusals_change_nothing_and_say_what_to_do() {
    let scratch = Scratch::new("init-refusals");
    let existing = scratch.write("minimal.logic.md", "my notes\n");
    let mut all = String::new();
    for args in [
        &["init"][..],
        &["init", "--template", "fact-chek"],
        &[
            "init",
            "--template",
            "debate",
            "--output",
            "debate.logic.md",
        ],
        &["init", "--template", "react", "--output", "react.drtl.yaml"],
        &["init", "--name", ""],
        &["init", "--list", "--name", "x"],
    ] {
        all.push_str(&format!("$ logicmd {}\n", shell_words(args)));
        all.push_str(&logicmd(&scratch, args));
        all.push('\n');
    }
    assert_eq!(fs::read_to_string(&existing).unwrap(), "my notes\n");
    let left: Vec<String> = fs::read_dir(&scratch.0)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(left, ["minimal.logic.md"]);
    insta::assert_snapshot!("refusals", all);

    let forced = logicmd(&scratch, &["init", "--force"]);
    assert!(forced.starts_with("exit: 0"), "{forced}");
    assert_eq!(
        fs::read_to_string(&existing).unwrap(),
        logicmd::templates::render(
            logicmd::templates::find("minimal").unwrap(),
            Some("minimal")
        )
        .unwrap()
    );
}
