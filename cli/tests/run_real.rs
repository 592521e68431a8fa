//! `logicmd run --provider openai` against a real HTTP server on 127.0.0.1 (`loopback`), for
//! what only a real provider shows: waits that are really slept, model calls of one parallel
//! level really in flight together (as the server counts them), a crash at every point with
//! several calls in flight that makes no answered call again (as the server counts requests),
//! and one run at a time on a state.

mod harness;
mod loopback;

use std::collections::BTreeSet;
use std::fs;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use harness::{stderr, untimed, Scratch};
use loopback::{completion, error, Loopback, Recorded, Reply};
use serde_json::Value;

/// Four members read what `gather` found at once; `report` reads all four.
const FAN: &str = "---\nspec_version: \"1.0\"\nname: fan\nreasoning:\n  strategy: cot\nsteps:\n  gather:\n    description: Gather the facts\n  m1:\n    description: Member one\n    needs: [gather]\n  m2:\n    description: Member two\n    needs: [gather]\n  m3:\n    description: Member three\n    needs: [gather]\n  m4:\n    description: Member four\n    needs: [gather]\n  report:\n    description: Report\n    needs: [m1, m2, m3, m4]\n---\n";

/// The step a request is for: its system prompt starts `## Step: NAME`.
fn step_of(request: &Recorded) -> String {
    request.body["messages"][0]["content"]
        .as_str()
        .and_then(|system| system.strip_prefix("## Step: "))
        .and_then(|rest| rest.lines().next())
        .unwrap_or("?")
        .to_owned()
}

/// `logicmd ARGS` with the server as its provider (a resumed run's provider is in its state;
/// the server's address given again replaces the recorded one).
fn logicmd(dir: &Path, base_url: &str, args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_logicmd"));
    command.current_dir(dir).args(args);
    if !args.contains(&"--resume") {
        command.args(["--provider", "openai", "--model", "m", "--no-stream"]);
    }
    command
        .args([
            "--base-url",
            base_url,
            "--progress",
            "off",
            "--format",
            "json",
        ])
        .env_remove("OPENAI_API_KEY")
        .env_remove("OPENAI_BASE_URL")
        .env_remove("LOGICMD_TEST_CRASH")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    command
}

fn output(mut command: Command) -> Output {
    command.output().expect("logicmd runs")
}

#[test]
fn a_real_provider_sleeps_through_its_backoff() {
    let scratch = Scratch::new("real-waits");
    scratch.write(
        "retry.logic.md",
        "---\nspec_version: \"1.0\"\nname: r\nsteps:\n  only:\n    description: Answer\n    retry:\n      max_attempts: 3\n      initial_interval: 400ms\n      backoff_coefficient: 1\n---\n",
    );
    let server = Loopback::start(vec![
        error(500, "busy", &[]),
        error(503, "still busy", &[]),
        completion("done"),
    ]);
    let run = output(logicmd(
        &scratch.0,
        &server.base_url(),
        &["run", "retry.logic.md"],
    ));
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let requests = server.requests();
    assert_eq!(requests.len(), 3);
    for pair in requests.windows(2) {
        let gap = pair[1].at.duration_since(pair[0].at);
        assert!(
            gap >= Duration::from_millis(400),
            "the backoff of 400 ms was not slept: {gap:?} between requests"
        );
    }
}

/// Each member answers after a second.
fn slow_members(request: &Recorded) -> Reply {
    let step = step_of(request);
    let reply = completion(&format!("{step} says yes"));
    if step.starts_with('m') {
        Reply::Slow(Duration::from_secs(1), Box::new(reply))
    } else {
        reply
    }
}

