//! The canvas: the nodes of the graph model with typed ports, wires per edge kind, pan (drag the
//! background), zoom around the pointer (wheel, trackpad pinch, two-finger pinch), node dragging,
//! wiring from an output port to an input port, selection. Only what is near the visible area is
//! in the DOM ([`cull`]), so large graphs stay fast; far out, the nodes are painted on one
//! `<canvas>` instead ([`far`]).

mod commands;
mod control;
mod cull;
mod draw;
mod far;
mod follow;
mod gesture;
mod keys;
mod pointer;
mod reattach;
mod rename;
mod target;
mod zoom;

use std::collections::HashMap;

use rustc_hash::FxHashMap;

use leptos::prelude::*;
use logicmd::edit::Edit;
use logicmd::graph::GraphNode;

use crate::analysis::{CoreParsed, Parsed, Timings};
use crate::geometry::pending_path;
use crate::state::{Severity, Studio, Viewport};
use cull::{drawn_window, Rect};
pub use draw::glyph;
use draw::{
    assign_lanes, node_key, node_view, route_around, unique_keys, wire_ends, wire_key, wire_view,
    DrawnNode, DrawnWire,
};
pub use gesture::MIN_SCALE;
use gesture::{Gesture, WireEnd};
use pointer::Pointer;

/// Below this zoom, labels are unreadable: they are not drawn, and the nodes are painted on the far
/// canvas rather than held as SVG (large graphs stay responsive).
const FAR_SCALE: f64 = 0.4;

/// Where the document keeps the positions the user gave nodes.
const POSITIONS: &str = "/metadata/logicmd/positions";

