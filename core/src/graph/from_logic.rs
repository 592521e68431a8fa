//! The graph of a LOGIC.md document.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde_json::Value;

use super::SourceSpan;
use super::{entry_spans, Graph, GraphEdge, GraphNode, Group, InspectorField, Port};
use crate::contract::{steps_fit, wire_mismatches, WireEnd};
use crate::document::Document;
use crate::fieldpath::FieldPath;
use crate::json::pointer_push;
use crate::loader::Loader;
use crate::workflow::load_node;

/// The document's `visual.color` and `visual.icon`, which every node of it shows.
#[derive(Default)]
struct Look {
    color: Option<String>,
    icon: Option<String>,
}

impl Look {
    fn of(document: &Document) -> Look {
        let visual = document.json().get("visual");
        let text = |key: &str| {
            visual
                .and_then(|v| v.get(key))
                .and_then(Value::as_str)
                .map(str::to_owned)
        };
        Look {
            color: text("color"),
            icon: text("icon"),
        }
    }
}

fn node(
    look: &Look,
    id: String,
    kind: &str,
    name: &str,
    label: String,
    pointer: String,
    span: Option<SourceSpan>,
) -> GraphNode {
    GraphNode {
        span,
        id,
        kind: kind.to_owned(),
        name: name.to_owned(),
        label,
        pointer,
        inputs: Vec::new(),
        outputs: Vec::new(),
        inspector: Arc::default(),
        color: look.color.clone(),
        icon: look.icon.clone(),
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

/// A `visual.inspector` field as it applies to steps: its pointer relative to the step when it
/// names a step field, else absolute (relative to the document). Worked out once per document.
struct StepField {
    field: Value,
    key: String,
    relative: String,
    in_step: bool,
}

fn step_fields(json: &Value) -> Vec<StepField> {
    json.get("visual")
        .and_then(|v| v.get("inspector"))
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|field| {
            let key = field.get("key").and_then(Value::as_str)?;
            let relative = FieldPath::parse(key).ok()?.to_pointer();
            let in_step = crate::schema::allows_path(
                crate::schema::schema(),
                &crate::json::pointer_tokens(&format!("/steps/x{relative}")),
            );
            Some(StepField {
                field: field.clone(),
                key: key.to_owned(),
                relative,
                in_step,
            })
        })
        .collect()
}

/// The inspector of a step: the document's `visual.inspector` fields (keys relative to the
/// step when they name step fields, else to the document) plus built-in fields.
fn inspector(
    json: &Value,
    declared: &[StepField],
    step: &Value,
    step_pointer: &str,
) -> Vec<InspectorField> {
    let mut fields: Vec<InspectorField> = declared
        .iter()
        .map(|d| {
            let pointer = if d.in_step {
                format!("{step_pointer}{}", d.relative)
            } else {
                d.relative.clone()
            };
            declared_field(&d.field, &d.key, pointer, json)
        })
        .collect();
    fields.extend(super::builtin_fields(
        Some(step),
        step_pointer,
        &[
            ("description", "Description", "text"),
            ("instructions", "Instructions", "text"),
            ("timeout", "Timeout", "text"),
        ],
    ));
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

/// The node of step `name`, defined at `span`.
fn step_node(
    json: &Value,
    declared: &[StepField],
    look: &Look,
    (name, step): (&str, &Value),
    span: Option<SourceSpan>,
) -> GraphNode {
    let pointer = pointer_push("/steps", name);
    let label = step
        .get("description")
        .and_then(Value::as_str)
        .map_or_else(|| name.to_owned(), |d| [name, ": ", d].concat());
    let mut n = node(
        look,
        prefixed("step:", name),
        "step",
        name,
        label,
        pointer.clone(),
        span,
    );
    // `visual.ports` are the ports of the whole document as one builder node (§10.1), not
    // of each step: a step's ports come from its own schemas.
    n.inputs = schema_port("input", step.get("input_schema"));
    n.outputs = schema_port("output", step.get("output_schema"));
    n.inspector = inspector(json, declared, step, &pointer).into();
    n
}

/// The node of step `name` of `document` as [`from_document`] builds it, at `span`; `None`
/// when a `visual.inspector` field of the document is not relative to its steps (its value
/// could be anywhere, so an edit could change every node).
pub(crate) fn rebuilt_step(
    document: &Document,
    name: &str,
    span: Option<SourceSpan>,
) -> Option<GraphNode> {
    let json = document.json();
    let declared = step_fields(json);
    if declared.iter().any(|d| !d.in_step) {
        return None;
    }
    let step = json.get("steps")?.get(name)?;
    Some(step_node(
        json,
        &declared,
        &Look::of(document),
        (name, step),
        span,
    ))
}

/// Finds nodes by id in constant time while edges are added.
struct Index(rustc_hash::FxHashMap<String, usize>);

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

/// An edge of `kind` from `source` to `target` (graph node ids), between their first ports;
/// `compatible` is the contract judgement of the wire (`contract::wire_mismatches`): only `needs`
/// wires and workflow edges carry data with a contract, the others order or route.
fn edge(
    graph: &mut Graph,
    index: &Index,
    kind: &str,
    (source, target): (&str, &str),
    label: Option<String>,
    compatible: bool,
) {
    let mut id = String::with_capacity(kind.len() + source.len() + target.len() + 8);
    for part in [kind, ":", source, "->", target, ":"] {
        id.push_str(part);
    }
    id.push_str(&graph.edges.len().to_string());
    let find = |id: &str| index.0.get(id).and_then(|&i| graph.nodes.get(i));
    let output = find(source).and_then(|n| n.outputs.first());
    let input = find(target).and_then(|n| n.inputs.first());
    std::sync::Arc::make_mut(&mut graph.edges).push(GraphEdge {
        id,
        kind: kind.to_owned(),
        source: source.to_owned(),
        target: target.to_owned(),
        source_port: output.map(|p| p.name.clone()),
        target_port: input.map(|p| p.name.clone()),
        label,
        compatible,
        back: false,
    });
}

/// Builds the graph of a LOGIC.md document (its own steps, trees and workflow nodes), without
/// reading other files: workflow edges are judged only by what this document says.
pub fn from_document(document: &Document) -> Graph {
    build(document, &BTreeMap::new())
}

/// Builds the graph of a LOGIC.md document whose id is `id`, loading its workflow nodes'
/// `logic_ref`s through `loader` (overrides applied, as lint does), so that workflow edges are
/// drawn incompatible exactly where lint reports `contract-mismatch`.
pub fn from_workflow(document: &Document, id: &str, loader: &dyn Loader) -> Graph {
    let loaded = object(document.json().get("nodes"))
        .into_iter()
        .flatten()
        .filter_map(|(name, node)| Some((name.clone(), load_node(node, id, loader).ok()?)))
        .collect();
    build(document, &loaded)
}

/// The graph, with `loaded` the documents of the workflow nodes that could be loaded.
fn build(document: &Document, loaded: &BTreeMap<String, Value>) -> Graph {
    let json = document.json();
    let mut graph = Graph::default();
    let empty = serde_json::Map::new();
    let steps = object(json.get("steps")).unwrap_or(&empty);
    let spans = entry_spans(document, "/steps");
    let declared = step_fields(json);
    let look = Look::of(document);
    for (name, step) in steps {
        let span = spans.get(name.as_str()).copied();
        graph
            .nodes
            .push(step_node(json, &declared, &look, (name, step), span));
    }
    let index = Index::of(&graph);
    for (name, step) in steps {
        let id = prefixed("step:", name);
        for need in step
            .get("needs")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
        {
            if let Some(needed) = steps.get(need) {
                let fits = steps_fit(needed, step);
                edge(
                    &mut graph,
                    &index,
                    "needs",
                    (&prefixed("step:", need), &id),
                    None,
                    fits,
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
                (&id, &format!("step:{then}")),
                label,
                true,
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
                edge(&mut graph, &index, "parallel", (&id, member), None, true);
            }
            graph.groups.push(Group {
                id: format!("parallel:{name}"),
                kind: "parallel".to_owned(),
                label: format!("{name} (parallel)"),
                members: parallel,
            });
        }
    }
    trees(document, &mut graph, steps);
    agents(document, &mut graph, loaded);
    positions(document, &mut graph);
    graph
}

/// `prefix` + `name`, without the formatting machinery (this runs for every node and edge).
fn prefixed(prefix: &str, name: &str) -> String {
    let mut id = String::with_capacity(prefix.len() + name.len());
    id.push_str(prefix);
    id.push_str(name);
    id
}

fn object(value: Option<&Value>) -> Option<&serde_json::Map<String, Value>> {
    value.and_then(Value::as_object)
}

fn trees(document: &Document, graph: &mut Graph, steps: &serde_json::Map<String, Value>) {
    let empty = serde_json::Map::new();
    let trees = object(document.json().get("decision_trees")).unwrap_or(&empty);
    for (tree_name, tree) in trees {
        let base = pointer_push("/decision_trees", tree_name);
        let nodes = object(tree.get("nodes")).unwrap_or(&empty);
        let terminals = object(tree.get("terminals")).unwrap_or(&empty);
        // Decision and terminal nodes show their kind's colour: `visual.color` is the
        // document's (its steps'), and would make every kind look alike.
        let look = Look::default();
        let node_spans = entry_spans(document, &pointer_push(&base, "nodes"));
        let terminal_spans = entry_spans(document, &pointer_push(&base, "terminals"));
        let mut members = Vec::new();
        for (name, n) in nodes {
            let id = format!("tree:{tree_name}/{name}");
            let label = n
                .get("condition")
                .and_then(Value::as_str)
                .map_or_else(|| name.clone(), |c| format!("{name}: {c}"));
            let pointer = pointer_push(&pointer_push(&base, "nodes"), name);
            let mut decision = node(
                &look,
                id.clone(),
                "decision",
                name,
                label,
                pointer.clone(),
                node_spans.get(name.as_str()).copied(),
            );
            decision.inspector =
                super::builtin_fields(Some(n), &pointer, &[("condition", "Condition", "text")])
                    .into();
            graph.nodes.push(decision);
            members.push(id);
        }
        for (name, t) in terminals {
            let id = format!("terminal:{tree_name}/{name}");
            let label = t
                .get("action")
                .and_then(Value::as_str)
                .map_or_else(|| name.clone(), |a| format!("{name}: {a}"));
            let pointer = pointer_push(&pointer_push(&base, "terminals"), name);
            let mut terminal = node(
                &look,
                id.clone(),
                "terminal",
                name,
                label,
                pointer.clone(),
                terminal_spans.get(name.as_str()).copied(),
            );
            terminal.inspector = super::builtin_fields(
                Some(t),
                &pointer,
                &[("action", "Action", "text"), ("message", "Message", "text")],
            )
            .into();
            graph.nodes.push(terminal);
            members.push(id);
        }
        let index = Index::of(graph);
        for (name, n) in nodes {
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
                    (&format!("tree:{tree_name}/{name}"), &target),
                    label,
                    true,
                );
            }
        }
        reads(graph, tree_name, nodes, steps);
        actions(graph, tree_name, terminals, steps);
        graph.groups.push(Group {
            id: format!("tree:{tree_name}"),
            kind: "decision_tree".to_owned(),
            label: tree_name.clone(),
            members,
        });
    }
}

/// A `reads` edge from each step a node's condition reads (`steps.NAME`) to that node: the tree
/// decides on the step's output, so it comes after the step.
fn reads(
    graph: &mut Graph,
    tree_name: &str,
    nodes: &serde_json::Map<String, Value>,
    steps: &serde_json::Map<String, Value>,
) {
    let index = Index::of(graph);
    for (name, node) in nodes {
        let Some(condition) = node.get("condition").and_then(Value::as_str) else {
            continue;
        };
        let Ok(template) = crate::expr::Template::parse(condition) else {
            continue;
        };
        let mut read: Vec<&str> = Vec::new();
        for expr in template.expressions() {
            for (path, _) in expr.paths() {
                if let [root, step, ..] = path.as_slice() {
                    if root == "steps" {
                        if let Some((key, _)) = steps.get_key_value(step.as_str()) {
                            if !read.contains(&key.as_str()) {
                                read.push(key);
                            }
                        }
                    }
                }
            }
        }
        for step in read {
            edge(
                graph,
                &index,
                "reads",
                (
                    &prefixed("step:", step),
                    &format!("tree:{tree_name}/{name}"),
                ),
                Some("reads".to_owned()),
                true,
            );
        }
    }
}

/// An `action` edge from each terminal of `tree_name` whose `action` names a step to that step:
/// the spec lets a terminal's action be a step name or a built-in action, and only a step is a
/// node to wire to. The label says what the wire is, as a branch's says its value.
fn actions(
    graph: &mut Graph,
    tree_name: &str,
    terminals: &serde_json::Map<String, Value>,
    steps: &serde_json::Map<String, Value>,
) {
    let index = Index::of(graph);
    for (name, terminal) in terminals {
        let Some(step) = terminal
            .get("action")
            .and_then(Value::as_str)
            .filter(|a| steps.contains_key(*a))
        else {
            continue;
        };
        edge(
            graph,
            &index,
            "action",
            (
                &format!("terminal:{tree_name}/{name}"),
                &prefixed("step:", step),
            ),
            Some("action".to_owned()),
            true,
        );
    }
}

fn agents(document: &Document, graph: &mut Graph, loaded: &BTreeMap<String, Value>) {
    let json = document.json();
    let empty = serde_json::Map::new();
    let nodes = object(json.get("nodes")).unwrap_or(&empty);
    let spans = entry_spans(document, "/nodes");
    // An agent node is another document: its colour is in that file, not this one's.
    let look = Look::default();
    for (name, n) in nodes {
        let label = n
            .get("logic_ref")
            .and_then(Value::as_str)
            .map_or_else(|| name.clone(), |r| format!("{name} ({r})"));
        let mut agent = node(
            &look,
            format!("agent:{name}"),
            "agent",
            name,
            label,
            pointer_push("/nodes", name),
            spans.get(name.as_str()).copied(),
        );
        agent.inspector = super::builtin_fields(
            Some(n),
            &pointer_push("/nodes", name),
            &[
                ("logic_ref", "LOGIC.md file", "text"),
                ("description", "Description", "text"),
            ],
        )
        .into();
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
    for (name, n) in nodes {
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
                    (&format!("agent:{dependency}"), &format!("agent:{name}")),
                    None,
                    true,
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
            let fits = wire_mismatches(
                &WireEnd::agent(from, loaded.get(from), true),
                &WireEnd::agent(to, loaded.get(to), false),
                e.get("contract"),
            )
            .is_empty();
            edge(
                graph,
                &index,
                "edge",
                (&format!("agent:{from}"), &format!("agent:{to}")),
                label,
                fits,
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
