//! The trace's events as types: what the runtime's kernel emits and what every reader (the
//! trace checks, the CLI's summary, the studio's node states, pins) matches on, so an event's
//! name and fields are written in one place.
//!
//! On the wire an event is one JSON object: `seq`, `event` (the name), `t` (milliseconds since
//! the run started), `node` when the event is about one, then the event's own fields in the
//! order they are declared here ([`Record`]). A field that is `None` is left out, except where
//! a field says it is always written (`null` then).

use serde::de::Error as _;
use serde::{Deserialize, Serialize, Serializer};
use serde_json::{Map, Value};

use crate::model::Severity;
use crate::run::{ModelFailure, ModelRequest, Served, Unmet, Usage};

/// One line of a trace: the event and where it happened in the run.
#[derive(Debug, Clone, PartialEq)]
pub struct Record {
    /// The event's position in the run's trace, from 0.
    pub seq: u64,
    /// Milliseconds since the run started, by the driver's clock.
    pub t: u64,
    /// The node (trace node id) the event is about, if one.
    pub node: Option<String>,
    /// What happened.
    pub event: Event,
}

impl Record {
    /// The record as the trace writes it: `seq`, `event`, `t`, `node`, then the event's fields
    /// (see [`Record::into_value`], which does not copy).
    pub fn to_value(&self) -> Value {
        self.clone().into_value()
    }

    /// Reads a trace line written by [`Record::to_value`] (or by another runtime keeping to the
    /// same names and fields); the error says what does not fit.
    pub fn from_value(value: &Value) -> Result<Record, String> {
        let Value::Object(fields) = value else {
            return Err("a trace event is a JSON object".to_owned());
        };
        let number = |key: &str| fields.get(key).and_then(Value::as_u64).unwrap_or(0);
        let node = match fields.get("node") {
            None | Some(Value::Null) => None,
            Some(Value::String(node)) => Some(node.clone()),
            Some(_) => return Err("`node` is not a string".to_owned()),
        };
        let rest: Map<String, Value> = fields
            .iter()
            .filter(|(key, _)| !matches!(key.as_str(), "seq" | "t" | "node"))
            .map(|(key, value)| (key.clone(), value.clone()))
            .collect();
        let event = serde_json::from_value(Value::Object(rest)).map_err(|e| e.to_string())?;
        Ok(Record {
            seq: number("seq"),
            t: number("t"),
            node,
            event,
        })
    }
}

impl Serialize for Record {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.to_value().serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Record {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = Value::deserialize(deserializer)?;
        Record::from_value(&value).map_err(D::Error::custom)
    }
}

