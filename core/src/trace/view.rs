//! The trace as the rules read it: what each event is and the few fields the rules look at,
//! read in one pass. A 100,000-event trace is larger than the processor's caches, so looking a
//! field up again costs memory misses, not hashing: after this pass the rules work on compact
//! arrays, and go back to an event only for the fields of the few events that need them.

use rustc_hash::FxHashMap;
use serde_json::Value;

/// The event names the rules know: the runtime's typed events ([`EventKind`]), numbered.
pub(crate) use super::event::EventKind as Kind;

pub(crate) struct View<'a> {
    pub events: &'a [Value],
    pub names: Vec<&'a str>,
    /// Each event's name as a number (names numbered in the order they first occur).
    pub ids: Vec<u32>,
    pub kinds: Vec<Kind>,
    id_of: FxHashMap<&'a str, u32>,
    pub nodes: Vec<Option<&'a str>>,
    /// `status` (node_finished, run_finished, obligation_updated).
    pub statuses: Vec<Option<&'a str>>,
    /// `gate` (gate_evaluated).
    pub gates: Vec<Option<&'a str>>,
}

impl<'a> View<'a> {
    pub fn new(events: &'a [Value]) -> View<'a> {
        let n = events.len();
        let mut view = View {
            events,
            names: Vec::with_capacity(n),
            ids: Vec::with_capacity(n),
            kinds: Vec::with_capacity(n),
            id_of: FxHashMap::default(),
            nodes: Vec::with_capacity(n),
            statuses: Vec::with_capacity(n),
            gates: Vec::with_capacity(n),
        };
        let mut kind_of_id: Vec<Kind> = Vec::new();
        for event in events {
            let (mut name, mut node, mut status, mut gate) = ("", None, None, None);
            for (key, value) in event.as_object().into_iter().flatten() {
                match key.as_str() {
                    "event" => name = value.as_str().unwrap_or(""),
                    "node" => node = value.as_str(),
                    "status" => status = value.as_str(),
                    "gate" => gate = value.as_str(),
                    _ => {}
                }
            }
            let next = view.id_of.len() as u32;
            let id = *view.id_of.entry(name).or_insert(next);
            if id == next {
                kind_of_id.push(Kind::of(name));
            }
            view.names.push(name);
            view.ids.push(id);
            view.kinds.push(kind_of_id[id as usize]);
            view.nodes.push(node);
            view.statuses.push(status);
            view.gates.push(gate);
        }
        view
    }

    pub fn len(&self) -> usize {
        self.events.len()
    }

    /// The number events named `name` have, if any event has that name.
    pub fn id(&self, name: &str) -> Option<u32> {
        self.id_of.get(name).copied()
    }

    /// A string field of event `i`.
    pub fn text(&self, i: usize, key: &str) -> Option<&'a str> {
        self.events[i].get(key).and_then(Value::as_str)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reads_names_nodes_and_the_fields_rules_use_once() {
        let events = [
            json!({"event": "node_finished", "node": "a", "status": "failed"}),
            json!({"event": "custom", "gate": "g"}),
            json!({"event": "node_finished", "node": "b"}),
            json!([1]),
        ];
        let view = View::new(&events);
        assert_eq!(view.ids, [0, 1, 0, 2]);
        assert_eq!(
            view.kinds,
            [
                Kind::NodeFinished,
                Kind::Other,
                Kind::NodeFinished,
                Kind::Other
            ]
        );
        assert_eq!(view.nodes, [Some("a"), None, Some("b"), None]);
        assert_eq!(view.statuses, [Some("failed"), None, None, None]);
        assert_eq!(view.gates, [None, Some("g"), None, None]);
        assert_eq!(view.id("custom"), Some(1));
        assert_eq!(view.id("absent"), None);
    }
}