#[test]
fn the_members_of_a_parallel_level_are_in_flight_together_and_fed_in_order() {
    let scratch = Scratch::new("real-parallel");
    scratch.write("fan.logic.md", FAN);
    for (parallel, expected) in [("4", 4), ("2", 2)] {
        let server = Loopback::answering(slow_members);
        let run = output(logicmd(
            &scratch.0,
            &server.base_url(),
            &[
                "run",
                "fan.logic.md",
                "--max-parallel",
                parallel,
                "--trace",
                "trace.jsonl",
            ],
        ));
        assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
        assert_eq!(
            server.most_at_once(),
            expected,
            "--max-parallel {parallel}: requests the server answered at once"
        );
        // Whatever order they finished in, the answers are fed in the order they were asked.
        let trace = fs::read_to_string(scratch.0.join("trace.jsonl")).unwrap();
        let answered: Vec<String> = trace
            .lines()
            .map(|l| serde_json::from_str::<Value>(l).unwrap())
            .filter(|e| e["event"] == "model_responded")
            .map(|e| e["node"].as_str().unwrap().to_owned())
            .collect();
        assert_eq!(answered, ["gather", "m1", "m2", "m3", "m4", "report"]);
    }
}

/// Members answer in reverse order (m1 last), so several calls are in flight at most points.
fn staggered(request: &Recorded) -> Reply {
    let step = step_of(request);
    let delay = match step.as_str() {
        "m1" => 400,
        "m2" => 300,
        "m3" => 200,
        "m4" => 100,
        _ => 0,
    };
    Reply::Slow(
        Duration::from_millis(delay),
        Box::new(completion(&format!("{step} says yes"))),
    )
}

/// The steps whose answers a state journal holds.
fn answered_in(state: &str) -> BTreeSet<String> {
    state
        .lines()
        .skip(1)
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .filter(|record| record["record"] == "answered")
        .filter_map(|record| {
            record["observation"]["text"]
                .as_str()
                .and_then(|text| text.split(' ').next())
                .map(str::to_owned)
        })
        .collect()
}

#[test]
fn a_crash_at_any_point_with_calls_in_flight_makes_no_answered_call_again() {
    let scratch = Scratch::new("real-crash");
    scratch.write("fan.logic.md", FAN);
    let args = [
        "run",
        "fan.logic.md",
        "--max-parallel",
        "4",
        "--trace",
        "trace.jsonl",
        "--state",
        "state.json",
    ];
    let whole_server = Loopback::answering(staggered);
    let whole = output(logicmd(&scratch.0, &whole_server.base_url(), &args));
    assert_eq!(whole.status.code(), Some(0), "{}", stderr(&whole));
    let whole_trace = untimed(&fs::read_to_string(scratch.0.join("trace.jsonl")).unwrap());
    let mut point = 1;
    // How many calls were in flight (asked, not answered) at each crash.
    let mut in_flight_at_crash = Vec::new();
    loop {
        for file in ["trace.jsonl", "state.json"] {
            let _ = fs::remove_file(scratch.0.join(file));
        }
        let server = Loopback::answering(staggered);
        let mut crashing = logicmd(&scratch.0, &server.base_url(), &args);
        crashing.env("LOGICMD_TEST_CRASH", format!("state:{point}"));
        let crashed = output(crashing);
        if crashed.status.code() == Some(0) {
            break; // past the last point
        }
        assert_eq!(crashed.status.code(), None, "state:{point} aborts");
        // What the crashed process sent has arrived by now.
        std::thread::sleep(Duration::from_millis(200));
        let before = server.requests().len();
        let state = fs::read_to_string(scratch.0.join("state.json")).unwrap_or_default();
        let answered = answered_in(&state);
        let asked_before: BTreeSet<String> = server.requests().iter().map(step_of).collect();
        in_flight_at_crash.push(asked_before.difference(&answered).count());

        let resumed = output(logicmd(
            &scratch.0,
            &server.base_url(),
            &["run", "--resume", "state.json"],
        ));
        assert_eq!(
            resumed.status.code(),
            Some(0),
            "resume after state:{point}: {}",
            stderr(&resumed)
        );
        let asked_again: Vec<String> = server.requests()[before..].iter().map(step_of).collect();
        for step in &asked_again {
            assert!(
                !answered.contains(step),
                "state:{point}: `{step}` was answered before the crash and asked again"
            );
        }
        let trace = fs::read_to_string(scratch.0.join("trace.jsonl")).unwrap();
        assert_eq!(
            untimed(&trace),
            whole_trace,
            "the trace after state:{point}"
        );
        point += 1;
    }
    assert!(point > 10, "every record was a crash point ({point})");
    // Crashes with 3, 2 and 1 members in flight (after the first, second and third answers),
    // each answer kept, none asked again.
    assert!(
        in_flight_at_crash.iter().filter(|n| **n > 0).count() >= 3
            && in_flight_at_crash.contains(&3),
        "calls in flight at each crash: {in_flight_at_crash:?}"
    );
}

