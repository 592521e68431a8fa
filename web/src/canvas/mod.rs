//! The canvas: the nodes of the graph model with typed ports, wires per edge kind, pan (drag the
//! background), zoom around the pointer (wheel, trackpad pinch, two-finger pinch), node dragging,
//! wiring from an output port to an input port, selection. Only what is near the visible area is
//! in the DOM ([`cull`]), so large graphs stay fast; far out, the nodes are painted on one
//! `<canvas>` instead ([`far`]).

mod cull;
mod draw;
mod far;
mod gesture;
mod keys;
mod reattach;
mod rename;
mod target;
mod zoom;

use std::collections::HashMap;

use rustc_hash::FxHashMap;
use std::sync::Arc;

use leptos::prelude::*;
use logicmd::edit::Edit;
use logicmd::graph::{Graph, GraphNode};
use wasm_bindgen::JsCast;

use crate::analysis::{CoreParsed, Parsed, Timings};
use crate::connect::{connection, End};
use crate::geometry::{fit, pending_path, NODE_HEIGHT, NODE_WIDTH};
use crate::state::{Severity, Studio, Viewport};
use cull::{drawn_window, Rect};
pub use draw::glyph;
use draw::{
    assign_lanes, node_key, node_view, unique_keys, wire_ends, wire_key, wire_view, DrawnNode,
    DrawnWire,
};
use gesture::{distance, midpoint, pinch, wheel_intent, zoom_at, Gesture, WheelIntent, WireEnd};

/// Below this zoom, labels are unreadable: they are not drawn, and the nodes are painted on the far
/// canvas rather than held as SVG (large graphs stay responsive).
const FAR_SCALE: f64 = 0.4;

/// Where the document keeps the positions the user gave nodes.
const POSITIONS: &str = "/metadata/logicmd/positions";

