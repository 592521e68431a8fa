//! Completion inside `{{ }}`: the variables in scope, `steps.NAME.output.FIELD` from the step's
//! `output_schema`, `input.FIELD` from `contracts.inputs`, `output.FIELD` from the enclosing
//! step's `output_schema`, node ids in DRTL, and the operators and methods of the language.

use logicmd::analysis::Kind;
use logicmd::source::Span;
use serde_json::Value;

use super::context::Quotes;
use super::names::steps;
use super::{CompletionItem, ItemKind, Request};
use crate::schema_docs::Seg;
use crate::workspace::{FileAnalysis, Workspace};

/// What a method can be called on (core's evaluator refuses it on anything else).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum On {
    ArrayOrString,
    Array,
    String,
}

/// The methods (and the `length` property) the expression language evaluates, with what they
/// can be called on.
pub(crate) const METHODS: &[(&str, &str, &str, On)] = &[
    (
        "length",
        "length",
        "The number of items of an array or characters of a string.",
        On::ArrayOrString,
    ),
    (
        "includes",
        "includes(${1})",
        "Whether an array holds a value (SameValueZero) or a string holds a substring.",
        On::ArrayOrString,
    ),
    (
        "contains",
        "contains(${1})",
        "The same as `includes`.",
        On::ArrayOrString,
    ),
    (
        "every",
        "every(${1})",
        "Whether every item is truthy, or has a truthy property when a property name is given.",
        On::Array,
    ),
    (
        "some",
        "some(${1})",
        "Whether some item is truthy, or has a truthy property when a property name is given.",
        On::Array,
    ),
    (
        "startsWith",
        "startsWith(${1})",
        "Whether a string starts with another.",
        On::String,
    ),
    (
        "endsWith",
        "endsWith(${1})",
        "Whether a string ends with another.",
        On::String,
    ),
    (
        "toLowerCase",
        "toLowerCase()",
        "The string in lower case.",
        On::String,
    ),
    (
        "toUpperCase",
        "toUpperCase()",
        "The string in upper case.",
        On::String,
    ),
    (
        "trim",
        "trim()",
        "The string without leading and trailing whitespace.",
        On::String,
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
    if let Some(open) = open_bracket(expression) {
        return bracket_members(request, workspace, expression, &open);
    }
    if in_string_literal(expression) {
        // Text, not a name: a quote typed to start a string opens no list.
        return Vec::new();
    }
    let typed = identifier_suffix(expression);
    let before = &expression[..expression.len() - typed.len()];
    if let Some(object) = before.strip_suffix('.') {
        let object = object.strip_suffix('?').unwrap_or(object);
        return match chain_before(object) {
            Some(object) => {
                let object: Vec<&str> = object.iter().map(String::as_str).collect();
                members(request, workspace, &object)
            }
            None => literal_members(request, object),
        };
    }
    let trimmed = before.trim_end();
    let after_operand = typed.is_empty()
        && before.len() > trimmed.len()
        && trimmed
            .chars()
            .last()
            .is_some_and(|c| c.is_alphanumeric() || "_$)]'\"".contains(c));
    if after_operand {
        operators(request)
    } else {
        roots(request)
    }
}

/// Whether the end of `expression` is inside a string literal (a quote opened and not closed;
/// a backslash escapes the next character).
fn in_string_literal(expression: &str) -> bool {
    let mut open: Option<char> = None;
    let mut escaped = false;
    for c in expression.chars() {
        match open {
            Some(_) if escaped => escaped = false,
            Some(_) if c == '\\' => escaped = true,
            Some(quote) if c == quote => open = None,
            Some(_) => {}
            None if c == '\'' || c == '"' => open = Some(c),
            None => {}
        }
    }
    open.is_some()
}

/// Members of what is not a chain: a string literal's, a call's result or a bracketed value's
/// (any: its type is not read here); a number's none.
fn literal_members(request: &Request<'_>, object: &str) -> Vec<CompletionItem> {
    match object.trim_end().chars().last() {
        Some('\'' | '"') => methods(request, Some(&serde_json::json!({"type": "string"}))),
        Some(')' | ']') => methods(request, None),
        _ => Vec::new(),
    }
}

/// The identifier at the end of `text` (empty when it ends otherwise).
fn identifier_suffix(text: &str) -> &str {
    let start = text
        .char_indices()
        .rev()
        .find(|(_, c)| !(c.is_alphanumeric() || "_$".contains(*c)))
        .map_or(0, |(i, c)| i + c.len_utf8());
    &text[start..]
}

/// The member chain that ends `text` (`steps['d.gather'].output`): its segments, a bracket's
/// name unquoted. `None` when `text` does not end with one (a call, a literal, an operator).
fn chain_before(text: &str) -> Option<Vec<String>> {
    let mut segments = Vec::new();
    let mut rest = text;
    loop {
        if let Some(inner) = rest.strip_suffix(']') {
            let open = inner.rfind('[')?;
            segments.push(bracket_name(&inner[open + 1..])?);
            rest = &inner[..open];
            let joined = rest
                .strip_suffix('.')
                .map(|r| r.strip_suffix('?').unwrap_or(r));
            // `a?.['x']` or `a['x']`: the object is right before.
            rest = joined.unwrap_or(rest);
            continue;
        }
        let name = identifier_suffix(rest);
        if name.is_empty() {
            return None;
        }
        segments.push(name.to_owned());
        rest = &rest[..rest.len() - name.len()];
        match rest.strip_suffix('.') {
            Some(object) => rest = object.strip_suffix('?').unwrap_or(object),
            None => break,
        }
    }
    segments.reverse();
    let root = segments.first()?;
    (!root.starts_with(|c: char| c.is_ascii_digit())).then_some(segments)
}

/// The name a bracket holds: a quoted string, or an index.
fn bracket_name(inner: &str) -> Option<String> {
    let inner = inner.trim();
    for quote in ['\'', '"'] {
        if let Some(name) = inner
            .strip_prefix(quote)
            .and_then(|rest| rest.strip_suffix(quote))
        {
            return Some(name.to_owned());
        }
    }
    (!inner.is_empty() && inner.chars().all(|c| c.is_ascii_digit())).then(|| inner.to_owned())
}

/// A `[` the expression ends inside: `steps['d.g`.
struct OpenBracket {
    /// The chain before the `[`.
    object: Vec<String>,
    /// The quote typed after `[`, if any.
    quote: Option<char>,
    /// Where the name starts in the expression's text.
    name_start: usize,
}

fn open_bracket(expression: &str) -> Option<OpenBracket> {
    let open = expression.rfind('[')?;
    let after = &expression[open + 1..];
    let trimmed = after.trim_start();
    let quote = trimmed.chars().next().filter(|c| matches!(c, '\'' | '"'));
    let name = &trimmed[quote.map_or(0, char::len_utf8)..];
    let name_is_open = match quote {
        Some(q) => !name.contains([q, ']']),
        None => identifier_suffix(name) == name,
    };
    if !name_is_open {
        return None;
    }
    let object = chain_before(&expression[..open])?;
    Some(OpenBracket {
        object,
        quote,
        name_start: expression.len() - name.len(),
    })
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

/// A name that cannot follow a `.` is read in brackets: an imported step (`alias.step`) is
/// `steps['alias.step']` (a dot would read as another member), a `my-step` or a field
/// `top-score` likewise (`-` would read as a minus). Its item replaces the `.` typed before the
/// name too. Only names (steps, fields), never methods.
fn bracketed(mut items: Vec<CompletionItem>, text: Option<&str>) -> Vec<CompletionItem> {
    let needs_brackets = |item: &CompletionItem| {
        item.kind != ItemKind::Method && !logicmd::expr::is_identifier(&item.label)
    };
    for item in items.iter_mut().filter(|item| needs_brackets(item)) {
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

/// Members of the chain `object` (its segments before the one being typed): its names, then
/// the methods its type has.
fn members(
    request: &Request<'_>,
    workspace: &mut Workspace,
    object: &[&str],
) -> Vec<CompletionItem> {
    if let [steps_root, alias] = object {
        if *steps_root == "steps" {
            let imported = imported_through(request, workspace, alias);
            if !imported.is_empty() {
                return imported;
            }
        }
    }
    match named_members(request, workspace, object) {
        Members::Names(items) => {
            let text = workspace.text(request.id);
            bracketed(items, text.as_deref())
        }
        Members::Schema(schema) => {
            let text = workspace.text(request.id);
            let mut items = schema
                .as_ref()
                .map(|s| bracketed(fields(request, s), text.as_deref()))
                .unwrap_or_default();
            items.extend(methods(request, schema.as_ref()));
            items
        }
    }
}

/// After `steps.ALIAS.` where ALIAS is an import's alias, not a step: the steps it imports, each
/// written `steps['ALIAS.step']` over what was typed from the `.` after `steps` (lint reads
/// `steps.ALIAS.step` as a member of a step `ALIAS`).
fn imported_through(
    request: &Request<'_>,
    workspace: &mut Workspace,
    alias: &str,
) -> Vec<CompletionItem> {
    let typed_from = request.replace.start.checked_sub(alias.len() + 2);
    let text = workspace.text(request.id);
    let written = typed_from
        .and_then(|start| text.as_deref()?.get(start..request.replace.start))
        .is_some_and(|written| written == format!(".{alias}."));
    let (Some(start), true) = (typed_from, written) else {
        return Vec::new();
    };
    let all = steps(request, workspace, None);
    if all.iter().any(|item| item.label == alias) {
        return Vec::new();
    }
    let prefix = format!("{alias}.");
    all.into_iter()
        .filter(|item| item.label.starts_with(&prefix))
        .map(|mut item| {
            item.insert = format!("['{}']", item.label);
            item.filter = Some(format!(".{}", item.label));
            item.replace = Span::new(start, request.replace.end);
            item
        })
        .collect()
}

/// What a chain holds.
enum Members {
    /// Names only (steps, a step's `output`), no methods.
    Names(Vec<CompletionItem>),
    /// A value of this schema (`None`: one the document does not describe).
    Schema(Option<Value>),
}

fn named_members(request: &Request<'_>, workspace: &mut Workspace, object: &[&str]) -> Members {
    let Some(file) = request.file else {
        return Members::Names(Vec::new());
    };
    let output = |noun: &str| {
        Members::Names(vec![request.item(
            "output",
            ItemKind::Field,
            Some(format!("the {noun}'s output")),
            None,
        )])
    };
    Members::Schema(match (request.kind, object) {
        (Kind::Logic, ["steps"]) => return Members::Names(steps(request, workspace, None)),
        (Kind::Logic, ["steps", _]) => return output("step"),
        (Kind::Logic, ["steps", step, "output", fields @ ..]) => {
            step_output_schema(workspace, file, step).and_then(|s| descend(&s, fields))
        }
        (Kind::Logic, ["input" | "inputs", fields @ ..]) => descend(&inputs_schema(file), fields),
        (Kind::Logic, ["output", fields @ ..]) => enclosing_step(request)
            .and_then(|step| output_schema(file, &step))
            .and_then(|s| descend(&s, fields)),
        (Kind::Logic, [root]) => counter_schema(root),
        (Kind::Drtl, [node]) if file.json().is_some_and(|json| drtl_node(&json, node)) => {
            return output("node")
        }
        _ => None,
    })
}

/// After `object[`: its names, each inserted quoted with the bracket closed (over what the
/// editor already closed after the cursor).
fn bracket_members(
    request: &Request<'_>,
    workspace: &mut Workspace,
    expression: &str,
    open: &OpenBracket,
) -> Vec<CompletionItem> {
    let object: Vec<&str> = open.object.iter().map(String::as_str).collect();
    let mut items = match named_members(request, workspace, &object) {
        Members::Names(items) => items,
        Members::Schema(schema) => schema
            .as_ref()
            .map(|s| fields(request, s))
            .unwrap_or_default(),
    };
    let Some(text) = workspace.text(request.id) else {
        return Vec::new();
    };
    let cursor = request.replace.end;
    let name_start = cursor - (expression.len() - open.name_start);
    let quote = open.quote.unwrap_or_else(|| {
        let line_start = text[..cursor].rfind('\n').map_or(0, |i| i + 1);
        let expression_start = cursor - expression.len();
        match scalar_quote(&text[line_start..expression_start]) {
            Some('\'') => '"',
            _ => '\'',
        }
    });
    let closed = written_close(&text[cursor..], quote, open.quote.is_some());
    let opening = if open.quote.is_some() {
        String::new()
    } else {
        quote.to_string()
    };
    for item in &mut items {
        item.insert = format!("{opening}{}{quote}]", item.label);
        item.replace = Span::new(name_start, cursor + closed);
        // With no quote typed yet, the quote the person types next still matches.
        item.filter = (!opening.is_empty()).then(|| format!("{opening}{}", item.label));
    }
    items
}

/// The rest of the name and its closing (quote, `]`) already written after the cursor: their
/// length, which the item replaces.
fn written_close(after: &str, quote: char, quoted: bool) -> usize {
    let name_end = after
        .char_indices()
        .find(|(_, c)| {
            if quoted {
                *c == quote || *c == ']' || *c == '}' || c.is_whitespace()
            } else {
                !(c.is_alphanumeric() || "_$".contains(*c))
            }
        })
        .map_or(after.len(), |(i, _)| i);
    let mut end = name_end;
    if quoted && after[end..].starts_with(quote) {
        end += quote.len_utf8();
    }
    if after[end..].starts_with(']') {
        end += 1;
    }
    end
}

/// The quote of the YAML scalar still open at the end of `line` (before the `{{`).
fn scalar_quote(line: &str) -> Option<char> {
    let mut quotes = Quotes::default();
    for c in line.chars() {
        quotes.quoted(c);
    }
    quotes.0
}

/// The methods a value of `schema` has (every one when its type is not known).
fn methods(request: &Request<'_>, schema: Option<&Value>) -> Vec<CompletionItem> {
    let types = schema.and_then(value_types);
    METHODS
        .iter()
        .filter(|(.., on)| {
            types.as_ref().is_none_or(|types| {
                let array = types.contains(&"array");
                let string = types.contains(&"string");
                match on {
                    On::ArrayOrString => array || string,
                    On::Array => array,
                    On::String => string,
                }
            })
        })
        .map(|(name, insert, what, _)| {
            let mut item = request.item(*name, ItemKind::Method, None, Some((*what).to_owned()));
            item.insert = (*insert).replace("${1}", "");
            item
        })
        .collect()
}

/// The JSON types a schema allows, when it says.
fn value_types(schema: &Value) -> Option<Vec<&str>> {
    match schema.get("type") {
        Some(Value::String(t)) => Some(vec![t.as_str()]),
        Some(Value::Array(types)) => Some(types.iter().filter_map(Value::as_str).collect()),
        _ if schema.get("properties").is_some() => Some(vec!["object"]),
        _ if schema.get("items").is_some() => Some(vec!["array"]),
        _ => {
            let values = schema.get("enum")?.as_array()?;
            values.iter().all(Value::is_string).then(|| vec!["string"])
        }
    }
}

/// The runtime's counters: `attempts` and `iteration` count, `confidence` is the output's
/// (null when it gives none).
pub(crate) fn counter_schema(root: &str) -> Option<Value> {
    match root {
        "attempts" | "iteration" => Some(serde_json::json!({"type": "integer"})),
        "confidence" => Some(serde_json::json!({"type": ["number", "null"]})),
        _ => None,
    }
}

/// The `output_schema` of the step `step`: the file's own, or the imported one's (`alias.step`)
/// in the file that defines it.
pub(crate) fn step_output_schema(
    workspace: &mut Workspace,
    file: &FileAnalysis,
    step: &str,
) -> Option<Value> {
    if let Some(own) = output_schema(file, step) {
        return Some(own);
    }
    let (target, definition) = crate::navigation::imported(workspace, file, step)?;
    target
        .json_at(&format!("{}/output_schema", definition.pointer))
        .map(std::borrow::Cow::into_owned)
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

    /// Each method is offered on exactly the values core's evaluator calls it on.
    #[test]
    fn every_method_is_offered_on_what_the_language_calls_it_on() {
        let context = serde_json::json!({"s": " Ab ", "a": [1], "o": {"x": 1}, "n": 1});
        for (name, insert, _, on) in METHODS {
            let call = insert.replace("${1}", "'A'");
            let evaluates = |receiver: &str| {
                let value = logicmd::expr::eval_str(&format!("{receiver}.{call}"), &context);
                value.is_ok_and(|v| !v.is_null())
            };
            let expected = match on {
                On::ArrayOrString => (true, true),
                On::Array => (true, false),
                On::String => (false, true),
            };
            assert_eq!((evaluates("a"), evaluates("s")), expected, "{name}");
            assert!(!evaluates("o") && !evaluates("n"), "{name}");
        }
    }

    #[test]
    fn the_methods_offered_are_exactly_the_languages() {
        let offered: Vec<&str> = METHODS
            .iter()
            .map(|(n, ..)| *n)
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
        let chain = |text: &str| chain_before(text).map(|c| c.join(" "));
        assert_eq!(
            chain(" a && steps.gather.output").as_deref(),
            Some("steps gather output")
        );
        assert_eq!(chain(" input?.q").as_deref(), Some("input q"));
        assert_eq!(
            chain(" steps['d.gather'].output").as_deref(),
            Some("steps d.gather output")
        );
        assert_eq!(
            chain("steps[\"a b\"]?.output.list[0]").as_deref(),
            Some("steps a b output list 0")
        );
        assert_eq!(chain(" x > "), None);
        assert_eq!(chain(" x.trim()"), None);
        assert_eq!(chain(" 1.5"), None);
        assert_eq!(chain(" [1, 2]"), None);
    }
}
