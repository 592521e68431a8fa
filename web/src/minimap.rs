//! The minimap: every node as a small box and the part of the graph in view as a frame, in the
//! canvas's bottom-left corner. A click or a drag on it centres the view there. Hidden until
//! asked for, since it covers a corner Fit fills (the choice is remembered in the browser: one flag,
//! never the document's content). The nodes are
//! one `<path>`, so a graph of thousands of nodes costs one element.

use std::fmt::Write;

use leptos::prelude::*;
use logicmd::graph::Graph;
use wasm_bindgen::JsCast;

use crate::geometry::{NODE_HEIGHT, NODE_WIDTH};
use crate::state::{Studio, Viewport};

/// The minimap's longest side in pixels, its shortest side's limits, and the room kept around
/// what it shows.
pub const LONG: f64 = 200.0;
const SHORT_MIN: f64 = 90.0;
const PAD: f64 = 6.0;
/// At most this many views' extent is shown along each axis, around the view: a graph far longer
/// than the screen (a long chain laid out either way) shows its neighbourhood readably rather
/// than as a line of dots.
const REACH: f64 = 6.0;

/// A rectangle in graph coordinates: (left, top, right, bottom).
type Bounds = (f64, f64, f64, f64);

/// How graph coordinates map into the minimap.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Frame {
    pub left: f64,
    pub top: f64,
    pub scale: f64,
}

/// The minimap's size in pixels for `bounds`: its shape follows theirs (wide for a graph laid
/// out to the right, tall for one laid out downwards), within limits.
pub fn size_for(bounds: Bounds) -> (f64, f64) {
    let (width, height) = (
        (bounds.2 - bounds.0).max(1.0),
        (bounds.3 - bounds.1).max(1.0),
    );
    if width >= height {
        (LONG, (LONG * height / width).clamp(SHORT_MIN, LONG))
    } else {
        ((LONG * width / height).clamp(SHORT_MIN, LONG), LONG)
    }
}

/// What the minimap shows: the nodes (and the middle of the view, when it is away from them, so
/// the frame is there to drag back), cut to [`REACH`] views around the view along each axis.
/// Its shape is the graph's, not the screen's: a frame larger than the graph is drawn clipped.
pub fn shown_bounds(nodes: Bounds, view: Bounds) -> Bounds {
    let middle = ((view.0 + view.2) / 2.0, (view.1 + view.3) / 2.0);
    let all = union(nodes, (middle.0, middle.1, middle.0, middle.1));
    let cut = |low: f64, high: f64, view_low: f64, view_high: f64| {
        let reach = (view_high - view_low) * REACH;
        if high - low <= reach {
            return (low, high);
        }
        let centre = (view_low + view_high) / 2.0;
        let start = (centre - reach / 2.0).clamp(low, high - reach);
        (start, start + reach)
    };
    let (left, right) = cut(all.0, all.2, view.0, view.2);
    let (top, bottom) = cut(all.1, all.3, view.1, view.3);
    (left, top, right, bottom)
}

impl Frame {
    /// The frame showing all of `bounds`, centred, inside a minimap of `size` pixels.
    pub fn of(bounds: Bounds, size: (f64, f64)) -> Frame {
        let (width, height) = (
            (bounds.2 - bounds.0).max(1.0),
            (bounds.3 - bounds.1).max(1.0),
        );
        let scale = ((size.0 - 2.0 * PAD) / width).min((size.1 - 2.0 * PAD) / height);
        Frame {
            left: bounds.0 - (size.0 / scale - width) / 2.0,
            top: bounds.1 - (size.1 / scale - height) / 2.0,
            scale,
        }
    }

    /// The graph point under minimap point `p`.
    pub fn to_graph(self, p: (f64, f64)) -> (f64, f64) {
        (self.left + p.0 / self.scale, self.top + p.1 / self.scale)
    }
}

