//! The graph of a LOGIC.md document.

use serde_json::Value;

use super::{span_of, types_fit, Graph, GraphEdge, GraphNode, Group, InspectorField, Port};
use crate::document::Document;
use crate::fieldpath::FieldPath;
use crate::json::pointer_push;

fn node(
    document: &Document,
    id: String,
    kind: &str,
    name: &str,
    label: String,
    pointer: String,
) -> GraphNode {
    let visual = document.json().get("visual");
    GraphNode {
        span: span_of(document, &pointer),
        id,
        kind: kind.to_owned(),
        name: name.to_owned(),
        label,
        pointer,
        inputs: Vec::new(),
        outputs: Vec::new(),
        inspector: Vec::new(),
        color: visual
            .and_then(|v| v.get("color"))
            .and_then(Value::as_str)
            .map(str::to_owned),
        icon: visual
            .and_then(|v| v.get("icon"))
            .and_then(Value::as_str)
            .map(str::to_owned),
        x: 0.0,
        y: 0.0,
        pinned: false,
    }
}

pub(crate) fn ports_of(list: Option<&Value>) -> Vec<Port> {
    list.and_then(Value::as_array)
        .map(|items| {
            items
                .iter()
                .filter_map(|p| {
                    Some(Port {
                        name: p.get("name")?.as_str()?.to_owned(),
                        kind: p
                            .get("type")
                            .and_then(Value::as_str)
                            .unwrap_or("any")
                            .to_owned(),
                        required: p.get("required").and_then(Value::as_bool).unwrap_or(false),
                    })
                })
                .collect()
        })
        .unwrap_or_default()
}

fn schema_port(name: &str, schema: Option<&Value>) -> Vec<Port> {
    schema
        .map(|s| {
            vec![Port {
                name: name.to_owned(),
                kind: s
                    .get("type")
                    .and_then(Value::as_str)
                    .unwrap_or("any")
                    .to_owned(),
                required: true,
            }]
        })
        .unwrap_or_default()
}

/// The inspector of a step: the document's `visual.inspector` fields (keys relative to the
/// step when they name step fields, else to the document) plus built-in fields.
fn inspector(document: &Document, step_pointer: &str) -> Vec<InspectorField> {
    let json = document.json();
    let mut fields = Vec::new();
    let declared = json
        .get("visual")
        .and_then(|v| v.get("inspector"))
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    for field in declared {
        let Some(key) = field.get("key").and_then(Value::as_str) else {
            continue;
        };
        let Ok(path) = FieldPath::parse(key) else {
            continue;
        };
        let relative = path.to_pointer();
        let step_field = format!("{step_pointer}{relative}");
        let in_step = crate::schema::allows_path(
            crate::schema::schema(),
            &crate::json::pointer_tokens(&format!("/steps/x{relative}")),
        );
        let pointer = if in_step { step_field } else { relative };
        fields.push(declared_field(&field, key, pointer, json));
    }
    for (key, label, kind) in [
        ("description", "Description", "text"),
        ("instructions", "Instructions", "text"),
        ("timeout", "Timeout", "text"),
    ] {
        let pointer = pointer_push(step_pointer, key);
        fields.push(InspectorField {
            key: key.to_owned(),
            label: label.to_owned(),
            kind: kind.to_owned(),
            options: None,
            min: None,
            max: None,
            step: None,
            default: None,
            value: json.pointer(&pointer).cloned().unwrap_or(Value::Null),
            pointer,
        });
    }
    fields
}

/// An inspector field as `visual.inspector` declares it, bound to the value at `pointer`.
pub(crate) fn declared_field(
    field: &Value,
    key: &str,
    pointer: String,
    json: &Value,
) -> InspectorField {
    let text = |name: &str| field.get(name).and_then(Value::as_str);
    let number = |name: &str| field.get(name).and_then(Value::as_f64);
    InspectorField {
        key: key.to_owned(),
        label: text("label").unwrap_or(key).to_owned(),
        kind: text("type").unwrap_or("text").to_owned(),
        options: field.get("options").and_then(Value::as_array).cloned(),
        min: number("min"),
        max: number("max"),
        step: number("step"),
        default: field.get("default").cloned(),
        value: json.pointer(&pointer).cloned().unwrap_or(Value::Null),
        pointer,
    }
}

/// Finds nodes by id in constant time while edges are added.
struct Index(std::collections::HashMap<String, usize>);

