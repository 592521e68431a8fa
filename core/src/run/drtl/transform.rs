//! `transform` (§3.7): deterministic state mutations, in order, each seeing the ones before.
//! `set` names `state.variables.PATH` or `state.artifacts.PATH` (a path without `state.` is a
//! variable: `loop_count` is `state.variables.loop_count`); claims, obligations and the trace
//! change only by verification, reviews and the run itself. `value` is a template, a `std.*` call
//! ([`stdlib`]) or literal data. The output maps each `set` to the value it was given.

use serde_json::{Map, Value};

use super::node::{Ctx, Progress};
use super::state::Local;
use super::stdlib;
use crate::fieldpath::FieldPath;

enum Area {
    Variables,
    Artifacts,
}

pub(super) fn apply(ctx: &mut Ctx<'_>, node: usize, local: Local<'_>) -> Progress {
    let operations = ctx.graph.nodes[node]
        .def
        .get("operations")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let mut output = Map::new();
    for (index, operation) in operations.iter().enumerate() {
        let set = operation
            .get("set")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let done = value(ctx, operation.get("value").unwrap_or(&Value::Null), local)
            .and_then(|value| assign(ctx, set, value.clone()).map(|()| value));
        match done {
            Ok(value) => {
                output.insert(set.to_owned(), value);
            }
            Err(error) => {
                return Progress::Failed(format!("operation {} (`set: {set}`): {error}", index + 1))
            }
        }
    }
    Progress::plain(Value::Object(output))
}

/// A transform value: `std.*` calls, templates, and data, resolved inside out.
fn value(ctx: &Ctx<'_>, written: &Value, local: Local<'_>) -> Result<Value, String> {
    Ok(match written {
        Value::String(text) if text.contains("{{") => ctx.store.template(ctx.graph, text, local)?,
        Value::Object(map) => match stdlib::as_call(map) {
            Some((name, argument)) => stdlib::call(name, value(ctx, argument, local)?)?,
            None => Value::Object(
                map.iter()
                    .map(|(key, item)| Ok((key.clone(), value(ctx, item, local)?)))
                    .collect::<Result<_, String>>()?,
            ),
        },
        Value::Array(items) => Value::Array(
            items
                .iter()
                .map(|item| value(ctx, item, local))
                .collect::<Result<_, _>>()?,
        ),
        other => other.clone(),
    })
}

fn assign(ctx: &mut Ctx<'_>, set: &str, value: Value) -> Result<(), String> {
    let (area, path) = place(set)?;
    let path = FieldPath::parse(path)?;
    let state = &mut ctx.store.state;
    let map = match area {
        Area::Variables => &mut state.variables,
        Area::Artifacts => &mut state.artifacts,
    };
    let mut whole = Value::Object(std::mem::take(map));
    let result = path.set(&mut whole, value);
    if let Value::Object(updated) = whole {
        *map = updated;
    }
    result
}

fn place(set: &str) -> Result<(Area, &str), String> {
    let Some(rest) = set.strip_prefix("state.") else {
        return Ok((Area::Variables, set));
    };
    if let Some(path) = rest.strip_prefix("variables.") {
        return Ok((Area::Variables, path));
    }
    if let Some(path) = rest.strip_prefix("artifacts.") {
        return Ok((Area::Artifacts, path));
    }
    let field = rest.split(['.', '[']).next().unwrap_or(rest);
    Err(match field {
        "claims" | "obligations" | "trace" | "warnings" => format!(
            "a transform cannot set `state.{field}`: it changes only by verification, reviews and the run itself"
        ),
        _ => format!(
            "`{set}` is not a place a transform can set: use `state.variables.NAME` or `state.artifacts.KEY`"
        ),
    })
}
