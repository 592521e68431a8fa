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
pub fn wire_path(from: (f64, f64), to: (f64, f64), lane: f64, sideways: bool) -> String {
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

/// How far below the lower of its two nodes a sideways loop back to the left runs.
fn loop_below(from: (f64, f64), to: (f64, f64), lane: f64) -> f64 {
    from.1.max(to.1) + NODE_HEIGHT / 2.0 + 30.0 + (lane * LANE_SPREAD).abs()
}

/// The left-right twin of [`wire_path`]: a wire leaving a right-side output to the right and
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
pub fn wire_label_point(from: (f64, f64), to: (f64, f64), lane: f64, sideways: bool) -> (f64, f64) {
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

/// Fit never zooms out further than this: below it names are too small to read, and a large
/// graph is better shown in part, readable, than whole as blank boxes.
pub const FIT_MIN_SCALE: f64 = 0.5;

/// The viewport that shows the whole graph centred in a `width` × `height` canvas, between
/// [`FIT_MIN_SCALE`] and 100%; a graph too large for that shows its top, centred across.
pub fn fit(graph: &Graph, width: f64, height: f64) -> Option<Viewport> {
    if graph.nodes.is_empty() || width <= 0.0 || height <= 0.0 {
        return None;
    }
    let options = LayoutOptions::default();
    let min_x = graph
        .nodes
        .iter()
        .map(|n| n.x)
        .fold(f64::INFINITY, f64::min);
    let min_y = graph
        .nodes
        .iter()
        .map(|n| n.y)
        .fold(f64::INFINITY, f64::min);
    let max_x = graph
        .nodes
        .iter()
        .map(|n| n.x + options.node_width)
        .fold(f64::NEG_INFINITY, f64::max);
    let max_y = graph
        .nodes
        .iter()
        .map(|n| n.y + options.node_height)
        .fold(f64::NEG_INFINITY, f64::max);
    let has_loops = graph.edges.iter().any(|e| e.back);
    let (room_x, room_y) = if has_loops { WIRE_MARGIN } else { (0.0, 0.0) };
    let (min_x, min_y, max_y) = (min_x - room_x, min_y - room_y, max_y + room_y);
    let margin = 40.0;
    let scale = ((width - 2.0 * margin) / (max_x - min_x))
        .min((height - 2.0 * margin) / (max_y - min_y))
        .clamp(FIT_MIN_SCALE, 1.0);
    let spare_y = height - (max_y - min_y) * scale;
    let top = if spare_y > 2.0 * margin {
        spare_y / 2.0
    } else {
        margin
    };
    Some(Viewport {
        x: (width - (max_x - min_x) * scale) / 2.0 - min_x * scale,
        y: top - min_y * scale,
        scale,
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
            wire_path((220.0, 36.0), (500.0, 36.0), 0.0, true),
            "M 220.0 36.0 C 360.0 36.0, 360.0 36.0, 500.0 36.0"
        );
        let back = wire_path((500.0, 36.0), (0.0, 36.0), 0.0, true);
        assert!(
            back.starts_with("M 500.0 36.0 C 550.0 36.0, 550.0 102.0"),
            "{back}"
        );
        assert!(back.ends_with("-50.0 36.0, 0.0 36.0"), "{back}");
        assert_eq!(
            wire_label_point((500.0, 36.0), (0.0, 36.0), 0.0, true),
            (250.0, 102.0)
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

    #[test]
    fn fit_never_goes_below_a_readable_zoom() {
        let steps: String = (0..200).map(|i| format!("  s{i}: {{}}\n")).collect();
        let doc = format!("---\nspec_version: \"1.0\"\nname: t\nsteps:\n{steps}---\n");
        let mut graph =
            logicmd::graph::from_document(&logicmd::Document::parse(&doc).document.unwrap());
        logicmd::graph::layout(&mut graph, LayoutOptions::default());
        assert_eq!(fit(&graph, 1024.0, 600.0).unwrap().scale, FIT_MIN_SCALE);
    }
}
