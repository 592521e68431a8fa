//! Scorers: each says whether one run's output is right for its case, and why not.

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use super::case::Case;
use crate::trace::{Builtin, Rule};

/// How an output is scored.
#[derive(Debug, Clone)]
pub enum Scorer {
    /// The output's text equals the expected text, byte for byte (a value that is not a
    /// string is compared as compact JSON).
    Exact,
    /// The output equals the expected JSON value (key order ignored, `1` equals `1.0`).
    Equal,
    /// Every member the expected value names is in the output with an equal value
    /// (recursively; arrays element by element, same length).
    Subset,
    /// The output is valid against this JSON Schema (core's validator).
    Schema {
        /// The schema's file, as given.
        name: String,
        /// The schema.
        schema: Value,
    },
    /// A `{{ }}` expression over `output`, `expected`, `input`, `metadata` and `trace` (the
    /// run's events) that must be `true`.
    Expression {
        /// The template text, `{{ }}` included.
        text: String,
    },
    /// Trace obligations: these rules, and the formulas a case lists in
    /// `metadata.obligations`, hold on the run's trace.
    Trace {
        /// Each rule with the name it was written by.
        rules: Vec<(String, Rule)>,
    },
    /// An LLM judge: its verdict is given back to [`Scorer::score`] as the judge's answer
    /// text (see [`super::judge_request`]).
    Judge,
}

/// One scorer's verdict on one output.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Score {
    /// The output passed.
    pub pass: bool,
    /// A number the scorer measured (the judge's score), when it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<f64>,
    /// Why it failed (or the judge's reason).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

impl Score {
    pub(super) fn passed() -> Score {
        Score {
            pass: true,
            value: None,
            reason: None,
        }
    }

    pub(super) fn failed(reason: impl Into<String>) -> Score {
        Score {
            pass: false,
            value: None,
            reason: Some(reason.into()),
        }
    }
}

impl Scorer {
    /// A scorer as written on a command line: `exact`, `equal`, `subset`, `expr:TEXT`,
    /// `trace` (every built-in obligation), `trace:RULE` (a built-in's name or `NAME=FORMULA`),
    /// `judge`. `schema:FILE` is read by `load` (the caller's file access).
    pub fn parse(
        spec: &str,
        load: &dyn Fn(&str) -> Result<String, String>,
    ) -> Result<Scorer, String> {
        let (kind, argument) = match spec.split_once(':') {
            Some((kind, argument)) => (kind, Some(argument)),
            None => (spec, None),
        };
        match (kind, argument) {
            ("exact", None) => Ok(Scorer::Exact),
            ("equal", None) => Ok(Scorer::Equal),
            ("subset", None) => Ok(Scorer::Subset),
            ("judge", None) => Ok(Scorer::Judge),
            ("trace", None) => Ok(Scorer::Trace {
                rules: Builtin::ALL.into_iter().map(|b| (b.name().to_owned(), Rule::Builtin(b))).collect(),
            }),
            ("trace", Some(rule)) => Ok(Scorer::Trace { rules: vec![(rule.to_owned(), parse_rule(rule)?)] }),
            ("expr", Some(text)) => {
                let template = crate::expr::Template::parse(text).map_err(|e| format!("scorer `{spec}`: {e}"))?;
                if !text.contains("{{") {
                    return Err(format!("scorer `{spec}`: write the expression inside `{{{{ }}}}`"));
                }
                known_names(spec, &template)?;
                Ok(Scorer::Expression { text: text.to_owned() })
            }
            ("schema", Some(file)) => {
                let text = load(file)?;
                let schema: Value = serde_json::from_str(&text).map_err(|e| format!("{file}: not a JSON Schema: {e}"))?;
                if !schema.is_object() && !schema.is_boolean() {
                    return Err(format!("{file}: a JSON Schema is an object or a boolean"));
                }
                schema_problem(&schema, &schema, "").map_or(Ok(()), |problem| Err(format!("{file}: {problem}")))?;
                Ok(Scorer::Schema { name: file.to_owned(), schema })
            }
            _ => Err(format!(
                "unknown scorer `{spec}`: use exact, equal, subset, schema:FILE, expr:{{{{ … }}}}, trace, trace:RULE or judge"
            )),
        }
    }

