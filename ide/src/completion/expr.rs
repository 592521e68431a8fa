//! Completion inside `{{ }}`: the variables in scope, `steps.NAME.output.FIELD` from the step's
//! `output_schema`, `input.FIELD` from `contracts.inputs`, `output.FIELD` from the enclosing
//! step's `output_schema`, node ids in DRTL, and the operators and methods of the language.

use logicmd::analysis::Kind;
use logicmd::source::Span;
use serde_json::Value;

use super::names::{imported_steps, steps};
use super::{CompletionItem, ItemKind, Request};
use crate::schema_docs::Seg;
use crate::workspace::{FileAnalysis, Workspace};

/// The methods (and the `length` property) the expression language evaluates.
pub(crate) const METHODS: &[(&str, &str, &str)] = &[
    (
        "length",
        "length",
        "The number of items of an array or characters of a string.",
    ),
    (
        "includes",
        "includes(${1})",
        "Whether an array holds a value (SameValueZero) or a string holds a substring.",
    ),
    ("contains", "contains(${1})", "The same as `includes`."),
    (
        "every",
        "every(${1})",
        "Whether every item is truthy, or has a truthy property when a property name is given.",
    ),
    (
        "some",
        "some(${1})",
        "Whether some item is truthy, or has a truthy property when a property name is given.",
    ),
    (
        "startsWith",
        "startsWith(${1})",
        "Whether a string starts with another.",
    ),
    (
        "endsWith",
        "endsWith(${1})",
        "Whether a string ends with another.",
    ),
    ("toLowerCase", "toLowerCase()", "The string in lower case."),
    ("toUpperCase", "toUpperCase()", "The string in upper case."),
    (
        "trim",
        "trim()",
        "The string without leading and trailing whitespace.",
    ),
];

/// The operators of the expression language (spec §4.2), JavaScript's semantics.
pub(crate) const OPERATORS: &[(&str, &str)] = &[
    ("==", "equal after JavaScript's type coercions"),
    ("!=", "not equal after coercions"),
    ("===", "strictly equal (same type and value)"),
    ("!==", "strictly not equal"),
    ("<", "less than"),
    ("<=", "less than or equal"),
    (">", "greater than"),
    (">=", "greater than or equal"),
    ("&&", "and: the left side if falsy, else the right"),
    ("||", "or: the left side if truthy, else the right"),
    ("??", "the left side unless it is null or undefined"),
    ("+", "addition, or concatenation when a side is a string"),
    ("-", "subtraction"),
    ("*", "multiplication"),
    ("/", "division"),
    ("%", "remainder"),
    ("? :", "condition ? then : otherwise"),
];

/// The completions for the expression text `expression` (from `{{` to the cursor).
pub(super) fn complete(
    request: &Request<'_>,
    workspace: &mut Workspace,
    expression: &str,
) -> Vec<CompletionItem> {
    let chain = trailing_chain(expression);
    if chain.is_empty() {
        let before = expression.trim_end();
        let after_operand = expression.len() > before.len()
            && before
                .chars()
                .last()
                .is_some_and(|c| c.is_alphanumeric() || "_$)]'\"".contains(c));
        return if after_operand {
            operators(request)
        } else {
            roots(request)
        };
    }
    let segments: Vec<&str> = chain.split('.').map(|s| s.trim_end_matches('?')).collect();
    match segments.as_slice() {
        [_] => roots(request),
        [object @ .., _typed] => members(request, workspace, object),
        [] => Vec::new(),
    }
}

/// The member chain at the end of `text` (`steps.a.output.x`, `input.`), without brackets.
fn trailing_chain(text: &str) -> &str {
    let start = text
        .char_indices()
        .rev()
        .find(|(_, c)| !(c.is_alphanumeric() || "_$.?-".contains(*c)))
        .map_or(0, |(i, c)| i + c.len_utf8());
    text[start..].trim_start_matches(['?', '.'])
}

fn operators(request: &Request<'_>) -> Vec<CompletionItem> {
    OPERATORS
        .iter()
        .map(|(op, what)| {
            let mut item = request.item(*op, ItemKind::Operator, Some((*what).to_owned()), None);
            item.insert = format!("{op} ");
            item
        })
        .collect()
}

