//! The far level of detail (zoom below [`super::FAR_SCALE`]) on one `<canvas>`: every node in view
//! as a box with its kind's stripe and its outline (selected, invalid, run state), wires as straight
//! lines, names while they are big enough to read. Thousands of SVG groups cost the browser's paint
//! and raster tens of milliseconds a frame; one bitmap redrawn once per animation frame does not.
//! The SVG keeps, at this zoom, only what it must: the selected node (focusable, for keyboard and
//! screen-reader users) and a node being dragged, with their wires; the canvas leaves them out.
//! The canvas lies over the SVG and lets the pointer through: clicks are found geometrically.

mod cache;
pub mod lazy;
mod paint;
mod palette;
mod scene;

use leptos::html;
use leptos::prelude::*;
use rustc_hash::{FxHashMap, FxHashSet};
use send_wrapper::SendWrapper;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, Element};

use super::cull::Rect;
use super::Sides;
use crate::problems::NodeProblems;
use crate::state::Studio;
use crate::state::Viewport;
use cache::{drawn_bounds, margin, visible, Picture};
use leptos::leptos_dom::helpers::TimeoutHandle;
use palette::{Palette, Probe};
use scene::{scene, Marks};

/// Milliseconds without a pan or zoom after which the gesture counts as settled and the picture
/// is painted afresh at the view (crisp names and lines at rest).
const SETTLE_MS: u64 = 120;

