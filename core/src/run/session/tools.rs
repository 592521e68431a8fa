//! What the session answers of the tool calls (`CallTool`) itself, the same for every caller:
//! a rule with nothing to check (an empty list of claimed values) holds vacuously, and
//! `std.check_existence` / `std.check_citation` are checked against known entities given as a
//! value ([`Facts`]). What needs the world (links over HTTP, a person) stays the caller's.

use std::collections::BTreeMap;

use serde_json::{json, Value};

use crate::run::Verdict;

/// The rules checked against [`Facts`].
pub const FACT_RULES: &[&str] = &["std.check_existence", "std.check_citation"];

/// The rules that check each claimed value in turn: with none claimed, they hold.
const ITEMISED_RULES: &[&str] = &[
    "std.check_existence",
    "std.check_citation",
    "std.check_links",
];

/// Known entities: per rule target (the rule's `target` key), or one list for every target.
#[derive(Debug, Clone, PartialEq)]
pub enum Facts {
    /// Known names by target.
    PerTarget(BTreeMap<String, Vec<String>>),
    /// Known names for every target.
    Everywhere(Vec<String>),
}

impl Facts {
    /// Reads facts as YAML or JSON text: a map of target → list of known names, or a list. The
    /// error says `line:column: what`.
    pub fn parse(text: &str) -> Result<Facts, String> {
        let file = crate::yaml::parse_file(text, crate::Limits::DEFAULT);
        if let Some(problem) = file.diagnostics.iter().find(|d| d.is_error()) {
            return Err(format!(
                "{}:{}: {}",
                problem.line, problem.column, problem.message
            ));
        }
        let value = file
            .root
            .map(|root| crate::json::to_json(&root))
            .unwrap_or(Value::Null);
        Facts::from_value(&value).map_err(|problem| format!("1:1: {problem}"))
    }

    /// Reads facts given as a value: a map of target → list of known names, or a list.
    pub fn from_value(value: &Value) -> Result<Facts, String> {
        match value {
            Value::Array(items) => Ok(Facts::Everywhere(names(items))),
            Value::Object(map) => map
                .iter()
                .map(|(target, known)| match known {
                    Value::Array(items) => Ok((target.clone(), names(items))),
                    _ => Err(format!(
                        "the facts for `{target}` are not a list of known names"
                    )),
                })
                .collect::<Result<_, _>>()
                .map(Facts::PerTarget),
            _ => Err("facts are a map of target to known names, or a list of names".into()),
        }
    }

    fn known(&self, target: &str) -> Option<&[String]> {
        match self {
            Facts::Everywhere(names) => Some(names),
            Facts::PerTarget(map) => map.get(target).map(Vec::as_slice),
        }
    }

    /// The verdict on `values` claimed for `target`: every claimed name must be known (names
    /// compare without case and surrounding spaces).
    pub fn check(&self, target: &str, values: &[Value]) -> Verdict {
        let Some(known) = self.known(target) else {
            return unverifiable(format!("the facts name nothing for `{target}`"));
        };
        let known: Vec<String> = known.iter().map(|k| normal(k)).collect();
        let (mut found, mut unknown) = (Vec::new(), Vec::new());
        for name in values.iter().filter_map(claimed_name) {
            if known.contains(&normal(&name)) {
                found.push(name);
            } else {
                unknown.push(name);
            }
        }
        Verdict {
            passed: unknown.is_empty(),
            evidence: Some(json!({"known": found, "unknown": unknown})),
            unverifiable: false,
        }
    }
}

/// The verdict the session gives `rule` on `arguments` without the caller, if it can: nothing
/// claimed holds vacuously; a fact rule with facts is checked against them.
pub(super) fn answer(rule: &str, arguments: &Value, facts: Option<&Facts>) -> Option<Verdict> {
    if !ITEMISED_RULES.contains(&rule) {
        return None;
    }
    let target = target(arguments);
    let values = claimed_values(arguments);
    if values.is_empty() {
        return Some(Verdict {
            passed: true,
            evidence: Some(json!("nothing to check: no value is claimed")),
            unverifiable: false,
        });
    }
    match facts {
        Some(facts) if FACT_RULES.contains(&rule) => Some(facts.check(target, &values)),
        _ => None,
    }
}

/// A verdict that says the rule could not be checked (a failure under `block`), with why.
pub fn unverifiable(why: impl Into<String>) -> Verdict {
    Verdict {
        passed: false,
        evidence: Some(Value::String(why.into())),
        unverifiable: true,
    }
}