#[component]
pub fn Canvas() -> impl IntoView {
    let studio = expect_context::<Studio>();
    let sides = Sides::of_room();
    let gesture = RwSignal::new(None::<Gesture>);
    // Active touch points (pointer id → client position), for two-finger pinches.
    let touches = StoredValue::new(HashMap::<i32, (f64, f64)>::new());
    let svg_ref = NodeRef::<leptos::svg::Svg>::new();
    // The source of a connection being made from the keyboard.
    let connecting = RwSignal::new(None::<String>);
    // Why the last wire was not connected, shown where it was dropped (canvas pixels).
    let refusal = RwSignal::new(None::<((f64, f64), String)>);
    // The context menu, when open (right-click, Shift+F10, the ContextMenu key).
    let menu = crate::menu::Menu::default();
    crate::select::watch(studio);
    // The canvas's size in pixels, kept current by a ResizeObserver.
    let size = RwSignal::new((0.0f64, 0.0f64));
    let measure = move || {
        if let Some(svg) = svg_ref.get_untracked() {
            let rect = svg.get_bounding_client_rect();
            size.set((rect.width(), rect.height()));
        }
    };
    // The canvas changes size with the window and when the source pane is shown or hidden.
    let observer = StoredValue::new(None);
    Effect::new(move |_| {
        if let Some(svg) = svg_ref.get() {
            observer.set_value(crate::browser::observe_size(&svg, measure));
        }
    });

    // Nodes held in the DOM whatever the window and the zoom: the selection (focusable, for the
    // keyboard and screen readers) and the nodes being dragged (they follow the pointer).
    let kept = Memo::new(move |_| {
        let mut kept: Vec<String> = gesture.with(|g| match g {
            Some(Gesture::Node { id, group, .. }) => {
                group.iter().cloned().chain([id.clone()]).collect()
            }
            _ => Vec::new(),
        });
        kept.extend(studio.selected.get());
        kept
    });
    let far = Memo::new(move |_| studio.viewport.with(|v| v.scale < FAR_SCALE));
    let window = Memo::new(move |_| {
        let (width, height) = size.get();
        let size = if width > 0.0 {
            (width, height)
        } else {
            // Not measured yet: assume a large screen rather than draw nothing.
            (2560.0, 1440.0)
        };
        drawn_window(studio.viewport.get(), size)
    });
    let shown = Memo::new(move |_| {
        // Read once: a signal read per node would cost more than the drawing.
        let kept = kept.get();
        let sideways = sides.get();
        let keep = |id: &str| kept.iter().any(|k| k == id);
        // Far out the canvas paints the rest: the SVG holds only the kept nodes and their wires,
        // wherever the view is; the window is not even read, so a pan or a zoom there does not
        // run this memo (it walks every node).
        let window = (!far.get()).then(|| window.get());
        let in_window = |rect: Rect| window.is_some_and(|w| rect.intersects(&w));
        studio.graph.with(|graph| {
            let Some(graph) = graph else {
                return (Vec::new(), Vec::new());
            };
            let nodes: Vec<DrawnNode> = graph
                .nodes
                .iter()
                .filter(|n| in_window(Rect::node(n.x, n.y)) || keep(&n.id))
                .map(|n| DrawnNode::of(n, sideways))
                .collect();
            let by_id: FxHashMap<&str, &GraphNode> =
                graph.nodes.iter().map(|n| (n.id.as_str(), n)).collect();
            let mut wires: Vec<DrawnWire> = graph
                .edges
                .iter()
                .filter_map(|e| {
                    let kept = keep(&e.source) || keep(&e.target);
                    // Far out, most wires stop here, before their ends are worked out.
                    if window.is_none() && !kept {
                        return None;
                    }
                    let source = by_id.get(e.source.as_str())?;
                    let target = by_id.get(e.target.as_str())?;
                    let (from, to) = wire_ends(e, source, target, sideways);
                    let visible = kept || in_window(Rect::wire(from, to));
                    visible.then(|| DrawnWire::of(e, from, to, sideways))
                })
                .collect();
            assign_lanes(&mut wires);
            (unique_keys(nodes, node_key), unique_keys(wires, wire_key))
        })
    });

    let problems = Memo::new(move |_| {
        studio.graph.with(|g| {
            g.as_ref().map_or_else(FxHashMap::default, |g| {
                studio
                    .diagnostics
                    .with(|d| crate::problems::problems_by_node(g, d))
            })
        })
    });

    // Each list on its own, so a change to one does not make the other's list re-diff.
    let nodes = Memo::new(move |_| shown.with(|(nodes, _)| nodes.clone()));
    let wires = Memo::new(move |_| shown.with(|(_, wires)| wires.clone()));

    let to_canvas = move |client: (f64, f64)| {
        let rect = svg_ref
            .get_untracked()
            .map(|svg| svg.get_bounding_client_rect());
        let (left, top) = rect.map_or((0.0, 0.0), |r| (r.left(), r.top()));
        (client.0 - left, client.1 - top)
    };
    let to_graph = move |client: (f64, f64)| {
        let (x, y) = to_canvas(client);
        let view = studio.viewport.get_untracked();
        ((x - view.x) / view.scale, (y - view.y) / view.scale)
    };
    // Two touch points in canvas pixels, while at least two fingers are down.
    let touch_pair = move || {
        let points: Vec<(f64, f64)> = touches.with_value(|t| t.values().copied().collect());
        match points[..] {
            [a, b, ..] => Some((to_canvas(a), to_canvas(b))),
            _ => None,
        }
    };

    // Fit the graph into view when asked (first load, examples, the Fit button).
    Effect::new(move |_| {
        studio.fit_request.track();
        if svg_ref.get().is_none() {
            return;
        }
        measure();
        let (width, height) = size.get_untracked();
        if let Some(view) = studio
            .graph
            .with_untracked(|g| g.as_ref().and_then(|g| fit(g, width, height)))
        {
            studio.viewport.set(view);
        }
    });
    // Bring a node into view when asked (a problem clicked in the list), keeping the zoom.
    Effect::new(move |_| {
        let Some(id) = studio.reveal_request.get() else {
            return;
        };
        let place = studio
            .graph
            .with_untracked(|g| g.as_ref().and_then(|g| g.node(&id)).map(|n| (n.x, n.y)));
        let (width, height) = size.get_untracked();
        if let Some((x, y)) = place {
            studio.viewport.update(|view| {
                let scale = view.scale.max(FAR_SCALE);
                view.scale = scale;
                view.x = width / 2.0 - (x + NODE_WIDTH / 2.0) * scale;
                view.y = height / 2.0 - (y + NODE_HEIGHT / 2.0) * scale;
            });
        }
    });

    // Far out, nodes are pixels of the far canvas, not elements: a press finds its node by place.
    let painted_node_at = move |point: (f64, f64)| {
        if !far.get_untracked() {
            return None;
        }
        studio.graph.with_untracked(|g| {
            g.as_ref()
                .and_then(|g| target::node_under(g, point, 0.0))
                .map(|n| n.id.clone())
        })
    };

    let on_pointer_down = move |ev: web_sys::PointerEvent| {
        let client = (f64::from(ev.client_x()), f64::from(ev.client_y()));
        if ev.pointer_type() == "touch" {
            touches.update_value(|t| {
                t.insert(ev.pointer_id(), client);
            });
            if let Some((a, b)) = touch_pair() {
                gesture.set(Some(Gesture::Pinch {
                    distance: distance(a, b),
                    midpoint: midpoint(a, b),
                    origin: studio.viewport.get_untracked(),
                }));
                return;
            }
        }
        if ev.button() != 0 {
            return;
        }
        refusal.set(None);
        let target = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok());
        let port = target
            .as_ref()
            .and_then(|t| t.get_attribute("data-port"))
            .filter(|p| p.ends_with(":out"));
        let node = target
            .as_ref()
            .and_then(|t| t.closest("[data-node-id]").ok().flatten())
            .and_then(|n| n.get_attribute("data-node-id"))
            .or_else(|| painted_node_at(to_graph(client)));
        let wire = target
            .as_ref()
            .and_then(|t| t.closest("[data-edge-from]").ok().flatten())
            .and_then(|w| {
                Some((
                    w.get_attribute("data-edge-from")?,
                    w.get_attribute("data-edge-to")?,
                ))
            });
        if let Some(next) = reattach::grab(studio, target.as_ref(), to_graph(client), sides) {
            if let Some(svg) = svg_ref.get_untracked() {
                let _ = svg.set_pointer_capture(ev.pointer_id());
            }
            gesture.set(Some(next));
            return;
        }
        studio.selected_wire.set(None);
        let next = if let Some(port) = port {
            let (from, port) = split_port(&port);
            let start = to_graph(client);
            Gesture::Wire {
                from,
                port,
                start,
                end: start,
            }
        } else if let Some(id) = node {
            studio.field_error.set(None);
            if ev.shift_key() || ev.ctrl_key() || ev.meta_key() {
                crate::select::toggle(studio, &id);
                return;
            }
            let mut group = crate::select::ids(studio);
            if !group.contains(&id) {
                crate::select::select_many(studio, vec![id.clone()]);
                group.clear();
            }
            studio.selected.set(Some(id.clone()));
            group.retain(|g| *g != id);
            Gesture::Node {
                id,
                group,
                start: client,
                dx: 0.0,
                dy: 0.0,
            }
        } else if let Some(ends) = wire {
            studio.selected.set(None);
            studio.selected_wire.set(Some(ends));
            return;
        } else if ev.shift_key() {
            let start = to_canvas(client);
            Gesture::Box { start, end: start }
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
        if ev.pointer_type() == "touch" {
            touches.update_value(|t| {
                if let Some(point) = t.get_mut(&ev.pointer_id()) {
                    *point = client;
                }
            });
        }
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
            Gesture::Pinch {
                distance: start_distance,
                midpoint: start_midpoint,
                origin,
            } => {
                if let Some((a, b)) = touch_pair() {
                    studio.viewport.set(pinch(
                        origin,
                        start_distance,
                        start_midpoint,
                        distance(a, b),
                        midpoint(a, b),
                    ));
                }
            }
            Gesture::Box { start, .. } => gesture.set(Some(Gesture::Box {
                start,
                end: to_canvas(client),
            })),
            Gesture::Node {
                id, group, start, ..
            } => gesture.set(Some(Gesture::Node {
                id,
                group,
                start,
                dx: (client.0 - start.0) / scale,
                dy: (client.1 - start.1) / scale,
            })),
            Gesture::Wire {
                from, port, start, ..
            } => gesture.set(Some(Gesture::Wire {
                from,
                port,
                start,
                end: to_graph(client),
            })),
            Gesture::Reattach {
                ends,
                moving,
                fixed,
                ..
            } => gesture.set(Some(Gesture::Reattach {
                ends,
                moving,
                fixed,
                end: to_graph(client),
            })),
        }
    };

    // A wire's end let go: `act` gets the node (and input port) under the pointer; a refusal is
    // said next to the pointer, prefixed with what did not happen.
    let drop_wire_end =
        move |ev: &web_sys::PointerEvent,
              prefix: &str,
              act: &dyn Fn(Option<(String, String)>) -> Result<(), String>| {
            let client = (f64::from(ev.client_x()), f64::from(ev.client_y()));
            let point = to_graph(client);
            let on = studio.graph.with_untracked(|g| {
                g.as_ref()
                    .and_then(|g| target::drop_target(g, point, sides.get_untracked()))
            });
            if let Err(reason) = act(on) {
                let reason = format!("{prefix}: {reason}");
                studio.notify(Severity::Error, reason.clone());
                refusal.set(Some((to_canvas(client), reason)));
            }
        };

    let on_pointer_up = move |ev: web_sys::PointerEvent| {
        touches.update_value(|t| {
            t.remove(&ev.pointer_id());
        });
        let Some(finished) = gesture.get_untracked() else {
            return;
        };
        gesture.set(None);
        match finished {
            Gesture::Box { start, end } => {
                let view = studio.viewport.get_untracked();
                let graph_point =
                    |(x, y): (f64, f64)| ((x - view.x) / view.scale, (y - view.y) / view.scale);
                let hits = studio.graph.with_untracked(|g| {
                    g.as_ref().map_or_else(Vec::new, |g| {
                        crate::select::in_box(g, graph_point(start), graph_point(end))
                    })
                });
                crate::select::select_many(studio, hits);
            }
            Gesture::Node {
                id, group, dx, dy, ..
            } if dx.abs() + dy.abs() > 2.0 && !group.is_empty() => {
                let at = studio
                    .graph
                    .with_untracked(|g| g.as_ref().and_then(|g| g.node(&id)).map(|n| (n.x, n.y)));
                let (dx, dy) = at.map_or((dx, dy), |at| {
                    crate::snap::snapped_move(at, (dx, dy), ev.alt_key())
                });
                let mut moving = group;
                moving.push(id);
                if let Err(message) = crate::select::move_nodes(studio, &moving, dx, dy) {
                    studio.notify(Severity::Error, message);
                }
            }
            // Not dragged (the arm above): a click on a node of the group selects it alone.
            Gesture::Node { id, group, .. } if !group.is_empty() => {
                crate::select::select_many(studio, vec![id]);
            }
            Gesture::Node { id, dx, dy, .. } if dx.abs() + dy.abs() > 2.0 => {
                let moved = studio.graph.with_untracked(|g| {
                    g.as_ref().and_then(|g| g.node(&id)).map(|n| {
                        let (dx, dy) =
                            crate::snap::snapped_move((n.x, n.y), (dx, dy), ev.alt_key());
                        (n.name.clone(), (n.x + dx).round(), (n.y + dy).round())
                    })
                });
                if let Some((node, x, y)) = moved {
                    if let Err(message) = studio.apply(&Edit::SetPosition { node, x, y }) {
                        studio.notify(Severity::Error, message);
                    }
                }
            }
            Gesture::Wire { from, port, .. } => {
                drop_wire_end(&ev, "Not connected", &|on| match on {
                    Some((node, input)) => connect(studio, &from, &port, &node, &input),
                    None => Err("drop the wire on a node to connect it".to_owned()),
                })
            }
            Gesture::Reattach { ends, moving, .. } => {
                drop_wire_end(&ev, "Not moved", &|on| match on {
                    Some((node, _)) => reattach::reattach(studio, &ends, moving, &node),
                    None => Err("drop the wire's end on a node to move it there".to_owned()),
                })
            }
            _ => {}
        }
    };

    let on_wheel = move |ev: web_sys::WheelEvent| {
        ev.prevent_default();
        let pointer = to_canvas((f64::from(ev.client_x()), f64::from(ev.client_y())));
        // Line and page deltas (some mice) count as pixels of a 16 px line.
        let unit = if ev.delta_mode() == 0 { 1.0 } else { 16.0 };
        let intent = wheel_intent(
            ev.delta_x() * unit,
            ev.delta_y() * unit,
            ev.ctrl_key() || ev.meta_key(),
            ev.shift_key(),
        );
        studio.viewport.update(|view| {
            *view = match intent {
                WheelIntent::Zoom(factor) => zoom_at(*view, pointer, view.scale * factor),
                WheelIntent::Pan(dx, dy) => Viewport {
                    x: view.x - dx,
                    y: view.y - dy,
                    ..*view
                },
            };
        });
    };

    let offset_of = move |id: &str| {
        gesture.with(|g| match g {
            Some(Gesture::Node {
                id: moving,
                group,
                dx,
                dy,
                ..
            }) if moving == id || group.iter().any(|g| g == id) => (*dx, *dy),
            _ => (0.0, 0.0),
        })
    };

    let timing = move |pick: fn(&Timings) -> f64| {
        move || format!("{:.2}", studio.analysis.with(|a| pick(&a.timings)))
    };

    view! {
        <svg
            class="canvas"
            class:far=far
            style=move || studio.viewport.with(canvas_style)
            role="application"
            tabindex="0"
            on:keydown=move |ev: web_sys::KeyboardEvent| keys::on_canvas_key(studio, connecting, &ev)
            class:connecting=move || connecting.with(Option::is_some)
            aria-label="Workflow canvas: Tab to the nodes, arrows move between them, Enter edits, F2 renames, C connects, Delete removes"
            aria-roledescription="graph editor"
            node_ref=svg_ref
            data-testid="canvas"
            data-nodes=move || studio.graph.with(|g| g.as_ref().map_or(0, |g| g.nodes.len()))
            data-edges=move || studio.graph.with(|g| g.as_ref().map_or(0, |g| g.edges.len()))
            data-drawn-nodes=move || nodes.with(Vec::len)
            data-parse-ms=timing(|t| t.parse)
            data-graph-ms=timing(|t| t.graph)
            data-layout-ms=timing(|t| t.layout)
            data-check-ms=move || format!("{:.2}", studio.check_ms.get())
            on:pointerdown=on_pointer_down
            on:pointermove=on_pointer_move
            on:pointerup=on_pointer_up
            on:pointercancel=on_pointer_up
            on:wheel=on_wheel
            on:contextmenu=move |ev: web_sys::MouseEvent| {
                let client = (f64::from(ev.client_x()), f64::from(ev.client_y()));
                crate::menu::open_at(studio, menu, &ev, client, to_graph(client));
            }
            // The pointer is captured by the canvas during a press, so the event's target is the
            // canvas itself: the node double-clicked is the one the first press selected.
            on:dblclick=move |_| {
                if let Some(id) = studio.selected.get_untracked() {
                    studio.renaming.set(Some(id));
                }
            }
        >
            <defs>
                // In each node's own coordinates: names drawn large when zoomed out stay inside.
                <clipPath id="node-clip" clipPathUnits="userSpaceOnUse">
                    <rect x="0" y="-40" width=NODE_WIDTH - 8.0 height="120"></rect>
                </clipPath>
                <marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
                    <path d="M 0 0 L 10 5 L 0 10 z" class="arrowhead"></path>
                </marker>
            </defs>
            <g class="viewport" transform=move || {
                let v = studio.viewport.get();
                format!("translate({:.2},{:.2}) scale({:.4})", v.x, v.y, v.scale)
            }>
                <g class="wires" role="listbox" aria-label="Wires">
                    <For
                        each=move || wires.get()
                        key=|(key, _)| key.clone()
                        children=move |(_, wire)| wire_view(wire, studio, offset_of)
                    />
                </g>
                <g class="nodes" role="listbox" aria-label="Nodes">
                    <For
                        each=move || nodes.get()
                        key=|(key, _)| key.clone()
                        children=move |(_, node)| node_view(node, studio, problems, offset_of)
                    />
                </g>
                {reattach::handles(studio, sides)}
                {move || gesture.with(|g| match g {
                    Some(Gesture::Wire { start, end, .. }) => Some(view! {
                        <path class="wire wire-pending" d=pending_path(*start, *end)></path>
                    }),
                    Some(Gesture::Reattach { fixed, end, moving, .. }) => {
                        let (from, to) = match moving {
                            WireEnd::Source => (*end, *fixed),
                            WireEnd::Target => (*fixed, *end),
                        };
                        Some(view! { <path class="wire wire-pending" d=pending_path(from, to)></path> })
                    }
                    _ => None,
                })}
            </g>
            {move || gesture.with(|g| match g {
                Some(Gesture::Box { start, end }) => Some(view! {
                    <rect class="selection-box" data-testid="selection-box"
                        x=start.0.min(end.0) y=start.1.min(end.1)
                        width=(start.0 - end.0).abs() height=(start.1 - end.1).abs()></rect>
                }),
                _ => None,
            })}
        </svg>
        // Right after the SVG: everything else on the canvas pane lies over its picture.
        <far::FarCanvas size=size far=far kept=kept problems=problems sides=sides />
        <rename::RenameField />
        <zoom::ZoomControls size=size />
        <crate::menu::ContextMenu menu=menu connecting=connecting />
        <crate::minimap::Minimap size=size />
        {move || refusal.get().map(|((x, y), reason)| view! {
            <div class="refusal" role="alert" data-testid="refusal"
                style=format!("left: {:.0}px; top: {:.0}px", x + 14.0, y + 10.0)>{reason}</div>
        })}
    }
}

