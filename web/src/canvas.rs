//! The canvas: every node of the graph model with typed ports, wires per edge kind, pan, zoom
//! around the pointer, node dragging, wiring from an output port to an input port, selection.

use leptos::prelude::*;
use logicmd::edit::Edit;
use logicmd::graph::{GraphEdge, GraphNode, Port};
use wasm_bindgen::JsCast;

use crate::connect::{connection, End};
use crate::geometry::{fit, port_point, wire_path, NODE_HEIGHT, NODE_WIDTH};
use crate::state::{Severity, Studio, Viewport};

/// Below this zoom, labels are unreadable: they are not drawn (large graphs stay responsive).
const FAR_SCALE: f64 = 0.4;

/// What the pointer is doing on the canvas.
#[derive(Debug, Clone, PartialEq)]
enum Gesture {
    Pan {
        start: (f64, f64),
        origin: Viewport,
    },
    Node {
        id: String,
        start: (f64, f64),
        dx: f64,
        dy: f64,
    },
    Wire {
        from: String,
        port_type: String,
        start: (f64, f64),
        end: (f64, f64),
    },
}

/// A node as drawn: ports never empty (a node without declared ports gets `in`/`out` of type
/// `any`, so that every node can be wired).
#[derive(Debug, Clone, PartialEq)]
struct DrawnNode {
    node: GraphNode,
    inputs: Vec<Port>,
    outputs: Vec<Port>,
}

fn drawn(node: &GraphNode) -> DrawnNode {
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
        inputs: or_default(&node.inputs, "in"),
        outputs: or_default(&node.outputs, "out"),
        node: node.clone(),
    }
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