#[component]
pub fn Canvas() -> impl IntoView {
    let studio = expect_context::<Studio>();
    let sides = Sides::of_room();
    let svg_ref = NodeRef::<leptos::svg::Svg>::new();
    // The source of a connection being made from the keyboard.
    let connecting = RwSignal::new(None::<String>);
    // The context menu, when open (right-click, Shift+F10, the ContextMenu key).
    let menu = crate::menu::Menu::default();
    crate::select::watch(studio);
    let size = measured_size(svg_ref);
    let far = Memo::new(move |_| studio.viewport.with(|v| v.scale < FAR_SCALE));
    let pointer = Pointer {
        studio,
        gesture: RwSignal::new(None),
        svg: svg_ref,
        refusal: RwSignal::new(None),
        sides,
        far,
        touches: StoredValue::new(HashMap::new()),
    };
    let gesture = pointer.gesture;
    let refusal = pointer.refusal;
    let kept = kept_nodes(studio, gesture);
    let (nodes, wires) = drawn(studio, size, far, kept, sides);
    let problems = Memo::new(move |_| {
        studio.graph.with(|g| {
            g.as_ref().map_or_else(FxHashMap::default, |g| {
                // A node missing what a run needs carries a badge too.
                studio.diagnostics.with(|d| {
                    studio
                        .run_needs
                        .with(|n| crate::problems::problems_by_node(g, d.iter().chain(n)))
                })
            })
        })
    });
    follow::fit_when_asked(studio, svg_ref, size);
    follow::reveal_when_asked(studio, size, FAR_SCALE);
    follow::new_nodes_into_view(studio, size);
    follow::keep_in_view_on_resize(studio, size);

    let bounds = Memo::new(move |_| {
        studio
            .graph
            .with(|g| g.as_deref().and_then(crate::geometry::graph_bounds))
    });
    let offset_of = move |id: &str| pointer.offset_of(id);
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
            // The view and the graph's extent, for measuring what is in view.
            data-view=move || studio.viewport.with(|v| format!("{:.3} {:.3} {:.6}", v.x, v.y, v.scale))
            data-bounds=move || bounds.get().map(|(l, t, r, b)| format!("{l:.1} {t:.1} {r:.1} {b:.1}"))
            on:pointerdown=move |ev| pointer.down(ev)
            on:pointermove=move |ev| pointer.moved(ev)
            on:pointerup=move |ev| pointer.up(ev)
            on:pointercancel=move |ev| pointer.up(ev)
            on:wheel=move |ev| pointer.wheel(ev)
            on:contextmenu=move |ev: web_sys::MouseEvent| {
                let client = (f64::from(ev.client_x()), f64::from(ev.client_y()));
                crate::menu::open_at(studio, menu, &ev, client, pointer.to_graph(client));
            }
            // The pointer is captured by the canvas during a press, so the event's target is the
            // canvas itself: the node double-clicked is the one the first press selected.
            on:dblclick=move |_| {
                if let Some(id) = studio.selected_untracked() {
                    studio.renaming.set(Some(id));
                }
            }
        >
            <defs>
                // In each node's own coordinates: names drawn large when zoomed out stay inside.
                <clipPath id="node-clip" clipPathUnits="userSpaceOnUse">
                    <rect x="0" y="-40" width=crate::geometry::NODE_WIDTH - 8.0 height="120"></rect>
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
                {move || pending_wire(gesture)}
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
        <far::lazy::LazyFarCanvas inputs=far::lazy::Inputs { size, far, kept, problems, sides } />
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

/// The wire being drawn (from an output, or backwards from an input) or re-attached.
fn pending_wire(gesture: RwSignal<Option<Gesture>>) -> Option<impl IntoView> {
    gesture.with(|g| {
        let (from, to) = match g {
            Some(Gesture::Wire {
                start,
                end,
                backwards,
                ..
            }) if *backwards => (*end, *start),
            Some(Gesture::Wire { start, end, .. }) => (*start, *end),
            Some(Gesture::Reattach {
                fixed, end, moving, ..
            }) => match moving {
                WireEnd::Source => (*end, *fixed),
                WireEnd::Target => (*fixed, *end),
            },
            _ => return None,
        };
        Some(view! { <path class="wire wire-pending" d=pending_path(from, to)></path> })
    })
}

/// The canvas's size in pixels, kept current by a ResizeObserver (it changes with the window
/// and when panels are shown or hidden).
fn measured_size(svg_ref: NodeRef<leptos::svg::Svg>) -> RwSignal<(f64, f64)> {
    let size = RwSignal::new((0.0f64, 0.0f64));
    let measure = move || {
        if let Some(svg) = svg_ref.get_untracked() {
            let rect = svg.get_bounding_client_rect();
            size.set((rect.width(), rect.height()));
        }
    };
    let observer = StoredValue::new(None);
    Effect::new(move |_| {
        if let Some(svg) = svg_ref.get() {
            observer.set_value(crate::browser::observe_size(&svg, measure));
        }
    });
    size
}

/// Nodes held in the DOM whatever the window and the zoom: the selection (focusable, for the
/// keyboard and screen readers) and the nodes being dragged (they follow the pointer).
fn kept_nodes(studio: Studio, gesture: RwSignal<Option<Gesture>>) -> Memo<Vec<String>> {
    Memo::new(move |_| {
        let mut kept: Vec<String> = gesture.with(|g| match g {
            Some(Gesture::Node { id, group, .. }) => {
                group.iter().cloned().chain([id.clone()]).collect()
            }
            _ => Vec::new(),
        });
        kept.extend(studio.selected());
        kept
    })
}

/// The nodes and wires drawn as SVG: those near the visible window (or kept), each list a memo
/// of its own so a change to one does not make the other's list re-diff.
type Drawn = (
    Memo<Vec<(String, DrawnNode)>>,
    Memo<Vec<(String, DrawnWire)>>,
);

fn drawn(
    studio: Studio,
    size: RwSignal<(f64, f64)>,
    far: Memo<bool>,
    kept: Memo<Vec<String>>,
    sides: Sides,
) -> Drawn {
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
            route_around(&mut wires, &nodes);
            (unique_keys(nodes, node_key), unique_keys(wires, wire_key))
        })
    });
    (
        Memo::new(move |_| shown.with(|(nodes, _)| nodes.clone())),
        Memo::new(move |_| shown.with(|(_, wires)| wires.clone())),
    )
}

/// The canvas element's inline style: the zoom (read by the node and wire styles) and where the
/// grid's dots are.
fn canvas_style(view: &Viewport) -> String {
    format!(
        "--zoom: {:.4}; {}",
        view.scale,
        crate::snap::dots_style(view.scale, view.x, view.y)
    )
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