/// What happened, by the event's name (`event` on the wire, snake_case).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// The run began: what runs, on what input, its plan, and when by the wall clock.
    RunStarted {
        /// `logic`, `workflow` (a LOGIC.md document with `nodes`) or `drtl` (a topology).
        kind: String,
        /// The document's (or topology's) `name`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        name: Option<String>,
        /// The run's input.
        input: Value,
        /// `{"nodes": [...]}`: what each node runs after and what may choose it
        /// ([`trace::check`](crate::trace::check) reads it).
        plan: Value,
        /// The clock at the start, in milliseconds since the Unix epoch, when the driver runs
        /// on the wall clock ([`RunOptions::start_ms`](crate::run::RunOptions)); absent on a
        /// deterministic clock (which starts at 0), so such a run gives the same bytes again.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        start_ms: Option<u64>,
    },
    /// A node (a step, a workflow node, a topology node) began a run.
    NodeStarted {
        /// What it was given.
        inputs: Value,
        /// What a route injected into it (DRTL `inject`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        injected: Option<Value>,
    },
    /// A model call was issued.
    ModelRequested {
        /// The action's id (what its observation is fed under).
        action: String,
        /// The node's call number (what a script keys its answers by).
        attempt: u32,
        /// Why the call was made, when it is not for the node's answer
        /// (`self_verification:<strategy>`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        purpose: Option<String>,
        /// What was sent.
        request: ModelRequest,
        /// The participant and round of a fan-out or debate call.
        #[serde(flatten)]
        speaker: Speaker,
    },
    /// A model call was answered, or failed.
    ModelResponded(ModelResponded),
    /// An answer was read as acceptable output (its schema, its format).
    OutputValidated {
        /// The call number it came from.
        attempt: u32,
        /// The output.
        output: Value,
        /// What a lenient output contract let through.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        contract_warnings: Option<Vec<String>>,
        /// The participant and round of a fan-out or debate call.
        #[serde(flatten)]
        speaker: Speaker,
    },
    /// An answer was not acceptable output.
    OutputInvalid {
        /// The call number it came from.
        attempt: u32,
        /// What was wrong with it.
        errors: Vec<String>,
        /// The participant and round of a fan-out or debate call.
        #[serde(flatten)]
        speaker: Speaker,
    },
    /// Another attempt follows (after `wait_ms`).
    Retried {
        /// The call number of the next attempt (a workflow node's run number).
        attempt: u32,
        /// The wait before it, in milliseconds.
        wait_ms: u64,
        /// Why.
        reason: String,
        /// What the next attempt is told about the last one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        feedback: Option<String>,
        /// The participant and round of a fan-out or debate call.
        #[serde(flatten)]
        speaker: Speaker,
    },
    /// A check was evaluated (see [`Gate`]).
    GateEvaluated(Gate),
    /// A verification rule's result changed an obligation (DRTL `verify`, a review's decision).
    ObligationUpdated(ObligationUpdated),
    /// The run asks a person or system to decide.
    ReviewRequested {
        /// What to show the reviewer (always written).
        message: Option<String>,
        /// The answers allowed.
        actions: Vec<String>,
        /// What the reviewer decides on.
        input: Value,
    },
    /// The reviewer decided.
    ReviewAnswered(ReviewAnswered),
    /// A node did not run (or a loop cancelled its run).
    NodeSkipped {
        /// Why.
        reason: String,
    },
    /// A node's run ended.
    NodeFinished(NodeFinished),
    /// The run refuses to give output: these obligations are unmet.
    Refused {
        /// The obligations.
        unmet: Vec<Unmet>,
    },
    /// The run is over.
    RunFinished {
        /// How it ended.
        status: RunStatus,
        /// The output of a completed run (`null` is written).
        #[serde(
            default,
            skip_serializing_if = "Option::is_none",
            deserialize_with = "present"
        )]
        output: Option<Value>,
        /// Why a run failed.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        error: Option<String>,
    },
}

/// A field that may be `null` when present: `Some(Value::Null)`, not `None` (which is absent).
fn present<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(deserializer).map(Some)
}

/// The participant and round a fan-out or debate call belongs to; both absent for other calls.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Speaker {
    /// A fan-out participant's index, or a debate participant's id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub participant: Option<Participant>,
    /// The debate round.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub round: Option<u64>,
}

/// Who made a call of a node with several participants.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Participant {
    /// A fan-out participant, by its place in `participants` (from 0).
    Index(u64),
    /// A debate participant, by its `id`.
    Id(String),
}

/// A model call's result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Response {
    /// The model answered.
    Answer {
        /// The answer as the model produced it.
        text: String,
        /// Token counts (always written).
        usage: Option<Usage>,
        /// How long the call took, in milliseconds (always written).
        latency_ms: Option<u64>,
        /// Who answered, when the driver said.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        served: Option<Served>,
    },
    /// The call failed.
    Error {
        /// What went wrong.
        error: ModelFailure,
    },
}

/// One check's result (`gate_evaluated`). Which fields are written depends on the check; they
/// are always in this order. `gate` names it: `verification`, `confidence`, `escalation`,
/// `degradation`, `fallback`, `input_contract`, `output_contract`, `self_verification`,
/// `decision_tree`, `contract` (a workflow edge), `max_iterations`, `max_total_time`,
/// `max_total_cost`, `join`, `consensus` (a debate), or a quality gate's or invariant's own
/// name; a DRTL `gate` node writes its `condition` instead.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Gate {
    /// Which check (see the type's docs).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gate: Option<String>,
    /// A DRTL gate node's condition.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub condition: Option<String>,
    /// `pre_output` / `post_output` (quality gates), `invariant`, a self-verification strategy.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    /// The workflow edge a contract guards (`from -> to`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub edge: Option<String>,
    /// The debate round.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub round: Option<u64>,
    /// A decision tree's path.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<Vec<String>>,
    /// The decision tree's node reached.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reached: Option<String>,
    /// The decision tree's action (a step it chose, or a terminal's action).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action: Option<String>,
    /// The expression checked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub check: Option<String>,
    /// A quality gate's severity.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub severity: Option<Severity>,
    /// Whether it passed; `null` when it could not be made.
    pub passed: Option<bool>,
    /// What the check found.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<Value>,
    /// Why it could not be evaluated (or what went wrong).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// The problems a contract check found.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub errors: Option<Vec<String>>,
    /// What a broken invariant does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub on_breach: Option<String>,
    /// A debate's supporters of the proposal on the table.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub supporters: Option<Vec<String>>,
}

