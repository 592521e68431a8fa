//! What the synthetic provider knows of a DRTL topology, so its answers carry a run to an end:
//! a node whose output a `verify` reads answers JSON with each rule's target as a key (a list of
//! plausible values: URLs for link targets, arithmetic for compute targets, names otherwise); a
//! node whose output a gate reads meets the gate's condition where it is simple; a debate
//! participant proposes, and the next ones agree.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{json, Value};

use crate::expr::{parse_expression, Expr, ExprLimits, Template};

#[derive(Debug, Default)]
pub(super) struct Hints {
    /// Keys a node's JSON answer should have, by node id.
    pub targets: BTreeMap<String, Vec<String>>,
    /// Conditions (as output checks) a node's answer should meet, by node id.
    pub checks: BTreeMap<String, Vec<String>>,
    pub debates: BTreeSet<String>,
}

/// Node types that answer through a model.
const SPEAKERS: &[&str] = &["generate", "aggregate"];

pub(super) fn hints(topology: &Value) -> Hints {
    let nodes: Vec<&Value> = topology
        .get("nodes")
        .and_then(Value::as_array)
        .map(|nodes| nodes.iter().collect())
        .unwrap_or_default();
    let kind_of = |id: &str| {
        nodes
            .iter()
            .find(|n| n.get("id").and_then(Value::as_str) == Some(id))
            .and_then(|n| n.get("type"))
            .and_then(Value::as_str)
    };
    let mut hints = Hints::default();
    for node in &nodes {
        let text = |key: &str| node.get(key).and_then(Value::as_str);
        let (Some(id), Some(kind)) = (text("id"), text("type")) else {
            continue;
        };
        let source = text("input")
            .and_then(source_of)
            .filter(|s| kind_of(s).is_some_and(|k| SPEAKERS.contains(&k)));
        match (kind, source) {
            ("debate", _) => {
                hints.debates.insert(id.to_owned());
            }
            ("verify", Some(source)) => {
                let targets = node
                    .get("rules")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                    .filter_map(|r| r.get("target").and_then(Value::as_str))
                    .map(str::to_owned);
                hints.targets.entry(source).or_default().extend(targets);
            }
            ("gate", Some(source)) => {
                if let Some(check) = text("condition").and_then(as_output_check) {
                    hints.checks.entry(source).or_default().push(check);
                }
            }
            _ => {}
        }
    }
    hints
}

/// The node a plain reference (`extract.claims`) or a template's first path reads.
fn source_of(input: &str) -> Option<String> {
    if !input.contains("{{") {
        return input.split('.').next().map(str::to_owned);
    }
    let template = Template::parse(input).ok()?;
    let first = template.expressions().first()?.paths().into_iter().next()?;
    first.0.first().cloned()
}

/// A gate condition over `input` as a check over `output` (the source's answer).
fn as_output_check(condition: &str) -> Option<String> {
    let expressions: Vec<Expr> = if condition.contains("{{") {
        Template::parse(condition)
            .ok()?
            .expressions()
            .into_iter()
            .cloned()
            .collect()
    } else {
        vec![parse_expression(condition, 0, ExprLimits::DEFAULT).ok()?]
    };
    let mut renamed = condition.to_owned();
    let mut ranges: Vec<std::ops::Range<usize>> = expressions
        .iter()
        .flat_map(|e| e.roots())
        .filter(|(root, _)| root == "input")
        .map(|(_, range)| range)
        .collect();
    crate::sorting::sort_by_key(&mut ranges, |r| std::cmp::Reverse(r.start));
    for range in ranges {
        renamed.replace_range(range, "output");
    }
    Some(if renamed.contains("{{") {
        renamed
    } else {
        format!("{{{{ {renamed} }}}}")
    })
}

/// A list of plausible values for a verified key, by its name.
pub(super) fn plausible(target: &str) -> Value {
    let name = target.rsplit('.').next().unwrap_or(target).to_lowercase();
    if ["url", "link", "href", "source"]
        .iter()
        .any(|w| name.contains(w))
    {
        let slug: String = name
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
            .collect();
        return json!([
            format!("https://example.com/{slug}-1"),
            format!("https://example.com/{slug}-2")
        ]);
    }
    if ["calc", "comput", "math", "arith", "sum", "total"]
        .iter()
        .any(|w| name.contains(w))
    {
        return json!(["2 + 2 = 4", "3 * 7 = 21"]);
    }
    let singular = name.strip_suffix('s').unwrap_or(&name).replace('_', " ");
    json!([format!("{singular} 1"), format!("{singular} 2")])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conditions_over_input_become_checks_over_output() {
        assert_eq!(
            as_output_check("input.score > 0.8 && input.items.length >= 2").as_deref(),
            Some("{{ output.score > 0.8 && output.items.length >= 2 }}")
        );
        assert_eq!(
            as_output_check("{{ input.ok }}").as_deref(),
            Some("{{ output.ok }}")
        );
        assert_eq!(source_of("extract.claims").as_deref(), Some("extract"));
        assert_eq!(
            source_of("{{ extract.claims.items }}").as_deref(),
            Some("extract")
        );
        assert_eq!(
            plausible("urls"),
            json!(["https://example.com/urls-1", "https://example.com/urls-2"])
        );
        assert_eq!(
            plausible("product_names"),
            json!(["product name 1", "product name 2"])
        );
    }
}