#[component]
pub fn Canvas() -> impl IntoView {
    let studio = expect_context::<Studio>();
    let gesture = RwSignal::new(None::<Gesture>);
    let svg_ref = NodeRef::<leptos::svg::Svg>::new();

    let nodes = Memo::new(move |_| {
        studio.graph.with(|g| {
            g.as_ref()
                .map(|g| g.nodes.iter().map(drawn).collect::<Vec<_>>())
                .unwrap_or_default()
        })
    });
    // Where each node is in `nodes`, so a wire finds its ends in constant time.
    let index = Memo::new(move |_| {
        nodes.with(|nodes| {
            nodes
                .iter()
                .enumerate()
                .map(|(i, n)| (n.node.id.clone(), i))
                .collect::<std::collections::HashMap<_, _>>()
        })
    });
    let edges = Memo::new(move |_| {
        studio
            .graph
            .with(|g| g.as_ref().map(|g| g.edges.clone()).unwrap_or_default())
    });

    let to_graph = move |client: (f64, f64)| {
        let rect = svg_ref
            .get_untracked()
            .map(|svg| svg.get_bounding_client_rect());
        let (left, top) = rect.map_or((0.0, 0.0), |r| (r.left(), r.top()));
        let view = studio.viewport.get_untracked();
        (
            (client.0 - left - view.x) / view.scale,
            (client.1 - top - view.y) / view.scale,
        )
    };

    // Fit the graph into view when asked (first load, examples, the Fit button).
    Effect::new(move |_| {
        studio.fit_request.track();
        let Some(svg) = svg_ref.get() else { return };
        let rect = svg.get_bounding_client_rect();
        if let Some(view) = studio
            .graph
            .with_untracked(|g| g.as_ref().and_then(|g| fit(g, rect.width(), rect.height())))
        {
            studio.viewport.set(view);
        }
    });

    let on_pointer_down = move |ev: web_sys::PointerEvent| {
        if ev.button() != 0 {
            return;
        }
        let target = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok());
        let client = (f64::from(ev.client_x()), f64::from(ev.client_y()));
        let port = target
            .as_ref()
            .and_then(|t| t.get_attribute("data-port"))
            .filter(|p| p.ends_with(":out"));
        let node = target
            .as_ref()
            .and_then(|t| t.closest("[data-node-id]").ok().flatten())
            .and_then(|n| n.get_attribute("data-node-id"));
        let next = if let Some(port) = port {
            let (from, port_name) = split_port(&port);
            let port_type = port_type_of(&nodes.get_untracked(), &from, &port_name, false);
            let start = to_graph(client);
            Gesture::Wire {
                from,
                port_type,
                start,
                end: start,
            }
        } else if let Some(id) = node {
            studio.selected.set(Some(id.clone()));
            studio.field_error.set(None);
            Gesture::Node {
                id,
                start: client,
                dx: 0.0,
                dy: 0.0,
            }
        } else {
            studio.selected.set(None);
            Gesture::Pan {
                start: client,
                origin: studio.viewport.get_untracked(),
            }
        };
        if let Some(svg) = svg_ref.get_untracked() {
            let _ = svg.set_pointer_capture(ev.pointer_id());
        }
        gesture.set(Some(next));
    };

    let on_pointer_move = move |ev: web_sys::PointerEvent| {
        let client = (f64::from(ev.client_x()), f64::from(ev.client_y()));
        let scale = studio.viewport.get_untracked().scale;
        let Some(current) = gesture.get_untracked() else {
            return;
        };
        match current {
            Gesture::Pan { start, origin } => studio.viewport.set(Viewport {
                x: origin.x + client.0 - start.0,
                y: origin.y + client.1 - start.1,
                ..origin
            }),
            Gesture::Node { id, start, .. } => gesture.set(Some(Gesture::Node {
                id,
                start,
                dx: (client.0 - start.0) / scale,
                dy: (client.1 - start.1) / scale,
            })),
            Gesture::Wire {
                from,
                port_type,
                start,
                ..
            } => gesture.set(Some(Gesture::Wire {
                from,
                port_type,
                start,
                end: to_graph(client),
            })),
        }
    };

    let on_pointer_up = move |ev: web_sys::PointerEvent| {
        let Some(finished) = gesture.get_untracked() else {
            return;
        };
        gesture.set(None);
        match finished {
            Gesture::Node { id, dx, dy, .. } if dx.abs() + dy.abs() > 2.0 => {
                let moved = studio.graph.with_untracked(|g| {
                    g.as_ref()
                        .and_then(|g| g.node(&id))
                        .map(|n| (n.name.clone(), n.x + dx, n.y + dy))
                });
                if let Some((node, x, y)) = moved {
                    if let Err(message) = studio.apply(&Edit::SetPosition { node, x, y }) {
                        studio.notify(Severity::Error, message);
                    }
                }
            }
            Gesture::Wire {
                from, port_type, ..
            } => {
                let dropped_on = port_under(f64::from(ev.client_x()), f64::from(ev.client_y()));
                if let Some(port) = dropped_on {
                    connect(studio, &nodes.get_untracked(), &from, &port_type, &port);
                }
            }
            _ => {}
        }
    };

    let on_wheel = move |ev: web_sys::WheelEvent| {
        ev.prevent_default();
        let Some(svg) = svg_ref.get_untracked() else {
            return;
        };
        let rect = svg.get_bounding_client_rect();
        let pointer = (
            f64::from(ev.client_x()) - rect.left(),
            f64::from(ev.client_y()) - rect.top(),
        );
        // Trackpad pinches arrive as wheel events with ctrlKey and small deltas: zoom faster.
        let speed = if ev.ctrl_key() { 0.01 } else { 0.0015 };
        studio.viewport.update(|view| {
            let scale = (view.scale * (-ev.delta_y() * speed).exp()).clamp(0.05, 4.0);
            let graph_point = (
                (pointer.0 - view.x) / view.scale,
                (pointer.1 - view.y) / view.scale,
            );
            view.x = pointer.0 - graph_point.0 * scale;
            view.y = pointer.1 - graph_point.1 * scale;
            view.scale = scale;
        });
    };

    let offset_of = move |id: &str| {
        gesture.with(|g| match g {
            Some(Gesture::Node {
                id: moving, dx, dy, ..
            }) if moving == id => (*dx, *dy),
            _ => (0.0, 0.0),
        })
    };

    view! {
        <svg
            class="canvas"
            class:far=move || studio.viewport.with(|v| v.scale < FAR_SCALE)
            node_ref=svg_ref
            data-analysis-ms=move || format!("{:.2}", studio.analysis_ms.get())
            on:pointerdown=on_pointer_down
            on:pointermove=on_pointer_move
            on:pointerup=on_pointer_up
            on:wheel=on_wheel
        >
            <defs>
                <marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
                    <path d="M 0 0 L 10 5 L 0 10 z" class="arrowhead"></path>
                </marker>
            </defs>
            <g class="viewport" transform=move || {
                let v = studio.viewport.get();
                format!("translate({:.2},{:.2}) scale({:.4})", v.x, v.y, v.scale)
            }>
                <g class="wires">
                    <For
                        each=move || edges.get()
                        key=|edge| edge_key(edge)
                        children=move |edge| wire(edge, nodes, index, offset_of)
                    />
                </g>
                <g class="nodes">
                    <For
                        each=move || nodes.get()
                        key=|n| node_key(n)
                        children=move |n| node_view(n, studio, nodes, index, offset_of)
                    />
                </g>
                {move || gesture.with(|g| match g {
                    Some(Gesture::Wire { start, end, .. }) => Some(view! {
                        <path class="wire wire-pending" d=wire_path(*start, *end)></path>
                    }),
                    _ => None,
                })}
            </g>
        </svg>
    }
}

