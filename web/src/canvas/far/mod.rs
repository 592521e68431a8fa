//! The far level of detail (zoom below [`super::FAR_SCALE`]) on one `<canvas>`: every node in view
//! as a box with its kind's stripe and its outline (selected, invalid, run state), wires as straight
//! lines, names while they are big enough to read. Thousands of SVG groups cost the browser's paint
//! and raster tens of milliseconds a frame; one bitmap redrawn once per animation frame does not.
//! The SVG keeps, at this zoom, only what it must: the selected node (focusable, for keyboard and
//! screen-reader users) and a node being dragged, with their wires; the canvas leaves them out.
//! The canvas lies over the SVG and lets the pointer through: clicks are found geometrically.

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
use palette::{Palette, Probe};
use scene::{scene, Marks};

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

    let paint = move || {
        let (Some(canvas), Some(group), Some(path)) = (
            canvas_ref.get_untracked(),
            group_ref.get_untracked(),
            path_ref.get_untracked(),
        ) else {
            return;
        };
        if !far.get_untracked() {
            return;
        }
        let probe = Probe {
            group: group.unchecked_into::<Element>(),
            path: path.unchecked_into::<Element>(),
        };
        let ratio = web_sys::window().map_or(1.0, |w| w.device_pixel_ratio());
        let (width, height) = size.get_untracked();
        let (pixels_x, pixels_y) = ((width * ratio).round(), (height * ratio).round());
        // Setting the size clears the bitmap, so only when it changed.
        if f64::from(canvas.width()) != pixels_x || f64::from(canvas.height()) != pixels_y {
            canvas.set_width(pixels_x as u32);
            canvas.set_height(pixels_y as u32);
        }
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
        let view = studio.viewport.get_untracked();
        let zoom = ratio * view.scale;
        let _ = ctx.set_transform(zoom, 0.0, 0.0, zoom, ratio * view.x, ratio * view.y);
        let (left, top, right, bottom) = crate::minimap::in_view(view, (width, height));
        let visible = Rect {
            left,
            top,
            right,
            bottom,
        };
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
                    let scene = scene(graph, &visible, &marks);
                    let names = paint::paint(&ctx, &scene, palette, &probe, view.scale);
                    // What the tests read: the nodes and names on the picture, whatever its pixels.
                    let painted = scene.nodes.len().to_string();
                    let _ = canvas.set_attribute("data-painted-nodes", &painted);
                    let _ = canvas.set_attribute("data-painted-names", &names.to_string());
                })
            })
        });
    };

    // Whatever the picture depends on schedules one paint for the next frame: many changes in
    // one frame (a pan's pointer events, an edit's signals) paint once.
    let pending = StoredValue::new(false);
    Effect::new(move |_| {
        if !far.get() {
            return;
        }
        studio.viewport.track();
        studio.graph.track();
        studio.selected.track();
        studio.group.track();
        kept.track();
        problems.track();
        size.track();
        theme.track();
        sides.get();
        runs();
        if pending.get_value() {
            return;
        }
        pending.set_value(true);
        request_animation_frame(move || {
            pending.set_value(false);
            paint();
        });
    });

    let label = move || {
        let count = studio
            .graph
            .with(|g| g.as_ref().map_or(0, |g| g.nodes.len()));
        format!("Overview of the {count} nodes, drawn small: zoom in to read them; the arrows still move between nodes")
    };
    view! {
        <canvas class="far-canvas" class:shown=far node_ref=canvas_ref role="img" aria-label=label
            data-testid="far-canvas"></canvas>
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