    /// The name the scores of a row are keyed by.
    pub fn name(&self) -> String {
        match self {
            Scorer::Exact => "exact".to_owned(),
            Scorer::Equal => "equal".to_owned(),
            Scorer::Subset => "subset".to_owned(),
            Scorer::Schema { name, .. } => format!("schema:{name}"),
            Scorer::Expression { text } => format!("expr:{text}"),
            Scorer::Trace { rules } if rules.len() == 1 => format!("trace:{}", rules[0].0),
            Scorer::Trace { .. } => "trace".to_owned(),
            Scorer::Judge => "judge".to_owned(),
        }
    }

    /// What the scorer is, for a row's fingerprint: its name, and a schema's content (the file
    /// may change under the same name).
    pub fn identity(&self) -> String {
        match self {
            Scorer::Schema { name, schema } => format!("schema:{name}:{schema}"),
            other => other.name(),
        }
    }

    /// A trace scorer's verdict on `events`, and each rule it checked by name with whether it
    /// held (the case's `metadata.obligations` included); no rules for another scorer.
    pub fn score_trace(&self, case: &Case, events: &[Value]) -> (Score, Vec<(String, bool)>) {
        match self {
            Scorer::Trace { rules } => obligations(rules, case, events),
            _ => (Score::failed("not a trace scorer"), Vec::new()),
        }
    }

    /// Scores `output` of `case` whose run left `events`; `judged` is the judge's answer text
    /// (only the judge reads it; without it the judge fails, saying so).
    pub fn score(
        &self,
        case: &Case,
        output: &Value,
        events: &[Value],
        judged: Option<&str>,
    ) -> Score {
        let expected = || case.expected.as_ref().ok_or("the case gives no `expected`");
        match self {
            Scorer::Exact => match expected() {
                Ok(expected) if text_of(output) == text_of(expected) => Score::passed(),
                Ok(expected) => Score::failed(format!(
                    "expected {}, got {}",
                    clip(&text_of(expected)),
                    clip(&text_of(output))
                )),
                Err(why) => Score::failed(why),
            },
            Scorer::Equal => match expected() {
                Ok(expected) => match difference(expected, output, false, "") {
                    None => Score::passed(),
                    Some(why) => Score::failed(why),
                },
                Err(why) => Score::failed(why),
            },
            Scorer::Subset => match expected() {
                Ok(expected) => match difference(expected, output, true, "") {
                    None => Score::passed(),
                    Some(why) => Score::failed(why),
                },
                Err(why) => Score::failed(why),
            },
            Scorer::Schema { schema, .. } => {
                let errors = crate::schema::check_instance(schema, output);
                match errors.first() {
                    None => Score::passed(),
                    Some((pointer, message)) => Score::failed(format!(
                        "{}: {message}",
                        if pointer.is_empty() {
                            "(root)"
                        } else {
                            pointer
                        }
                    )),
                }
            }
            Scorer::Expression { text } => expression(text, case, output, events),
            Scorer::Trace { .. } => self.score_trace(case, events).0,
            Scorer::Judge => match judged {
                Some(answer) => super::judge::judge_score(answer),
                None => Score::failed(
                    "no judge answered: a script's `node: judge` entry or a model provider judges, synthetic answers do not",
                ),
            },
        }
    }
}

fn parse_rule(text: &str) -> Result<Rule, String> {
    let name = text.trim();
    match Builtin::from_name(name) {
        Some(builtin) => Ok(Rule::Builtin(builtin)),
        // A bare word is a built-in's name mistyped, not the formula "the first event is it".
        None if is_bare_word(name) => {
            let known = Builtin::ALL.map(Builtin::name);
            let hint = crate::lint::context::did_you_mean(name, known.iter().copied())
                .map_or_else(String::new, |help| format!(" ({help})"));
            Err(format!(
                "`trace:{name}` names no built-in rule{hint}: use one of {}, or NAME=FORMULA",
                known.join(", ")
            ))
        }
        None => Rule::parse(text).map_err(|e| format!("trace rule `{text}`: {e}")),
    }
}

