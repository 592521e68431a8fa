//! Canvas geometry: node size (the core layout's), port positions, wire curves, fit to view.

use logicmd::graph::{Graph, LayoutOptions};

use crate::state::Viewport;

pub const NODE_WIDTH: f64 = 220.0;
pub const NODE_HEIGHT: f64 = 72.0;

/// Port `index` of `count`, relative to the node: inputs along the top, outputs along the bottom
/// (the layout flows downwards), or, `sideways` (a left-right layout), inputs down the left side
/// and outputs down the right.
pub fn port_point(index: usize, count: usize, input: bool, sideways: bool) -> (f64, f64) {
    let share = (index as f64 + 1.0) / (count as f64 + 1.0);
    match (sideways, input) {
        (false, true) => (NODE_WIDTH * share, 0.0),
        (false, false) => (NODE_WIDTH * share, NODE_HEIGHT),
        (true, true) => (0.0, NODE_HEIGHT * share),
        (true, false) => (NODE_WIDTH, NODE_HEIGHT * share),
    }
}

/// How far a loop back up swings out to the left of the nodes it passes, and how far it
/// leaves and enters its ports vertically.
const LOOP_SIDE: f64 = 0.6 * NODE_WIDTH + 30.0;
const LOOP_REACH: f64 = 50.0;
/// How far apart wires sharing both ends are drawn, per lane.
const LANE_SPREAD: f64 = 18.0;

/// The x at which a loop from `from` up to `to` in `lane` runs beside the nodes it passes.
fn loop_side(from: (f64, f64), to: (f64, f64), lane: f64) -> f64 {
    from.0.min(to.0) - LOOP_SIDE - (lane * LANE_SPREAD).abs()
}

/// A wire leaving downwards from `from` and entering `to` from above. `lane` bows wires that
/// share both ends apart (0 for a lone wire, then ±1, ±2, ...), so each stays visible. A loop
/// back up leaves downwards, swings out to the left of the nodes it passes, and comes down into
/// its target, so it never runs through them.
/// With a `detour`, a wire that leaves its port, runs along the detour's line
/// (an x top-down, a y left-right) past the nodes between its ends and comes back into its
/// target: never hidden behind the nodes it skips.
pub fn wire_path_around(
    from: (f64, f64),
    to: (f64, f64),
    lane: f64,
    sideways: bool,
    detour: Option<f64>,
) -> String {
    if let Some(line) = detour {
        return detour_path(from, to, line, sideways);
    }
    if sideways {
        return sideways_path(from, to, lane);
    }
    let spread = lane * LANE_SPREAD;
    if to.1 < from.1 {
        let side = loop_side(from, to, lane);
        let middle = (from.1 + to.1) / 2.0;
        return format!(
            "M {:.1} {:.1} C {:.1} {:.1}, {side:.1} {:.1}, {side:.1} {middle:.1} \
             C {side:.1} {:.1}, {:.1} {:.1}, {:.1} {:.1}",
            from.0,
            from.1,
            from.0,
            from.1 + LOOP_REACH,
            from.1 + LOOP_REACH,
            to.1 - LOOP_REACH,
            to.0,
            to.1 - LOOP_REACH,
            to.0,
            to.1
        );
    }
    let bend = ((to.1 - from.1).abs() / 2.0).max(40.0);
    format!(
        "M {:.1} {:.1} C {:.1} {:.1}, {:.1} {:.1}, {:.1} {:.1}",
        from.0,
        from.1,
        from.0 + spread,
        from.1 + bend,
        to.0 + spread,
        to.1 - bend,
        to.0,
        to.1
    )
}

/// How far a detouring wire runs out of its port before it turns towards its detour line.
const DETOUR_REACH: f64 = 34.0;

fn detour_path(from: (f64, f64), to: (f64, f64), line: f64, sideways: bool) -> String {
    let r = DETOUR_REACH;
    if sideways {
        return format!(
            "M {:.1} {:.1} C {:.1} {:.1}, {:.1} {line:.1}, {:.1} {line:.1} \
             L {:.1} {line:.1} C {:.1} {line:.1}, {:.1} {:.1}, {:.1} {:.1}",
            from.0,
            from.1,
            from.0 + r,
            from.1,
            from.0 + r,
            from.0 + 2.0 * r,
            to.0 - 2.0 * r,
            to.0 - r,
            to.0 - r,
            to.1,
            to.0,
            to.1
        );
    }
    format!(
        "M {:.1} {:.1} C {:.1} {:.1}, {line:.1} {:.1}, {line:.1} {:.1} \
         L {line:.1} {:.1} C {line:.1} {:.1}, {:.1} {:.1}, {:.1} {:.1}",
        from.0,
        from.1,
        from.0,
        from.1 + r,
        from.1 + r,
        from.1 + 2.0 * r,
        to.1 - 2.0 * r,
        to.1 - r,
        to.0,
        to.1 - r,
        to.0,
        to.1
    )
}

