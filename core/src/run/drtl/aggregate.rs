//! `aggregate` (§3.3): combines the items of its input (a list; a map's values; one value is a
//! list of one). `concat` and `vote` are deterministic; `synthesize` and `rank` ask the node's
//! `model` when it names one, and are otherwise the deterministic concatenation and the given
//! order.

use serde_json::Value;

use super::call::{Expect, ModelCall};
use super::generate::{expect_of, request};
use super::node::{file_text, Ctx, Progress, Running, Started};
use super::state::Local;
use crate::run::action::Observation;
use crate::run::kernel::Kernel;

pub(super) struct Aggregate {
    call: ModelCall,
    calls: u32,
    items: Vec<Value>,
    ranking: bool,
}

impl Aggregate {
    pub fn start(
        ctx: &mut Ctx<'_>,
        kernel: &mut Kernel,
        node: usize,
        local: Local<'_>,
    ) -> Result<Started, String> {
        let definition = &ctx.graph.nodes[node];
        let def = &definition.def;
        let items = items_of(local.input);
        let strategy = def
            .get("strategy")
            .and_then(Value::as_str)
            .unwrap_or("concat");
        let model = def.get("model").and_then(Value::as_str);
        let (ranking, instruction) = match (strategy, model) {
            ("vote", _) => return Ok(Started::Settled(Progress::plain(vote(&items)))),
            ("synthesize", Some(_)) => (false, "Combine these outputs into one answer."),
            ("rank", Some(_)) if items.len() > 1 => (
                true,
                "Rank these outputs, best first. Answer with a JSON list of their numbers (0 for the first), nothing else.",
            ),
            ("rank", _) => return Ok(Started::Settled(Progress::plain(Value::Array(items)))),
            _ => return Ok(Started::Settled(Progress::plain(concat(items)))),
        };
        let system = match def.get("prompt_ref").and_then(Value::as_str) {
            Some(reference) => file_text(ctx, reference)?,
            None => instruction.to_owned(),
        };
        let expect = if ranking {
            Expect::Ranking(items.len())
        } else {
            expect_of(def)
        };
        let listed = Value::Array(items.clone());
        let task = Local {
            input: &listed,
            injected: local.injected,
        };
        let request = request(ctx, system, task, model, def, &expect);
        let unit = ctx.units.allocate(node);
        let mut run = Aggregate {
            call: ModelCall::new(unit, &definition.id, request, expect),
            calls: 0,
            items,
            ranking,
        };
        run.call.issue(kernel, &mut run.calls);
        Ok(Started::Waiting(Box::new(Running::Aggregate(Box::new(
            run,
        )))))
    }

    pub fn observe(&mut self, kernel: &mut Kernel, observation: Observation) -> Progress {
        match self.call.observe(kernel, observation) {
            Err(error) => Progress::Failed(error),
            Ok(answer) if self.ranking => {
                Progress::plain(Value::Array(reorder(&self.items, &answer)))
            }
            Ok(answer) => Progress::plain(answer),
        }
    }
}

fn items_of(input: &Value) -> Vec<Value> {
    match input {
        Value::Array(items) => items.clone(),
        Value::Object(map) => map.values().cloned().collect(),
        Value::Null => Vec::new(),
        other => vec![other.clone()],
    }
}

/// Texts joined by a blank line; lists joined into one list; anything else listed as it is.
fn concat(items: Vec<Value>) -> Value {
    if !items.is_empty() && items.iter().all(Value::is_string) {
        let texts: Vec<&str> = items.iter().filter_map(Value::as_str).collect();
        return Value::String(texts.join("\n\n"));
    }
    if items.iter().all(Value::is_array) {
        return Value::Array(
            items
                .into_iter()
                .flat_map(|item| match item {
                    Value::Array(inner) => inner,
                    other => vec![other],
                })
                .collect(),
        );
    }
    Value::Array(items)
}

/// The value given most often (equal as JSON); a tie goes to the one given first.
fn vote(items: &[Value]) -> Value {
    let mut tally: Vec<(&Value, usize)> = Vec::new();
    for item in items {
        match tally.iter_mut().find(|(value, _)| *value == item) {
            Some((_, count)) => *count += 1,
            None => tally.push((item, 1)),
        }
    }
    let mut best: Option<(&Value, usize)> = None;
    for (value, count) in tally {
        if best.is_none_or(|(_, most)| count > most) {
            best = Some((value, count));
        }
    }
    best.map_or(Value::Null, |(value, _)| value.clone())
}

/// The items in the ranked order; items the ranking leaves out follow in their order.
fn reorder(items: &[Value], ranking: &Value) -> Vec<Value> {
    let mut order: Vec<usize> = ranking
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_u64)
        .filter_map(|n| usize::try_from(n).ok())
        .filter(|&n| n < items.len())
        .collect();
    for n in 0..items.len() {
        if !order.contains(&n) {
            order.push(n);
        }
    }
    order.into_iter().map(|n| items[n].clone()).collect()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn deterministic_strategies() {
        assert_eq!(concat(vec![json!("a"), json!("b")]), json!("a\n\nb"));
        assert_eq!(concat(vec![json!([1]), json!([2, 3])]), json!([1, 2, 3]));
        assert_eq!(
            concat(vec![json!({"a": 1}), json!("b")]),
            json!([{"a": 1}, "b"])
        );
        assert_eq!(vote(&[json!("x"), json!("y"), json!("y")]), json!("y"));
        assert_eq!(
            vote(&[json!({"a": 1}), json!("y")]),
            json!({"a": 1}),
            "a tie: the first"
        );
        assert_eq!(vote(&[]), Value::Null);
        assert_eq!(
            reorder(&[json!("a"), json!("b"), json!("c")], &json!([2])),
            [json!("c"), json!("a"), json!("b")]
        );
        assert_eq!(items_of(&json!({"x": 1, "y": 2})), [json!(1), json!(2)]);
    }
}