/// `node-id:port:in` → (node id, port); node ids contain `:` themselves.
/// The canvas element's inline style: the zoom (read by the node and wire styles) and where the
/// grid's dots are.
fn canvas_style(view: &Viewport) -> String {
    format!(
        "--zoom: {:.4}; {}",
        view.scale,
        crate::snap::dots_style(view.scale, view.x, view.y)
    )
}

fn split_port(data: &str) -> (String, String) {
    let mut parts = data.rsplitn(3, ':');
    let _direction = parts.next();
    let port = parts.next().unwrap_or_default().to_owned();
    let node = parts.next().unwrap_or_default().to_owned();
    (node, port)
}

/// Asks core to connect the wire's ends; a refusal is core's reason.
fn connect(
    studio: Studio,
    from: &str,
    from_port: &str,
    to: &str,
    to_port: &str,
) -> Result<(), String> {
    let graph: Option<Arc<Graph>> = studio.graph.get_untracked();
    let edit = graph
        .as_deref()
        .ok_or_else(|| "the document has no graph yet".to_owned())
        .and_then(|graph| {
            connection(
                graph,
                End {
                    node: from,
                    port: from_port,
                },
                End {
                    node: to,
                    port: to_port,
                },
            )
        })?;
    studio.apply(&edit)?;
    studio.notice.set(None);
    Ok(())
}