/// A node's box in graph units: (left, top, right, bottom).
pub type NodeBox = (f64, f64, f64, f64);

/// How far from the nodes it skips a detouring wire runs.
const DETOUR_CLEARANCE: f64 = 26.0;

/// The line a forward wire from `from` to `to` must run along to pass the `boxes` between its
/// ends instead of being drawn behind them, or `None` when its curve meets none of them. The
/// line is beside the blocking nodes on the side nearer the wire (left or right top-down,
/// above or below left-right). Loops back are routed by [`wire_path_around`] already.
pub fn detour(from: (f64, f64), to: (f64, f64), sideways: bool, boxes: &[NodeBox]) -> Option<f64> {
    // In the wire's own frame: `along` is the flow's axis, `across` the other.
    let turn = |(x, y): (f64, f64)| if sideways { (y, x) } else { (x, y) };
    let (from, to) = (turn(from), turn(to));
    if to.1 <= from.1 {
        return None;
    }
    let (low, high) = (from.0.min(to.0) - 10.0, from.0.max(to.0) + 10.0);
    let blocking: Vec<(f64, f64)> = boxes
        .iter()
        .map(|&(l, t, r, b)| if sideways { (t, l, b, r) } else { (l, t, r, b) })
        .filter(|&(l, t, r, b)| t > from.1 + 1.0 && b < to.1 - 1.0 && l < high && r > low)
        .map(|(l, _, r, _)| (l, r))
        .collect();
    if blocking.is_empty() {
        return None;
    }
    let left = blocking.iter().map(|b| b.0).fold(f64::INFINITY, f64::min) - DETOUR_CLEARANCE;
    let right = blocking
        .iter()
        .map(|b| b.1)
        .fold(f64::NEG_INFINITY, f64::max)
        + DETOUR_CLEARANCE;
    let middle = (from.0 + to.0) / 2.0;
    Some(if middle - left <= right - middle {
        left
    } else {
        right
    })
}

/// How far below the lower of its two nodes a sideways loop back to the left runs.
fn loop_below(from: (f64, f64), to: (f64, f64), lane: f64) -> f64 {
    from.1.max(to.1) + NODE_HEIGHT / 2.0 + 30.0 + (lane * LANE_SPREAD).abs()
}

/// The left-right twin of [`wire_path_around`]: a wire leaving a right-side output to the right and
/// entering a left-side input from the left; a loop back to the left leaves to the right,
/// runs under both nodes and comes into its target from the left.
fn sideways_path(from: (f64, f64), to: (f64, f64), lane: f64) -> String {
    if to.0 < from.0 {
        let below = loop_below(from, to, lane);
        let middle = (from.0 + to.0) / 2.0;
        return format!(
            "M {:.1} {:.1} C {:.1} {:.1}, {:.1} {below:.1}, {middle:.1} {below:.1} \
             C {:.1} {below:.1}, {:.1} {:.1}, {:.1} {:.1}",
            from.0,
            from.1,
            from.0 + LOOP_REACH,
            from.1,
            from.0 + LOOP_REACH,
            to.0 - LOOP_REACH,
            to.0 - LOOP_REACH,
            to.1,
            to.0,
            to.1
        );
    }
    let spread = lane * LANE_SPREAD;
    let bend = ((to.0 - from.0).abs() / 2.0).max(40.0);
    format!(
        "M {:.1} {:.1} C {:.1} {:.1}, {:.1} {:.1}, {:.1} {:.1}",
        from.0,
        from.1,
        from.0 + bend,
        from.1 + spread,
        to.0 - bend,
        to.1 + spread,
        to.0,
        to.1
    )
}