fn roots(request: &Request<'_>) -> Vec<CompletionItem> {
    let mut items = Vec::new();
    match request.kind {
        Kind::Logic => {
            for root in logicmd::lint::KNOWN_ROOTS {
                items.push(request.item(
                    *root,
                    ItemKind::Variable,
                    Some(root_note(root).to_owned()),
                    None,
                ));
            }
        }
        Kind::Drtl => {
            for variable in logicmd::drtl::VARIABLES {
                items.push(request.item(*variable, ItemKind::Variable, None, None));
            }
            if let Some(json) = request.file.and_then(|f| f.json()) {
                for node in json
                    .get("nodes")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                {
                    if let Some(id) = node.get("id").and_then(Value::as_str) {
                        let kind = node.get("type").and_then(Value::as_str).unwrap_or("node");
                        items.push(request.item(
                            id,
                            ItemKind::Reference,
                            Some(format!("{kind} node")),
                            None,
                        ));
                    }
                }
                for name in json
                    .get("state_defaults")
                    .and_then(Value::as_object)
                    .into_iter()
                    .flat_map(|d| d.keys())
                {
                    items.push(request.item(
                        name,
                        ItemKind::Variable,
                        Some("state default".to_owned()),
                        None,
                    ));
                }
            }
        }
    }
    for literal in ["true", "false", "null"] {
        items.push(request.item(literal, ItemKind::Value, None, None));
    }
    items
}

fn root_note(root: &str) -> &'static str {
    match root {
        "steps" => "outputs of earlier steps: steps.NAME.output",
        "input" | "inputs" => "the input (contracts.inputs)",
        "output" | "outputs" => "this step's output",
        "confidence" => "the output's confidence",
        "attempts" => "attempts so far",
        "iteration" => "the current iteration",
        "reasoning" => "the reasoning settings",
        _ => "runtime variable",
    }
}

/// Members of the chain `object` (its segments before the one being typed).
/// An imported step (`alias.step`) is read `steps['alias.step']`: a dot in a member name would
/// read as another member. Its item replaces the `.` typed before the name too.
fn bracketed(mut items: Vec<CompletionItem>, text: Option<&str>) -> Vec<CompletionItem> {
    for item in items.iter_mut().filter(|item| item.label.contains('.')) {
        let start = item.replace.start;
        if start == 0 || text.and_then(|t| t.as_bytes().get(start - 1)) != Some(&b'.') {
            continue;
        }
        item.insert = format!("['{}']", item.label);
        item.replace = Span::new(start - 1, item.replace.end);
        item.filter = Some(format!(".{}", item.label));
    }
    items
}

fn members(
    request: &Request<'_>,
    workspace: &mut Workspace,
    object: &[&str],
) -> Vec<CompletionItem> {
    let Some(file) = request.file else {
        return Vec::new();
    };
    let schema = match (request.kind, object) {
        (Kind::Logic, ["steps"]) => {
            let items = steps(request, workspace, None);
            return bracketed(items, workspace.text(request.id).as_deref());
        }
        (Kind::Logic, ["steps", _]) => {
            return vec![request.item(
                "output",
                ItemKind::Field,
                Some("the step's output".to_owned()),
                None,
            )]
        }
        (Kind::Logic, ["steps", step, "output", fields @ ..]) => {
            let own = output_schema(file, step);
            let schema = own.or_else(|| {
                imported_steps(workspace, request.id, file)
                    .into_iter()
                    .find(|(name, _)| name == step)
                    .and_then(|(_, s)| s.get("output_schema").cloned())
            });
            schema.and_then(|s| descend(&s, fields))
        }
        (Kind::Logic, ["input" | "inputs", fields @ ..]) => descend(&inputs_schema(file), fields),
        (Kind::Logic, ["output", fields @ ..]) => enclosing_step(request)
            .and_then(|step| output_schema(file, &step))
            .and_then(|s| descend(&s, fields)),
        (Kind::Drtl, [node]) if file.json().is_some_and(|json| drtl_node(&json, node)) => {
            return vec![request.item(
                "output",
                ItemKind::Field,
                Some("the node's output".to_owned()),
                None,
            )]
        }
        _ => None,
    };
    let mut items = schema.map(|s| fields(request, &s)).unwrap_or_default();
    items.extend(METHODS.iter().map(|(name, insert, what)| {
        let mut item = request.item(*name, ItemKind::Method, None, Some((*what).to_owned()));
        item.insert = (*insert).replace("${1}", "");
        item
    }));
    items
}

fn drtl_node(json: &Value, id: &str) -> bool {
    json.get("nodes")
        .and_then(Value::as_array)
        .is_some_and(|nodes| {
            nodes
                .iter()
                .any(|n| n.get("id").and_then(Value::as_str) == Some(id))
        })
}