/// JSON Schema's types.
const SCHEMA_TYPES: [&str; 7] = [
    "string", "number", "integer", "boolean", "object", "array", "null",
];

/// Where a scorer's schema cannot mean what it says: a `type` that is no JSON Schema type, a
/// `$ref` that resolves to nothing in the file (at JSON pointer `at`). Such a schema would fail
/// every output, and the rows would blame the outputs.
fn schema_problem(schema: &Value, root: &Value, at: &str) -> Option<String> {
    let Value::Object(keywords) = schema else {
        return None;
    };
    let types: Vec<&Value> = match keywords.get("type") {
        Some(Value::Array(items)) => items.iter().collect(),
        Some(one) => vec![one],
        None => Vec::new(),
    };
    for kind in types {
        let name = kind.as_str().unwrap_or("");
        if !SCHEMA_TYPES.contains(&name) {
            let hint = crate::lint::context::did_you_mean(name, SCHEMA_TYPES.iter().copied())
                .map_or_else(String::new, |help| format!(" ({help})"));
            return Some(format!(
                "{}/type: {kind} is not a JSON Schema type{hint}: use one of {}",
                at,
                SCHEMA_TYPES.join(", ")
            ));
        }
    }
    if let Some(reference) = keywords.get("$ref") {
        let target = reference
            .as_str()
            .and_then(|r| r.strip_prefix('#'))
            .and_then(|pointer| root.pointer(pointer));
        if target.is_none() {
            return Some(format!(
                "{at}/$ref: {reference} resolves to nothing in the file (a reference is `#` and a JSON pointer into it)"
            ));
        }
    }
    let mut found = None;
    let mut check = |child: &Value, place: String| {
        if found.is_none() {
            found = schema_problem(child, root, &place);
        }
    };
    for (keyword, value) in keywords {
        let here = format!("{at}/{}", escape(keyword));
        match (keyword.as_str(), value) {
            (
                "properties" | "patternProperties" | "definitions" | "$defs" | "dependencies",
                Value::Object(named),
            ) => {
                for (name, child) in named {
                    check(child, format!("{here}/{}", escape(name)));
                }
            }
            ("items" | "allOf" | "anyOf" | "oneOf", Value::Array(children)) => {
                for (index, child) in children.iter().enumerate() {
                    check(child, format!("{here}/{index}"));
                }
            }
            (
                "items"
                | "additionalItems"
                | "additionalProperties"
                | "contains"
                | "propertyNames"
                | "if"
                | "then"
                | "else"
                | "not",
                child,
            ) => check(child, here),
            _ => {}
        }
    }
    found
}

/// What an `expr:` scorer may read.
const EXPRESSION_NAMES: [&str; 5] = ["output", "expected", "input", "metadata", "trace"];

/// Every name an `expr:` scorer reads is one it is given: a misspelt `outptu` would be
/// `undefined`, and `outptu.city != ""` would pass every case.
fn known_names(spec: &str, template: &crate::expr::Template) -> Result<(), String> {
    let constants = ["true", "false", "null", "undefined"];
    for expression in template.expressions() {
        for (name, _) in expression.roots() {
            if EXPRESSION_NAMES.contains(&name.as_str()) || constants.contains(&name.as_str()) {
                continue;
            }
            let hint = crate::lint::context::did_you_mean(&name, EXPRESSION_NAMES.iter().copied())
                .map_or_else(String::new, |help| format!(" ({help})"));
            return Err(format!(
                "scorer `{spec}` reads `{name}`, which it is not given{hint}: an expression reads {}",
                EXPRESSION_NAMES.join(", ")
            ));
        }
    }
    Ok(())
}

