//! Crash safety of `logicmd run --state`: the process is stopped at every point (right after
//! each state write and right after each trace line, by the test-only `LOGICMD_TEST_CRASH`, and
//! at random moments by SIGKILL), then `--resume` finishes the run; the trace must equal the
//! uninterrupted run's byte for byte, and the result must be the same.

mod harness;

use std::fs;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use harness::{stderr, stdout, Scratch};
use serde_json::Value;

fn scenario(name: &str) -> Scratch {
    let scratch = Scratch::new(&format!("crash-{name}"));
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/run");
    for file in [
        "review.logic.md",
        "answers.yaml",
        "plain.logic.md",
        "retried.yaml",
    ] {
        scratch.write(
            file,
            fs::read(fixtures.join(file)).expect("the fixture is readable"),
        );
    }
    scratch
}

fn logicmd(dir: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_logicmd"));
    command
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    command
}

const RUN: &[&str] = &[
    "run",
    "review.logic.md",
    "--provider",
    "scripted:answers.yaml",
    "--trace",
    "trace.jsonl",
    "--state",
    "state.json",
    "--format",
    "json",
    "--progress",
    "off",
];

const RESUME: &[&str] = &[
    "run",
    "--resume",
    "state.json",
    "--format",
    "json",
    "--progress",
    "off",
];

fn clean(dir: &Path) {
    for file in ["trace.jsonl", "state.json"] {
        let _ = fs::remove_file(dir.join(file));
    }
}

fn run(dir: &Path, args: &[&str], crash: Option<&str>) -> Output {
    let mut command = logicmd(dir);
    command.args(args);
    if let Some(point) = crash {
        command.env("LOGICMD_TEST_CRASH", point);
    }
    command.output().expect("logicmd runs")
}

/// Kills at `kind:N` for every N until the run gets through, resuming each time.
fn crash_at_every(
    kind: &str,
    dir: &Path,
    args: &[&str],
    whole: &Output,
    whole_trace: &[u8],
) -> u64 {
    let mut n = 1;
    loop {
        clean(dir);
        let crashed = run(dir, args, Some(&format!("{kind}:{n}")));
        if crashed.status.code() == Some(0) {
            // Past the last point: the run ended without crashing.
            assert_eq!(crashed.stdout, whole.stdout);
            return n - 1;
        }
        assert_eq!(
            crashed.status.code(),
            None,
            "{kind}:{n} should abort: {}",
            stderr(&crashed)
        );
        let resumed = run(dir, RESUME, None);
        assert_eq!(
            resumed.status.code(),
            Some(0),
            "resume after {kind}:{n}: {}",
            stderr(&resumed)
        );
        assert_eq!(
            stdout(&resumed),
            stdout(whole),
            "the result after a crash at {kind}:{n}"
        );
        let trace = fs::read(dir.join("trace.jsonl")).expect("the trace exists");
        assert!(
            trace == whole_trace,
            "the trace after a crash at {kind}:{n} differs:\n{}",
            String::from_utf8_lossy(&trace)
        );
        n += 1;
    }
}

/// Crashes `args`' run at every point; returns (state writes, trace lines) crashed at.
fn crash_everywhere(name: &str, args: &[&str]) -> (u64, u64) {
    let scratch = scenario(name);
    let dir = scratch.0.as_path();
    let whole = run(dir, args, None);
    assert!(whole.status.success(), "{}", stderr(&whole));
    let whole_trace = fs::read(dir.join("trace.jsonl")).expect("the trace exists");
    let events = whole_trace.iter().filter(|b| **b == b'\n').count() as u64;
    let state_points = crash_at_every("state", dir, args, &whole, &whole_trace);
    let trace_points = crash_at_every("trace", dir, args, &whole, &whole_trace);
    // Every event line was a crash point.
    assert_eq!(trace_points, events);
    (state_points, trace_points)
}

#[test]
fn a_crash_after_any_state_write_or_trace_line_loses_nothing_and_repeats_nothing() {
    // Retries with waits, an invalid answer, a parallel level, a review answered by the script:
    // a state write at the start and after each of the 8 observations.
    assert_eq!(crash_everywhere("every-point", RUN), (9, 33));
}

#[test]
fn a_resumed_script_does_not_use_an_answer_twice() {
    let args: Vec<&str> = RUN
        .iter()
        .map(|a| match *a {
            "review.logic.md" => "plain.logic.md",
            "scripted:answers.yaml" => "scripted:retried.yaml",
            other => other,
        })
        .collect();
    let (state_points, _) = crash_everywhere("script", &args);
    assert_eq!(state_points, 5);
}