/// Why a tool nobody checks is unverifiable: the same words from every front end (a fact rule
/// without facts, any other rule without a checker).
pub fn no_checker(rule: &str) -> String {
    if FACT_RULES.contains(&rule) {
        "no facts to check against".to_owned()
    } else {
        format!("no checker for {rule}")
    }
}

/// The rule's target key (`""` when it names none).
pub fn target(arguments: &Value) -> &str {
    arguments
        .get("target")
        .and_then(Value::as_str)
        .unwrap_or("")
}

/// What the rule is asked to check: `values` (or `value`), else the input's `target` key; lists
/// are checked item by item.
pub fn claimed_values(arguments: &Value) -> Vec<Value> {
    let target = target(arguments);
    let found = arguments
        .get("values")
        .or_else(|| arguments.get("value"))
        .or_else(|| arguments.get("input").and_then(|input| input.get(target)));
    match found {
        Some(Value::Array(items)) => items.clone(),
        Some(Value::Null) | None => Vec::new(),
        Some(other) => vec![other.clone()],
    }
}

/// The name a claimed value stands for: a string, a number, or an object's `name`/`id`/`url`/
/// `title`.
pub fn claimed_name(value: &Value) -> Option<String> {
    match value {
        Value::String(text) => Some(text.clone()),
        Value::Number(number) => Some(number.to_string()),
        Value::Object(map) => ["name", "id", "url", "title"]
            .iter()
            .find_map(|key| map.get(*key).and_then(Value::as_str))
            .map(str::to_owned),
        _ => None,
    }
}

/// Names compare without case and surrounding spaces.
fn normal(name: &str) -> String {
    name.trim().to_lowercase()
}

fn names(items: &[Value]) -> Vec<String> {
    items.iter().filter_map(claimed_name).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts(text: &str) -> Facts {
        Facts::parse(text).unwrap()
    }

    #[test]
    fn existence_is_checked_against_the_facts_of_the_target() {
        let facts = facts("product_names: [Notion, Obsidian]\nurls: []\n");
        let verdict = answer(
            "std.check_existence",
            &json!({"target": "product_names", "values": [" notion", "Evernote", {"name": "Obsidian"}]}),
            Some(&facts),
        );
        assert_eq!(
            verdict,
            Some(Verdict {
                passed: false,
                evidence: Some(json!({"known": [" notion", "Obsidian"], "unknown": ["Evernote"]})),
                unverifiable: false
            })
        );
        let verdict = answer(
            "std.check_existence",
            &json!({"target": "product_names", "input": {"product_names": ["Notion"]}}),
            Some(&facts),
        );
        assert!(verdict.unwrap().passed);
        assert_eq!(
            answer(
                "std.check_existence",
                &json!({"target": "apis", "values": ["x"]}),
                Some(&facts)
            ),
            Some(unverifiable("the facts name nothing for `apis`"))
        );
    }

    #[test]
    fn nothing_claimed_holds_for_every_itemised_rule_with_or_without_facts() {
        for rule in ITEMISED_RULES {
            for arguments in [
                json!({"target": "x", "values": []}),
                json!({"target": "x"}),
                json!({"target": "x", "values": null}),
                json!({"target": "x", "input": {"x": []}}),
            ] {
                let verdict = answer(rule, &arguments, None).expect("answered");
                assert!(
                    verdict.passed && !verdict.unverifiable,
                    "{rule} {arguments}"
                );
            }
        }
        assert_eq!(
            answer("std.check_compute", &json!({"values": []}), None),
            None
        );
    }

    #[test]
    fn without_facts_a_claim_is_left_to_the_caller() {
        assert_eq!(
            answer(
                "std.check_existence",
                &json!({"target": "x", "values": ["a"]}),
                None
            ),
            None
        );
        assert_eq!(
            answer(
                "std.check_links",
                &json!({"values": ["https://example.com"]}),
                Some(&facts("[a]"))
            ),
            None
        );
    }

    #[test]
    fn a_list_of_facts_applies_to_every_target_and_bad_facts_are_placed() {
        let facts = facts("[alpha, beta]");
        assert!(facts.check("refs", &[json!("Beta")]).passed);
        assert_eq!(
            Facts::parse("a: 1").unwrap_err(),
            "1:1: the facts for `a` are not a list of known names"
        );
        assert!(Facts::parse("[a").unwrap_err().starts_with("1:"));
        assert!(Facts::from_value(&json!(3)).is_err());
    }
}