/// The part of the graph a canvas of `size` shows through `view`.
pub fn in_view(view: Viewport, size: (f64, f64)) -> Bounds {
    let (left, top) = (-view.x / view.scale, -view.y / view.scale);
    (
        left,
        top,
        left + size.0 / view.scale,
        top + size.1 / view.scale,
    )
}

fn union(a: Bounds, b: Bounds) -> Bounds {
    (a.0.min(b.0), a.1.min(b.1), a.2.max(b.2), a.3.max(b.3))
}

/// `view` moved (same zoom) so that graph point `at` is in the middle of a canvas of `size`.
pub fn centred(view: Viewport, size: (f64, f64), at: (f64, f64)) -> Viewport {
    Viewport {
        x: size.0 / 2.0 - at.0 * view.scale,
        y: size.1 / 2.0 - at.1 * view.scale,
        ..view
    }
}

/// The nodes' bounds and their boxes as one path, in graph coordinates.
fn outline_of(graph: &Graph) -> Option<(Bounds, String)> {
    let first = graph.nodes.first()?;
    let mut bounds = (first.x, first.y, first.x, first.y);
    let mut path = String::with_capacity(graph.nodes.len() * 32);
    for node in &graph.nodes {
        bounds = union(
            bounds,
            (node.x, node.y, node.x + NODE_WIDTH, node.y + NODE_HEIGHT),
        );
        let _ = write!(
            path,
            "M{:.0} {:.0}h{NODE_WIDTH}v{NODE_HEIGHT}h-{NODE_WIDTH}z",
            node.x, node.y
        );
    }
    Some((bounds, path))
}

