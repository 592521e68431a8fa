//! The `std.*` library of transform values. A call is a mapping with one key, the function's
//! name, whose value is the argument (one-argument functions) or the list of arguments, like
//! CloudFormation's `Fn::Join: [",", [...]]`: `value: {std.count: "{{ drafts.outputs }}"}`,
//! `value: {std.join: ["{{ claims.names }}", ", "]}`. Arguments are resolved first (templates,
//! nested calls). Every function is deterministic: there is no clock and no randomness, so a
//! run replays byte for byte.

use serde_json::{Map, Value};

use super::rules::number_json;

/// Functions of one argument, and functions of a list of arguments.
pub(super) const UNARY: &[&str] = &[
    "std.count",
    "std.sum",
    "std.min",
    "std.max",
    "std.unique",
    "std.flatten",
    "std.sort",
];
pub(super) const LISTED: &[&str] = &["std.concat", "std.join", "std.append"];

/// Names that look like library functions but cannot exist in a deterministic run.
const NONDETERMINISTIC: &[&str] = &["std.now", "std.today", "std.time", "std.random", "std.uuid"];

/// The call a value is, when it is one: `{"std.NAME": argument}`.
pub(super) fn as_call(map: &Map<String, Value>) -> Option<(&str, &Value)> {
    let mut entries = map.iter();
    let (name, argument) = entries.next()?;
    (entries.next().is_none() && name.starts_with("std.")).then_some((name.as_str(), argument))
}

/// Calls `name` on its resolved `argument`.
pub(super) fn call(name: &str, argument: Value) -> Result<Value, String> {
    if NONDETERMINISTIC.contains(&name) {
        return Err(format!(
            "`{name}` is not available: a run is deterministic (no clock, no randomness); pass such values in the run's input"
        ));
    }
    if LISTED.contains(&name) {
        let Value::Array(arguments) = argument else {
            return Err(format!("`{name}` takes a list of arguments"));
        };
        return listed(name, arguments).map_err(|e| format!("`{name}`: {e}"));
    }
    if UNARY.contains(&name) {
        return unary(name, argument).map_err(|e| format!("`{name}`: {e}"));
    }
    Err(format!(
        "unknown function `{name}`; the library has {}",
        UNARY
            .iter()
            .chain(LISTED)
            .map(|f| format!("`{f}`"))
            .collect::<Vec<_>>()
            .join(", ")
    ))
}

fn unary(name: &str, value: Value) -> Result<Value, String> {
    Ok(match name {
        "std.count" => match &value {
            Value::Null => Value::from(0),
            Value::String(text) => Value::from(text.chars().count()),
            Value::Array(items) => Value::from(items.len()),
            Value::Object(map) => Value::from(map.len()),
            other => return Err(format!("cannot count a {}", type_name(other))),
        },
        "std.sum" => number_json(numbers(&value)?.iter().sum()),
        "std.min" => numbers(&value)?
            .into_iter()
            .reduce(f64::min)
            .map_or(Value::Null, number_json),
        "std.max" => numbers(&value)?
            .into_iter()
            .reduce(f64::max)
            .map_or(Value::Null, number_json),
        "std.unique" => {
            let mut seen: Vec<Value> = Vec::new();
            for item in list(value)? {
                if !seen.contains(&item) {
                    seen.push(item);
                }
            }
            Value::Array(seen)
        }
        "std.flatten" => Value::Array(
            list(value)?
                .into_iter()
                .flat_map(|item| match item {
                    Value::Array(inner) => inner,
                    other => vec![other],
                })
                .collect(),
        ),
        "std.sort" => sort(list(value)?)?,
        _ => return Err("not a function of one argument".to_owned()),
    })
}

fn listed(name: &str, mut arguments: Vec<Value>) -> Result<Value, String> {
    Ok(match name {
        "std.concat" => {
            if arguments.iter().all(Value::is_string) {
                Value::String(arguments.iter().filter_map(Value::as_str).collect())
            } else if arguments.iter().all(|a| a.is_array() || a.is_null()) {
                Value::Array(
                    arguments
                        .into_iter()
                        .flat_map(|a| list(a).unwrap_or_default())
                        .collect(),
                )
            } else {
                return Err("the arguments must be all lists or all strings".to_owned());
            }
        }
        "std.join" => {
            let [items, separator] = <[Value; 2]>::try_from(arguments)
                .map_err(|_| "takes two arguments: the list and the separator".to_owned())?;
            let Value::String(separator) = separator else {
                return Err("the separator must be a string".to_owned());
            };
            let texts: Vec<String> = list(items)?
                .iter()
                .map(|item| match item {
                    Value::String(text) => text.clone(),
                    other => other.to_string(),
                })
                .collect();
            Value::String(texts.join(&separator))
        }
        "std.append" => {
            if arguments.is_empty() {
                return Err("takes the list, then the items to append".to_owned());
            }
            let mut items = list(arguments.remove(0))?;
            items.extend(arguments);
            Value::Array(items)
        }
        _ => return Err("not a function of a list of arguments".to_owned()),
    })
}

