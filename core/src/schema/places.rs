//! The schema's places, found once: what the hints of a schema error ask of the instance
//! location it is at (the property names declared there, the `enum` there, whether it is a
//! duration) is answered from a small machine built on demand over the schema, not by walking
//! the schema's JSON from its root for every error (issue #38: that walk was 6-8% of the corpus).
//!
//! A location's answers depend only on the set of schemas that apply there ([`subschemas_at`]).
//! One step from a set depends on the token only through whether it is one of the property names
//! declared in the set, and whether it reads as an array index: a token that is neither reaches
//! what any other such token reaches. So the machine's states are the sets reached (each kept
//! once), and its steps are keyed by the schema's own names or by one of those two classes:
//! it is bounded by the schema, never by the documents' names.

use std::sync::Mutex;

use rustc_hash::FxHashMap;
use serde_json::Value;

use super::suggest::{expand_into, step_into, Words};
use crate::json::tokens_of;

/// The places of one schema, answered from states built on first use.
pub(crate) struct Places<'s> {
    root: &'s Value,
    machine: Mutex<Machine<'s>>,
}

/// One set of schemas that apply at a place, with the answers the hints ask of it.
struct State<'s> {
    subschemas: Vec<(&'s Value, Words<'s>)>,
    /// The property names the set declares, sorted, each once.
    names: Vec<&'s str>,
    /// The string values of the set's `enum`s, in the walk's order.
    choices: Vec<&'s str>,
    /// A schema of the set describes a duration string.
    duration: bool,
    /// The steps taken from this state so far, by the token's class: the state each leads to.
    /// *Why here, not in a map keyed by (state, token class):* hashing a named step hashed
    /// and compared its name, most of a hint's place (issue #38, round two); a name's slot
    /// in `names` is found by the search that classes the token anyway.
    next: Steps,
}

/// The states reached from one state: by each of its names (the slot of `names`), by an
/// index, by any other token; `None` until first taken.
struct Steps {
    named: Vec<Option<usize>>,
    index: Option<usize>,
    other: Option<usize>,
}

/// How one step's token is told apart: by the set's own name (its slot in `names`), or by
/// its class.
#[derive(Clone, Copy)]
enum Step {
    Named(usize),
    Index,
    Other,
}

impl Steps {
    fn slot(&mut self, step: Step) -> &mut Option<usize> {
        match step {
            Step::Named(slot) => &mut self.named[slot],
            Step::Index => &mut self.index,
            Step::Other => &mut self.other,
        }
    }
}

#[derive(Default)]
struct Machine<'s> {
    states: Vec<State<'s>>,
    /// Each state by its schemas' addresses, so a set reached twice is one state.
    by_set: FxHashMap<Vec<usize>, usize>,
}

impl<'s> Places<'s> {
    /// The places of `root`; nothing is walked until asked.
    pub(crate) fn new(root: &'s Value) -> Self {
        Places {
            root,
            machine: Mutex::new(Machine::default()),
        }
    }

    /// The property names declared for the object at instance `pointer`, sorted, each once.
    pub(crate) fn property_names(&self, pointer: &str) -> Vec<&'s str> {
        self.answer(pointer, |state| state.names.clone())
    }

    /// The string values an `enum` allows at instance `pointer`.
    pub(crate) fn choices(&self, pointer: &str) -> Vec<&'s str> {
        self.answer(pointer, |state| state.choices.clone())
    }

    /// Whether the schema describes the value at instance `pointer` as a duration string.
    pub(crate) fn is_duration(&self, pointer: &str) -> bool {
        self.answer(pointer, |state| state.duration)
    }

    fn answer<T>(&self, pointer: &str, read: impl FnOnce(&State<'s>) -> T) -> T {
        // A panic while the lock was held left no half-made state behind (states are pushed
        // whole), so a poisoned machine is still sound.
        let mut machine = self
            .machine
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let at = machine.state_at(self.root, pointer);
        read(&machine.states[at])
    }
}

impl<'s> Machine<'s> {
    fn state_at(&mut self, root: &'s Value, pointer: &str) -> usize {
        if self.states.is_empty() {
            let mut start = Vec::new();
            expand_into(root, &mut vec![root], &mut start);
            self.state_of(start);
        }
        let mut at = 0;
        for token in tokens_of(pointer) {
            let step = self.step(at, &token);
            at = match *self.states[at].next.slot(step) {
                Some(next) => next,
                None => {
                    let mut next = Vec::new();
                    step_into(root, &self.states[at].subschemas, &token, &mut next);
                    let next = self.state_of(next);
                    *self.states[at].next.slot(step) = Some(next);
                    next
                }
            };
        }
        at
    }