#[component]
pub fn Minimap(size: RwSignal<(f64, f64)>) -> impl IntoView {
    let studio = expect_context::<Studio>();
    // Hidden until asked for: shown, it covers a corner of the canvas that Fit fills.
    let shown = expect_context::<crate::room::Room>().minimap;
    let outline = Memo::new(move |_| studio.graph.with(|g| g.as_deref().and_then(outline_of)));
    // The minimap's pixel size and its frame.
    let layout = Memo::new(move |_| {
        let nodes = outline.with(|o| o.as_ref().map(|(b, _)| *b))?;
        let shown = shown_bounds(nodes, in_view(studio.viewport.get(), size.get()));
        let pixels = size_for(shown);
        Some((pixels, Frame::of(shown, pixels)))
    });
    let frame = Memo::new(move |_| layout.get().map(|(_, f)| f));
    let pixels = move || layout.get().map_or((LONG, SHORT_MIN), |(p, _)| p);
    let pressed = StoredValue::new(false);
    let go = move |ev: &web_sys::PointerEvent| {
        let Some(frame) = frame.get_untracked() else {
            return;
        };
        let Some(svg) = ev
            .current_target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        else {
            return;
        };
        let rect = svg.get_bounding_client_rect();
        let point = (
            f64::from(ev.client_x()) - rect.left(),
            f64::from(ev.client_y()) - rect.top(),
        );
        let at = frame.to_graph(point);
        let canvas = size.get_untracked();
        studio
            .viewport
            .update(|view| *view = centred(*view, canvas, at));
    };
    let on_down = move |ev: web_sys::PointerEvent| {
        ev.stop_propagation();
        pressed.set_value(true);
        if let Some(target) = ev
            .current_target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        {
            let _ = target.set_pointer_capture(ev.pointer_id());
        }
        go(&ev);
    };
    let on_move = move |ev: web_sys::PointerEvent| {
        if pressed.get_value() {
            go(&ev);
        }
    };
    let on_up = move |_: web_sys::PointerEvent| pressed.set_value(false);
    let transform = move || {
        frame
            .get()
            .map(|f| {
                format!(
                    "scale({:.5}) translate({:.1},{:.1})",
                    f.scale, -f.left, -f.top
                )
            })
            .unwrap_or_default()
    };
    let view_box = move || {
        let (left, top, right, bottom) = in_view(studio.viewport.get(), size.get());
        (left, top, right - left, bottom - top)
    };
    view! {
        <button class="minimap-toggle" data-testid="toggle-minimap"
            style=move || shown.get().then(|| format!("bottom: {:.0}px", pixels().1 + 16.0))
            aria-pressed=move || shown.get().to_string() title="Show or hide the minimap"
            on:click=move |_| shown.update(|s| *s = !*s)>"Map"</button>
        <Show when=move || shown.get() && outline.with(Option::is_some)>
            <svg class="minimap" data-testid="minimap" role="img" width=move || pixels().0 height=move || pixels().1
                aria-label="Minimap of the graph: click or drag to move the view"
                on:pointerdown=on_down on:pointermove=on_move on:pointerup=on_up on:pointercancel=on_up>
                <g transform=transform>
                    <path class="minimap-nodes" d=move || outline.with(|o| o.as_ref().map(|(_, p)| p.clone()).unwrap_or_default())></path>
                    <rect class="minimap-view" data-testid="minimap-view"
                        x=move || view_box().0 y=move || view_box().1
                        width=move || view_box().2 height=move || view_box().3></rect>
                </g>
            </svg>
        </Show>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_point_of_the_minimap_centres_the_view_on_that_graph_point() {
        let bounds = (0.0, 0.0, 1000.0, 500.0);
        let size = size_for(bounds);
        assert_eq!(size, (LONG, 100.0));
        let frame = Frame::of(bounds, size);
        // The whole graph fits with the padding, centred.
        let expected = ((LONG - 2.0 * PAD) / 1000.0).min((100.0 - 2.0 * PAD) / 500.0);
        assert!((frame.scale - expected).abs() < 1e-9);
        let middle = frame.to_graph((size.0 / 2.0, size.1 / 2.0));
        assert!((middle.0 - 500.0).abs() < 1e-6 && (middle.1 - 250.0).abs() < 1e-6);
        let view = Viewport {
            x: 0.0,
            y: 0.0,
            scale: 0.5,
        };
        let moved = centred(view, (800.0, 600.0), (500.0, 250.0));
        let shown = in_view(moved, (800.0, 600.0));
        assert!(((shown.0 + shown.2) / 2.0 - 500.0).abs() < 1e-6);
        assert!(((shown.1 + shown.3) / 2.0 - 250.0).abs() < 1e-6);
        assert_eq!(moved.scale, 0.5);
    }

    /// Issue #31: a long chain, laid out down or to the right, shows its neighbourhood around
    /// the view in a minimap shaped like it, not a line of dots.
    #[test]
    fn a_long_graph_shows_the_part_around_the_view_in_either_direction() {
        let view = (0.0, 0.0, 800.0, 600.0);
        let right = (0.0, 0.0, 290.0 * 1000.0, 72.0);
        let shown = shown_bounds(right, view);
        assert_eq!(shown.2 - shown.0, 800.0 * REACH);
        assert_eq!(size_for(shown), (LONG, SHORT_MIN));
        // A chain laid out downwards is tall in the minimap even when the view is wider.
        let down = (0.0, 0.0, 220.0, 142.0 * 60.0);
        let whole = (-5000.0, -200.0, 5000.0, 9000.0);
        let (w, h) = size_for(shown_bounds(down, whole));
        assert!(h > w, "{w}×{h}");
        let down = (0.0, 0.0, 220.0, 142.0 * 1000.0);
        let shown = shown_bounds(down, (0.0, 50_000.0, 800.0, 50_600.0));
        assert_eq!(shown.3 - shown.1, 600.0 * REACH);
        assert!(shown.1 <= 50_000.0 && shown.3 >= 50_600.0);
        let (w, h) = size_for(shown);
        assert_eq!(h, LONG);
        assert!(w >= SHORT_MIN);
        // A node of the chain is at least a couple of pixels in the minimap.
        let frame = Frame::of(shown, (w, h));
        assert!(142.0 * frame.scale >= 3.0, "{}", frame.scale);
    }
}
