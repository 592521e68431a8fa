//! The line of actions handed out and not yet fed, in the order the engine handed them out
//! (their ids' counters): answers may come in any order, and they are fed in this order, so a
//! trace never depends on which call finished first. An action left to a person (a review, a
//! tool a person checks) is parked: later answers do not wait for it, and its answer, whenever
//! it comes, is fed next.

use std::collections::BTreeMap;

use crate::run::{Action, ActionKind, Observation};

/// Where an action of the line is.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum State {
    /// For the caller, not handed to it yet.
    Due,
    /// Handed to the caller; no answer yet.
    Out,
    /// Left to a person: later answers are not held back for it.
    Parked,
    /// Answered: fed at its turn (or at once, when it was parked).
    Answered {
        /// Boxed: an answer is far larger than the other states.
        observation: Box<Observation>,
        /// When it finished, on the session's clock.
        at: u64,
        /// Answered inside the session (not by the caller): the journal keeps the observation
        /// with the feed.
        inside: bool,
        parked: bool,
    },
}

#[derive(Debug, Clone)]
pub(super) struct Slot {
    pub action: Action,
    /// The clock when the action was handed out.
    pub started_at: u64,
    pub state: State,
}

#[derive(Debug, Default)]
pub(super) struct Line {
    slots: BTreeMap<u64, Slot>,
}

/// Action ids are `a` + a counter: ordered by the counter.
pub(super) fn counter(id: &str) -> Option<u64> {
    id.strip_prefix('a')?.parse().ok()
}

impl Line {
    pub fn push(&mut self, action: Action, started_at: u64, state: State) {
        if let Some(key) = counter(&action.id) {
            self.slots.insert(
                key,
                Slot {
                    action,
                    started_at,
                    state,
                },
            );
        }
    }

    pub fn get_mut(&mut self, id: &str) -> Option<&mut Slot> {
        self.slots.get_mut(&counter(id)?)
    }

    pub fn remove(&mut self, id: &str) -> Option<Slot> {
        self.slots.remove(&counter(id)?)
    }

    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// The first action due to the caller, now handed out. A review is a person's: it is
    /// parked at once, so no answer waits for their decision.
    pub fn hand_out(&mut self) -> Option<&Action> {
        let slot = self
            .slots
            .values_mut()
            .find(|slot| slot.state == State::Due)?;
        slot.state = match slot.action.kind {
            ActionKind::AskReview { .. } => State::Parked,
            _ => State::Out,
        };
        Some(&slot.action)
    }

    /// The id of the answer to feed next: a parked action's answer first, else the first answer
    /// with nothing but parked actions before it.
    pub fn feedable(&self) -> Option<&str> {
        let answered_parked = self
            .slots
            .values()
            .find(|slot| matches!(slot.state, State::Answered { parked: true, .. }));
        if let Some(slot) = answered_parked {
            return Some(&slot.action.id);
        }
        for slot in self.slots.values() {
            match slot.state {
                State::Parked => continue,
                State::Answered { .. } => return Some(&slot.action.id),
                State::Due | State::Out => return None,
            }
        }
        None
    }

    /// Every action is parked: the run waits for people.
    pub fn all_parked(&self) -> bool {
        self.slots.values().all(|slot| slot.state == State::Parked)
    }

    /// The parked actions, in order.
    pub fn parked(&self) -> Vec<Action> {
        self.slots
            .values()
            .filter(|slot| slot.state == State::Parked)
            .map(|slot| slot.action.clone())
            .collect()
    }

    /// Drops the actions `keep` refuses (withdrawn by the engine); their ids.
    pub fn drop_unless(&mut self, keep: impl Fn(&str) -> bool) -> Vec<u64> {
        let gone: Vec<u64> = self
            .slots
            .iter()
            .filter(|(_, slot)| !keep(&slot.action.id))
            .map(|(key, _)| *key)
            .collect();
        for key in &gone {
            self.slots.remove(key);
        }
        gone
    }

    /// Every action still on the line: handed back to be carried out again after a restore.
    pub fn recall(&mut self) {
        for slot in self.slots.values_mut() {
            if matches!(slot.state, State::Out | State::Parked) {
                slot.state = State::Due;
            }
        }
    }

    /// The answered actions not yet fed, in order: `(action, at, observation)`.
    pub fn answered(&self) -> impl Iterator<Item = (&Action, u64, &Observation, bool)> {
        self.slots.values().filter_map(|slot| match &slot.state {
            State::Answered {
                observation,
                at,
                inside,
                ..
            } => Some((&slot.action, *at, &**observation, *inside)),
            _ => None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn action(n: u64) -> Action {
        Action {
            id: format!("a{n}"),
            kind: ActionKind::Wait {
                node: "x".into(),
                ms: 0,
            },
        }
    }

    fn answered(parked: bool) -> State {
        State::Answered {
            observation: Box::new(Observation::Waited),
            at: 0,
            inside: false,
            parked,
        }
    }

    #[test]
    fn answers_are_fed_in_hand_out_order_past_parked_actions() {
        let mut line = Line::default();
        line.push(action(10), 0, State::Out);
        line.push(action(2), 0, State::Parked);
        line.push(action(3), 0, State::Out);
        assert_eq!(line.feedable(), None);
        line.get_mut("a10").unwrap().state = answered(false);
        assert_eq!(line.feedable(), None, "a3 is earlier and not answered");
        line.get_mut("a3").unwrap().state = answered(false);
        assert_eq!(line.feedable(), Some("a3"));
        line.remove("a3");
        assert_eq!(line.feedable(), Some("a10"));
        line.get_mut("a2").unwrap().state = answered(true);
        assert_eq!(line.feedable(), Some("a2"), "a person's answer goes first");
    }

    #[test]
    fn due_actions_are_handed_out_once_in_order_and_recalled_after_a_restore() {
        let mut line = Line::default();
        line.push(action(5), 0, State::Due);
        line.push(action(4), 0, State::Due);
        assert_eq!(line.hand_out().map(|a| a.id.clone()), Some("a4".into()));
        assert_eq!(line.hand_out().map(|a| a.id.clone()), Some("a5".into()));
        assert!(line.hand_out().is_none());
        line.recall();
        assert_eq!(line.hand_out().map(|a| a.id.clone()), Some("a4".into()));
        assert_eq!(line.drop_unless(|id| id != "a5"), [5]);
        assert!(!line.all_parked());
    }
}
