//! Semantic checks of a topology, each finding placed at its key or value.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use super::model::DrtlNode;
use super::Topology;
use crate::diagnostic::{Diagnostic, Severity};
use crate::schema::{closest, Source};

/// The standard verification library (DRTL §3.4).
pub const STANDARD_RULES: &[&str] = &[
    "std.check_compute",
    "std.check_existence",
    "std.check_links",
    "std.check_citation",
    "std.check_code",
    "std.check_logic",
    "std.check_protocol",
    "std.check_tool_usage",
];

struct Checker<'t> {
    topology: &'t Topology,
    diagnostics: Vec<Diagnostic>,
}

impl Checker<'_> {
    fn report(
        &mut self,
        severity: Severity,
        code: &str,
        pointer: &str,
        message: String,
        help: Option<String>,
    ) {
        let span = self.topology.span_at(pointer);
        let mut diagnostic = Diagnostic::new(severity, code, message).with_path(pointer);
        diagnostic.help = help;
        self.diagnostics
            .push(self.topology.locate(diagnostic, span));
    }
}

/// Runs every check.
pub fn lint(topology: &Topology) -> Vec<Diagnostic> {
    let mut checker = Checker {
        topology,
        diagnostics: Vec::new(),
    };
    let nodes = topology.nodes();
    let ids: Vec<&str> = nodes.iter().map(|n| n.id.as_str()).collect();
    duplicate_ids(&mut checker, &nodes);
    routes(&mut checker, &nodes, &ids);
    edges(&mut checker, &ids);
    let upstream = upstream(&nodes);
    let json = topology.json().clone();
    for (index, node) in json
        .get("nodes")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
    {
        let pointer = format!("/nodes/{index}");
        let Some(id) = node.get("id").and_then(Value::as_str) else {
            continue;
        };
        inputs(&mut checker, &nodes, &upstream, id, node, &pointer);
        artifacts(&mut checker, &json, node, &pointer);
        if node.get("type").and_then(Value::as_str) == Some("verify") {
            verify(&mut checker, &nodes, node, &pointer);
        }
    }
    checker.diagnostics
}

fn duplicate_ids(checker: &mut Checker<'_>, nodes: &[DrtlNode]) {
    let mut seen = BTreeSet::new();
    for node in nodes {
        if !seen.insert(node.id.clone()) {
            checker.report(
                Severity::Error,
                "drtl-duplicate-id",
                &format!("{}/id", node.pointer),
                format!("node id `{}` is used twice", node.id),
                None,
            );
        }
    }
}

fn suggestion(name: &str, ids: &[&str]) -> Option<String> {
    closest(name, ids.iter().copied()).map(|c| format!("did you mean `{c}`?"))
}

fn routes(checker: &mut Checker<'_>, nodes: &[DrtlNode], ids: &[&str]) {
    for node in nodes {
        for route in node
            .routes
            .iter()
            .filter(|r| r.kind != super::RouteKind::Edge && !r.ends_run)
        {
            if !ids.contains(&route.target.as_str()) {
                checker.report(
                    Severity::Error,
                    "drtl-unknown-route",
                    &route.pointer,
                    format!(
                        "`{}` routes to `{}`, which is not a node",
                        node.id, route.target
                    ),
                    suggestion(&route.target, ids),
                );
            }
        }
    }
}

fn edges(checker: &mut Checker<'_>, ids: &[&str]) {
    let edges = checker
        .topology
        .json()
        .get("edges")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    for (index, edge) in edges.iter().enumerate() {
        for end in ["from", "to"] {
            let Some(name) = edge.get(end).and_then(Value::as_str) else {
                continue;
            };
            let ends_run = end == "to" && name == super::TERMINATE;
            if !ids.contains(&name) && !ends_run {
                checker.report(
                    Severity::Error,
                    "drtl-unknown-node",
                    &format!("/edges/{index}/{end}"),
                    format!("edge `{end}` names `{name}`, which is not a node"),
                    suggestion(name, ids),
                );
            }
        }
    }
}

/// For every node, the nodes that can reach it.
fn upstream(nodes: &[DrtlNode]) -> BTreeMap<String, BTreeSet<String>> {
    let mut reach: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for start in nodes {
        let mut seen = BTreeSet::new();
        let mut pending = vec![start.id.clone()];
        while let Some(current) = pending.pop() {
            let Some(node) = nodes.iter().find(|n| n.id == current) else {
                continue;
            };
            for route in &node.routes {
                if seen.insert(route.target.clone()) {
                    pending.push(route.target.clone());
                }
            }
        }
        for target in seen {
            reach.entry(target).or_default().insert(start.id.clone());
        }
    }
    reach
}

