//! What the CLI tests share: a scratch directory that cleans up after itself, and running the
//! binary (optionally from another working directory, optionally with standard input).

#![allow(dead_code)] // each test file uses a different part

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// A fresh directory under the system's temporary directory, removed on drop.
pub struct Scratch(pub PathBuf);

impl Scratch {
    pub fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("logicmd-cli-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).expect("the scratch directory can be created");
        // Canonical, so paths printed by the binary (which canonicalizes) match ours.
        Scratch(dir.canonicalize().expect("the scratch directory exists"))
    }

    pub fn write(&self, name: &str, contents: impl AsRef<[u8]>) -> PathBuf {
        let path = self.0.join(name);
        fs::create_dir_all(path.parent().expect("a file has a parent"))
            .expect("parent directories can be created");
        fs::write(&path, contents).expect("the file can be written");
        path
    }

    pub fn dir(&self, name: &str) -> PathBuf {
        let path = self.0.join(name);
        fs::create_dir_all(&path).expect("the directory can be created");
        path
    }

    /// `text` with this directory's path replaced by `[SCRATCH]`, for snapshots.
    pub fn redact(&self, text: &str) -> String {
        text.replace(&self.0.display().to_string(), "[SCRATCH]")
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

/// Runs `logicmd args` in `cwd` with `stdin` as standard input.
pub fn run_in(cwd: &Path, args: &[&str], stdin: Option<&[u8]>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_logicmd"))
        .args(args)
        .current_dir(cwd)
        // Reports are compared as plain text: the caller's colour settings stay out.
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .env_remove("CLICOLOR")
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the logicmd binary runs");
    let writer = match (stdin, child.stdin.take()) {
        (Some(input), Some(mut pipe)) => {
            let input = input.to_vec();
            // A thread, so a child writing much output cannot block on us while we write.
            // The binary may stop reading early (a size limit): a broken pipe is its answer.
            Some(std::thread::spawn(move || {
                let _ = pipe.write_all(&input);
            }))
        }
        _ => None,
    };
    let output = child
        .wait_with_output()
        .expect("the logicmd binary finishes");
    if let Some(writer) = writer {
        writer.join().expect("the stdin writer ends");
    }
    output
}

pub fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// A JSON Lines trace's events without what changes from run to run on a real clock (`t`,
/// `duration_ms`, `latency_ms`).
pub fn untimed(trace: &str) -> Vec<serde_json::Value> {
    trace
        .lines()
        .map(|line| {
            let mut event: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
            if let Some(map) = event.as_object_mut() {
                for key in ["t", "duration_ms", "latency_ms", "start_ms"] {
                    map.remove(key);
                }
            }
            event
        })
        .collect()
}

/// The exit status, standard output and standard error of a run, for a whole-output snapshot.
pub fn transcript(output: &Output) -> String {
    format!(
        "exit: {}\n--- stdout\n{}--- stderr\n{}",
        output
            .status
            .code()
            .map_or_else(|| "signal".to_owned(), |c| c.to_string()),
        stdout(output),
        stderr(output)
    )
}

/// A scratch project (a `.git` directory marks its root) holding `files`.
pub fn project(name: &str, files: &[(&str, &str)]) -> Scratch {
    let scratch = Scratch::new(name);
    scratch.dir(".git");
    for (path, text) in files {
        scratch.write(path, text);
    }
    scratch
}

/// Runs `logicmd args` in `cwd` with `vars` set (and no other colour settings).
pub fn run_with_env(cwd: &Path, args: &[&str], vars: &[(&str, &str)]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_logicmd"));
    command
        .args(args)
        .current_dir(cwd)
        .stdin(Stdio::null())
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .env_remove("CLICOLOR");
    for (name, value) in vars {
        command.env(name, value);
    }
    command.output().expect("the logicmd binary runs")
}

/// The arguments as a shell line: quoted when empty or holding a space.
pub fn shell_words(args: &[&str]) -> String {
    args.iter()
        .map(|arg| {
            if arg.is_empty() || arg.contains(' ') {
                format!("'{arg}'")
            } else {
                (*arg).to_owned()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Runs each command in `scratch` and gives one transcript of them all (`$ logicmd ARGS`, then
/// its exit status and output, the scratch path redacted), for a whole-output snapshot.
pub fn session(scratch: &Scratch, commands: &[&[&str]]) -> String {
    let mut all = String::new();
    for args in commands {
        all.push_str(&format!("$ logicmd {}\n", shell_words(args)));
        all.push_str(&scratch.redact(&transcript(&run_in(&scratch.0, args, None))));
        all.push('\n');
    }
    all
}
