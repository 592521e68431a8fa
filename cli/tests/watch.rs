//! `logicmd watch` as users run it: a real process watching a real directory, edited by the
//! test; what it re-checks (the file, and what imports it), what it leaves alone (a file read,
//! touched or written with the same contents, its own fixes), whole outputs.

mod harness;

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

use harness::{project, Scratch};

/// A running `logicmd watch`, its standard output read line by line.
struct Watching {
    child: Child,
    lines: Receiver<String>,
    seen: Vec<String>,
}

impl Watching {
    fn start(scratch: &Scratch, args: &[&str]) -> Watching {
        let mut child = Command::new(env!("CARGO_BIN_EXE_logicmd"))
            .arg("watch")
            .args(["--debounce", "100"])
            .args(args)
            .current_dir(&scratch.0)
            .env_remove("NO_COLOR")
            .env_remove("CLICOLOR_FORCE")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("logicmd watch starts");
        let stdout = child.stdout.take().expect("piped");
        let (sender, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        Watching {
            child,
            lines,
            seen: Vec::new(),
        }
    }

    /// Reads until a summary line (`N files checked`) arrives, or fails after 20 s.
    fn round(&mut self) {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = self
                .lines
                .recv_timeout(left)
                .unwrap_or_else(|_| panic!("no report in time; so far:\n{}", self.seen.join("\n")));
            let done = line.contains(" checked: ");
            self.seen.push(line);
            if done {
                // The fix summary, if any, follows the file summary at once.
                if let Ok(more) = self.lines.recv_timeout(Duration::from_millis(300)) {
                    self.seen.push(more);
                }
                return;
            }
        }
    }

    /// Asserts that nothing more is printed for a while (no round started).
    fn quiet_for(&mut self, wait: Duration) {
        if let Ok(line) = self.lines.recv_timeout(wait) {
            panic!(
                "unexpected output: {line}\nafter:\n{}",
                self.seen.join("\n")
            );
        }
    }

    /// What was printed, the time of each round's header replaced.
    fn transcript(mut self) -> String {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let clock = regex::Regex::new(r"^\[\d\d:\d\d:\d\d\]").expect("a regex");
        self.seen
            .iter()
            .map(|line| clock.replace(line, "[HH:MM:SS]").into_owned() + "\n")
            .collect()
    }
}

impl Drop for Watching {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

const BASE: &str =
    "---\nspec_version: \"1.0\"\nname: base\nsteps:\n  seed:\n    description: Seed\n---\n";
const USER: &str = "---\nspec_version: \"1.0\"\nname: user\nimports:\n  - ref: ./shared/base.logic.md\n    as: base\nsteps:\n  use:\n    description: Use\n---\n";
const OTHER: &str =
    "---\nspec_version: \"1.0\"\nname: other\nsteps:\n  b:\n    description: B\n---\n";

/// Lets the watcher settle between edits, so each edit is its own round.
fn pause() {
    std::thread::sleep(Duration::from_millis(400));
}

#[test]
fn an_edit_rechecks_the_file_and_what_imports_it_and_nothing_else() {
    let scratch = project(
        "watch",
        &[
            ("shared/base.logic.md", BASE),
            ("user.logic.md", USER),
            ("other.logic.md", OTHER),
        ],
    );
    let mut watching = Watching::start(&scratch, &[]);
    watching.round();
    pause();
    scratch.write(
        "shared/base.logic.md",
        BASE.replace("Seed\n", "Seed\n    needs: [sed]\n"),
    );
    watching.round();
    pause();
    // Touching a file, or writing what it already holds, is no change.
    scratch.write("other.logic.md", OTHER);
    let _ = std::fs::read(scratch.0.join("user.logic.md"));
    watching.quiet_for(Duration::from_millis(800));
    scratch.write(
        "other.logic.md",
        OTHER.replace("B\n", "B\n    needs: [b, b]\n"),
    );
    watching.round();
    insta::assert_snapshot!("imports", watching.transcript());
}

#[test]
fn fixes_while_watching_start_no_round_of_their_own() {
    let scratch = project(
        "watch-fix",
        &[(
            "other.logic.md",
            "---\nspec_version: \"1.0\"\nname: other\nsteps:\n  a:\n    description: A\n  b:\n    description: B\n    needs: [a, a]\n---\n",
        )],
    );
    let mut watching = Watching::start(&scratch, &["--fix"]);
    watching.round();
    watching.quiet_for(Duration::from_millis(800));
    pause();
    scratch.write(
        "other.logic.md",
        "---\nspec_version: \"1.0\"\nname: other\nsteps:\n  a:\n    description: A\n  b:\n    description: B\n    needs: [aa]\n---\n",
    );
    watching.round();
    watching.quiet_for(Duration::from_millis(800));
    let text = std::fs::read_to_string(scratch.0.join("other.logic.md")).unwrap();
    assert!(text.contains("needs: [a]"), "{text}");
    insta::assert_snapshot!("fix", watching.transcript());
}
