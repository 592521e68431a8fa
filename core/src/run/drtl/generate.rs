//! `generate` (§3.1): one model call with the node's prompt and input; `fan_out` (§3.2): one
//! call per participant, all issued at once, the output the list of their answers in
//! participant order.

use serde_json::Value;

use super::call::{Expect, ModelCall};
use super::node::{prompt, task_message, Ctx, Progress};
use super::state::Local;
use crate::run::action::{ModelRequest, Observation};
use crate::run::kernel::{Kernel, Waiter};
use crate::trace::Participant;

/// What a node's answers must be, by its `output_format`.
pub(super) fn expect_of(def: &Value) -> Expect {
    match def.get("output_format").and_then(Value::as_str) {
        Some("json") => Expect::Json,
        Some(_) => Expect::Text,
        None => Expect::Free,
    }
}

/// A request with `system` and the node's task; `model` and `temperature` as given.
pub(super) fn request(
    ctx: &Ctx<'_>,
    system: String,
    local: Local<'_>,
    model: Option<&str>,
    def: &Value,
    expect: &Expect,
) -> ModelRequest {
    ModelRequest {
        system,
        messages: vec![task_message(
            local.input,
            local.injected,
            &ctx.store.state.warnings,
        )],
        response_schema: expect.schema(),
        temperature: def.get("temperature").and_then(Value::as_f64),
        max_tokens: None,
        allowed_tools: Vec::new(),
        model: model.map(str::to_owned),
        json: matches!(expect, Expect::Json | Expect::Ranking(_)),
    }
}

/// The system prompt of a node without a prompt: its description, or a plain instruction.
pub(super) fn default_system(def: &Value) -> String {
    def.get("description")
        .and_then(Value::as_str)
        .unwrap_or("Carry out this step on the input.")
        .to_owned()
}

pub(super) struct Generate {
    call: ModelCall,
    calls: u32,
}

impl Generate {
    pub fn start(
        ctx: &mut Ctx<'_>,
        kernel: &mut Kernel,
        node: usize,
        local: Local<'_>,
    ) -> Result<Generate, String> {
        let definition = &ctx.graph.nodes[node];
        let def = &definition.def;
        let system = prompt(ctx, def, local)?.unwrap_or_else(|| default_system(def));
        let expect = expect_of(def);
        let model = def.get("model").and_then(Value::as_str);
        let request = request(ctx, system, local, model, def, &expect);
        let unit = ctx.units.allocate(node);
        let mut run = Generate {
            call: ModelCall::new(unit, &definition.id, request, expect),
            calls: 0,
        };
        run.call.issue(kernel, &mut run.calls);
        Ok(run)
    }

    pub fn observe(&mut self, kernel: &mut Kernel, observation: Observation) -> Progress {
        match self.call.observe(kernel, observation) {
            Ok(output) => Progress::plain(output),
            Err(error) => Progress::Failed(error),
        }
    }
}

pub(super) struct FanOut {
    lanes: Vec<ModelCall>,
    answers: Vec<Option<Value>>,
    calls: u32,
}

impl FanOut {
    pub fn start(
        ctx: &mut Ctx<'_>,
        kernel: &mut Kernel,
        node: usize,
        local: Local<'_>,
    ) -> Result<FanOut, String> {
        let definition = &ctx.graph.nodes[node];
        let def = &definition.def;
        let expect = expect_of(def);
        let participants = def
            .get("participants")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        if participants.is_empty() {
            return Err("a fan_out needs at least one participant".to_owned());
        }
        let mut lanes = Vec::new();
        for (index, participant) in participants.iter().enumerate() {
            let mut system = String::new();
            if let Some(persona) = participant.get("persona").and_then(Value::as_str) {
                system.push_str(&format!("You are {persona}.\n\n"));
            }
            let prompt = prompt(ctx, participant, local)
                .map_err(|e| format!("participant {}: {e}", index + 1))?;
            system.push_str(&prompt.unwrap_or_else(|| default_system(def)));
            let model = participant.get("model").and_then(Value::as_str);
            let request = request(ctx, system, local, model, def, &expect);
            let unit = ctx.units.allocate(node);
            lanes.push(
                ModelCall::new(unit, &definition.id, request, expect.clone())
                    .spoken_by(Participant::Index(index as u64), None),
            );
        }
        let mut run = FanOut {
            answers: vec![None; lanes.len()],
            lanes,
            calls: 0,
        };
        // All at once: the driver gets the whole batch from one `next()`.
        for lane in &mut run.lanes {
            lane.issue(kernel, &mut run.calls);
        }
        Ok(run)
    }

    pub fn observe(
        &mut self,
        kernel: &mut Kernel,
        waiter: Waiter,
        observation: Observation,
    ) -> Progress {
        let Some(index) = self.lanes.iter().position(|l| l.unit == waiter.unit) else {
            return Progress::Pending;
        };
        match self.lanes[index].observe(kernel, observation) {
            Err(error) => Progress::Failed(format!("participant {}: {error}", index + 1)),
            Ok(output) => {
                self.answers[index] = Some(output);
                if self.answers.iter().all(Option::is_some) {
                    Progress::plain(Value::Array(
                        self.answers.iter_mut().filter_map(Option::take).collect(),
                    ))
                } else {
                    Progress::Pending
                }
            }
        }
    }
}