fn node_key(n: &DrawnNode) -> String {
    let ports = |ps: &[Port]| {
        ps.iter()
            .map(|p| format!("{}:{}", p.name, p.kind))
            .collect::<Vec<_>>()
            .join(",")
    };
    format!(
        "{}|{}|{}|{}|{:?}|{}",
        n.node.id,
        n.node.label,
        ports(&n.inputs),
        ports(&n.outputs),
        n.node.color,
        n.node.pinned
    )
}

fn edge_key(e: &GraphEdge) -> String {
    format!(
        "{}|{}|{}|{:?}|{}|{}",
        e.source, e.target, e.kind, e.label, e.back, e.compatible
    )
}

fn node_view(
    n: DrawnNode,
    studio: Studio,
    nodes: Memo<Vec<DrawnNode>>,
    index: Memo<std::collections::HashMap<String, usize>>,
    offset_of: impl Fn(&str) -> (f64, f64) + Copy + Send + Sync + 'static,
) -> impl IntoView {
    let DrawnNode {
        node,
        inputs,
        outputs,
    } = n;
    let id = node.id.clone();
    // The position is read live, so a layout shift moves nodes without re-creating them; a memo,
    // so that nodes whose position did not change do not touch the DOM.
    let transform = {
        let id = id.clone();
        Memo::new(move |_| {
            let at = index.with(|index| index.get(&id).copied());
            let (x, y) = nodes.with(|nodes| {
                at.and_then(|i| nodes.get(i))
                    .map_or((0.0, 0.0), |n| (n.node.x, n.node.y))
            });
            let (dx, dy) = offset_of(&id);
            format!("translate({:.1},{:.1})", x + dx, y + dy)
        })
    };
    let selected = {
        let id = id.clone();
        move || studio.selected.with(|s| s.as_deref() == Some(id.as_str()))
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
    let port_views = |ports: Vec<Port>, input: bool| {
        let count = ports.len();
        ports
            .into_iter()
            .enumerate()
            .map(|(i, port)| {
                let (px, py) = port_point(i, count, input);
                let direction = if input { "in" } else { "out" };
                let data = format!("{}:{}:{direction}", id, port.name);
                let label_y = if input { py + 14.0 } else { py - 8.0 };
                let caption = format!("{}: {}", port.name, port.kind);
                view! {
                    <g class=format!("port port-{direction}")>
                        <circle cx=px cy=py r="6" data-port=data data-port-type=port.kind.clone()></circle>
                        <text class="port-label" x=px y=label_y text-anchor="middle">{caption}</text>
                    </g>
                }
            })
            .collect_view()
    };
    let inputs = port_views(inputs, true);
    let outputs = port_views(outputs, false);
    view! {
        <g
            class=format!("node kind-{}", node.kind)
            class:selected=selected
            class:pinned=node.pinned
            data-node-id=node.id.clone()
            data-kind=node.kind.clone()
            transform=transform
            style=style
        >
            <rect class="node-body" width=NODE_WIDTH height=NODE_HEIGHT rx="10"></rect>
            <rect class="node-stripe" width="8" height=NODE_HEIGHT rx="4"></rect>
            <text class="node-glyph" x="22" y="30">{glyph(&node.kind)}</text>
            <text class="node-title" x="40" y="30">{title}</text>
            <text class="node-kind" x="40" y="52">{subtitle}</text>
            <title>{node.label.clone()}</title>
            {inputs}
            {outputs}
        </g>
    }
}

fn wire(
    edge: GraphEdge,
    nodes: Memo<Vec<DrawnNode>>,
    index: Memo<std::collections::HashMap<String, usize>>,
    offset_of: impl Fn(&str) -> (f64, f64) + Copy + Send + Sync + 'static,
) -> impl IntoView {
    let ends = {
        let edge = edge.clone();
        move || {
            let (source, target) = index.with(|index| {
                (
                    index.get(&edge.source).copied(),
                    index.get(&edge.target).copied(),
                )
            });
            nodes.with(|nodes| {
                let find = |i: Option<usize>| nodes.get(i?);
                let (source, target) = (find(source)?, find(target)?);
                let at = |n: &DrawnNode, port: &Option<String>, input: bool| {
                    let ports = if input { &n.inputs } else { &n.outputs };
                    let i = port
                        .as_ref()
                        .and_then(|p| ports.iter().position(|q| &q.name == p))
                        .unwrap_or(0);
                    let (px, py) = port_point(i, ports.len(), input);
                    let (dx, dy) = offset_of(&n.node.id);
                    (n.node.x + px + dx, n.node.y + py + dy)
                };
                Some((
                    at(source, &edge.source_port, false),
                    at(target, &edge.target_port, true),
                ))
            })
        }
    };
    let path = {
        let ends = ends.clone();
        Memo::new(move |_| ends().map(|(a, b)| wire_path(a, b)).unwrap_or_default())
    };
    let label = edge.label.clone().map(|text| {
        let short: String = text.chars().take(28).collect();
        let ends_x = ends.clone();
        let ends_y = ends.clone();
        let x = Memo::new(move |_| ends_x().map_or(0.0, |(a, b)| (a.0 + b.0) / 2.0));
        let y = Memo::new(move |_| ends_y().map_or(0.0, |(a, b)| (a.1 + b.1) / 2.0));
        view! { <text class="wire-label" x=x y=y text-anchor="middle"><title>{text}</title>{short}</text> }
    });
    view! {
        <g
            class=format!("wire-group wire-{}", edge.kind)
            class:back=edge.back
            class:incompatible=!edge.compatible
            data-edge-from=edge.source.clone()
            data-edge-to=edge.target.clone()
            data-edge-kind=edge.kind.clone()
        >
            <path class="wire" d=path marker-end="url(#arrow)"></path>
            {label}
        </g>
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

/// `node-id:port:in` → (node id, port); node ids contain `:` themselves.
fn split_port(data: &str) -> (String, String) {
    let mut parts = data.rsplitn(3, ':');
    let _direction = parts.next();
    let port = parts.next().unwrap_or_default().to_owned();
    let node = parts.next().unwrap_or_default().to_owned();
    (node, port)
}

fn port_type_of(nodes: &[DrawnNode], id: &str, port: &str, input: bool) -> String {
    nodes
        .iter()
        .find(|n| n.node.id == id)
        .and_then(|n| {
            let ports = if input { &n.inputs } else { &n.outputs };
            ports.iter().find(|p| p.name == port)
        })
        .map_or_else(|| "any".to_owned(), |p| p.kind.clone())
}

fn port_under(x: f64, y: f64) -> Option<String> {
    let document = web_sys::window()?.document()?;
    let element = document.element_from_point(x as f32, y as f32)?;
    let port = element.closest("[data-port$=':in']").ok()??;
    port.get_attribute("data-port")
}

fn connect(studio: Studio, nodes: &[DrawnNode], from: &str, port_type: &str, target: &str) {
    let (to, port) = split_port(target);
    let target_type = port_type_of(nodes, &to, &port, true);
    let kind = studio.analysis.with_untracked(|a| a.kind);
    let result = studio.graph.with_untracked(|g| {
        let graph = g.as_ref().ok_or("the document has no graph yet")?;
        connection(
            graph,
            kind,
            End {
                node: from,
                port_type,
            },
            End {
                node: &to,
                port_type: &target_type,
            },
        )
    });
    match result.and_then(|edit| studio.apply(&edit).map(|_| ())) {
        Ok(()) => studio.notice.set(None),
        Err(reason) => studio.notify(Severity::Error, format!("Not connected: {reason}")),
    }
}

/// Runs the core layout again, dropping the positions the user pinned.
pub fn auto_layout(studio: Studio) {
    let pinned = studio.text.with_untracked(|text| {
        logicmd::Document::parse(text)
            .document
            .map(|d| d.json().pointer("/metadata/logicmd/positions").is_some())
            .unwrap_or(false)
            || logicmd::drtl::parse(text)
                .0
                .is_some_and(|t| t.json().pointer("/metadata/logicmd/positions").is_some())
    });
    if pinned {
        let edit = Edit::Remove {
            path: "/metadata/logicmd/positions".to_owned(),
        };
        if let Err(message) = studio.apply(&edit) {
            studio.notify(Severity::Error, message);
        }
    }
    studio.fit_request.update(|n| *n += 1);
}
