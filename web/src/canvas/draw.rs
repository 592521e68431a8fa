//! Nodes and wires as drawn: plain values (compared to decide what to redraw) and their SVG.

use std::collections::HashMap;

use leptos::prelude::*;
use logicmd::graph::{GraphEdge, GraphNode, Port};

use crate::geometry::{
    port_point, wire_label_point_around, wire_path_around, NodeBox, NODE_HEIGHT, NODE_WIDTH,
};
use crate::problems::NodeProblems;
use crate::run::canvas::{carried, node_run_view, run_state_of};
use crate::state::Studio;
use rustc_hash::FxHashMap;

/// A node as drawn. Ports are never empty: a node without declared ports gets `in`/`out` of type
/// `any`, so that every node can be wired.
#[derive(Debug, Clone, PartialEq)]
pub struct DrawnNode {
    pub id: String,
    pub kind: String,
    pub name: String,
    pub label: String,
    pub color: Option<String>,
    pub pinned: bool,
    pub inputs: Vec<Port>,
    pub outputs: Vec<Port>,
    pub x: f64,
    pub y: f64,
    /// Ports on the left and right sides (a left-right layout) rather than top and bottom.
    pub sideways: bool,
}

impl DrawnNode {
    pub fn of(node: &GraphNode, sideways: bool) -> DrawnNode {
        let or_default = |ports: &[Port], name: &str| {
            if ports.is_empty() {
                vec![Port {
                    name: name.to_owned(),
                    kind: "any".to_owned(),
                    required: false,
                }]
            } else {
                ports.to_vec()
            }
        };
        DrawnNode {
            id: node.id.clone(),
            kind: node.kind.clone(),
            name: node.name.clone(),
            label: node.label.clone(),
            color: node.color.clone(),
            pinned: node.pinned,
            inputs: or_default(&node.inputs, "in"),
            outputs: or_default(&node.outputs, "out"),
            x: node.x,
            y: node.y,
            sideways,
        }
    }
}

/// A wire as drawn, with its ends in graph coordinates.
#[derive(Debug, Clone, PartialEq)]
pub struct DrawnWire {
    pub kind: String,
    pub source: String,
    pub target: String,
    pub label: Option<String>,
    pub back: bool,
    pub compatible: bool,
    pub from: (f64, f64),
    pub to: (f64, f64),
    /// Which of the wires sharing both ends this is (see [`wire_path_around`]).
    pub lane: f64,
    /// Drawn between side ports (a left-right layout).
    pub sideways: bool,
    /// The line it runs along to pass the nodes between its ends ([`crate::geometry::detour`]).
    pub detour: Option<f64>,
}

/// Where the wire of `port` (the first port when absent or unknown) meets `node`, in graph
/// coordinates; a node without ports has one (see [`DrawnNode`]).
fn port_at(node: &GraphNode, port: Option<&str>, input: bool, sideways: bool) -> (f64, f64) {
    let ports = if input { &node.inputs } else { &node.outputs };
    let index = port
        .and_then(|p| ports.iter().position(|q| q.name == p))
        .unwrap_or(0);
    let (px, py) = port_point(index, ports.len().max(1), input, sideways);
    (node.x + px, node.y + py)
}

/// Where a wire starts and ends, in graph coordinates (`sideways`: between side ports).
pub fn wire_ends(
    edge: &GraphEdge,
    source: &GraphNode,
    target: &GraphNode,
    sideways: bool,
) -> ((f64, f64), (f64, f64)) {
    (
        port_at(source, edge.source_port.as_deref(), false, sideways),
        port_at(target, edge.target_port.as_deref(), true, sideways),
    )
}

impl DrawnWire {
    pub fn of(edge: &GraphEdge, from: (f64, f64), to: (f64, f64), sideways: bool) -> DrawnWire {
        DrawnWire {
            kind: edge.kind.clone(),
            source: edge.source.clone(),
            target: edge.target.clone(),
            label: edge.label.clone(),
            back: edge.back,
            compatible: edge.compatible,
            from,
            to,
            lane: 0.0,
            sideways,
            detour: None,
        }
    }
}

/// Routes every forward wire that would be drawn behind one of `nodes` around them.
pub fn route_around(wires: &mut [DrawnWire], nodes: &[DrawnNode]) {
    let boxes: Vec<NodeBox> = nodes
        .iter()
        .map(|n| (n.x, n.y, n.x + NODE_WIDTH, n.y + NODE_HEIGHT))
        .collect();
    for wire in wires.iter_mut().filter(|w| w.lane == 0.0 && !w.back) {
        wire.detour = crate::geometry::detour(wire.from, wire.to, wire.sideways, &boxes);
    }
}