impl Gate {
    /// A check named `gate` that passed or not.
    pub fn named(gate: impl Into<String>, passed: bool) -> Gate {
        Gate {
            gate: Some(gate.into()),
            passed: Some(passed),
            ..Gate::default()
        }
    }
}

/// The branch a step took (`node_finished.route`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Route {
    /// The step it chose.
    pub to: String,
    /// The branch goes back (a loop).
    #[serde(rename = "loop")]
    pub is_loop: bool,
    /// The document's loop count after it.
    pub iteration: u64,
}

/// How a rule's failure counts (DRTL §3.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RuleMode {
    /// A failure halts: it is an obligation until it passes or a review decides.
    Block,
    /// A failure is recorded and injected into later model calls as a warning.
    Warn,
    /// A failure is recorded only.
    Observe,
}

impl RuleMode {
    /// The mode a rule's `mode` names; a rule without one (the schema requires it) is held to
    /// the strictest, `block`.
    pub fn of(text: Option<&str>) -> RuleMode {
        match text {
            Some("warn") => RuleMode::Warn,
            Some("observe") => RuleMode::Observe,
            _ => RuleMode::Block,
        }
    }

    /// The name the trace and the state packet write.
    pub fn name(self) -> &'static str {
        match self {
            RuleMode::Block => "block",
            RuleMode::Warn => "warn",
            RuleMode::Observe => "observe",
        }
    }
}

/// Where an obligation stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ObligationStatus {
    /// Not checked yet.
    Pending,
    /// Checked and holds.
    Satisfied,
    /// Checked and does not hold.
    Failed,
    /// Failed, then a review decided to go on (DRTL §9.3: the review is the discharge point).
    Discharged,
}

impl ObligationStatus {
    /// The name the trace and the state packet write.
    pub fn name(self) -> &'static str {
        match self {
            ObligationStatus::Pending => "pending",
            ObligationStatus::Satisfied => "satisfied",
            ObligationStatus::Failed => "failed",
            ObligationStatus::Discharged => "discharged",
        }
    }
}

/// How a node's run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NodeStatus {
    /// It produced its output.
    Succeeded,
    /// It failed.
    Failed,
}

/// How a run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RunStatus {
    /// With output.
    Completed,
    /// Without output: obligations are unmet.
    Refused,
    /// An error, exhausted retries, an abort.
    Failed,
}

/// The event names, as a number per name (what the trace checks compare).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EventKind {
    /// `run_started`
    RunStarted,
    /// `node_started`
    NodeStarted,
    /// `model_requested`
    ModelRequested,
    /// `model_responded`
    ModelResponded,
    /// `output_validated`
    OutputValidated,
    /// `output_invalid`
    OutputInvalid,
    /// `retried`
    Retried,
    /// `gate_evaluated`
    GateEvaluated,
    /// `obligation_updated`
    ObligationUpdated,
    /// `review_requested`
    ReviewRequested,
    /// `review_answered`
    ReviewAnswered,
    /// `node_skipped`
    NodeSkipped,
    /// `node_finished`
    NodeFinished,
    /// `refused`
    Refused,
    /// `run_finished`
    RunFinished,
    /// Any other name (a trace written by someone else).
    Other,
}