impl Index {
    fn of(graph: &Graph) -> Index {
        Index(
            graph
                .nodes
                .iter()
                .enumerate()
                .map(|(i, n)| (n.id.clone(), i))
                .collect(),
        )
    }
}

fn edge(
    graph: &mut Graph,
    index: &Index,
    kind: &str,
    source: &str,
    target: &str,
    label: Option<String>,
) {
    let id = format!("{kind}:{source}->{target}:{}", graph.edges.len());
    let find = |id: &str| index.0.get(id).and_then(|&i| graph.nodes.get(i));
    let output = find(source).and_then(|n| n.outputs.first()).cloned();
    let input = find(target).and_then(|n| n.inputs.first()).cloned();
    let compatible = match (&output, &input) {
        (Some(a), Some(b)) => types_fit(&a.kind, &b.kind),
        _ => true,
    };
    graph.edges.push(GraphEdge {
        id,
        kind: kind.to_owned(),
        source: source.to_owned(),
        target: target.to_owned(),
        source_port: output.map(|p| p.name),
        target_port: input.map(|p| p.name),
        label,
        compatible,
        back: false,
    });
}

/// Builds the graph of a LOGIC.md document (its own steps, trees and workflow nodes).
pub fn from_document(document: &Document) -> Graph {
    let json = document.json();
    let mut graph = Graph::default();
    let steps = json
        .get("steps")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    for (name, step) in &steps {
        let pointer = pointer_push("/steps", name);
        let label = step
            .get("description")
            .and_then(Value::as_str)
            .map_or_else(|| name.clone(), |d| format!("{name}: {d}"));
        let mut n = node(
            document,
            format!("step:{name}"),
            "step",
            name,
            label,
            pointer.clone(),
        );
        // `visual.ports` are the ports of the whole document as one builder node (§10.1), not
        // of each step: a step's ports come from its own schemas.
        n.inputs = schema_port("input", step.get("input_schema"));
        n.outputs = schema_port("output", step.get("output_schema"));
        n.inspector = inspector(document, &pointer);
        graph.nodes.push(n);
    }
    let index = Index::of(&graph);
    for (name, step) in &steps {
        let id = format!("step:{name}");
        for need in step
            .get("needs")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
        {
            if steps.contains_key(need) {
                edge(
                    &mut graph,
                    &index,
                    "needs",
                    &format!("step:{need}"),
                    &id,
                    None,
                );
            }
        }
        for branch in step
            .get("branches")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let Some(then) = branch
                .get("then")
                .and_then(Value::as_str)
                .filter(|t| steps.contains_key(*t))
            else {
                continue;
            };
            let label = branch
                .get("if")
                .and_then(Value::as_str)
                .map(str::to_owned)
                .or_else(|| Some("default".to_owned()));
            edge(
                &mut graph,
                &index,
                "branch",
                &id,
                &format!("step:{then}"),
                label,
            );
        }
        let parallel: Vec<String> = step
            .get("parallel_steps")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .filter(|s| steps.contains_key(*s))
            .map(|s| format!("step:{s}"))
            .collect();
        if !parallel.is_empty() {
            for member in &parallel {
                edge(&mut graph, &index, "parallel", &id, member, None);
            }
            graph.groups.push(Group {
                id: format!("parallel:{name}"),
                kind: "parallel".to_owned(),
                label: format!("{name} (parallel)"),
                members: parallel,
            });
        }
    }
    trees(document, &mut graph, &steps);
    agents(document, &mut graph);
    positions(document, &mut graph);
    graph
}