/// Spreads wires that share both ends into lanes around the straight one.
pub fn assign_lanes(wires: &mut [DrawnWire]) {
    let mut groups: HashMap<String, Vec<usize>> = HashMap::new();
    for (i, wire) in wires.iter().enumerate() {
        let ends = format!("{:?}{:?}", wire.from, wire.to);
        groups.entry(ends).or_default().push(i);
    }
    for members in groups.values().filter(|m| m.len() > 1) {
        let middle = (members.len() - 1) as f64 / 2.0;
        for (place, &i) in members.iter().enumerate() {
            wires[i].lane = place as f64 - middle;
        }
    }
}

/// Keys for a keyed list: the value's own key, made unique by counting repeats (a document can
/// name the same dependency twice, or give two DRTL nodes one id).
pub fn unique_keys<T>(items: Vec<T>, key: impl Fn(&T) -> String) -> Vec<(String, T)> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    items
        .into_iter()
        .map(|item| {
            let base = key(&item);
            let count = seen.entry(base.clone()).or_insert(0);
            *count += 1;
            let key = if *count == 1 {
                base
            } else {
                format!("{base}#{count}")
            };
            (key, item)
        })
        .collect()
}

pub fn node_key(n: &DrawnNode) -> String {
    format!("{n:?}")
}

pub fn wire_key(w: &DrawnWire) -> String {
    format!("{w:?}")
}

pub fn glyph(kind: &str) -> &'static str {
    match kind {
        "step" => "▶",
        "decision" => "◆",
        "terminal" => "■",
        "agent" => "◎",
        "generate" => "✎",
        "verify" => "✔",
        "gate" => "⊘",
        "review" => "☑",
        "aggregate" => "Σ",
        "fan_out" => "⋔",
        "debate" => "⇄",
        "transform" => "ƒ",
        _ => "●",
    }
}

fn truncate(text: &str, limit: usize) -> String {
    if text.chars().count() > limit {
        let cut: String = text.chars().take(limit - 1).collect();
        format!("{cut}…")
    } else {
        text.to_owned()
    }
}

/// The SVG of a node. Its place is fixed (a moved node is a new drawn node) except for the
/// offset of a drag in progress.
pub fn node_view(
    node: DrawnNode,
    studio: Studio,
    problems: Memo<FxHashMap<String, NodeProblems>>,
    offset_of: impl Fn(&str) -> (f64, f64) + Copy + Send + Sync + 'static,
) -> impl IntoView {
    let id = node.id.clone();
    let transform = {
        let id = id.clone();
        move || {
            let (dx, dy) = offset_of(&id);
            format!("translate({:.1},{:.1})", node.x + dx, node.y + dy)
        }
    };
    let selected = {
        let id = id.clone();
        move || crate::select::is_selected(studio, &id)
    };
    let style = node
        .color
        .as_ref()
        .map(|c| format!("--node-color: {c}"))
        .unwrap_or_default();
    let title = truncate(&node.name, 24);
    let subtitle = match node.label.split_once(": ") {
        Some((_, description)) => truncate(description, 30),
        None if node.label != node.name => truncate(&node.label, 30),
        None => node.kind.replace('_', " "),
    };
    let port_views = |ports: &[Port], input: bool| {
        let count = ports.len();
        ports
            .iter()
            .enumerate()
            .map(|(i, port)| {
                let (px, py) = port_point(i, count, input, node.sideways);
                let direction = if input { "in" } else { "out" };
                let data = format!("{id}:{}:{direction}", port.name);
                // Outside the node, beside the port: clear of the node's own text. Sideways, an
                // input's label sits above its wire and an output's below, so the two labels in
                // the gap between a chain's nodes do not overlap.
                let (label_x, label_y, anchor) = match (node.sideways, input) {
                    (false, true) => (px + 9.0, py - 6.0, "start"),
                    (false, false) => (px + 9.0, py + 15.0, "start"),
                    (true, true) => (px - 9.0, py - 8.0, "end"),
                    (true, false) => (px + 9.0, py + 15.0, "start"),
                };
                let caption = format!("{}: {}", port.name, port.kind);
                view! {
                    <g class=format!("port port-{direction}")>
                        <circle cx=px cy=py r="6" data-port=data data-port-type=port.kind.clone()></circle>
                        <text class="port-label" x=label_x y=label_y text-anchor=anchor aria-hidden="true">{caption}</text>
                    </g>
                }
            })
            .collect_view()
    };
    let inputs = port_views(&node.inputs, true);
    let outputs = port_views(&node.outputs, false);
    let run_state = run_state_of(node.name.clone());
    let run_pill = node_run_view(node.name.clone());
    let aria_selected = selected.clone();
    // The accessible name is the SVG title (kind, name, description): an aria-label would not
    // hold the node's visible text (axe's label-content-name-mismatch).
    let title_text = match node.label.split_once(": ") {
        Some((_, description)) => format!(
            "{} {}: {description}",
            node.kind.replace('_', " "),
            node.name
        ),
        None => format!("{} {}", node.kind.replace('_', " "), node.label),
    };
    let mine = {
        let id = id.clone();
        move || problems.with(|p| p.get(&id).cloned())
    };
    let invalid = {
        let mine = mine.clone();
        move || mine().map(|_| "true")
    };
    let badge = move || {
        mine().map(|p| {
            let count = p.messages.len();
            let tooltip = p.messages.join("\n");
            view! {
                <g class="badge" class:warning=p.errors == 0 transform=format!("translate({},0)", NODE_WIDTH - 4.0)>
                    <circle r="11"></circle>
                    <text text-anchor="middle" y="4">{count}</text>
                    <title>{tooltip}</title>
                </g>
            }
        })
    };
    view! {
        <g
            class=format!("node kind-{}", node.kind)
            class:selected=selected
            role="option"
            tabindex="-1"
            aria-selected=move || aria_selected().to_string()
            aria-invalid=invalid
            class:pinned=node.pinned
            data-node-id=node.id.clone()
            data-kind=node.kind.clone()
            data-run-state=run_state
            transform=transform
            style=style
        >
            <rect class="node-body" width=NODE_WIDTH height=NODE_HEIGHT rx="10"></rect>
            <rect class="node-stripe" width="8" height=NODE_HEIGHT rx="4"></rect>
            <text class="node-glyph" x="22" y="30" aria-hidden="true">{glyph(&node.kind)}</text>
            <text class="node-title" x="40" y="30" clip-path="url(#node-clip)">{title}</text>
            <text class="node-kind" x="40" y="52">{subtitle}</text>
            <title>{title_text}</title>
            {inputs}
            {outputs}
            {run_pill}
            {badge}
        </g>
    }
}

