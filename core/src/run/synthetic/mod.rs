//! The synthetic provider: deterministic answers (for a seed) that satisfy each step's output
//! schema and the simple checks the document states about its output, so any document runs end
//! to end offline (`logicmd run --dry-run`, the studio's default). Tool calls and reviews are
//! not its to answer.

mod checks;
mod drtl;
mod values;

use std::collections::HashMap;

use serde_json::{json, Value};

use super::action::{Action, ActionKind, ModelRequest, Observation, Usage};
use super::provider::{Answer, Provider};
use super::Source;
use crate::flow::{Flow, UnitKind};
use crate::model::Spec;

/// The synthetic [`Provider`]: deterministic model answers that fit each step's output schema and
/// stated checks, for runs without a model. A wait ends at once; tool calls and reviews stay
/// [`Answer::Unanswered`].
pub struct Synthetic {
    seed: u64,
    /// The checks each trace node's output should pass, by node id.
    checks: HashMap<String, Vec<String>>,
    /// What a DRTL topology's nodes should answer (keys a verify reads, debate moves).
    drtl: drtl::Hints,
}

impl Synthetic {
    /// A provider for `source`; the same seed gives the same answers.
    pub fn new(source: &Source, seed: u64) -> Synthetic {
        let mut checks = HashMap::new();
        match source {
            Source::Logic { spec, nodes } => {
                gather(spec, "", &mut checks);
                for (name, document) in nodes {
                    gather(document, &format!("{name}/"), &mut checks);
                }
            }
            Source::Drtl { topology, .. } => {
                let hints = drtl::hints(topology);
                for (node, list) in &hints.checks {
                    checks.insert(node.clone(), list.clone());
                }
                return Synthetic {
                    seed,
                    checks,
                    drtl: hints,
                };
            }
        }
        Synthetic {
            seed,
            checks,
            drtl: drtl::Hints::default(),
        }
    }

    /// Adds checks a node's output should pass (a program that knows more about its nodes).
    pub fn expect(&mut self, node: &str, check: impl Into<String>) {
        self.checks
            .entry(node.to_owned())
            .or_default()
            .push(check.into());
    }

    /// The answer to a model request from `node`.
    pub fn respond(&self, node: &str, request: &ModelRequest) -> String {
        let seed = self.seed ^ fnv(node);
        if self.drtl.debates.contains(node) {
            return debate_move(node, request);
        }
        let checks = self.checks.get(node).map(Vec::as_slice).unwrap_or_default();
        let targets = self.drtl.targets.get(node);
        let reads_output = checks
            .iter()
            .any(|c| c.contains("output") || c.contains("confidence"));
        let mut output = match &request.response_schema {
            Some(schema) => values::generate(schema, seed, "value"),
            None if request.json || reads_output || targets.is_some() => json!({}),
            None => return format!("Synthetic answer of `{node}`."),
        };
        for target in targets.into_iter().flatten() {
            let path: Vec<String> = target.split('.').map(str::to_owned).collect();
            checks::set(&mut output, &path, drtl::plausible(target));
        }
        checks::satisfy(&mut output, checks);
        if let Some(schema) = &request.response_schema {
            // A check must not break the schema: when it did, the schema's value stands.
            if !crate::schema::check_instance(schema, &output).is_empty() {
                output = values::generate(schema, seed, "value");
            }
        }
        serde_json::to_string(&output).unwrap_or_default()
    }
}

/// A debate turn: the first speaker proposes, everyone after agrees.
fn debate_move(node: &str, request: &ModelRequest) -> String {
    let opening = request
        .messages
        .last()
        .is_some_and(|m| m.content.contains(super::drtl::TRANSCRIPT_EMPTY));
    if opening {
        format!("PROPOSE: Synthetic proposal of `{node}`.")
    } else {
        "AGREE: Synthetic agreement with the proposal.".to_owned()
    }
}

/// The checks of every step of `spec` (trace ids `prefix` + name): its verification, its
/// confidence thresholds, and for the steps that produce the output the document's gates.
fn gather(spec: &Value, prefix: &str, checks: &mut HashMap<String, Vec<String>>) {
    let typed = Spec::read(spec);
    let finals = Flow::of_steps(&typed)
        .map(|f| f.final_names(UnitKind::Step))
        .unwrap_or_default();
    let steps: Vec<(String, Option<&crate::model::Step>)> = if typed.steps.is_empty() {
        vec![(super::logic::WHOLE_DOCUMENT_STEP.to_owned(), None)]
    } else {
        typed
            .steps
            .iter()
            .map(|s| (s.name.clone(), Some(s)))
            .collect()
    };
    let is_only = steps.len() == 1;
    for (name, step) in steps {
        let mut list = Vec::new();
        if let Some(step) = step {
            if let Some(verification) = &step.verification {
                list.push(verification.check.clone());
            }
            let confidence = &step.confidence;
            let floor = [
                confidence.minimum,
                confidence.target,
                confidence.escalate_below,
            ]
            .into_iter()
            .flatten()
            .fold(None, |max: Option<f64>, v| {
                Some(max.map_or(v, |m| m.max(v)))
            });
            if let Some(floor) = floor {
                list.push(format!("{{{{ output.confidence >= {floor} }}}}"));
            }
        }
        if is_only || finals.contains(&name) {
            let gates = &typed.quality_gates;
            list.extend(
                gates
                    .pre_output
                    .iter()
                    .chain(&gates.post_output)
                    .map(|g| g.check.clone()),
            );
        }
        if !list.is_empty() {
            checks.insert(format!("{prefix}{name}"), list);
        }
    }
}

/// FNV-1a: a stable hash for seeding per node (std's hasher is randomised per process).
fn fnv(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    })
}

impl Provider for Synthetic {
    fn answer(&mut self, action: &Action, _on_token: &mut dyn FnMut(&str)) -> Answer {
        match &action.kind {
            ActionKind::CallModel { node, request, .. } => {
                let text = self.respond(node, request);
                let prompt: usize = request.system.len()
                    + request
                        .messages
                        .iter()
                        .map(|m| m.content.len())
                        .sum::<usize>();
                Answer::Observed(Observation::ModelResponse {
                    usage: Some(Usage {
                        input_tokens: (prompt / 4) as u64,
                        output_tokens: (text.len() / 4) as u64,
                        cost: None,
                    }),
                    latency_ms: Some(0),
                    served: None,
                    text,
                })
            }
            ActionKind::Wait { .. } => Answer::Observed(Observation::Waited),
            ActionKind::CallTool { name, .. } => Answer::Unanswered(format!(
                "the synthetic provider does not run the tool `{name}`"
            )),
            ActionKind::AskReview { .. } => {
                Answer::Unanswered("a review needs a decision".to_owned())
            }
            _ => Answer::Unanswered("nothing to do".to_owned()),
        }
    }
}
