//! `verify` (§3.4, §7.1.4): each rule checks the values under its `target` key of the node's
//! structured input. Core rules run here; every other rule (`std.check_links`,
//! `std.check_existence`, a custom id, ...) is a `CallTool` named by the rule id, answered with a
//! verdict. Each result updates `state.obligations` (`obligation_updated` in the trace, with the
//! tool's verdict so a trace replays), the claims it covered, and for a failed `warn` rule the
//! warnings later model calls are given. The output is the report gates read:
//! `{passed, blocking_failures, warnings, observations, results}`.

use serde_json::{json, Value};

use super::node::{Ctx, Progress, Running, Started};
use super::obligations;
use super::rules::{self, Local};
use super::state::{Mode, Obligation, Status};
use crate::run::action::{ActionKind, Observation, Verdict};
use crate::run::kernel::{Kernel, Purpose, Waiter};
use crate::trace::{Event, ObligationUpdated};

#[derive(Debug, Clone)]
struct Rule {
    id: String,
    target: Option<String>,
    mode: Mode,
    values: Value,
}

pub(super) struct Verify {
    node: usize,
    id: String,
    rules: Vec<Rule>,
    results: Vec<Option<Status>>,
    /// What core found for a rule whose tool decides the rest (the values it was asked).
    partial: Vec<Option<(Value, Value)>>,
}

impl Verify {
    pub fn start(ctx: &mut Ctx<'_>, kernel: &mut Kernel, node: usize, input: &Value) -> Started {
        let id = ctx.graph.nodes[node].id.clone();
        let rules = rules_of(&ctx.graph.nodes[node].def, input);
        let state = &mut ctx.store.state;
        state.obligations.retain(|o| o.verify != node);
        obligations::forget_withheld(ctx.graph, state, node);
        state
            .claims
            .retain(|c| c.get("node").and_then(Value::as_str) != Some(id.as_str()));
        state
            .obligations
            .extend(rules.iter().enumerate().map(|(index, rule)| Obligation {
                verify: node,
                node: id.clone(),
                index,
                rule: rule.id.clone(),
                target: rule.target.clone(),
                mode: rule.mode,
                status: Status::Pending,
                evidence: Value::Null,
            }));
        let mut run = Verify {
            node,
            id,
            results: vec![None; rules.len()],
            partial: vec![None; rules.len()],
            rules,
        };
        let unit = ctx.units.allocate(node);
        for index in 0..run.rules.len() {
            let rule = run.rules[index].clone();
            let mut arguments = json!({
                "rule": rule.id,
                "target": rule.target,
                "values": rule.values,
                "mode": rule.mode.name(),
            });
            match local_outcome(&rule, input) {
                Some(Local::Decided(outcome)) => {
                    let status = if outcome.passed {
                        Status::Satisfied
                    } else {
                        Status::Failed
                    };
                    run.record(ctx, kernel, index, status, outcome.evidence, None);
                    continue;
                }
                Some(Local::Ask { values, evidence }) => {
                    arguments["values"] = values.clone();
                    arguments["core"] = evidence.clone();
                    run.partial[index] = Some((evidence, values));
                }
                None => {}
            }
            kernel.issue(
                ActionKind::CallTool {
                    node: run.id.clone(),
                    name: rule.id.clone(),
                    arguments,
                },
                Waiter {
                    unit,
                    purpose: Purpose::Tool(index),
                },
            );
        }
        match run.finished(ctx) {
            Some(progress) => Started::Settled(progress),
            None => Started::Waiting(Box::new(Running::Verify(Box::new(run)))),
        }
    }

    pub fn observe(
        &mut self,
        ctx: &mut Ctx<'_>,
        kernel: &mut Kernel,
        waiter: Waiter,
        observation: Observation,
    ) -> Progress {
        match (waiter.purpose, observation) {
            (Purpose::Tool(index), Observation::ToolResult(verdict))
                if index < self.rules.len() =>
            {
                // Unverifiable counts as failed whatever `passed` says (§3.4: block halts).
                let status = if verdict.passed && !verdict.unverifiable {
                    Status::Satisfied
                } else {
                    Status::Failed
                };
                let mut evidence = verdict.evidence.clone().unwrap_or_else(|| {
                    if verdict.unverifiable {
                        json!("unverifiable")
                    } else {
                        Value::Null
                    }
                });
                if let Some((core, asked)) = &self.partial[index] {
                    evidence = rules::with_tool(core, asked, &evidence);
                }
                self.record(ctx, kernel, index, status, evidence, Some(&verdict));
                self.finished(ctx).unwrap_or(Progress::Pending)
            }
            (_, other) => Progress::Failed(format!("unexpected observation {other:?}")),
        }
    }