#[test]
fn a_torn_trace_line_is_cut_and_written_again() {
    let scratch = scenario("torn");
    let dir = scratch.0.as_path();
    let whole = run(dir, RUN, None);
    let whole_trace = fs::read(dir.join("trace.jsonl")).expect("the trace exists");
    clean(dir);
    let crashed = run(dir, RUN, Some("trace:12"));
    assert_eq!(crashed.status.code(), None);
    let mut trace = fs::read(dir.join("trace.jsonl")).expect("the trace exists");
    trace.extend_from_slice(b"{\"seq\":12,\"event\":\"model_re");
    fs::write(dir.join("trace.jsonl"), &trace).expect("the trace is writable");
    let resumed = run(dir, RESUME, None);
    assert_eq!(resumed.stdout, whole.stdout, "{}", stderr(&resumed));
    assert_eq!(
        fs::read(dir.join("trace.jsonl")).expect("the trace exists"),
        whole_trace
    );
}

#[test]
fn a_trace_of_another_run_is_refused_on_resume() {
    let scratch = scenario("foreign");
    let dir = scratch.0.as_path();
    let crashed = run(dir, RUN, Some("state:6"));
    assert_eq!(crashed.status.code(), None);
    fs::write(
        dir.join("trace.jsonl"),
        "{\"seq\":0,\"event\":\"run_started\"}\n",
    )
    .unwrap();
    let resumed = run(dir, RESUME, None);
    assert_eq!(resumed.status.code(), Some(2));
    assert_eq!(
        scratch.redact(&stderr(&resumed)),
        "error: the trace [SCRATCH]/trace.jsonl differs from the run at line 1: it is not this run's trace\n"
    );
}

/// The same scenario on a real clock, whose waits really sleep, killed with SIGKILL at moments
/// spread over the run: the times differ from run to run, everything else must not.
#[test]
fn a_sigkill_at_random_moments_loses_nothing_and_repeats_no_model_call() {
    let scratch = scenario("sigkill");
    let dir = scratch.0.as_path();
    // Short waits, so that the run takes about a second.
    let answers = fs::read_to_string(dir.join("answers.yaml"))
        .unwrap()
        .replace("retry_after_ms: 2000", "retry_after_ms: 600");
    fs::write(dir.join("answers.yaml"), answers).unwrap();
    let real: Vec<&str> = RUN.iter().copied().chain(["--clock", "real"]).collect();

    let started = Instant::now();
    let whole = run(dir, &real, None);
    let took = started.elapsed();
    assert_eq!(whole.status.code(), Some(0), "{}", stderr(&whole));
    let whole_trace = untimed(&fs::read_to_string(dir.join("trace.jsonl")).unwrap());
    let whole_output = untimed_result(&whole);

    let mut seed = u64::from(std::process::id()) ^ started.elapsed().as_nanos() as u64;
    for _ in 0..5 {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        let delay = Duration::from_millis((seed >> 33) % took.as_millis().max(1) as u64);
        clean(dir);
        let mut child = logicmd(dir).args(&real).spawn().expect("logicmd runs");
        std::thread::sleep(delay);
        let _ = child.kill();
        let _ = child.wait();
        if !dir.join("state.json").exists() {
            continue; // killed before the first state write: nothing to resume
        }
        let resumed = run(dir, RESUME, None);
        assert_eq!(
            resumed.status.code(),
            Some(0),
            "resume after a kill at {delay:?}: {}",
            stderr(&resumed)
        );
        assert_eq!(untimed_result(&resumed), whole_output, "kill at {delay:?}");
        let trace = fs::read_to_string(dir.join("trace.jsonl")).unwrap();
        assert_eq!(untimed(&trace), whole_trace, "kill at {delay:?}");
    }
}

/// Trace events without their times (`t`, `duration_ms`, a wall-clock run's `start_ms`).
fn untimed(trace: &str) -> Vec<Value> {
    trace
        .lines()
        .map(|line| {
            let mut event: Value = serde_json::from_str(line).expect("a JSON line");
            if let Some(map) = event.as_object_mut() {
                map.remove("t");
                map.remove("duration_ms");
                map.remove("start_ms");
            }
            event
        })
        .collect()
}