/// Runs the core layout again, dropping the positions the user pinned.
pub fn auto_layout(studio: Studio) {
    let pinned = studio.analysis.with_untracked(|a| match &a.parsed {
        Some(Parsed(CoreParsed::Logic(document))) => document.json().pointer(POSITIONS).is_some(),
        Some(Parsed(CoreParsed::Drtl(topology))) => topology.json().pointer(POSITIONS).is_some(),
        None => false,
    });
    if pinned {
        let edit = Edit::Remove {
            path: POSITIONS.to_owned(),
        };
        if let Err(message) = studio.apply(&edit) {
            studio.notify(Severity::Error, message);
        }
    }
    studio.layout_epoch.update(|n| *n += 1);
    studio.fit_request.update(|n| *n += 1);
}

/// Whether ports sit on the nodes' sides: the layout direction chosen next to Auto-layout is
/// left-right (the room's choice; top-down where there is no room, as in unit tests).
#[derive(Clone, Copy)]
pub struct Sides(Option<RwSignal<logicmd::graph::Direction>>);

impl Sides {
    pub fn of_room() -> Sides {
        Sides(use_context::<crate::room::Room>().map(|room| room.direction))
    }

    /// Tracked: what is drawn follows the choice.
    pub fn get(self) -> bool {
        self.0
            .is_some_and(|d| d.get() == logicmd::graph::Direction::LeftRight)
    }

    pub fn get_untracked(self) -> bool {
        self.0
            .is_some_and(|d| d.get_untracked() == logicmd::graph::Direction::LeftRight)
    }
}
