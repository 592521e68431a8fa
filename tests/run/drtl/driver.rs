//! Drives DRTL runs in tests: prepares a topology (with the prompt and protocol files beside
//! it), answers actions from a provider, answers tool calls the provider
//! leaves unanswered as "unverifiable" (what `--dry-run` does), reviews from a queue, and keeps
//! the whole trace. The clock moves only by the waits the run asks for.

#![allow(dead_code)]

use std::collections::VecDeque;
use std::fs;

use logicmd::analysis::Options;
use logicmd::loader::MemoryLoader;
use logicmd::run::{
    prepare, Action, ActionKind, Answer, Observation, Provider, Run, RunOptions, Source, Verdict,
};
use logicmd_tests::workspace_root;
use serde_json::Value;

/// How a driven run stopped.
pub struct Outcome {
    pub trace: Vec<Value>,
    /// The ending, or the review the run waits for.
    pub last: Option<Action>,
}

impl Outcome {
    /// `completed`, `refused`, `failed`, or `paused at NODE`.
    pub fn verdict(&self) -> String {
        match self.last.as_ref().map(|a| &a.kind) {
            Some(ActionKind::Complete { .. }) => "completed".to_owned(),
            Some(ActionKind::Refuse { .. }) => "refused".to_owned(),
            Some(ActionKind::Fail { .. }) => "failed".to_owned(),
            Some(ActionKind::AskReview { node, .. }) => format!("paused at {node}"),
            other => format!("stopped at {other:?}"),
        }
    }

    /// The trace as JSON Lines, as a driver writes it.
    pub fn bytes(&self) -> String {
        self.trace
            .iter()
            .map(|e| serde_json::to_string(e).unwrap() + "\n")
            .collect()
    }

    /// `event node` per line: the shape of a run at a glance.
    pub fn outline(&self) -> Vec<String> {
        self.trace
            .iter()
            .map(|e| {
                let node = e.get("node").and_then(Value::as_str).unwrap_or("");
                format!("{} {node}", e["event"].as_str().unwrap_or("?"))
                    .trim_end()
                    .to_owned()
            })
            .collect()
    }
}

/// A loader with the topology at `id` and the prompt and protocol files beside it (`prompts/`,
/// `protocols/` of its directory in the workspace), as the CLI's loader would find them.
fn loader_with(id: &str, text: &str) -> MemoryLoader {
    let mut loader = MemoryLoader::new().with(id, text);
    let dir = id.rsplit_once('/').map_or("", |(dir, _)| dir);
    for kind in ["prompts", "protocols"] {
        let Ok(entries) = fs::read_dir(workspace_root().join(dir).join(kind)) else {
            continue;
        };
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let text = fs::read_to_string(entry.path()).unwrap();
            loader
                .insert(&format!("{dir}/{kind}/{name}"), text)
                .unwrap();
        }
    }
    loader
}

/// A topology's text as the file `id` (workspace-relative), prepared as `logicmd run` would
/// (lint-clean, files read).
pub fn source_at(id: &str, text: &str) -> Source {
    match prepare(
        text,
        &Options::lint(id).with_path(id),
        &loader_with(id, text),
    ) {
        Ok(source) => source,
        Err(problems) => panic!(
            "`{id}` does not prepare: {:#?}",
            problems
                .iter()
                .map(|p| (&p.code, &p.message, p.line))
                .collect::<Vec<_>>()
        ),
    }
}

/// A topology's text, prepared as a file of `tests/run/drtl`.
pub fn source_of(text: &str) -> Source {
    source_at("tests/run/drtl/inline.drtl.yaml", text)
}

/// A topology file of the workspace, prepared.
pub fn source(path: &str) -> Source {
    source_at(
        path,
        &fs::read_to_string(workspace_root().join(path)).unwrap(),
    )
}

pub fn start(source: &Source, input: Value) -> Run {
    Run::start(source.clone(), input, RunOptions::default()).expect("starts")
}

/// Runs until the end, or until only a review is left that `reviews` has no answer for.
pub fn drive(run: &mut Run, provider: &mut dyn Provider, reviews: &mut VecDeque<&str>) -> Outcome {
    let mut trace = run.take_events();
    let mut clock = 0;
    let mut waiting_review = None;
    loop {
        let actions = run.next();
        trace.extend(run.take_events());
        if actions.is_empty() {
            return Outcome {
                trace,
                last: waiting_review,
            };
        }
        for action in actions {
            if action.kind.is_terminal() {
                trace.extend(run.take_events());
                return Outcome {
                    trace,
                    last: Some(action),
                };
            }
            if run_is_over(run) {
                // An earlier action of this batch ended the run: the ending comes next.
                break;
            }
            if !run.outstanding().iter().any(|a| a.id == action.id) {
                // A loop went back and cancelled it (a `node_skipped` in the trace).
                continue;
            }
            if let ActionKind::Wait { ms, .. } = action.kind {
                clock += ms;
                run.set_clock(clock);
            }
            let observation = match (provider.answer(&action, &mut |_| {}), &action.kind) {
                (Answer::Observed(observation), _) => observation,
                (Answer::Unanswered(reason), ActionKind::CallTool { .. }) => {
                    Observation::ToolResult(Verdict {
                        passed: false,
                        evidence: Some(Value::String(reason)),
                        unverifiable: true,
                    })
                }
                (Answer::Unanswered(_), ActionKind::AskReview { .. }) => {
                    match reviews.pop_front() {
                        Some(choice) => Observation::ReviewAnswer {
                            action: choice.to_owned(),
                            note: None,
                        },
                        None => {
                            waiting_review = Some(action);
                            continue;
                        }
                    }
                }
                (Answer::Unanswered(reason), _) => panic!("unanswered {action:?}: {reason}"),
            };
            run.feed(&action.id, observation).expect("feeds");
            trace.extend(run.take_events());
        }
    }
}

fn run_is_over(run: &Run) -> bool {
    matches!(
        run.status(),
        logicmd::run::Status::Completed
            | logicmd::run::Status::Refused
            | logicmd::run::Status::Failed
    )
}
