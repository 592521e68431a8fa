//! `check(trace, rules)`: the built-in obligations and users' formulas over one trace, each
//! failure a [`Violation`] naming the rule and the event where it fails.

use serde::Serialize;
use serde_json::Value;

use super::builtins::Builtin;
use super::ltl::{Formula, ParseError};
use super::plan::Plan;
pub(crate) use super::view::View;

/// A rule checked on a trace.
#[derive(Debug, Clone, PartialEq)]
pub enum Rule {
    /// One of the built-in obligations.
    Builtin(Builtin),
    /// A user's formula; unnamed ones are named by their text.
    Formula {
        /// The rule's name: the name given before `=`, or the formula's text.
        name: String,
        /// The parsed formula.
        formula: Formula,
    },
}

impl Rule {
    /// The name violations report: a built-in's name, or the formula's.
    pub fn name(&self) -> &str {
        match self {
            Rule::Builtin(builtin) => builtin.name(),
            Rule::Formula { name, .. } => name,
        }
    }

    /// Every built-in rule, in their documented order.
    pub fn builtins() -> Vec<Rule> {
        Builtin::ALL.into_iter().map(Rule::Builtin).collect()
    }

    /// `NAME=FORMULA` or `FORMULA` (then named by its text). Error columns count from the
    /// start of `text`, name included.
    pub fn parse(text: &str) -> Result<Rule, ParseError> {
        let (name, formula_at) = match named(text) {
            Some((name, at)) => (Some(name), at),
            None => (None, 0),
        };
        let formula = Formula::parse(&text[formula_at..])
            .map_err(|error| ParseError::at(text, formula_at + error.offset, &error.message))?;
        Ok(Rule::Formula {
            name: name.unwrap_or_else(|| text.trim()).to_owned(),
            formula,
        })
    }
}

/// `NAME=` at the start of a rule argument: the name and where the formula starts. A formula
/// never starts that way (an atom's field tests are inside parentheses).
fn named(text: &str) -> Option<(&str, usize)> {
    let start = text.len() - text.trim_start().len();
    let rest = &text[start..];
    let len = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
        .unwrap_or(rest.len());
    let first = rest.chars().next()?;
    if len == 0 || !(first.is_ascii_alphabetic() || first == '_') {
        return None;
    }
    let after = &rest[len..];
    let gap = after.len() - after.trim_start().len();
    let after = &after[gap..];
    (after.starts_with('=') && !after.starts_with("=="))
        .then(|| (&rest[..len], start + len + gap + 1))
}

/// A rule that does not hold, and where: `index` is the event's position in the trace
/// (0-based).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Violation {
    /// The [`Rule::name`] of the rule that fails.
    pub rule: String,
    /// The 0-based position of the event where it fails in the trace.
    pub index: usize,
    /// What fails there, for a person to read.
    pub message: String,
}

/// A rule the trace cannot settle yet: it neither holds nor is violated.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NotChecked {
    /// The [`Rule::name`] of the rule.
    pub rule: String,
    /// Why it could not be checked, for a person to read.
    pub reason: String,
}

/// The rules of `rules` that `events` cannot settle: `terminates` on a paused trace (a review
/// is waiting, so its end is still to come). [`check`] reports no violation for them; a report
/// says "not checked", never "holds".
pub fn not_checked(events: &[Value], rules: &[Rule]) -> Vec<NotChecked> {
    let wants_terminates = rules
        .iter()
        .any(|rule| matches!(rule, Rule::Builtin(Builtin::Terminates)));
    if !wants_terminates || !super::builtins::paused(&View::new(events)) {
        return Vec::new();
    }
    vec![NotChecked {
        rule: Builtin::Terminates.name().to_owned(),
        reason: "the run is paused for a review: its end is still to come".to_owned(),
    }]
}

