//! The interface between the engine's actions and whatever carries them out: a model provider
//! (synthetic, scripted, an HTTP endpoint), and whoever answers tools and reviews.

use super::action::{Action, Observation};

/// What a provider makes of an action.
#[derive(Debug, Clone, PartialEq)]
pub enum Answer {
    /// The provider carried out the action: feed this to the run.
    Observed(Observation),
    /// The provider does not answer this kind of action (a review needs a person, a tool call
    /// needs a checker): the driver decides, or the run waits.
    Unanswered(String),
}

/// Carries out actions. `on_token` receives the answer's text as it streams, for providers
/// that stream; others may never call it.
pub trait Provider {
    /// Carries out `action`, or says it cannot ([`Answer::Unanswered`]).
    fn answer(&mut self, action: &Action, on_token: &mut dyn FnMut(&str)) -> Answer;
}
