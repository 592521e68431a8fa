//! `debate` (§3.6, §5): participants speak in turn (round robin), each given the topic and the
//! transcript so far, under the protocol's message types (`DISCUSS`, `PROPOSE`, `AGREE`,
//! `COUNTER`, `QUESTION` when no protocol names them). As §5's protocol states consensus —
//! "explicit AGREE from all participants to a PROPOSE" — a `PROPOSE` puts a proposal on the
//! table with its author's support, an `AGREE` supports the proposal on the table, and a
//! `COUNTER` objects to it (its author's support is withdrawn; a counter-proposal is made with
//! a new `PROPOSE`). Consensus (`unanimous`, `majority`, or a `threshold` share of the
//! participants, and at least one explicit `AGREE`) ends the debate at once; otherwise it ends
//! after `max_rounds`. With the protocol's `enforcement.validate_prefix` and
//! `block_on_violation` (the default), a message without a valid type fails the debate.

use std::collections::BTreeSet;

use serde_json::{json, Value};

use super::call::{message_type, Expect, ModelCall};
use super::node::{file_text, task_message, Ctx, Progress};
use super::state::Local;
use crate::run::action::{ModelRequest, Observation};
use crate::run::kernel::Kernel;
use crate::trace::{self, Event, Gate};

/// What the transcript reads before anyone has spoken (a provider may look for it).
pub(crate) const TRANSCRIPT_EMPTY: &str = "(no messages yet)";

/// The message types of §5 when no protocol names its own.
const DEFAULT_TYPES: &[&str] = &["DISCUSS", "PROPOSE", "AGREE", "COUNTER", "QUESTION"];

#[derive(Debug, Clone, Copy, PartialEq)]
enum Consensus {
    Unanimous,
    Majority,
    /// At least this share of the participants.
    Threshold(f64),
}

struct Participant {
    id: String,
    role: String,
    model: Option<String>,
    system: String,
}

struct Turn {
    round: u64,
    participant: usize,
    kind: Option<String>,
    text: String,
}

pub(super) struct Debate {
    id: String,
    unit: usize,
    participants: Vec<Participant>,
    types: Vec<String>,
    validate: bool,
    consensus: Consensus,
    max_rounds: u64,
    round: u64,
    speaker: usize,
    transcript: Vec<Turn>,
    proposal: Option<String>,
    supporters: BTreeSet<usize>,
    /// The user message's start: topic, injected context, warnings.
    task: String,
    temperature: Option<f64>,
    call: Option<ModelCall>,
    calls: u32,
}