    fn step(&self, at: usize, token: &str) -> Step {
        match self.states[at].names.binary_search(&token) {
            Ok(found) => Step::Named(found),
            Err(_) if token.parse::<usize>().is_ok() => Step::Index,
            Err(_) => Step::Other,
        }
    }

    fn state_of(&mut self, subschemas: Vec<(&'s Value, Words<'s>)>) -> usize {
        let set: Vec<usize> = subschemas
            .iter()
            .map(|(sub, _)| *sub as *const Value as usize)
            .collect();
        if let Some(&known) = self.by_set.get(&set) {
            return known;
        }
        let state = State::of(subschemas);
        self.states.push(state);
        let id = self.states.len() - 1;
        self.by_set.insert(set, id);
        id
    }
}

impl<'s> State<'s> {
    fn of(subschemas: Vec<(&'s Value, Words<'s>)>) -> Self {
        let mut names: Vec<&'s str> = subschemas
            .iter()
            .filter_map(|(sub, _)| sub.get("properties").and_then(Value::as_object))
            .flat_map(|props| props.keys().map(String::as_str))
            .collect();
        names.sort_unstable();
        names.dedup();
        let choices = subschemas
            .iter()
            .filter_map(|(sub, _)| sub.get("enum").and_then(Value::as_array))
            .flatten()
            .filter_map(Value::as_str)
            .collect();
        let duration = subschemas.iter().any(|(sub, _)| {
            sub.get("description")
                .and_then(Value::as_str)
                .is_some_and(|text| text.contains("duration string"))
        });
        State {
            next: Steps {
                named: vec![None; names.len()],
                index: None,
                other: None,
            },
            subschemas,
            names,
            choices,
            duration,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::suggest::{enum_at, is_duration, known_property_names, subschemas_at};

    /// Every pointer up to `depth` steps of the schema's own names, an index, an index-like
    /// name and a name no schema declares.
    fn pointers(schema: &Value, depth: usize) -> Vec<String> {
        let mut names: Vec<String> = Vec::new();
        fn collect(value: &Value, names: &mut Vec<String>) {
            match value {
                Value::Object(map) => {
                    if let Some(Value::Object(props)) = map.get("properties") {
                        names.extend(props.keys().cloned());
                    }
                    map.values().for_each(|v| collect(v, names));
                }
                Value::Array(items) => items.iter().for_each(|v| collect(v, names)),
                _ => {}
            }
        }
        collect(schema, &mut names);
        names.sort();
        names.dedup();
        names.extend(["0", "12", "01", "not_a_name", "a~1b", ""].map(String::from));
        let mut all = vec![String::new()];
        let mut layer = vec![String::new()];
        for _ in 0..depth {
            let mut next = Vec::new();
            for pointer in &layer {
                // Only the places some schema applies to lead further (below the others no
                // schema applies either).
                let tokens: Vec<_> = tokens_of(pointer).collect();
                if subschemas_at(schema, &tokens).is_empty() {
                    continue;
                }
                for name in &names {
                    next.push(format!(
                        "{pointer}/{}",
                        name.replace('~', "~0").replace('/', "~1")
                    ));
                }
            }
            all.extend(next.iter().cloned());
            layer = next;
        }
        all
    }

    #[test]
    fn the_places_answer_what_the_walk_from_the_root_answers() {
        for schema in [crate::schema::schema(), crate::drtl::schema()] {
            let places = Places::new(schema);
            let pointers = pointers(schema, 3);
            assert!(pointers.len() > 500, "{}", pointers.len());
            // Twice: first as the states are made, then from the states made.
            for _ in 0..2 {
                for pointer in &pointers {
                    assert_eq!(
                        places.property_names(pointer),
                        known_property_names(schema, pointer),
                        "{pointer}"
                    );
                    assert_eq!(
                        places.choices(pointer),
                        enum_at(schema, pointer),
                        "{pointer}"
                    );
                    assert_eq!(
                        places.is_duration(pointer),
                        is_duration(schema, pointer),
                        "{pointer}"
                    );
                }
            }
        }
    }
}
