//! What the trace tests share: the scenario documents under `tests/trace/scenarios/`, and a
//! driver that runs one with the scripted (or synthetic) provider to its end or a pause.
//! Included by `trace_builtins.rs`, `trace_otlp.rs` and the CLI's `tests/trace.rs` (`#[path]`).

#![allow(dead_code)]

use std::fs;
use std::path::{Path, PathBuf};

use logicmd::analysis::Options;
use logicmd::loader::MemoryLoader;
use logicmd::run::{prepare, ActionKind, Answer, Provider, Run, RunOptions, Scripted, Synthetic};
use serde_json::{json, Value};

/// `tests/trace/scenarios`, from the tests crate and from the CLI's tests alike.
pub fn scenarios_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/trace/scenarios")
}

pub enum Answers {
    Script(&'static str),
    Synthetic(u64),
}

pub struct Scenario {
    pub name: &'static str,
    pub document: &'static str,
    pub answers: Answers,
    /// How the run ends: `completed`, `failed`, `refused`, or `paused` for a review.
    pub ending: &'static str,
}

pub const SCENARIOS: &[Scenario] = &[
    Scenario {
        name: "chain",
        document: "chain.logic.md",
        answers: Answers::Synthetic(7),
        ending: "completed",
    },
    Scenario {
        name: "retry",
        document: "retry.logic.md",
        answers: Answers::Script("retry.script.yaml"),
        ending: "completed",
    },
    Scenario {
        name: "revise",
        document: "revise.logic.md",
        answers: Answers::Script("revise.script.yaml"),
        ending: "completed",
    },
    Scenario {
        name: "escalate",
        document: "escalate.logic.md",
        answers: Answers::Script("escalate.script.yaml"),
        ending: "completed",
    },
    Scenario {
        name: "strategy",
        document: "strategy.logic.md",
        answers: Answers::Script("strategy.script.yaml"),
        ending: "completed",
    },
    Scenario {
        name: "abort",
        document: "abort.logic.md",
        answers: Answers::Script("abort.script.yaml"),
        ending: "failed",
    },
    Scenario {
        name: "skip",
        document: "skip.logic.md",
        answers: Answers::Script("skip.script.yaml"),
        ending: "completed",
    },
    Scenario {
        name: "loop",
        document: "loop.logic.md",
        answers: Answers::Script("loop.script.yaml"),
        ending: "completed",
    },
    Scenario {
        name: "tree",
        document: "tree.logic.md",
        answers: Answers::Script("tree.script.yaml"),
        ending: "completed",
    },
    Scenario {
        name: "parallel",
        document: "parallel.logic.md",
        answers: Answers::Script("parallel.script.yaml"),
        ending: "completed",
    },
    Scenario {
        name: "workflow-retry-source",
        document: "workflow/contract.logic.md",
        answers: Answers::Script("workflow/contract.script.yaml"),
        ending: "completed",
    },
    Scenario {
        name: "workflow-skip",
        document: "workflow/skip.logic.md",
        answers: Answers::Script("workflow/skip.script.yaml"),
        // The writer, the workflow's final node, is skipped: there is no output to give.
        ending: "failed",
    },
    Scenario {
        name: "workflow-abort",
        document: "workflow/abort.logic.md",
        answers: Answers::Script("workflow/abort.script.yaml"),
        ending: "failed",
    },
    Scenario {
        name: "escalate-paused",
        document: "escalate.logic.md",
        answers: Answers::Script("escalate.script.yaml"),
        ending: "paused",
    },
];

/// Every file of the scenarios directory, by its path relative to it.
pub fn loader() -> MemoryLoader {
    let mut loader = MemoryLoader::new();
    let mut stack = vec![scenarios_dir()];
    while let Some(dir) = stack.pop() {
        for entry in fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let id = path
                    .strip_prefix(scenarios_dir())
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/");
                loader
                    .insert(&id, fs::read_to_string(&path).unwrap())
                    .unwrap();
            }
        }
    }
    loader
}

/// Runs to the end, or to a review the provider does not answer (a pause); the clock advances
/// by each wait and by 10 ms per answer, so traces have times.
pub fn drive(run: &mut Run, provider: &mut dyn Provider) -> (Vec<Value>, String) {
    let mut trace = run.take_events();
    let mut clock = 0;
    loop {
        let actions = run.next();
        if actions.is_empty() {
            trace.extend(run.take_events());
            return (trace, "stalled".into());
        }
        for action in actions {
            let ending = match &action.kind {
                ActionKind::Complete { .. } => Some("completed"),
                ActionKind::Refuse { .. } => Some("refused"),
                ActionKind::Fail { .. } => Some("failed"),
                _ => None,
            };
            if let Some(ending) = ending {
                trace.extend(run.take_events());
                return (trace, ending.into());
            }
            clock += match action.kind {
                ActionKind::Wait { ms, .. } => ms,
                _ => 10,
            };
            run.set_clock(clock);
            match provider.answer(&action, &mut |_| {}) {
                Answer::Observed(observation) => run.feed(&action.id, observation).unwrap(),
                Answer::Unanswered(why) => {
                    trace.extend(run.take_events());
                    let paused = matches!(action.kind, ActionKind::AskReview { .. });
                    return (
                        trace,
                        if paused {
                            "paused".into()
                        } else {
                            format!("unanswered: {why}")
                        },
                    );
                }
            }
        }
    }
}

/// A script without its review answers: the run pauses at the review.
pub fn without_reviews(script: &str) -> String {
    script
        .lines()
        .filter(|line| !line.contains("review:"))
        .collect::<Vec<_>>()
        .join("\n")
}

pub fn start(scenario: &Scenario) -> (Run, Box<dyn Provider>) {
    let loader = loader();
    let text = fs::read_to_string(scenarios_dir().join(scenario.document)).unwrap();
    let source = prepare(&text, &Options::lint(scenario.document), &loader)
        .unwrap_or_else(|problems| panic!("{}: {problems:?}", scenario.name));
    let provider: Box<dyn Provider> = match scenario.answers {
        Answers::Synthetic(seed) => Box::new(Synthetic::new(&source, seed)),
        Answers::Script(script) => {
            let mut script = fs::read_to_string(scenarios_dir().join(script)).unwrap();
            if scenario.ending == "paused" {
                script = without_reviews(&script);
            }
            Box::new(Scripted::parse(&script).unwrap())
        }
    };
    let run = Run::start(
        source,
        json!({"topic": "trace checks"}),
        RunOptions::default(),
    )
    .unwrap();
    (run, provider)
}

pub fn run_scenario(scenario: &Scenario) -> Vec<Value> {
    let (mut run, mut provider) = start(scenario);
    let (trace, ending) = drive(&mut run, provider.as_mut());
    assert_eq!(ending, scenario.ending, "{}: {trace:#?}", scenario.name);
    trace
}