/// References in `input`: `node.key` strings and `{{node.key}}` templates that name a node.
fn references(value: &Value, pointer: &str, out: &mut Vec<(String, String)>) {
    match value {
        Value::String(text) => {
            if text.contains("{{") {
                let mut rest = text.as_str();
                while let Some(open) = rest.find("{{") {
                    let after = &rest[open + 2..];
                    let Some(close) = after.find("}}") else { break };
                    out.push((after[..close].trim().to_owned(), pointer.to_owned()));
                    rest = &after[close + 2..];
                }
            } else if !text.contains(' ') {
                out.push((text.clone(), pointer.to_owned()));
            }
        }
        Value::Object(map) => {
            for (key, item) in map {
                references(
                    item,
                    &format!("{pointer}/{}", crate::json::escape_token(key)),
                    out,
                );
            }
        }
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                references(item, &format!("{pointer}/{i}"), out);
            }
        }
        _ => {}
    }
}

const GENERIC_KEYS: &[&str] = &["output", "outputs", "input", "report", "result"];

fn inputs(
    checker: &mut Checker<'_>,
    nodes: &[DrtlNode],
    upstream: &BTreeMap<String, BTreeSet<String>>,
    id: &str,
    node: &Value,
    pointer: &str,
) {
    let Some(input) = node.get("input") else {
        return;
    };
    let mut found = Vec::new();
    references(input, &format!("{pointer}/input"), &mut found);
    for (reference, at) in found {
        let mut parts = reference.split('.');
        let (Some(source), key) = (parts.next(), parts.next()) else {
            continue;
        };
        let Some(source_node) = nodes.iter().find(|n| n.id == source) else {
            continue;
        };
        if !upstream.get(id).is_some_and(|u| u.contains(source)) {
            checker.report(
                Severity::Error,
                "drtl-input-not-upstream",
                &at,
                format!("`{id}` reads `{reference}`, but `{source}` has no path to `{id}`"),
                Some(
                    "connect the nodes with an edge or route, or read from an upstream node"
                        .to_owned(),
                ),
            );
            continue;
        }
        if let (Some(key), Some(output_key)) = (key, &source_node.output_key) {
            if key != output_key && !GENERIC_KEYS.contains(&key) {
                checker.report(
                    Severity::Warning,
                    "drtl-unknown-output-key",
                    &at,
                    format!("`{source}` writes its output to `{output_key}`, not `{key}`"),
                    Some(format!("read `{source}.{output_key}`")),
                );
            }
        }
    }
}

fn artifacts(checker: &mut Checker<'_>, json: &Value, node: &Value, pointer: &str) {
    let mut refs: Vec<(String, String, &str)> = Vec::new();
    for field in ["prompt_ref", "protocol_ref"] {
        if let Some(r) = node.get(field).and_then(Value::as_str) {
            refs.push((r.to_owned(), format!("{pointer}/{field}"), field));
        }
    }
    for (i, p) in node
        .get("participants")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
    {
        if let Some(r) = p.get("prompt_ref").and_then(Value::as_str) {
            refs.push((
                r.to_owned(),
                format!("{pointer}/participants/{i}/prompt_ref"),
                "prompt_ref",
            ));
        }
    }
    for (reference, at, field) in refs {
        if let Some(path) = reference.strip_prefix("artifacts.") {
            let pointer = format!("/artifacts/{}", path.replace('.', "/"));
            if json.pointer(&pointer).is_none() {
                checker.report(
                    Severity::Error,
                    "drtl-unknown-artifact",
                    &at,
                    format!("`{reference}` is not declared under `artifacts`"),
                    None,
                );
            }
        } else {
            let declared = json
                .get("artifacts")
                .and_then(Value::as_object)
                .is_some_and(|a| {
                    a.values()
                        .filter_map(Value::as_object)
                        .any(|m| m.values().any(|v| v.as_str() == Some(reference.as_str())))
                });
            if !declared {
                checker.report(
                    Severity::Info,
                    "drtl-external-file",
                    &at,
                    format!("`{field}` names the external file `{reference}`, not declared under `artifacts`"),
                    None,
                );
            }
        }
    }
}

fn verify(checker: &mut Checker<'_>, nodes: &[DrtlNode], node: &Value, pointer: &str) {
    if let Some(source) = node
        .get("input")
        .and_then(Value::as_str)
        .and_then(|i| i.split('.').next())
    {
        if let Some(source_node) = nodes.iter().find(|n| n.id == source) {
            if source_node.output_format.as_deref() != Some("json") {
                checker.report(
                    Severity::Error,
                    "drtl-verify-unstructured",
                    &format!("{pointer}/input"),
                    format!("`verify` needs structured input, but `{source}` does not declare `output_format: json`"),
                    Some("add an extraction node with `output_format: json` before verifying (DRTL §9.2)".to_owned()),
                );
            }
        }
    }
    for (i, rule) in node
        .get("rules")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
    {
        let Some(id) = rule.get("id").and_then(Value::as_str) else {
            continue;
        };
        if id.starts_with("std.") && !STANDARD_RULES.contains(&id) {
            checker.report(
                Severity::Error,
                "drtl-unknown-standard-rule",
                &format!("{pointer}/rules/{i}/id"),
                format!("`{id}` is not in the standard verification library"),
                closest(id, STANDARD_RULES.iter().copied()).map(|c| format!("did you mean `{c}`?")),
            );
        }
    }
}