impl Debate {
    pub fn start(
        ctx: &mut Ctx<'_>,
        kernel: &mut Kernel,
        node: usize,
        local: Local<'_>,
    ) -> Result<Debate, String> {
        let definition = &ctx.graph.nodes[node];
        let def = &definition.def;
        let protocol = match definition.text("protocol_ref") {
            Some(reference) => Some(protocol(ctx, reference)?),
            None => None,
        };
        let setting = |node_path: &str, protocol_path: &str| {
            def.pointer(node_path)
                .or_else(|| protocol.as_ref().and_then(|p| p.pointer(protocol_path)))
                .cloned()
        };
        let named_types: Option<Vec<String>> = protocol
            .as_ref()
            .and_then(|p| p.get("message_types"))
            .and_then(Value::as_array)
            .map(|types| {
                types
                    .iter()
                    .filter_map(Value::as_str)
                    .map(str::to_owned)
                    .collect()
            });
        let validate = protocol.as_ref().is_some_and(|p| {
            p.pointer("/enforcement/validate_prefix")
                .and_then(Value::as_bool)
                .unwrap_or(named_types.is_some())
        });
        let block = protocol
            .as_ref()
            .and_then(|p| p.pointer("/enforcement/block_on_violation"))
            .and_then(Value::as_bool)
            .unwrap_or(true);
        let types =
            named_types.unwrap_or_else(|| DEFAULT_TYPES.iter().map(|t| (*t).to_owned()).collect());
        let consensus = match setting("/consensus/type", "/consensus/type")
            .as_ref()
            .and_then(Value::as_str)
        {
            Some("majority") => Consensus::Majority,
            Some("threshold") => Consensus::Threshold(
                setting("/consensus/threshold", "/consensus/threshold")
                    .and_then(|t| t.as_f64())
                    .unwrap_or(1.0),
            ),
            _ => Consensus::Unanimous,
        };
        let requires = setting("/consensus/requires", "/consensus/requires")
            .and_then(|r| r.as_str().map(str::to_owned));
        let rules = rules_text(&types, requires.as_deref());
        let mut participants = Vec::new();
        for (index, participant) in def
            .get("participants")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .enumerate()
        {
            let text = |key: &str| participant.get(key).and_then(Value::as_str);
            let id = text("id").map_or_else(|| format!("participant {}", index + 1), str::to_owned);
            let role = text("role").unwrap_or("participant").to_owned();
            let mut system = match text("persona") {
                Some(persona) => {
                    format!("You are {persona}, `{id}` (role: {role}) in this debate.\n\n")
                }
                None => format!("You are `{id}` (role: {role}) in this debate.\n\n"),
            };
            if let Some(reference) = text("prompt_ref") {
                system.push_str(&file_text(ctx, reference)?);
                system.push_str("\n\n");
            }
            system.push_str(&rules);
            participants.push(Participant {
                id,
                role,
                model: text("model").map(str::to_owned),
                system,
            });
        }
        if participants.len() < 2 {
            return Err("a debate needs at least two participants".to_owned());
        }
        let task = task_message(local.input, local.injected, &ctx.store.state.warnings).content;
        let mut debate = Debate {
            id: definition.id.clone(),
            unit: ctx.units.allocate(node),
            participants,
            types,
            validate: validate && block,
            consensus,
            max_rounds: def
                .get("max_rounds")
                .and_then(Value::as_u64)
                .filter(|&n| n >= 1)
                .unwrap_or(ctx.options.default_max_iterations.max(1)),
            round: 1,
            speaker: 0,
            transcript: Vec::new(),
            proposal: None,
            supporters: BTreeSet::new(),
            task,
            temperature: def.get("temperature").and_then(Value::as_f64),
            call: None,
            calls: 0,
        };
        debate.next_turn(kernel);
        Ok(debate)
    }

    fn next_turn(&mut self, kernel: &mut Kernel) {
        let participant = &self.participants[self.speaker];
        let mut content = self.task.clone();
        content.push_str("\n\n## Transcript\n\n");
        if self.transcript.is_empty() {
            content.push_str(TRANSCRIPT_EMPTY);
        }
        let lines: Vec<String> = self
            .transcript
            .iter()
            .map(|turn| {
                let speaker = &self.participants[turn.participant];
                format!(
                    "[round {}] {} ({}): {}",
                    turn.round, speaker.id, speaker.role, turn.text
                )
            })
            .collect();
        content.push_str(&lines.join("\n"));
        content.push_str(&format!(
            "\n\nIt is your turn, `{}` (round {} of {}).",
            participant.id, self.round, self.max_rounds
        ));
        let request = ModelRequest {
            system: participant.system.clone(),
            messages: vec![crate::run::action::Message::user(content)],
            response_schema: None,
            temperature: self.temperature,
            max_tokens: None,
            allowed_tools: Vec::new(),
            model: participant.model.clone(),
            json: false,
        };
        let expect = Expect::Message {
            types: self.types.clone(),
            validate: self.validate,
        };
        let mut call = ModelCall::new(self.unit, &self.id, request, expect).spoken_by(
            trace::Participant::Id(participant.id.clone()),
            Some(self.round),
        );
        call.issue(kernel, &mut self.calls);
        self.call = Some(call);
    }