#[component]
pub fn FarCanvas(
    size: RwSignal<(f64, f64)>,
    far: Memo<bool>,
    /// Nodes the SVG draws (the selection, a drag in progress).
    kept: Memo<Vec<String>>,
    problems: Memo<FxHashMap<String, NodeProblems>>,
    sides: Sides,
) -> impl IntoView {
    let studio = expect_context::<Studio>();
    let runs = crate::run::canvas::run_states();
    let canvas_ref = NodeRef::<html::Canvas>::new();
    let group_ref = NodeRef::<leptos::svg::G>::new();
    let path_ref = NodeRef::<leptos::svg::Path>::new();
    let palette = StoredValue::new(Palette::default());
    let theme = RwSignal::new(0u32);
    watch_theme(palette, theme);

    // The graph's extent, for knowing whether a displaced picture still holds all that is shown.
    let extent = Memo::new(move |_| studio.graph.with(|g| g.as_deref().and_then(node_bounds)));
    // The picture on the canvas (None: nothing painted yet), and whether what it shows changed.
    let picture = StoredValue::new(None::<Picture>);
    let stale = StoredValue::new(true);

    let paint = move |view: Viewport| {
        let (Some(canvas), Some(group), Some(path)) = (
            canvas_ref.get_untracked(),
            group_ref.get_untracked(),
            path_ref.get_untracked(),
        ) else {
            return;
        };
        let probe = Probe {
            group: group.unchecked_into::<Element>(),
            path: path.unchecked_into::<Element>(),
        };
        let ratio = web_sys::window().map_or(1.0, |w| w.device_pixel_ratio());
        let size = size.get_untracked();
        let margin = margin(size);
        let (width, height) = (size.0 + 2.0 * margin, size.1 + 2.0 * margin);
        let (pixels_x, pixels_y) = ((width * ratio).round(), (height * ratio).round());
        // Setting the size clears the bitmap, so only when it changed.
        if f64::from(canvas.width()) != pixels_x || f64::from(canvas.height()) != pixels_y {
            canvas.set_width(pixels_x as u32);
            canvas.set_height(pixels_y as u32);
            let style = web_sys::HtmlElement::style(&canvas);
            let _ = style.set_property("left", &format!("{}px", -margin));
            let _ = style.set_property("top", &format!("{}px", -margin));
            let _ = style.set_property("width", &format!("{width}px"));
            let _ = style.set_property("height", &format!("{height}px"));
        }
        let _ = web_sys::HtmlElement::style(&canvas).set_property("transform", "none");
        let Some(ctx) = canvas
            .get_context("2d")
            .ok()
            .flatten()
            .and_then(|c| c.dyn_into::<CanvasRenderingContext2d>().ok())
        else {
            return;
        };
        let _ = ctx.set_transform(1.0, 0.0, 0.0, 1.0, 0.0, 0.0);
        ctx.clear_rect(0.0, 0.0, pixels_x, pixels_y);
        let zoom = ratio * view.scale;
        let _ = ctx.set_transform(
            zoom,
            0.0,
            0.0,
            zoom,
            ratio * (view.x + margin),
            ratio * (view.y + margin),
        );
        let painted = Picture { view, size, margin };
        let covers = painted.covers();
        let shown = visible(view, size);
        let kept: FxHashSet<String> = kept.with_untracked(|k| k.iter().cloned().collect());
        let selected: FxHashSet<String> = crate::select::ids(studio).into_iter().collect();
        let runs = untrack(runs);
        palette.update_value(|palette| {
            if !palette.is_read() {
                *palette = Palette::read(&probe);
            }
            problems.with_untracked(|problems| {
                studio.graph.with_untracked(|graph| {
                    let Some(graph) = graph else {
                        return;
                    };
                    let marks = Marks {
                        kept: &kept,
                        selected: &selected,
                        problems,
                        runs: &runs,
                        sideways: sides.get_untracked(),
                    };
                    let scene = scene(graph, &covers, &marks);
                    let names = paint::paint(&ctx, &scene, palette, &probe, view.scale);
                    // What the tests read: the nodes (and names) painted in view, whatever the
                    // pixels; the margin's nodes are painted but not on screen.
                    let in_view = scene
                        .nodes
                        .iter()
                        .filter(|n| Rect::node(n.node.x, n.node.y).intersects(&shown))
                        .count();
                    let names = if names > 0 { in_view } else { 0 };
                    let _ = canvas.set_attribute("data-painted-nodes", &in_view.to_string());
                    let _ = canvas.set_attribute("data-painted-names", &names.to_string());
                    // The view the picture was painted at, as the SVG's viewport writes it: at
                    // rest it is the view (never a displaced picture).
                    let at = format!(
                        "translate({:.2},{:.2}) scale({:.4})",
                        view.x, view.y, view.scale
                    );
                    let _ = canvas.set_attribute("data-painted-at", &at);
                })
            })
        });
        picture.set_value(Some(painted));
        stale.set_value(false);
    };

    // One frame's work: paint afresh if what the picture shows changed or the displaced picture
    // would not show the view truly; otherwise move the picture (a CSS transform, no repaint).
    let frame = move || {
        let Some(canvas) = canvas_ref.get_untracked() else {
            return;
        };
        if !far.get_untracked() {
            return;
        }
        let view = studio.viewport.get_untracked();
        let size = size.get_untracked();
        let drawn = drawn_bounds(extent.get_untracked(), view.scale);
        match picture.get_value() {
            Some(shown) if !stale.get_value() && shown.serves(view, size, drawn) => {
                let (x, y, k) = shown.placement(view);
                let moved = format!("translate({x:.2}px, {y:.2}px) scale({k:.5})");
                let _ = web_sys::HtmlElement::style(&canvas).set_property("transform", &moved);
            }
            _ => paint(view),
        }
    };

    // Any number of changes in one frame (a pan's pointer events, an edit's signals) are dealt
    // with once, in the next animation frame.
    let pending = StoredValue::new(false);
    let schedule = move || {
        if pending.get_value() {
            return;
        }
        pending.set_value(true);
        request_animation_frame(move || {
            pending.set_value(false);
            frame();
        });
    };

    // The nodes painted selected, compared: a press on the background sets the selection to none
    // even when nothing was selected, and that must not repaint at the start of every pan.
    let selection = Memo::new(move |_| studio.selection.with(|s| s.ids().to_vec()));
    // What the picture shows: any change paints it again.
    Effect::new(move |_| {
        if !far.get() {
            return;
        }
        studio.graph.track();
        selection.track();
        kept.track();
        problems.track();
        size.track();
        theme.track();
        sides.get();
        runs();
        stale.set_value(true);
        schedule();
    });
    // Where it is seen from: a move reuses the picture, and once the moves stop for
    // `SETTLE_MS` the picture is painted afresh at the view.
    let settle = StoredValue::new(None::<TimeoutHandle>);
    Effect::new(move |_| {
        if !far.get() {
            return;
        }
        studio.viewport.track();
        schedule();
        if let Some(handle) = settle.get_value() {
            handle.clear();
        }
        let handle = set_timeout_with_handle(
            move || {
                let at_rest = picture
                    .get_value()
                    .is_some_and(|p| p.view == studio.viewport.get_untracked());
                if !at_rest {
                    stale.set_value(true);
                    schedule();
                }
            },
            std::time::Duration::from_millis(SETTLE_MS),
        )
        .ok();
        settle.set_value(handle);
    });

    let label = move || {
        let count = studio
            .graph
            .with(|g| g.as_ref().map_or(0, |g| g.nodes.len()));
        format!("Overview of the {count} nodes, drawn small: zoom in to read them; the arrows still move between nodes")
    };
    view! {
        // The bitmap reaches `margin` beyond the pane on every side; the frame clips it there.
        <div class="far-frame">
            <canvas class="far-canvas" class:shown=far node_ref=canvas_ref role="img" aria-label=label
                data-testid="far-canvas"></canvas>
        </div>
        <svg class="far-probe" aria-hidden="true" width="0" height="0">
            <g node_ref=group_ref><path node_ref=path_ref></path></g>
        </svg>
    }
}

/// Forgets the colours when the system theme changes (the studio follows `prefers-color-scheme`),
/// and asks for a repaint.
fn watch_theme(palette: StoredValue<Palette>, theme: RwSignal<u32>) {
    let Some(query) = web_sys::window()
        .and_then(|w| w.match_media("(prefers-color-scheme: dark)").ok())
        .flatten()
    else {
        return;
    };
    let changed = Closure::<dyn Fn()>::new(move || {
        palette.set_value(Palette::default());
        theme.update(|n| *n += 1);
    });
    let _ = query.add_event_listener_with_callback("change", changed.as_ref().unchecked_ref());
    let listener = SendWrapper::new((query, changed));
    on_cleanup(move || {
        let (query, changed) = listener.take();
        let _ =
            query.remove_event_listener_with_callback("change", changed.as_ref().unchecked_ref());
    });
}

/// The box holding every node's box, in graph coordinates (`None` for a graph without nodes).
fn node_bounds(graph: &logicmd::graph::Graph) -> Option<Rect> {
    graph
        .nodes
        .iter()
        .map(|n| Rect::node(n.x, n.y))
        .reduce(|a, b| Rect {
            left: a.left.min(b.left),
            top: a.top.min(b.top),
            right: a.right.max(b.right),
            bottom: a.bottom.max(b.bottom),
        })
}
