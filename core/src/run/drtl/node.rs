//! What every node kind shares: what it sees while it runs ([`Ctx`]), how it ends ([`Progress`],
//! with the route it takes), and the dispatch from a node's type to its module.

use std::collections::BTreeMap;

use serde_json::Value;

use super::graph::{Graph, Kind};
use super::state::{Local, Store};
use super::{aggregate, debate, gate, generate, review, transform, verify};
use crate::run::action::{Message, Observation};
use crate::run::kernel::{Kernel, Waiter};
use crate::run::RunOptions;

/// What a running node reads and changes.
pub(super) struct Ctx<'a> {
    pub graph: &'a Graph,
    pub topology: &'a Value,
    pub store: &'a mut Store,
    /// Prompt and protocol files by the path the topology wrote.
    pub files: &'a BTreeMap<String, String>,
    pub options: &'a RunOptions,
    pub units: &'a mut Units,
}

/// Waiter units: one per call lane of a node run, so each observation reaches its lane and a
/// lane of an earlier run (cancelled by a loop) can never be confused with a new one.
#[derive(Default)]
pub(super) struct Units {
    owners: Vec<usize>,
}

impl Units {
    pub fn allocate(&mut self, node: usize) -> usize {
        self.owners.push(node);
        self.owners.len() - 1
    }

    pub fn owner(&self, unit: usize) -> Option<usize> {
        self.owners.get(unit).copied()
    }

    /// Every unit `node` has had.
    pub fn of(&self, node: usize) -> impl Iterator<Item = usize> + '_ {
        self.owners
            .iter()
            .enumerate()
            .filter(move |(_, &owner)| owner == node)
            .map(|(unit, _)| unit)
    }
}

/// The way out a finished node takes.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Route {
    /// Every plain edge (conditional ones when they hold).
    Plain,
    /// A gate's branch: pass (`true`) or fail.
    Gate(bool),
    /// A review's decision.
    Action(String),
}

#[derive(Debug, Clone, PartialEq)]
pub(super) enum Progress {
    Pending,
    Finished { output: Value, route: Route },
    Failed(String),
}

impl Progress {
    pub fn plain(output: Value) -> Progress {
        Progress::Finished {
            output,
            route: Route::Plain,
        }
    }
}

/// A node waiting for observations.
pub(super) enum Running {
    Generate(Box<generate::Generate>),
    FanOut(Box<generate::FanOut>),
    Aggregate(Box<aggregate::Aggregate>),
    Verify(Box<verify::Verify>),
    Debate(Box<debate::Debate>),
    Review(Box<review::Review>),
}

/// A node just started: waiting, or already settled (gates, transforms, deterministic
/// aggregation, verification without tools).
pub(super) enum Started {
    Waiting(Box<Running>),
    Settled(Progress),
}

/// Starts `node` on `input`.
pub(super) fn start(ctx: &mut Ctx<'_>, kernel: &mut Kernel, node: usize, input: &Value) -> Started {
    let injected = ctx.store.injected[node].clone();
    let local = Local {
        input,
        injected: &injected,
    };
    let started =
        match ctx.graph.nodes[node].kind {
            Kind::Generate => generate::Generate::start(ctx, kernel, node, local)
                .map(|r| Running::Generate(Box::new(r))),
            Kind::FanOut => generate::FanOut::start(ctx, kernel, node, local)
                .map(|r| Running::FanOut(Box::new(r))),
            Kind::Aggregate => {
                return aggregate::Aggregate::start(ctx, kernel, node, local)
                    .unwrap_or_else(|error| Started::Settled(Progress::Failed(error)))
            }
            Kind::Verify => return verify::Verify::start(ctx, kernel, node, input),
            Kind::Debate => debate::Debate::start(ctx, kernel, node, local)
                .map(|r| Running::Debate(Box::new(r))),
            Kind::Review => review::Review::start(ctx, kernel, node, local)
                .map(|r| Running::Review(Box::new(r))),
            Kind::Gate => return Started::Settled(gate::evaluate(ctx, kernel, node, local)),
            Kind::Transform => return Started::Settled(transform::apply(ctx, node, local)),
        };
    match started {
        Ok(running) => Started::Waiting(Box::new(running)),
        Err(error) => Started::Settled(Progress::Failed(error)),
    }
}

impl Running {
    pub fn observe(
        &mut self,
        ctx: &mut Ctx<'_>,
        kernel: &mut Kernel,
        waiter: Waiter,
        observation: Observation,
    ) -> Progress {
        match self {
            Running::Generate(run) => run.observe(kernel, observation),
            Running::FanOut(run) => run.observe(kernel, waiter, observation),
            Running::Aggregate(run) => run.observe(kernel, observation),
            Running::Verify(run) => run.observe(ctx, kernel, waiter, observation),
            Running::Debate(run) => run.observe(kernel, observation),
            Running::Review(run) => run.observe(kernel, waiter, observation),
        }
    }
}

/// The user message a model gets: the node's input, what was injected into it, and the
/// warnings of failed `warn` rules so far.
pub(super) fn task_message(input: &Value, injected: &Value, warnings: &[String]) -> Message {
    let mut content = String::from("## Input\n\n");
    content.push_str(&as_text(input));
    if !injected.is_null() {
        content.push_str("\n\n## Injected context\n\n");
        content.push_str(&as_text(injected));
    }
    if !warnings.is_empty() {
        content.push_str("\n\n## Warnings from verification\n");
        for warning in warnings {
            content.push_str("\n- ");
            content.push_str(warning);
        }
    }
    Message::user(content)
}

/// A string as it is, anything else as fenced JSON.
pub(super) fn as_text(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        other => format!(
            "```json\n{}\n```",
            serde_json::to_string_pretty(other).unwrap_or_else(|_| other.to_string())
        ),
    }
}

/// The text of a `prompt_ref` / `protocol_ref`: `artifacts.KIND.NAME` names a declared file,
/// anything else is a path; either way the file was read by `prepare`.
pub(super) fn file_text(ctx: &Ctx<'_>, reference: &str) -> Result<String, String> {
    let path = match reference.strip_prefix("artifacts.") {
        Some(declared) => ctx
            .topology
            .pointer(&format!("/artifacts/{}", declared.replace('.', "/")))
            .and_then(Value::as_str)
            .ok_or_else(|| format!("`{reference}` is not declared under `artifacts`"))?,
        None => reference,
    };
    ctx.files.get(path).cloned().ok_or_else(|| {
        format!("the file `{path}` was not read (prepare the topology with a loader that has it)")
    })
}

/// A node's prompt: `prompt` (a template) or the text of `prompt_ref`.
pub(super) fn prompt(
    ctx: &Ctx<'_>,
    def: &Value,
    local: Local<'_>,
) -> Result<Option<String>, String> {
    if let Some(text) = def.get("prompt").and_then(Value::as_str) {
        let rendered = ctx.store.template(ctx.graph, text, local)?;
        return Ok(Some(match rendered {
            Value::String(text) => text,
            other => other.to_string(),
        }));
    }
    def.get("prompt_ref")
        .and_then(Value::as_str)
        .map(|reference| file_text(ctx, reference))
        .transpose()
}