/// A list (`null` is the empty list).
fn list(value: Value) -> Result<Vec<Value>, String> {
    match value {
        Value::Array(items) => Ok(items),
        Value::Null => Ok(Vec::new()),
        other => Err(format!("expected a list, found a {}", type_name(&other))),
    }
}

fn numbers(value: &Value) -> Result<Vec<f64>, String> {
    match value {
        Value::Null => Ok(Vec::new()),
        Value::Array(items) => items
            .iter()
            .enumerate()
            .map(|(i, item)| {
                item.as_f64()
                    .ok_or_else(|| format!("item {i} is a {}, not a number", type_name(item)))
            })
            .collect(),
        other => Err(format!(
            "expected a list of numbers, found a {}",
            type_name(other)
        )),
    }
}

/// Numbers ascending, or strings in code point order; a mix is an error.
fn sort(mut items: Vec<Value>) -> Result<Value, String> {
    if items.iter().all(Value::is_number) {
        crate::sorting::sort_by(&mut items, |a, b| {
            a.as_f64()
                .unwrap_or(0.0)
                .total_cmp(&b.as_f64().unwrap_or(0.0))
        });
    } else if items.iter().all(Value::is_string) {
        crate::sorting::sort_by(&mut items, |a, b| a.as_str().cmp(&b.as_str()));
    } else {
        return Err("can only sort a list of numbers or a list of strings".to_owned());
    }
    Ok(Value::Array(items))
}

fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "list",
        Value::Object(_) => "map",
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn every_function_on_its_arguments() {
        let cases = [
            ("std.count", json!([1, 2, 3]), json!(3)),
            ("std.count", json!("héllo"), json!(5)),
            ("std.count", json!({"a": 1}), json!(1)),
            ("std.count", json!(null), json!(0)),
            ("std.sum", json!([1, 2.5, 3.5]), json!(7)),
            ("std.sum", json!([]), json!(0)),
            ("std.min", json!([3, 1, 2]), json!(1)),
            ("std.max", json!([3, 1, 2]), json!(3)),
            ("std.max", json!([]), json!(null)),
            (
                "std.unique",
                json!(["a", "b", "a", {"x": 1}, {"x": 1}]),
                json!(["a", "b", {"x": 1}]),
            ),
            (
                "std.flatten",
                json!([[1, 2], 3, [[4]]]),
                json!([1, 2, 3, [4]]),
            ),
            ("std.sort", json!([3, 1, 2]), json!([1, 2, 3])),
            ("std.sort", json!(["b", "a", "B"]), json!(["B", "a", "b"])),
            ("std.concat", json!([[1], [2, 3], null]), json!([1, 2, 3])),
            ("std.concat", json!(["a", "b"]), json!("ab")),
            (
                "std.join",
                json!([["a", 1, true], ", "]),
                json!("a, 1, true"),
            ),
            (
                "std.append",
                json!([["a"], "b", "c"]),
                json!(["a", "b", "c"]),
            ),
            ("std.append", json!([null, 1]), json!([1])),
        ];
        for (name, argument, expected) in cases {
            assert_eq!(
                call(name, argument.clone()),
                Ok(expected),
                "{name}({argument})"
            );
        }
    }

    #[test]
    fn wrong_arguments_and_unknown_functions_are_errors_that_say_why() {
        let errors = [
            ("std.sum", json!([1, "2"]), "`std.sum`: item 1 is a string, not a number"),
            ("std.count", json!(4), "`std.count`: cannot count a number"),
            ("std.sort", json!([1, "a"]), "`std.sort`: can only sort a list of numbers or a list of strings"),
            ("std.join", json!([["a"]]), "`std.join`: takes two arguments: the list and the separator"),
            ("std.concat", json!("a"), "`std.concat` takes a list of arguments"),
            ("std.concat", json!([[1], "a"]), "`std.concat`: the arguments must be all lists or all strings"),
            ("std.now", json!(null), "`std.now` is not available: a run is deterministic (no clock, no randomness); pass such values in the run's input"),
        ];
        for (name, argument, message) in errors {
            assert_eq!(call(name, argument), Err(message.to_owned()));
        }
        assert!(call("std.cout", json!([]))
            .unwrap_err()
            .starts_with("unknown function `std.cout`; the library has `std.count`"));
        assert_eq!(
            as_call(json!({"std.count": [1]}).as_object().unwrap()),
            Some(("std.count", &json!([1])))
        );
        assert_eq!(
            as_call(json!({"std.count": [1], "b": 2}).as_object().unwrap()),
            None
        );
        assert_eq!(as_call(json!({"count": [1]}).as_object().unwrap()), None);
    }
}