    /// A rule's result: the obligation, the claims it covered, a warning, the trace.
    fn record(
        &mut self,
        ctx: &mut Ctx<'_>,
        kernel: &mut Kernel,
        index: usize,
        status: Status,
        evidence: Value,
        verdict: Option<&Verdict>,
    ) {
        self.results[index] = Some(status);
        let rule = &self.rules[index];
        let state = &mut ctx.store.state;
        if let Some(obligation) = state
            .obligations
            .iter_mut()
            .find(|o| o.verify == self.node && o.index == index)
        {
            obligation.status = status;
            obligation.evidence = evidence.clone();
        }
        let claims = match &rule.values {
            Value::Array(items) => items.clone(),
            other => vec![other.clone()],
        };
        state.claims.extend(claims.into_iter().map(|claim| {
            json!({"node": self.id, "rule": rule.id, "target": rule.target, "claim": claim, "status": status.name()})
        }));
        if status == Status::Failed && rule.mode == Mode::Warn {
            state.warnings.push(format!(
                "`{}` found `{}`{} failing: {}",
                self.id,
                rule.id,
                rule.target
                    .as_ref()
                    .map_or(String::new(), |t| format!(" on `{t}`")),
                evidence_text(&evidence)
            ));
        }
        let updated = Event::ObligationUpdated(ObligationUpdated {
            rule: rule.id.clone(),
            target: rule.target.clone(),
            mode: rule.mode,
            status,
            verdict: verdict.cloned(),
            checked_by: verdict.is_none().then(|| "core".to_owned()),
            evidence,
        });
        kernel.event(Some(&self.id), updated);
    }

    /// The report, once every rule has a result.
    fn finished(&self, ctx: &Ctx<'_>) -> Option<Progress> {
        if self.results.iter().any(Option::is_none) {
            return None;
        }
        let failed = |mode: Mode| {
            self.rules
                .iter()
                .zip(&self.results)
                .filter(|(rule, status)| rule.mode == mode && **status == Some(Status::Failed))
                .count()
        };
        let results: Vec<Value> = ctx
            .store
            .state
            .obligations
            .iter()
            .filter(|o| o.verify == self.node)
            .map(|o| {
                json!({"rule": o.rule, "target": o.target, "mode": o.mode.name(), "status": o.status.name(), "evidence": o.evidence})
            })
            .collect();
        let blocking = failed(Mode::Block);
        Some(Progress::plain(json!({
            "passed": blocking == 0,
            "blocking_failures": blocking,
            "warnings": failed(Mode::Warn),
            "observations": failed(Mode::Observe),
            "results": results,
        })))
    }
}

fn rules_of(def: &Value, input: &Value) -> Vec<Rule> {
    def.get("rules")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(|rule| {
            let target = rule
                .get("target")
                .and_then(Value::as_str)
                .map(str::to_owned);
            let values = match &target {
                Some(key) => input.get(key).cloned().unwrap_or(Value::Null),
                None => input.clone(),
            };
            Rule {
                id: rule
                    .get("id")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_owned(),
                mode: Mode::of(rule.get("mode").and_then(Value::as_str)),
                target,
                values,
            }
        })
        .collect()
}

/// A result core gives without the world: the input is not structured, the target is missing,
/// or the rule is one of core's own (which may leave part of it to the tool).
fn local_outcome(rule: &Rule, input: &Value) -> Option<Local> {
    if !input.is_object() {
        return Some(Local::Decided(rules::Outcome {
            passed: false,
            evidence: json!(
                "the input is not structured JSON (an object with the target keys): verify needs an extraction node first (§9.2)"
            ),
        }));
    }
    if let Some(key) = &rule.target {
        if input.get(key).is_none() {
            return Some(Local::Decided(rules::Outcome {
                passed: false,
                evidence: json!(format!("`{key}` is not in the input")),
            }));
        }
    }
    rules::run(&rule.id, &rule.values)
}

/// Evidence in one line, for messages.
pub(super) fn evidence_text(evidence: &Value) -> String {
    match evidence {
        Value::String(text) => text.clone(),
        Value::Null => "no evidence given".to_owned(),
        other => other.to_string(),
    }
}