/// `contracts.inputs` as one object schema: each input's name with its schema.
/// The `output_schema` of the file's own step `step`, made from the tree (only that value).
pub(crate) fn output_schema(file: &FileAnalysis, step: &str) -> Option<Value> {
    let pointer = format!(
        "/steps/{}/output_schema",
        step.replace('~', "~0").replace('/', "~1")
    );
    file.json_at(&pointer).map(std::borrow::Cow::into_owned)
}

/// The schema of `input`: an object whose properties are the file's `contracts.inputs`.
pub(crate) fn inputs_schema(file: &FileAnalysis) -> Value {
    let mut properties = serde_json::Map::new();
    for input in file
        .json_at("/contracts/inputs")
        .as_deref()
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        if let Some(name) = input.get("name").and_then(Value::as_str) {
            properties.insert(name.to_owned(), input.clone());
        }
    }
    serde_json::json!({"type": "object", "properties": properties})
}

/// The schema of `fields` inside the object schema `schema` (through `properties` and `items`).
pub(crate) fn descend(schema: &Value, fields: &[&str]) -> Option<Value> {
    let mut current = schema;
    for field in fields {
        current = match current.get("properties").and_then(|p| p.get(*field)) {
            Some(next) => next,
            None if field.parse::<usize>().is_ok() => current.get("items")?,
            None => return None,
        };
    }
    Some(current.clone())
}

/// The names an object schema's `required` lists.
pub(crate) fn required_fields(schema: &Value) -> Vec<&str> {
    schema
        .get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect()
}

fn fields(request: &Request<'_>, schema: &Value) -> Vec<CompletionItem> {
    let required = required_fields(schema);
    schema
        .get("properties")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .map(|(name, field)| {
            let mut detail = json_type(field);
            if required.contains(&name.as_str())
                || field.get("required") == Some(&Value::Bool(true))
            {
                detail.push_str(", required");
            }
            let description = field
                .get("description")
                .and_then(Value::as_str)
                .map(str::to_owned);
            request.item(name, ItemKind::Field, Some(detail), description)
        })
        .collect()
}

/// A JSON Schema's type as a person reads it (`array of string`, `number`).
pub(crate) fn json_type(schema: &Value) -> String {
    match schema.get("type") {
        Some(Value::String(t)) if t == "array" => {
            let items = schema.get("items").map_or("any".to_owned(), json_type);
            format!("array of {items}")
        }
        Some(Value::String(t)) => t.clone(),
        Some(Value::Array(types)) => types
            .iter()
            .filter_map(Value::as_str)
            .collect::<Vec<_>>()
            .join(" | "),
        _ if schema.get("enum").is_some() => "enum".to_owned(),
        _ if schema.get("properties").is_some() => "object".to_owned(),
        _ => "any".to_owned(),
    }
}

/// The step whose fields the cursor is in (`steps/NAME/...`).
fn enclosing_step(request: &Request<'_>) -> Option<String> {
    match request.cx.path.as_slice() {
        [Seg::Key(steps), Seg::Key(name), ..] if steps == "steps" => Some(name.clone()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_method_offered_is_one_the_language_evaluates() {
        let context = serde_json::json!({"s": " Ab ", "a": [1]});
        for (name, insert, _) in METHODS {
            let call = insert.replace("${1}", "'A'");
            for receiver in ["s", "a"] {
                let source = format!("{receiver}.{call}");
                if logicmd::expr::eval_str(&source, &context).is_ok() {
                    break;
                }
                assert!(
                    receiver != "a",
                    "`{name}` evaluates on neither a string nor an array"
                );
            }
        }
    }

    #[test]
    fn the_methods_offered_are_exactly_the_languages() {
        let offered: Vec<&str> = METHODS
            .iter()
            .map(|(n, _, _)| *n)
            .filter(|n| *n != "length")
            .collect();
        assert_eq!(offered, logicmd::expr::METHODS);
    }

    #[test]
    fn every_operator_offered_parses() {
        for (op, _) in OPERATORS {
            let source = if *op == "? :" {
                "1 ? 2 : 3".to_owned()
            } else {
                format!("1 {op} 2")
            };
            assert!(
                logicmd::expr::eval_str(&source, &serde_json::json!({})).is_ok(),
                "{op}"
            );
        }
    }

    #[test]
    fn the_chain_at_the_end_is_found() {
        assert_eq!(trailing_chain(" a && steps.gather.out"), "steps.gather.out");
        assert_eq!(trailing_chain(" input?.q"), "input?.q");
        assert_eq!(trailing_chain(" x > "), "");
    }
}