/// The wire being drawn from `from` to the pointer at `to`: an S-bend between the two points
/// that never swings beyond them, so it follows the pointer and stays on screen whichever way
/// the pointer goes.
pub fn pending_path(from: (f64, f64), to: (f64, f64)) -> String {
    let bend = ((to.1 - from.1).abs() / 2.0).min(60.0);
    let (c1, c2) = if to.1 >= from.1 {
        (from.1 + bend, to.1 - bend)
    } else {
        (from.1 - bend, to.1 + bend)
    };
    format!(
        "M {:.1} {:.1} C {:.1} {c1:.1}, {:.1} {c2:.1}, {:.1} {:.1}",
        from.0, from.1, from.0, to.0, to.0, to.1
    )
}

/// Where a wire's label sits: halfway, on the wire's own bow.
/// For a wire that may run along a detour line, on that line.
pub fn wire_label_point_around(
    from: (f64, f64),
    to: (f64, f64),
    lane: f64,
    sideways: bool,
    detour: Option<f64>,
) -> (f64, f64) {
    if let Some(line) = detour {
        return if sideways {
            ((from.0 + to.0) / 2.0, line)
        } else {
            (line, (from.1 + to.1) / 2.0)
        };
    }
    if sideways {
        if to.0 < from.0 {
            return ((from.0 + to.0) / 2.0, loop_below(from, to, lane));
        }
        return (
            (from.0 + to.0) / 2.0,
            (from.1 + to.1) / 2.0 + 0.75 * lane * LANE_SPREAD,
        );
    }
    if to.1 < from.1 {
        return (loop_side(from, to, lane), (from.1 + to.1) / 2.0);
    }
    // A cubic's midpoint lies 3/4 of the way to its control points' offset.
    (
        (from.0 + to.0) / 2.0 + 0.75 * lane * LANE_SPREAD,
        (from.1 + to.1) / 2.0,
    )
}

/// How much room a loop needs beside and around the nodes, for fitting the view.
pub const WIRE_MARGIN: (f64, f64) = (LOOP_SIDE + 20.0, LOOP_REACH);

/// Fit never zooms out further than this: the canvas's own limit, far enough for a chain of
/// thousands of steps (the far canvas paints them).
pub const FIT_MIN_SCALE: f64 = super::canvas::MIN_SCALE;

/// The box around every node of `graph` (graph units), with room for its loops.
pub fn graph_bounds(graph: &Graph) -> Option<NodeBox> {
    if graph.nodes.is_empty() {
        return None;
    }
    let options = LayoutOptions::default();
    let mut bounds = (
        f64::INFINITY,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NEG_INFINITY,
    );
    for n in &graph.nodes {
        bounds.0 = bounds.0.min(n.x);
        bounds.1 = bounds.1.min(n.y);
        bounds.2 = bounds.2.max(n.x + options.node_width);
        bounds.3 = bounds.3.max(n.y + options.node_height);
    }
    let has_loops = graph.edges.iter().any(|e| e.back);
    let (room_x, room_y) = if has_loops { WIRE_MARGIN } else { (0.0, 0.0) };
    Some((
        bounds.0 - room_x,
        bounds.1 - room_y,
        bounds.2,
        bounds.3 + room_y,
    ))
}

/// The viewport that shows the whole graph centred in a `width` × `height` canvas, at 100% at
/// most: any graph fits, a large one far out (the far canvas draws it).
pub fn fit(graph: &Graph, width: f64, height: f64) -> Option<Viewport> {
    if width <= 0.0 || height <= 0.0 {
        return None;
    }
    let (min_x, min_y, max_x, max_y) = graph_bounds(graph)?;
    let margin = 40.0;
    let scale = ((width - 2.0 * margin) / (max_x - min_x))
        .min((height - 2.0 * margin) / (max_y - min_y))
        .clamp(FIT_MIN_SCALE, 1.0);
    Some(Viewport {
        x: (width - (max_x - min_x) * scale) / 2.0 - min_x * scale,
        y: (height - (max_y - min_y) * scale) / 2.0 - min_y * scale,
        scale,
    })
}

/// Whether `bounds` (graph units) lies inside a canvas of `size` seen through `view`.
pub fn shows(view: Viewport, size: (f64, f64), bounds: NodeBox) -> bool {
    let screen = |x: f64, y: f64| (view.x + x * view.scale, view.y + y * view.scale);
    let (left, top) = screen(bounds.0, bounds.1);
    let (right, bottom) = screen(bounds.2, bounds.3);
    left >= -0.5 && top >= -0.5 && right <= size.0 + 0.5 && bottom <= size.1 + 0.5
}