    pub fn observe(&mut self, kernel: &mut Kernel, observation: Observation) -> Progress {
        let Some(call) = &mut self.call else {
            return Progress::Pending;
        };
        let text = match call.observe(kernel, observation) {
            Err(error) => {
                let speaker = &self.participants[self.speaker].id;
                return Progress::Failed(format!("participant `{speaker}`: {error}"));
            }
            Ok(output) => output.as_str().unwrap_or_default().to_owned(),
        };
        self.hear(text);
        if self.agreed() {
            self.judge(kernel, true);
            return self.outcome(true);
        }
        self.speaker += 1;
        if self.speaker == self.participants.len() {
            self.judge(kernel, false);
            if self.round >= self.max_rounds {
                return self.outcome(false);
            }
            self.round += 1;
            self.speaker = 0;
        }
        self.next_turn(kernel);
        Progress::Pending
    }

    fn hear(&mut self, text: String) {
        let kind = message_type(&text, &self.types).map(str::to_owned);
        match kind.as_deref() {
            Some("PROPOSE") => {
                self.proposal = Some(text.clone());
                self.supporters = BTreeSet::from([self.speaker]);
            }
            Some("COUNTER") => {
                self.supporters.remove(&self.speaker);
            }
            Some("AGREE") if self.proposal.is_some() => {
                self.supporters.insert(self.speaker);
            }
            _ => {}
        }
        self.transcript.push(Turn {
            round: self.round,
            participant: self.speaker,
            kind,
            text,
        });
    }

    /// The proposal on the table has the support consensus needs, one explicit `AGREE` at
    /// least (its author's own support is the `PROPOSE`).
    fn agreed(&self) -> bool {
        let (support, all) = (self.supporters.len() as f64, self.participants.len() as f64);
        support >= 2.0
            && match self.consensus {
                Consensus::Unanimous => support == all,
                Consensus::Majority => support * 2.0 > all,
                Consensus::Threshold(share) => support >= share * all,
            }
    }

    fn supporter_ids(&self) -> Vec<String> {
        self.supporters
            .iter()
            .map(|&i| self.participants[i].id.clone())
            .collect()
    }

    /// The consensus check, in the trace: after the message that reached it, or at a round's end.
    fn judge(&self, kernel: &mut Kernel, passed: bool) {
        let gate = Gate {
            round: Some(self.round),
            supporters: Some(self.supporter_ids()),
            ..Gate::named("consensus", passed)
        };
        kernel.event(Some(&self.id), Event::GateEvaluated(gate));
    }

    fn outcome(&self, consensus: bool) -> Progress {
        let transcript: Vec<Value> = self
            .transcript
            .iter()
            .map(|turn| {
                let speaker = &self.participants[turn.participant];
                json!({"round": turn.round, "participant": speaker.id, "role": speaker.role, "type": turn.kind, "text": turn.text})
            })
            .collect();
        Progress::plain(json!({
            "consensus": consensus,
            "rounds": self.round,
            "proposal": self.proposal,
            "supporters": self.supporter_ids(),
            "transcript": transcript,
        }))
    }
}

/// A protocol file (YAML) as data.
fn protocol(ctx: &Ctx<'_>, reference: &str) -> Result<Value, String> {
    let text = file_text(ctx, reference)?;
    let file = crate::yaml::parse_file(&text, crate::Limits::DEFAULT);
    if let Some(problem) = file.diagnostics.iter().find(|d| d.is_error()) {
        return Err(format!(
            "the protocol `{reference}` does not parse: {}:{}: {}",
            problem.line, problem.column, problem.message
        ));
    }
    Ok(file
        .root
        .map(|root| crate::json::to_json(&root))
        .unwrap_or_default())
}

fn rules_text(types: &[String], requires: Option<&str>) -> String {
    let mut text = format!(
        "Start every message with its type, one of: {}. PROPOSE or COUNTER puts a proposal on the table; AGREE supports the proposal on the table.",
        types.join(", ")
    );
    if let Some(requires) = requires {
        text.push_str(&format!(" Consensus requires: {requires}."));
    }
    text
}
