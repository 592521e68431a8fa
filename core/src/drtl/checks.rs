//! Semantic checks of a topology, each finding placed at its key or value.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use super::expressions::{self, Found};
use super::model::DrtlNode;
use super::Topology;
use crate::diagnostic::Diagnostic;
use crate::lint::rules::{self, LintRule};
use crate::schema::{closest, Source};
use crate::source::Span;

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

pub(super) struct Checker<'t> {
    pub topology: &'t Topology,
    diagnostics: Vec<Diagnostic>,
}

impl Checker<'_> {
    /// Reports at the value at `pointer`.
    fn report(&mut self, rule: LintRule, pointer: &str, message: String, help: Option<String>) {
        let span = self.topology.span_at(pointer);
        self.report_at(rule, pointer, span, message, help);
    }

    pub fn report_at(
        &mut self,
        rule: LintRule,
        pointer: &str,
        span: Span,
        message: String,
        help: Option<String>,
    ) {
        let mut diagnostic = Diagnostic::new(rule.severity, rule.code, message).with_path(pointer);
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
    labels(&mut checker, &nodes);
    let expressions = expressions::check(&mut checker, &ids);
    let upstream = upstream(&nodes);
    for found in &expressions {
        template_references(&mut checker, &nodes, &upstream, found);
    }
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
                rules::DRTL_DUPLICATE_ID,
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
                    rules::DRTL_UNKNOWN_ROUTE,
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
                    rules::DRTL_UNKNOWN_NODE,
                    &format!("/edges/{index}/{end}"),
                    format!("edge `{end}` names `{name}`, which is not a node"),
                    suggestion(name, ids),
                );
            }
        }
    }
}

/// An edge `if` without `{{ }}` is a label (§4.2's `passed`, §4.3's `under_limit`): on a gate's
/// edge it names the branch, on any other edge the edge is taken whatever it says. A label that
/// reads like a condition (`state.variables.n < 3`) on such an edge is almost surely meant as one.
fn labels(checker: &mut Checker<'_>, nodes: &[DrtlNode]) {
    for node in nodes.iter().filter(|n| n.kind != "gate") {
        for route in &node.routes {
            let Some(label) = route.label.as_deref() else {
                continue;
            };
            if route.kind != super::RouteKind::Edge || label.contains("{{") {
                continue;
            }
            let reads_like_a_condition =
                crate::expr::parse_expression(label, 0, crate::expr::ExprLimits::DEFAULT)
                    .is_ok_and(|e| !matches!(e.kind, crate::expr::ExprKind::Identifier(_)));
            if !reads_like_a_condition {
                continue;
            }
            let pointer = route.pointer.rsplit_once('/').map_or("", |(edge, _)| edge);
            checker.report(
                rules::DRTL_LABEL_NOT_CONDITION,
                &format!("{pointer}/if"),
                format!(
                    "`if: {label}` has no `{{{{ }}}}`, so it is a label, not a condition: the edge from `{}` is always taken",
                    node.id
                ),
                Some(format!("to make it a condition, write `if: \"{{{{ {label} }}}}\"`")),
            );
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

/// Plain references in `input` (`node.key`, no `{{ }}`), with their pointers; templates are
/// read from their parsed expressions instead.
fn plain_references(value: &Value, pointer: &str, out: &mut Vec<(String, String)>) {
    match value {
        Value::String(text) if !text.contains("{{") && !text.contains(' ') => {
            out.push((text.clone(), pointer.to_owned()));
        }
        Value::Object(map) => {
            for (key, item) in map {
                plain_references(
                    item,
                    &format!("{pointer}/{}", crate::json::escape_token(key)),
                    out,
                );
            }
        }
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                plain_references(item, &format!("{pointer}/{i}"), out);
            }
        }
        _ => {}
    }
}

const GENERIC_KEYS: &[&str] = &["output", "outputs", "input", "report", "result"];

/// A read of `source.key` by the node `reader`, found at `span` of `pointer`.
struct Reference<'r> {
    reader: &'r str,
    source: &'r str,
    key: Option<&'r str>,
    pointer: &'r str,
    span: Span,
}

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
    plain_references(input, &format!("{pointer}/input"), &mut found);
    for (text, at) in &found {
        let mut parts = text.split('.');
        let (Some(source), key) = (parts.next(), parts.next()) else {
            continue;
        };
        let span = checker.topology.span_at(at);
        let reference = Reference {
            reader: id,
            source,
            key,
            pointer: at,
            span,
        };
        check_reference(checker, nodes, upstream, &reference);
    }
}

/// Node outputs read inside templates (`{{ draft.text }}`), checked like plain references.
fn template_references(
    checker: &mut Checker<'_>,
    nodes: &[DrtlNode],
    upstream: &BTreeMap<String, BTreeSet<String>>,
    found: &Found,
) {
    let Some(reader) = found.reader.as_deref() else {
        return;
    };
    for (path, range) in found.expr.paths() {
        let Some(source) = path.first() else {
            continue;
        };
        if !nodes.iter().any(|n| &n.id == source) {
            continue;
        }
        let span = expressions::locate(
            checker,
            &found.pointer,
            &found.text,
            range.start,
            range.len(),
        );
        let reference = Reference {
            reader,
            source,
            key: path.get(1).map(String::as_str),
            pointer: &found.pointer,
            span,
        };
        check_reference(checker, nodes, upstream, &reference);
    }
}

/// The source must have a path to the reader, and the key should be the source's output.
fn check_reference(
    checker: &mut Checker<'_>,
    nodes: &[DrtlNode],
    upstream: &BTreeMap<String, BTreeSet<String>>,
    reference: &Reference<'_>,
) {
    let Reference {
        reader: id,
        source,
        key,
        pointer,
        span,
    } = *reference;
    let Some(source_node) = nodes.iter().find(|n| n.id == source) else {
        return;
    };
    let shown = key.map_or_else(|| source.to_owned(), |key| format!("{source}.{key}"));
    if !upstream.get(id).is_some_and(|u| u.contains(source)) {
        checker.report_at(
            rules::DRTL_INPUT_NOT_UPSTREAM,
            pointer,
            span,
            format!("`{id}` reads `{shown}`, but `{source}` has no path to `{id}`"),
            Some(
                "connect the nodes with an edge or route, or read from an upstream node".to_owned(),
            ),
        );
        return;
    }
    if let (Some(key), Some(output_key)) = (key, &source_node.output_key) {
        if key != output_key && !GENERIC_KEYS.contains(&key) {
            checker.report_at(
                rules::DRTL_UNKNOWN_OUTPUT_KEY,
                pointer,
                span,
                format!("`{source}` writes its output to `{output_key}`, not `{key}`"),
                Some(format!("read `{source}.{output_key}`")),
            );
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
                    rules::DRTL_UNKNOWN_ARTIFACT,
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
                    rules::DRTL_EXTERNAL_FILE,
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
                    rules::DRTL_VERIFY_UNSTRUCTURED,
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
                rules::DRTL_UNKNOWN_STANDARD_RULE,
                &format!("{pointer}/rules/{i}/id"),
                format!("`{id}` is not in the standard verification library"),
                closest(id, STANDARD_RULES.iter().copied()).map(|c| format!("did you mean `{c}`?")),
            );
        }
    }
}