fn untimed_result(output: &Output) -> Value {
    let mut result: Value = serde_json::from_slice(&output.stdout).expect("a JSON result");
    if let Some(summary) = result.get_mut("summary").and_then(Value::as_object_mut) {
        summary.remove("time_ms");
    }
    result
}

mod property {
    use proptest::prelude::*;

    use super::*;

    /// One scripted answer to a node's model call.
    #[derive(Debug, Clone)]
    enum Reply {
        Valid { good: bool, latency: u64 },
        Invalid,
        RateLimited { retry_after: u64 },
        Refused,
    }

    fn reply() -> impl Strategy<Value = Reply> {
        prop_oneof![
            3 => (any::<bool>(), 0u64..400).prop_map(|(good, latency)| Reply::Valid { good, latency }),
            1 => Just(Reply::Invalid),
            1 => prop_oneof![Just(0u64), Just(700)].prop_map(|retry_after| Reply::RateLimited { retry_after }),
            1 => Just(Reply::Refused),
        ]
    }

    fn entry(node: &str, reply: &Reply) -> String {
        let valid = match node {
            "gather" => "json: {sources: [a.example, b.example]}".to_owned(),
            "report" => String::new(),
            _ => format!("text: '{node} read it'"),
        };
        match reply {
            Reply::Valid { good, latency } if node == "report" => format!(
                "- {{node: report, json: {{confidence: {}}}, latency_ms: {latency}}}",
                if *good { 0.9 } else { 0.4 }
            ),
            Reply::Valid { latency, .. } => {
                format!("- {{node: {node}, {valid}, latency_ms: {latency}}}")
            }
            Reply::Invalid if node == "gather" => format!("- {{node: {node}, text: nope}}"),
            Reply::Invalid => format!("- {{node: {node}, text: ''}}"),
            Reply::RateLimited { retry_after } => format!(
                "- {{node: {node}, error: {{kind: RateLimitError, message: slow, retryable: true, retry_after_ms: {retry_after}}}}}"
            ),
            Reply::Refused => format!(
                "- {{node: {node}, error: {{kind: AuthenticationError, message: no, retryable: false}}}}"
            ),
        }
    }

    fn script() -> impl Strategy<Value = String> {
        let node = || prop::collection::vec(reply(), 1..4);
        let review = prop_oneof![
            Just(None),
            Just(Some("accept")),
            Just(Some("retry")),
            Just(Some("abort"))
        ];
        (node(), node(), node(), node(), review).prop_map(|(g, l, r, p, review)| {
            let mut lines = Vec::new();
            for (name, replies) in [("gather", g), ("left", l), ("right", r), ("report", p)] {
                lines.extend(replies.iter().map(|reply| entry(name, reply)));
            }
            if let Some(action) = review {
                lines.push(format!("- {{node: report, review: {action}}}"));
            }
            lines.join("\n") + "\n"
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

        /// Whatever the answers (retries, waits, failures, pauses), the parallelism (1 throttles
        /// the parallel level) and the crash point, crash + resume ends exactly as the whole run.
        #[test]
        fn any_run_crashed_anywhere_resumes_to_the_same_end(
            script in script(),
            parallel in 1u64..3,
            at_state in any::<bool>(),
            point in 1u64..40,
        ) {
            let scratch = scenario("property");
            let dir = scratch.0.as_path();
            scratch.write("random.yaml", &script);
            let parallel = parallel.to_string();
            let args: Vec<&str> = RUN
                .iter()
                .map(|a| if *a == "scripted:answers.yaml" { "scripted:random.yaml" } else { a })
                .chain(["--max-parallel", &parallel])
                .collect();
            let whole = run(dir, &args, None);
            prop_assert!(matches!(whole.status.code(), Some(0 | 1 | 3)), "{}", stderr(&whole));
            let whole_trace = fs::read(dir.join("trace.jsonl")).expect("the trace exists");

            clean(dir);
            let kind = if at_state { "state" } else { "trace" };
            let crashed = run(dir, &args, Some(&format!("{kind}:{point}")));
            let last = if crashed.status.code().is_none() {
                run(dir, RESUME, None)
            } else {
                crashed
            };
            prop_assert_eq!(last.status.code(), whole.status.code(), "{}", stderr(&last));
            prop_assert_eq!(stdout(&last), stdout(&whole));
            let trace = fs::read(dir.join("trace.jsonl")).expect("the trace exists");
            prop_assert!(trace == whole_trace, "the traces differ:\n{}", String::from_utf8_lossy(&trace));
        }
    }
}
