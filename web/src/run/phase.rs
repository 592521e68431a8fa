//! Where a run is, as one value: the buttons, the review form, the tool check and the canvas all
//! read it, so they never disagree about what the run waits for.

use super::driver::{Review, ToolCheck};

/// Where the run is, as the panel shows it: one value, so the buttons, the review form and the
/// canvas never disagree about what the run waits for.
#[derive(Debug, Clone, PartialEq)]
pub enum Phase {
    Idle,
    Running,
    Paused(Pause),
    Finished(String),
    Stopped(String),
}

/// Why a run is paused, and what it waits for.
#[derive(Debug, Clone, PartialEq)]
pub enum Pause {
    /// The person pressed Pause.
    ByYou,
    /// One action was carried out by Step.
    Stepped,
    /// A breakpoint, before this node's first model call.
    Breakpoint(String),
    /// A review (or an escalation) waits for the person's decision.
    Review(Review),
    /// A tool check waits for the person (auto-answer off).
    Tool(ToolCheck),
}

impl Phase {
    pub fn label(&self) -> String {
        match self {
            Phase::Idle => "idle".to_owned(),
            Phase::Running => "running".to_owned(),
            Phase::Paused(pause) => format!("paused: {}", pause.label()),
            Phase::Finished(status) => status.clone(),
            Phase::Stopped(why) => format!("stopped: {why}"),
        }
    }

    /// The review waiting for the person, if the run waits for one.
    pub fn review(&self) -> Option<&Review> {
        match self {
            Phase::Paused(Pause::Review(review)) => Some(review),
            _ => None,
        }
    }

    /// The tool check waiting for the person, if the run waits for one.
    pub fn tool(&self) -> Option<&ToolCheck> {
        match self {
            Phase::Paused(Pause::Tool(check)) => Some(check),
            _ => None,
        }
    }

    /// Paused with nothing asked of the person: Continue and Step may go on.
    pub fn may_go_on(&self) -> bool {
        matches!(
            self,
            Phase::Paused(Pause::ByYou | Pause::Stepped | Pause::Breakpoint(_))
        )
    }

    /// Running or paused: the run is not over.
    pub fn active(&self) -> bool {
        matches!(self, Phase::Running | Phase::Paused(_))
    }
}

impl Pause {
    fn label(&self) -> String {
        match self {
            Pause::ByYou => "by you".to_owned(),
            Pause::Stepped => "stepped".to_owned(),
            Pause::Breakpoint(node) => format!("before {node}"),
            Pause::Review(review) => format!("review at {}", review.node),
            Pause::Tool(check) => format!("tool check at {}", check.node),
        }
    }
}