fn is_bare_word(text: &str) -> bool {
    !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

fn expression(text: &str, case: &Case, output: &Value, events: &[Value]) -> Score {
    let context = json!({
        "output": output,
        "expected": case.expected.clone().unwrap_or(Value::Null),
        "input": case.input,
        "metadata": case.metadata.clone().unwrap_or(Value::Null),
        "trace": events,
    });
    match crate::expr::eval_input(text, &context) {
        Ok(Value::Bool(true)) => Score::passed(),
        Ok(Value::Bool(false)) => Score::failed(format!("{text} is false")),
        Ok(other) => Score::failed(format!(
            "{text} gave {}, not a boolean",
            clip(&other.to_string())
        )),
        Err(error) => Score::failed(format!("{text}: {error}")),
    }
}

fn obligations(
    rules: &[(String, Rule)],
    case: &Case,
    events: &[Value],
) -> (Score, Vec<(String, bool)>) {
    let mut all: Vec<Rule> = rules.iter().map(|(_, rule)| rule.clone()).collect();
    let listed = case
        .metadata
        .as_ref()
        .and_then(|m| m.get("obligations"))
        .and_then(Value::as_array);
    for formula in listed.into_iter().flatten() {
        match formula.as_str().map(parse_rule) {
            Some(Ok(rule)) => all.push(rule),
            Some(Err(why)) => {
                return (
                    Score::failed(format!("metadata.obligations: {why}")),
                    Vec::new(),
                )
            }
            None => {
                return (
                    Score::failed("metadata.obligations: expected a list of rule texts"),
                    Vec::new(),
                )
            }
        }
    }
    let violations = crate::trace::check(events, &all);
    let open = crate::trace::not_checked(events, &all);
    // A rule not checked (its end is still to come) is not met.
    let verdicts = all
        .iter()
        .map(|rule| {
            let name = rule.name();
            let held =
                !violations.iter().any(|v| v.rule == name) && !open.iter().any(|o| o.rule == name);
            (name.to_owned(), held)
        })
        .collect();
    let score = if let Some(violation) = violations.first() {
        Score::failed(format!(
            "{} fails at event {}: {}",
            violation.rule, violation.index, violation.message
        ))
    } else if let Some(open) = open.first() {
        Score::failed(format!("{} not checked: {}", open.rule, open.reason))
    } else {
        Score::passed()
    };
    (score, verdicts)
}

/// The text of a value: a string as it is, anything else as compact JSON.
fn text_of(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    }
}

fn clip(text: &str) -> String {
    const MAX: usize = 120;
    match text.char_indices().nth(MAX) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_owned(),
    }
}

/// Where `actual` differs from `expected` (only what `expected` names, when `subset`), as a
/// JSON pointer and what was expected there.
fn difference(expected: &Value, actual: &Value, subset: bool, at: &str) -> Option<String> {
    let place = if at.is_empty() { "(root)" } else { at };
    match (expected, actual) {
        (Value::Object(want), Value::Object(got)) => {
            if !subset {
                if let Some(extra) = got.keys().find(|k| !want.contains_key(*k)) {
                    return Some(format!("{at}/{}: not expected", escape(extra)));
                }
            }
            want.iter().find_map(|(key, value)| {
                let here = format!("{at}/{}", escape(key));
                match got.get(key) {
                    Some(found) => difference(value, found, subset, &here),
                    None => Some(format!(
                        "{here}: missing, expected {}",
                        clip(&value.to_string())
                    )),
                }
            })
        }
        (Value::Array(want), Value::Array(got)) => {
            if want.len() != got.len() {
                return Some(format!(
                    "{place}: expected {} items, got {}",
                    want.len(),
                    got.len()
                ));
            }
            want.iter()
                .zip(got)
                .enumerate()
                .find_map(|(i, (w, g))| difference(w, g, subset, &format!("{at}/{i}")))
        }
        (Value::Number(want), Value::Number(got)) if want.as_f64() == got.as_f64() => None,
        (want, got) if want == got => None,
        (want, got) => Some(format!(
            "{place}: expected {}, got {}",
            clip(&want.to_string()),
            clip(&got.to_string())
        )),
    }
}

fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}
