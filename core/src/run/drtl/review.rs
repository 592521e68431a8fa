//! `review` (§3.8): the run asks for a decision (`AskReview` with the node's input, message and
//! action labels) and waits; the run is paused while only reviews are outstanding. The answer
//! routes as its action declares. An answer that is not one of the actions is recorded and the
//! question asked again. What a decision does to the obligations it is asked about depends on
//! what it says ([`ReviewDecision`](crate::drtl::ReviewDecision)) and whether the topology
//! routes it.

use serde_json::{json, Value};

use super::node::{Ctx, Progress, Route};
use super::state::Local;
use crate::run::action::{ActionKind, Observation};
use crate::run::kernel::{Kernel, Purpose, Waiter};
use crate::trace::{Event, ReviewAnswered};

pub(super) struct Review {
    unit: usize,
    id: String,
    input: Value,
    message: Option<String>,
    actions: Vec<String>,
}

impl Review {
    pub fn start(
        ctx: &mut Ctx<'_>,
        kernel: &mut Kernel,
        node: usize,
        local: Local<'_>,
    ) -> Result<Review, String> {
        let definition = &ctx.graph.nodes[node];
        let message = match definition.text("message") {
            Some(text) => Some(match ctx.store.template(ctx.graph, text, local)? {
                Value::String(text) => text,
                other => other.to_string(),
            }),
            None => None,
        };
        let review = Review {
            unit: ctx.units.allocate(node),
            id: definition.id.clone(),
            input: local.input.clone(),
            message,
            actions: labels(&definition.def),
        };
        review.ask(kernel);
        Ok(review)
    }

    fn ask(&self, kernel: &mut Kernel) {
        let requested = Event::ReviewRequested {
            message: self.message.clone(),
            actions: self.actions.clone(),
            input: self.input.clone(),
        };
        kernel.event(Some(&self.id), requested);
        kernel.issue(
            ActionKind::AskReview {
                node: self.id.clone(),
                input: self.input.clone(),
                message: self.message.clone(),
                actions: self.actions.clone(),
            },
            Waiter {
                unit: self.unit,
                purpose: Purpose::Review,
            },
        );
    }

    pub fn observe(
        &mut self,
        kernel: &mut Kernel,
        _waiter: Waiter,
        observation: Observation,
    ) -> Progress {
        let Observation::ReviewAnswer { action, note } = observation else {
            return Progress::Failed(format!("unexpected observation {observation:?}"));
        };
        if !self.actions.contains(&action) {
            let answered = Event::answer_not_offered(action, note, &self.actions);
            kernel.event(Some(&self.id), answered);
            self.ask(kernel);
            return Progress::Pending;
        }
        let answered = Event::ReviewAnswered(ReviewAnswered {
            action: action.clone(),
            note: note.clone(),
            accepted: None,
            error: None,
        });
        kernel.event(Some(&self.id), answered);
        Progress::Finished {
            output: json!({"action": action, "note": note}),
            route: Route::Action(action),
        }
    }
}

/// The action labels: `retry` and `{retry: {next: draft}}` alike.
fn labels(def: &Value) -> Vec<String> {
    def.get("actions")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|action| match action {
            Value::String(label) => Some(label.clone()),
            Value::Object(map) => map.keys().next().cloned(),
            _ => None,
        })
        .collect()
}
