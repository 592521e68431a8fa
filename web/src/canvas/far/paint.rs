//! Painting a [`Scene`] on a 2D context already transformed to graph coordinates. Shapes of one
//! colour go in one path and one fill or stroke: a few dozen canvas calls per colour, not per node.

use std::hash::Hash;

use rustc_hash::FxHashMap;
use web_sys::CanvasRenderingContext2d;

use super::palette::{Palette, Probe};
use super::scene::{fitted_name, FarNode, Outline, Scene};
use crate::geometry::{NODE_HEIGHT, NODE_WIDTH};

/// Names smaller than this on screen (px) are not painted: unreadable, and thousands of them would
/// cost the frame.
const MIN_NAME_PX: f64 = 5.0;

/// Where the SVG puts a node's title (its glyph is hidden at far zoom), and the room it has.
const TITLE_AT: (f64, f64) = (40.0, 30.0);
const TITLE_ROOM: f64 = NODE_WIDTH - 8.0 - 40.0;

/// Paints `scene` at zoom `scale` (graph units per screen pixel: `1 / scale`); how many names were
/// written (none while they would be too small to read).
pub fn paint(
    ctx: &CanvasRenderingContext2d,
    scene: &Scene,
    palette: &mut Palette,
    probe: &Probe,
    scale: f64,
) -> usize {
    let px = 1.0 / scale;
    wires(ctx, scene, palette, probe, px);
    bodies(ctx, &scene.nodes, palette, px);
    stripes(ctx, &scene.nodes, palette, probe, px);
    outlines(ctx, &scene.nodes, palette, probe, px);
    badges(ctx, &scene.nodes, palette, px);
    names(ctx, &scene.nodes, palette, scale)
}

/// Groups items by what decides their colour (a kind, an outline), in first-seen order; items
/// without a key are left out. The colour is then looked up once per group, not per item.
fn grouped<T, K: Hash + Eq + Copy>(
    items: impl Iterator<Item = T>,
    key: impl Fn(&T) -> Option<K>,
) -> Vec<(K, Vec<T>)> {
    let mut order: Vec<(K, Vec<T>)> = Vec::new();
    let mut index: FxHashMap<K, usize> = FxHashMap::default();
    for item in items {
        let Some(key) = key(&item) else {
            continue;
        };
        let at = *index.entry(key).or_insert_with(|| {
            order.push((key, Vec::new()));
            order.len() - 1
        });
        order[at].1.push(item);
    }
    order
}

fn wires(
    ctx: &CanvasRenderingContext2d,
    scene: &Scene,
    palette: &mut Palette,
    probe: &Probe,
    px: f64,
) {
    let groups = grouped(scene.wires.iter(), |w| Some((w.compatible, w.kind)));
    ctx.set_line_width(1.6f64.max(px));
    for ((compatible, kind), wires) in groups {
        let colour = if compatible {
            palette.wire(probe, kind).to_owned()
        } else {
            palette.error.clone()
        };
        ctx.begin_path();
        for w in wires {
            ctx.move_to(w.from.0, w.from.1);
            ctx.line_to(w.to.0, w.to.1);
        }
        ctx.set_stroke_style_str(&colour);
        ctx.stroke();
    }
}

fn bodies(ctx: &CanvasRenderingContext2d, nodes: &[FarNode], palette: &Palette, px: f64) {
    ctx.begin_path();
    for n in nodes {
        ctx.rect(n.node.x, n.node.y, NODE_WIDTH, NODE_HEIGHT);
    }
    ctx.set_fill_style_str(&palette.body);
    ctx.fill();
    ctx.set_line_width(1.2f64.max(px));
    ctx.set_stroke_style_str(&palette.border);
    ctx.stroke();
}

fn stripes(
    ctx: &CanvasRenderingContext2d,
    nodes: &[FarNode],
    palette: &mut Palette,
    probe: &Probe,
    px: f64,
) {
    // At least a pixel and a half wide, so the kind shows however far out.
    let width = 8f64.max(1.5 * px).min(NODE_WIDTH / 3.0);
    // A node's own colour (`color:` in the document) wins over its kind's.
    let groups = grouped(nodes.iter(), |n| {
        Some((n.node.color.as_deref(), n.node.kind.as_str()))
    });
    for ((own, kind), nodes) in groups {
        let colour = own.map_or_else(|| palette.kind(probe, kind).to_owned(), str::to_owned);
        ctx.begin_path();
        for n in nodes {
            ctx.rect(n.node.x, n.node.y, width, NODE_HEIGHT);
        }
        ctx.set_fill_style_str(&colour);
        ctx.fill();
    }
}

fn outlines(
    ctx: &CanvasRenderingContext2d,
    nodes: &[FarNode],
    palette: &mut Palette,
    probe: &Probe,
    px: f64,
) {
    let groups = grouped(nodes.iter(), |n| {
        (n.outline != Outline::Plain).then_some(n.outline)
    });
    // The SVG's 2.5-unit stroke, but never thinner than two pixels: the selection must show.
    ctx.set_line_width(2.5f64.max(2.0 * px));
    for (outline, nodes) in groups {
        let colour = match outline {
            Outline::Plain | Outline::Selected => palette.accent.clone(),
            Outline::Invalid => palette.error.clone(),
            Outline::Run(state) => palette.run(probe, state).to_owned(),
        };
        ctx.begin_path();
        for n in nodes {
            ctx.rect(n.node.x, n.node.y, NODE_WIDTH, NODE_HEIGHT);
        }
        ctx.set_stroke_style_str(&colour);
        ctx.stroke();
    }
}

fn badges(ctx: &CanvasRenderingContext2d, nodes: &[FarNode], palette: &Palette, px: f64) {
    let radius = 11f64.max(3.0 * px);
    for errors in [true, false] {
        ctx.begin_path();
        for n in nodes
            .iter()
            .filter(|n| n.badge.is_some_and(|b| b.1 == errors))
        {
            let (x, y) = (n.node.x + NODE_WIDTH - 4.0, n.node.y);
            ctx.move_to(x + radius, y);
            let _ = ctx.arc(x, y, radius, 0.0, std::f64::consts::TAU);
        }
        let colour = if errors {
            &palette.error
        } else {
            &palette.warning
        };
        ctx.set_fill_style_str(colour);
        ctx.fill();
    }
}

/// Node names as the SVG draws them far out: `clamp(13px, 10px / zoom, 34px)` in graph units.
fn names(
    ctx: &CanvasRenderingContext2d,
    nodes: &[FarNode],
    palette: &Palette,
    scale: f64,
) -> usize {
    let size = (10.0 / scale).clamp(13.0, 34.0);
    if size * scale < MIN_NAME_PX {
        return 0;
    }
    ctx.set_font(&format!("600 {size}px {}", palette.font));
    ctx.set_fill_style_str(&palette.text);
    for n in nodes {
        let name: String = n.node.name.chars().take(24).collect();
        let _ = ctx.fill_text(
            &fitted_name(&name, TITLE_ROOM, size),
            n.node.x + TITLE_AT.0,
            n.node.y + TITLE_AT.1,
        );
    }
    nodes.len()
}