/// Checks every rule on `events`; violations come rule by rule, in event order.
pub fn check(events: &[Value], rules: &[Rule]) -> Vec<Violation> {
    let view = View::new(events);
    let builtins: Vec<Builtin> = rules
        .iter()
        .filter_map(|rule| match rule {
            Rule::Builtin(builtin) => Some(*builtin),
            Rule::Formula { .. } => None,
        })
        .collect();
    let mut found = if builtins.is_empty() {
        Default::default()
    } else {
        let planned = Planned::of(&view);
        super::builtins::check_all(&view, planned.as_ref(), &builtins)
    };
    let mut violations = Vec::new();
    for rule in rules {
        match rule {
            Rule::Builtin(builtin) => violations.extend(found.remove(builtin).unwrap_or_default()),
            Rule::Formula { name, formula } => {
                if let Some((index, message)) = formula.first_failure_in(&view) {
                    violations.push(Violation {
                        rule: name.clone(),
                        index,
                        message,
                    });
                }
            }
        }
    }
    violations
}

/// The plan, and the plan node each event concerns (looked up once for all rules).
pub(crate) struct Planned {
    pub plan: Plan,
    pub nodes: Vec<Option<usize>>,
}

impl Planned {
    fn of(view: &View) -> Result<Planned, String> {
        let plan = Plan::of_trace(view.events)?;
        let nodes = view
            .nodes
            .iter()
            .map(|node| node.and_then(|id| plan.node(id)))
            .collect();
        Ok(Planned { plan, nodes })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_rule_is_a_formula_with_or_without_a_name() {
        let Rule::Formula { name, formula } =
            Rule::parse("no-failure = G !node_finished(status=failed)").unwrap()
        else {
            panic!()
        };
        assert_eq!(name, "no-failure");
        assert_eq!(formula.text(), " G !node_finished(status=failed)");
        let rule = Rule::parse(" F run_finished ").unwrap();
        assert_eq!(rule.name(), "F run_finished");
        assert_eq!(
            Rule::parse("bad = G (a").unwrap_err().to_string(),
            "column 11: expected `)` to close the `(` before it"
        );
        assert_eq!(
            Rule::parse("G (a").unwrap_err().to_string(),
            "column 5: expected `)` to close the `(` before it"
        );
        // `==` after a word is not a name.
        assert_eq!(
            Rule::parse("a == b").unwrap_err().to_string(),
            "column 3: unexpected `=`: expected `&`, `|`, `->`, `U`, `S` or the end of the formula"
        );
    }

    #[test]
    fn a_paused_trace_leaves_terminates_not_checked() {
        let paused = [
            json!({"event": "run_started"}),
            json!({"event": "review_requested", "node": "r"}),
        ];
        let rules = Rule::builtins();
        assert_eq!(
            not_checked(&paused, &rules),
            [NotChecked {
                rule: "terminates".into(),
                reason: "the run is paused for a review: its end is still to come".into()
            }]
        );
        assert!(!check(&paused, &rules)
            .iter()
            .any(|v| v.rule == "terminates"));
        let answered = [
            json!({"event": "run_started"}),
            json!({"event": "review_requested", "node": "r"}),
            json!({"event": "review_answered", "node": "r"}),
        ];
        assert_eq!(not_checked(&answered, &rules), []);
        assert!(check(&answered, &rules)
            .iter()
            .any(|v| v.rule == "terminates"));
    }

    #[test]
    fn user_formulas_report_their_first_failure() {
        let events = [
            json!({"event": "run_started"}),
            json!({"event": "node_finished", "node": "a", "status": "failed"}),
            json!({"event": "run_finished", "status": "failed"}),
        ];
        let rules = [
            Rule::parse("no-failure = G !node_finished(status=failed)").unwrap(),
            Rule::parse("F run_finished").unwrap(),
        ];
        assert_eq!(
            check(&events, &rules),
            [Violation {
                rule: "no-failure".into(),
                index: 1,
                message: "`node_finished(status=failed)` holds at event 1".into()
            }]
        );
    }
}