impl EventKind {
    /// Every kind the runtime emits, in the order of [`Event`]'s variants.
    pub const ALL: [EventKind; 15] = [
        EventKind::RunStarted,
        EventKind::NodeStarted,
        EventKind::ModelRequested,
        EventKind::ModelResponded,
        EventKind::OutputValidated,
        EventKind::OutputInvalid,
        EventKind::Retried,
        EventKind::GateEvaluated,
        EventKind::ObligationUpdated,
        EventKind::ReviewRequested,
        EventKind::ReviewAnswered,
        EventKind::NodeSkipped,
        EventKind::NodeFinished,
        EventKind::Refused,
        EventKind::RunFinished,
    ];

    /// The name the trace writes (`""` for [`EventKind::Other`]).
    pub fn name(self) -> &'static str {
        match self {
            EventKind::RunStarted => "run_started",
            EventKind::NodeStarted => "node_started",
            EventKind::ModelRequested => "model_requested",
            EventKind::ModelResponded => "model_responded",
            EventKind::OutputValidated => "output_validated",
            EventKind::OutputInvalid => "output_invalid",
            EventKind::Retried => "retried",
            EventKind::GateEvaluated => "gate_evaluated",
            EventKind::ObligationUpdated => "obligation_updated",
            EventKind::ReviewRequested => "review_requested",
            EventKind::ReviewAnswered => "review_answered",
            EventKind::NodeSkipped => "node_skipped",
            EventKind::NodeFinished => "node_finished",
            EventKind::Refused => "refused",
            EventKind::RunFinished => "run_finished",
            EventKind::Other => "",
        }
    }

    /// The kind of an event named `name`.
    pub fn of(name: &str) -> EventKind {
        EventKind::ALL
            .into_iter()
            .find(|kind| kind.name() == name)
            .unwrap_or(EventKind::Other)
    }

    /// The kind of a trace line (its `event` field).
    pub fn of_value(event: &Value) -> EventKind {
        event
            .get("event")
            .and_then(Value::as_str)
            .map_or(EventKind::Other, EventKind::of)
    }
}

impl Event {
    /// Its kind.
    pub fn kind(&self) -> EventKind {
        match self {
            Event::RunStarted { .. } => EventKind::RunStarted,
            Event::NodeStarted { .. } => EventKind::NodeStarted,
            Event::ModelRequested { .. } => EventKind::ModelRequested,
            Event::ModelResponded(_) => EventKind::ModelResponded,
            Event::OutputValidated { .. } => EventKind::OutputValidated,
            Event::OutputInvalid { .. } => EventKind::OutputInvalid,
            Event::Retried { .. } => EventKind::Retried,
            Event::GateEvaluated(_) => EventKind::GateEvaluated,
            Event::ObligationUpdated(_) => EventKind::ObligationUpdated,
            Event::ReviewRequested { .. } => EventKind::ReviewRequested,
            Event::ReviewAnswered(_) => EventKind::ReviewAnswered,
            Event::NodeSkipped { .. } => EventKind::NodeSkipped,
            Event::NodeFinished(_) => EventKind::NodeFinished,
            Event::Refused { .. } => EventKind::Refused,
            Event::RunFinished { .. } => EventKind::RunFinished,
        }
    }

    /// A `node_finished` that failed with `error` after `duration_ms`.
    pub fn node_failed(error: impl Into<String>, duration_ms: Option<u64>) -> Event {
        Event::NodeFinished(NodeFinished {
            status: NodeStatus::Failed,
            output: None,
            error: Some(error.into()),
            duration_ms,
            calls: None,
            next: None,
            pinned: false,
            route: None,
        })
    }

    /// A `review_answered` for an answer that is not one of `actions` (the question is asked
    /// again).
    pub fn answer_not_offered(action: String, note: Option<String>, actions: &[String]) -> Event {
        let error = format!(
            "`{action}` is not one of the actions ({}); asked again",
            actions.join(", ")
        );
        Event::ReviewAnswered(ReviewAnswered {
            action,
            note,
            accepted: Some(false),
            error: Some(error),
        })
    }

    /// A `node_skipped` for `reason`.
    pub fn skipped(reason: impl Into<String>) -> Event {
        Event::NodeSkipped {
            reason: reason.into(),
        }
    }
}

mod fields;
#[cfg(test)]
mod tests;
mod write;

pub use fields::{Fields, ModelResponded, NodeFinished, ObligationUpdated, ReviewAnswered};