/// The SVG of a wire; its ends follow a node being dragged.
pub fn wire_view(
    wire: DrawnWire,
    studio: Studio,
    offset_of: impl Fn(&str) -> (f64, f64) + Copy + Send + Sync + 'static,
) -> impl IntoView {
    let (lane, sideways, detour) = (wire.lane, wire.sideways, wire.detour);
    // The ends, and the detour while neither end is being dragged (it was found at rest).
    let ends = {
        let (source, target) = (wire.source.clone(), wire.target.clone());
        let (from, to) = (wire.from, wire.to);
        move || {
            let (a, b) = (offset_of(&source), offset_of(&target));
            let still = a == (0.0, 0.0) && b == (0.0, 0.0);
            (
                (from.0 + a.0, from.1 + a.1),
                (to.0 + b.0, to.1 + b.1),
                detour.filter(|_| still),
            )
        }
    };
    let path = {
        let ends = ends.clone();
        move || {
            let (from, to, detour) = ends();
            wire_path_around(from, to, lane, sideways, detour)
        }
    };
    let label = wire.label.clone().map(|text| {
        let short = truncate(&text, 28);
        let (x_of, y_of) = (ends.clone(), ends);
        let x = move || {
            let (a, b, d) = x_of();
            wire_label_point_around(a, b, lane, sideways, d).0
        };
        let y = move || {
            let (a, b, d) = y_of();
            wire_label_point_around(a, b, lane, sideways, d).1
        };
        view! { <text class="wire-label" x=x y=y text-anchor="middle"><title>{text}</title>{short}</text> }
    });
    let short = |id: &str| id.split_once(':').map_or(id, |(_, n)| n).to_owned();
    let carried = carried(short(&wire.source), short(&wire.target));
    let selected = {
        let ends = (wire.source.clone(), wire.target.clone());
        move || studio.selection.with(|s| s.selected_wire() == Some(&ends))
    };
    let aria_selected = selected.clone();
    // The name holds the label drawn on the wire, as it is drawn (axe's label-content-name-mismatch).
    let shown_label = wire
        .label
        .as_deref()
        .map(|l| format!(", {}", truncate(l, 28)))
        .unwrap_or_default();
    let name = format!(
        "{} wire from {} to {}{shown_label}",
        wire.kind, wire.source, wire.target
    );
    let hit_path = path.clone();
    view! {
        <g
            class=format!("wire-group wire-{}", wire.kind)
            class:carried=carried
            class:selected=selected
            role="option"
            aria-label=name
            aria-selected=move || aria_selected().to_string()
            class:back=wire.back
            class:incompatible=!wire.compatible
            data-edge-from=wire.source.clone()
            data-edge-to=wire.target.clone()
            data-edge-kind=wire.kind.clone()
            data-detour=detour.is_some().then_some("true")
        >
            <title>{name.clone()}</title>
            <path class="wire-hit" d=hit_path></path>
            <path class="wire" d=path marker-end="url(#arrow)"></path>
            {label}
        </g>
    }
}