/// The view moved as little as needed so that `bounds` (graph units) is in a canvas of `size`
/// with a margin — zoomed out, no further than `floor`, when it is larger than the canvas — or
/// `None` when it is in view already: new and pasted nodes land where the user can see them.
pub fn follow(view: Viewport, size: (f64, f64), bounds: NodeBox, floor: f64) -> Option<Viewport> {
    let margin = 30.0;
    let (width, height) = size;
    if width <= 2.0 * margin || height <= 2.0 * margin || shows(view, size, bounds) {
        return None;
    }
    let needed = ((width - 2.0 * margin) / (bounds.2 - bounds.0))
        .min((height - 2.0 * margin) / (bounds.3 - bounds.1));
    if needed < view.scale {
        let scale = needed.max(floor.min(view.scale));
        let centre = ((bounds.0 + bounds.2) / 2.0, (bounds.1 + bounds.3) / 2.0);
        return Some(Viewport {
            x: width / 2.0 - centre.0 * scale,
            y: height / 2.0 - centre.1 * scale,
            scale,
        });
    }
    // It fits at this zoom: the smallest pan that brings it in.
    let shift = |low: f64, high: f64, room: f64| {
        if low < margin {
            margin - low
        } else if high > room - margin {
            room - margin - high
        } else {
            0.0
        }
    };
    let s = view.scale;
    Some(Viewport {
        x: view.x + shift(view.x + bounds.0 * s, view.x + bounds.2 * s, width),
        y: view.y + shift(view.y + bounds.1 * s, view.y + bounds.3 * s, height),
        scale: s,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ports_spread_evenly_on_their_edge() {
        assert_eq!(port_point(0, 1, true, false), (110.0, 0.0));
        assert_eq!(port_point(1, 3, false, false), (110.0, 72.0));
        assert_eq!(port_point(0, 1, true, true), (0.0, 36.0));
        assert_eq!(port_point(2, 3, false, true), (220.0, 54.0));
    }

    /// Issue #18: left-right wires leave and enter sideways; a loop back runs under its nodes.
    #[test]
    fn sideways_wires_leave_right_and_enter_left() {
        assert_eq!(
            wire_path_around((220.0, 36.0), (500.0, 36.0), 0.0, true, None),
            "M 220.0 36.0 C 360.0 36.0, 360.0 36.0, 500.0 36.0"
        );
        let back = wire_path_around((500.0, 36.0), (0.0, 36.0), 0.0, true, None);
        assert!(
            back.starts_with("M 500.0 36.0 C 550.0 36.0, 550.0 102.0"),
            "{back}"
        );
        assert!(back.ends_with("-50.0 36.0, 0.0 36.0"), "{back}");
        assert_eq!(
            wire_label_point_around((500.0, 36.0), (0.0, 36.0), 0.0, true, None),
            (250.0, 102.0)
        );
    }

    /// Issue #31: a wire that skips over a node runs beside it, not behind it.
    #[test]
    fn a_wire_skipping_a_node_detours_beside_it() {
        let middle = (0.0, 142.0, NODE_WIDTH, 142.0 + NODE_HEIGHT);
        let (from, to) = ((110.0, 72.0), (110.0, 284.0));
        let line = detour(from, to, false, &[middle]).expect("a detour");
        assert!(!(0.0..=NODE_WIDTH).contains(&line), "{line}");
        // A node beside the wire's way does not bend it; nor does a loop back.
        let aside = (400.0, 142.0, 400.0 + NODE_WIDTH, 142.0 + NODE_HEIGHT);
        assert_eq!(detour(from, to, false, &[aside]), None);
        assert_eq!(detour(to, from, false, &[middle]), None);
        // Left-right: the same, turned.
        let turned = (142.0 + 80.0, 0.0, 142.0 + 80.0 + NODE_WIDTH, NODE_HEIGHT);
        let line = detour((220.0, 36.0), (600.0, 36.0), true, &[turned]).expect("a detour");
        assert!(!(0.0..=NODE_HEIGHT).contains(&line), "{line}");
        // The path runs along the line, between its ends.
        let path = wire_path_around(from, to, 0.0, false, Some(-26.0));
        assert!(path.contains("L -26.0 "), "{path}");
        assert_eq!(
            wire_label_point_around(from, to, 0.0, false, Some(-26.0)),
            (-26.0, 178.0)
        );
    }

    #[test]
    fn the_pending_wire_stays_between_its_ends() {
        for to in [(300.0, 400.0), (300.0, -200.0), (-50.0, 10.0)] {
            let path = pending_path((100.0, 100.0), to);
            let numbers: Vec<f64> = path
                .split(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-'))
                .filter_map(|n| n.parse().ok())
                .collect();
            for pair in numbers.chunks(2) {
                assert!(
                    pair[1] >= to.1.min(100.0) && pair[1] <= to.1.max(100.0),
                    "{path}"
                );
            }
        }
    }

    #[test]
    fn fit_keeps_the_graph_inside_the_canvas() {
        let doc = "---\nspec_version: \"1.0\"\nname: t\nsteps:\n  a: {}\n  b: {needs: [a]}\n  c: {needs: [b]}\n---\n";
        let mut graph =
            logicmd::graph::from_document(&logicmd::Document::parse(doc).document.unwrap());
        logicmd::graph::layout(&mut graph, LayoutOptions::default());
        let view = fit(&graph, 800.0, 300.0).unwrap();
        for n in &graph.nodes {
            let (x, y) = (view.x + n.x * view.scale, view.y + n.y * view.scale);
            assert!(x >= 0.0 && x + NODE_WIDTH * view.scale <= 800.0);
            assert!(y >= 0.0 && y + NODE_HEIGHT * view.scale <= 300.0 + 1e-6);
        }
        assert!(fit(&Graph::default(), 800.0, 300.0).is_none());
        // Centred: as much room above the graph as below.
        let top = view.y
            + graph
                .nodes
                .iter()
                .map(|n| n.y)
                .fold(f64::INFINITY, f64::min)
                * view.scale;
        let bottom = view.y
            + graph
                .nodes
                .iter()
                .map(|n| n.y + NODE_HEIGHT)
                .fold(f64::NEG_INFINITY, f64::max)
                * view.scale;
        assert!((top - (300.0 - bottom)).abs() < 1.0, "{top} {bottom}");
    }

    /// Issue #31: Fit fits any document, 1,000 steps included.
    #[test]
    fn fit_shows_every_node_of_a_large_graph() {
        let steps: String = (0..1000)
            .map(|i| match i {
                0 => "  s0: {}\n".to_owned(),
                i => format!("  s{i}: {{needs: [s{}]}}\n", i - 1),
            })
            .collect();
        let doc = format!("---\nspec_version: \"1.0\"\nname: t\nsteps:\n{steps}---\n");
        let mut graph =
            logicmd::graph::from_document(&logicmd::Document::parse(&doc).document.unwrap());
        logicmd::graph::layout(&mut graph, LayoutOptions::default());
        let view = fit(&graph, 1024.0, 600.0).unwrap();
        for n in &graph.nodes {
            let (x, y) = (view.x + n.x * view.scale, view.y + n.y * view.scale);
            assert!(x >= -1e-6 && x + NODE_WIDTH * view.scale <= 1024.0 + 1e-6);
            assert!(y >= -1e-6 && y + NODE_HEIGHT * view.scale <= 600.0 + 1e-6);
        }
    }

    #[test]
    fn the_view_follows_nodes_out_of_sight_and_stays_for_those_in_sight() {
        let view = Viewport {
            x: 0.0,
            y: 0.0,
            scale: 1.0,
        };
        assert_eq!(
            follow(view, (800.0, 600.0), (10.0, 10.0, 230.0, 82.0), 0.5),
            None
        );
        let moved = follow(view, (800.0, 600.0), (1000.0, 900.0, 1220.0, 972.0), 0.5).unwrap();
        assert_eq!(moved.scale, 1.0);
        assert!(shows(moved, (800.0, 600.0), (1000.0, 900.0, 1220.0, 972.0)));
        // Just past the bottom edge: moved just enough, not re-centred.
        let below = follow(view, (800.0, 600.0), (100.0, 560.0, 320.0, 632.0), 0.5).unwrap();
        assert_eq!((below.x, below.y), (0.0, -62.0));
        // Wider than the canvas: zoomed out to fit, no further than the floor.
        let wide = follow(view, (800.0, 600.0), (0.0, 0.0, 3000.0, 72.0), 0.02).unwrap();
        assert!(wide.scale < 1.0 && shows(wide, (800.0, 600.0), (0.0, 0.0, 3000.0, 72.0)));
        let floored = follow(view, (800.0, 600.0), (0.0, 0.0, 30000.0, 72.0), 0.5).unwrap();
        assert_eq!(floored.scale, 0.5);
    }
}