fn trees(document: &Document, graph: &mut Graph, steps: &serde_json::Map<String, Value>) {
    let trees = document
        .json()
        .get("decision_trees")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    for (tree_name, tree) in &trees {
        let base = pointer_push("/decision_trees", tree_name);
        let nodes = tree
            .get("nodes")
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default();
        let terminals = tree
            .get("terminals")
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default();
        let mut members = Vec::new();
        for (name, n) in &nodes {
            let id = format!("tree:{tree_name}/{name}");
            let label = n
                .get("condition")
                .and_then(Value::as_str)
                .map_or_else(|| name.clone(), |c| format!("{name}: {c}"));
            let pointer = pointer_push(&pointer_push(&base, "nodes"), name);
            let mut decision = node(
                document,
                id.clone(),
                "decision",
                name,
                label,
                pointer.clone(),
            );
            decision.inspector = super::builtin_fields(
                document.json(),
                &pointer,
                &[("condition", "Condition", "text")],
            );
            graph.nodes.push(decision);
            members.push(id);
        }
        for (name, t) in &terminals {
            let id = format!("terminal:{tree_name}/{name}");
            let label = t
                .get("action")
                .and_then(Value::as_str)
                .map_or_else(|| name.clone(), |a| format!("{name}: {a}"));
            let pointer = pointer_push(&pointer_push(&base, "terminals"), name);
            let mut terminal = node(
                document,
                id.clone(),
                "terminal",
                name,
                label,
                pointer.clone(),
            );
            terminal.inspector = super::builtin_fields(
                document.json(),
                &pointer,
                &[("action", "Action", "text"), ("message", "Message", "text")],
            );
            graph.nodes.push(terminal);
            members.push(id);
        }
        let index = Index::of(graph);
        for (name, n) in &nodes {
            for branch in n
                .get("branches")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                let Some(next) = branch.get("next").and_then(Value::as_str) else {
                    continue;
                };
                let target = if nodes.contains_key(next) {
                    format!("tree:{tree_name}/{next}")
                } else if terminals.contains_key(next) {
                    format!("terminal:{tree_name}/{next}")
                } else if steps.contains_key(next) {
                    format!("step:{next}")
                } else {
                    continue;
                };
                let label = match branch.get("value") {
                    Some(Value::String(s)) => Some(s.clone()),
                    Some(other) => Some(other.to_string()),
                    None => Some("default".to_owned()),
                };
                let kind = if target.starts_with("step:") {
                    "route"
                } else {
                    "decision"
                };
                edge(
                    graph,
                    &index,
                    kind,
                    &format!("tree:{tree_name}/{name}"),
                    &target,
                    label,
                );
            }
        }
        graph.groups.push(Group {
            id: format!("tree:{tree_name}"),
            kind: "decision_tree".to_owned(),
            label: tree_name.clone(),
            members,
        });
    }
}

fn agents(document: &Document, graph: &mut Graph) {
    let json = document.json();
    let nodes = json
        .get("nodes")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    for (name, n) in &nodes {
        let label = n
            .get("logic_ref")
            .and_then(Value::as_str)
            .map_or_else(|| name.clone(), |r| format!("{name} ({r})"));
        let mut agent = node(
            document,
            format!("agent:{name}"),
            "agent",
            name,
            label,
            pointer_push("/nodes", name),
        );
        agent.inspector = super::builtin_fields(
            json,
            &pointer_push("/nodes", name),
            &[
                ("logic_ref", "LOGIC.md file", "text"),
                ("description", "Description", "text"),
            ],
        );
        agent.inputs = vec![Port {
            name: "in".into(),
            kind: "object".into(),
            required: false,
        }];
        agent.outputs = vec![Port {
            name: "out".into(),
            kind: "object".into(),
            required: false,
        }];
        graph.nodes.push(agent);
    }
    let index = Index::of(graph);
    for (name, n) in &nodes {
        for dependency in n
            .get("depends_on")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
        {
            if nodes.contains_key(dependency) {
                edge(
                    graph,
                    &index,
                    "depends_on",
                    &format!("agent:{dependency}"),
                    &format!("agent:{name}"),
                    None,
                );
            }
        }
    }
    for e in json
        .get("edges")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let (Some(from), Some(to)) = (
            e.get("from").and_then(Value::as_str),
            e.get("to").and_then(Value::as_str),
        ) else {
            continue;
        };
        if nodes.contains_key(from) && nodes.contains_key(to) {
            let label = e
                .get("contract")
                .and_then(|c| c.get("required"))
                .map(|r| format!("requires {r}"));
            edge(
                graph,
                &index,
                "edge",
                &format!("agent:{from}"),
                &format!("agent:{to}"),
                label,
            );
        }
    }
}

/// Positions the user set (`metadata.logicmd.positions`) pin their nodes.
pub(crate) fn positions_from(json: &Value, graph: &mut Graph) {
    let Some(positions) = json
        .pointer("/metadata/logicmd/positions")
        .and_then(Value::as_object)
    else {
        return;
    };
    for node in &mut graph.nodes {
        if let Some(p) = positions.get(&node.name) {
            if let (Some(x), Some(y)) = (
                p.get("x").and_then(Value::as_f64),
                p.get("y").and_then(Value::as_f64),
            ) {
                node.x = x;
                node.y = y;
                node.pinned = true;
            }
        }
    }
}

fn positions(document: &Document, graph: &mut Graph) {
    positions_from(document.json(), graph);
}
