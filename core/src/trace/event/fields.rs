//! The fields of the events a trace is read back for (pins, a trace replayed as a script), as
//! types of their own: such a reader reads the lines of one kind alone
//! ([`Record::fields`](super::Record::fields)), so what it links is those kinds' fields, not
//! every event's (the studio's lazily loaded run mode: the whole [`Event`](super::Event) read
//! costs it tens of kilobytes).

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{
    present, EventKind, NodeStatus, ObligationStatus, Record, Response, Route, RuleMode, Speaker,
};
use crate::run::Verdict;

/// An event's fields that can be read on their own, with the kind they belong to.
pub trait Fields: DeserializeOwned {
    /// The event they are the fields of.
    const KIND: EventKind;
}

impl Record {
    /// The node and fields of trace line `line` when it is an event of `T`'s kind that reads
    /// as one; `None` for any other line.
    pub fn fields<T: Fields>(line: &Value) -> Option<(Option<String>, T)> {
        if EventKind::of_value(line) != T::KIND {
            return None;
        }
        let node = match line.get("node") {
            None | Some(Value::Null) => None,
            Some(Value::String(node)) => Some(node.clone()),
            Some(_) => return None,
        };
        T::deserialize(line).ok().map(|fields| (node, fields))
    }
}

/// A model call was answered, or failed (`model_responded`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ModelResponded {
    /// The call number it answers.
    pub attempt: u32,
    /// The answer or the error.
    #[serde(flatten)]
    pub response: Response,
    /// The participant and round of a fan-out or debate call.
    #[serde(flatten)]
    pub speaker: Speaker,
}

/// A verification rule's result changed an obligation (`obligation_updated`: DRTL `verify`, a
/// review's decision).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ObligationUpdated {
    /// The rule's id (`review` for a review's own decision).
    pub rule: String,
    /// The key of the input it checked, if the rule names one (always written).
    pub target: Option<String>,
    /// How a failure counts.
    pub mode: RuleMode,
    /// Where the obligation stands now.
    pub status: ObligationStatus,
    /// The tool's verdict, when a tool decided (so a trace replays as a script).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verdict: Option<Verdict>,
    /// `core` when the runtime decided without a tool.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checked_by: Option<String>,
    /// What the decision rests on.
    pub evidence: Value,
}

/// The reviewer decided (`review_answered`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReviewAnswered {
    /// The decision.
    pub action: String,
    /// The reviewer's comment (always written).
    pub note: Option<String>,
    /// `false` when the answer was not one of the actions (the question is asked again).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub accepted: Option<bool>,
    /// Why an answer was not accepted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// A node's run ended (`node_finished`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NodeFinished {
    /// `succeeded` or `failed`.
    pub status: NodeStatus,
    /// Its output (a succeeded run; `null` is written).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "present"
    )]
    pub output: Option<Value>,
    /// Why it failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// How long it ran, in milliseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duration_ms: Option<u64>,
    /// The model calls it made (LOGIC.md steps).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub calls: Option<u32>,
    /// The nodes (or `terminate`) its routes fired to (DRTL).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next: Option<Vec<String>>,
    /// The output was given in advance ([`RunOptions::pins`](crate::run::RunOptions)).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub pinned: bool,
    /// The branch it took (LOGIC.md steps with `branches`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub route: Option<Route>,
}

impl Fields for ModelResponded {
    const KIND: EventKind = EventKind::ModelResponded;
}

impl Fields for ObligationUpdated {
    const KIND: EventKind = EventKind::ObligationUpdated;
}

impl Fields for ReviewAnswered {
    const KIND: EventKind = EventKind::ReviewAnswered;
}

impl Fields for NodeFinished {
    const KIND: EventKind = EventKind::NodeFinished;
}