/// Members answer 300, 600, 900 and 1,200 ms after they are asked (m4 first, m1 last).
fn spaced(request: &Recorded) -> Reply {
    let step = step_of(request);
    let delay = match step.as_str() {
        "m1" => 1_200,
        "m2" => 900,
        "m3" => 600,
        "m4" => 300,
        _ => 0,
    };
    Reply::Slow(
        Duration::from_millis(delay),
        Box::new(completion(&format!("{step} says yes"))),
    )
}

/// The scenario: SIGKILL while the slowest member is still in flight and the three others
/// have answered (seconds ago, for the machine): on resume only the slowest is asked again.
#[test]
fn a_kill_with_a_call_in_flight_repeats_none_of_the_answered_ones() {
    let scratch = Scratch::new("real-kill");
    scratch.write("fan.logic.md", FAN);
    let server = Loopback::answering(spaced);
    let mut running = logicmd(
        &scratch.0,
        &server.base_url(),
        &[
            "run",
            "fan.logic.md",
            "--max-parallel",
            "4",
            "--state",
            "state.json",
        ],
    )
    .spawn()
    .expect("logicmd runs");
    let started = std::time::Instant::now();
    while server.requests().len() < 5 && started.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(5));
    }
    let members_asked = server.requests()[1..5].iter().map(|r| r.at).max().unwrap();
    // m4, m3 and m2 have answered (at 300, 600 and 900 ms); m1 answers at 1,200 ms.
    std::thread::sleep(Duration::from_millis(1_050).saturating_sub(members_asked.elapsed()));
    running.kill().expect("the run is killed");
    let _ = running.wait();
    std::thread::sleep(Duration::from_millis(200));
    let before = server.requests().len();
    let resumed = output(logicmd(
        &scratch.0,
        &server.base_url(),
        &["run", "--resume", "state.json"],
    ));
    assert_eq!(resumed.status.code(), Some(0), "{}", stderr(&resumed));
    let asked_again: Vec<String> = server.requests()[before..].iter().map(step_of).collect();
    assert_eq!(asked_again, ["m1", "report"]);
}

#[test]
fn a_second_run_on_a_state_in_use_is_refused_naming_the_holder() {
    let scratch = Scratch::new("real-lock");
    scratch.write("fan.logic.md", FAN);
    let server = Loopback::answering(slow_members);
    let mut first = logicmd(
        &scratch.0,
        &server.base_url(),
        &["run", "fan.logic.md", "--state", "state.json"],
    )
    .spawn()
    .expect("logicmd runs");
    // The first run holds the state once it has written it.
    let started = std::time::Instant::now();
    while server.requests().is_empty() && started.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(20));
    }
    let second = output(logicmd(
        &scratch.0,
        &server.base_url(),
        &["run", "--resume", "state.json"],
    ));
    let third = output(logicmd(
        &scratch.0,
        &server.base_url(),
        &["run", "fan.logic.md", "--state", "state.json"],
    ));
    let first_pid = first.id();
    let finished = first.wait().expect("the first run ends");
    assert!(finished.success());
    for refused in [&second, &third] {
        assert_eq!(refused.status.code(), Some(2), "{}", stderr(refused));
        let message = scratch.redact(&stderr(refused));
        assert!(
            message.starts_with(&format!(
                "error: the state state.json is in use by another logicmd run (pid {first_pid}: "
            )),
            "{message}"
        );
        assert!(
            message.ends_with(
                "one run at a time may carry a state on (wait for it to end, or stop it)\n"
            ),
            "{message}"
        );
    }
    // Six steps, each asked once: the refused runs asked nothing.
    assert_eq!(server.requests().len(), 6);
}
