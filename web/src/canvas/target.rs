//! Where a wire dropped at a graph point goes: the input port under it, else the input of the
//! node under it (its nearest input port), so a drop anywhere on a node connects. Found from the
//! graph's geometry, not from the element under the pointer, which may be the pending wire,
//! a label or another wire.

use logicmd::graph::{Graph, GraphNode};

use crate::geometry::{port_point, NODE_HEIGHT, NODE_WIDTH};

/// How far outside a node's box a drop still counts (the ports sit on its edges).
const REACH: f64 = 12.0;

/// The node whose box, grown by `reach`, holds graph point `point`; the last drawn is on top.
/// Far out, where nodes are painted on a canvas rather than SVG elements, this is how a click
/// finds its node.
pub fn node_under(graph: &Graph, point: (f64, f64), reach: f64) -> Option<&GraphNode> {
    let (x, y) = point;
    graph.nodes.iter().rev().find(|n| {
        x >= n.x - reach
            && x <= n.x + NODE_WIDTH + reach
            && y >= n.y - reach
            && y <= n.y + NODE_HEIGHT + reach
    })
}

/// The node id and input port a wire dropped at `point` enters (`sideways`: the inputs are
/// down the left side, the nearest by height).
pub fn drop_target(graph: &Graph, point: (f64, f64), sideways: bool) -> Option<(String, String)> {
    nearest_port(graph, point, sideways, true)
}

/// Where a wire drawn backwards from an input and let go at `point` starts: the output port of
/// the node under it nearest the pointer (as [`drop_target`] finds inputs).
pub fn drop_source(graph: &Graph, point: (f64, f64), sideways: bool) -> Option<(String, String)> {
    nearest_port(graph, point, sideways, false)
}

/// The node under `point` and its input (or output) port nearest the pointer along the side the
/// ports are on; a node without declared ports has `in` / `out`.
fn nearest_port(
    graph: &Graph,
    point: (f64, f64),
    sideways: bool,
    input: bool,
) -> Option<(String, String)> {
    let (x, y) = point;
    let node = node_under(graph, point, REACH)?;
    let ports = if input { &node.inputs } else { &node.outputs };
    let count = ports.len().max(1);
    let distance = |i| {
        let (px, py) = port_point(i, count, input, sideways);
        if sideways {
            (node.y + py - y).abs()
        } else {
            (node.x + px - x).abs()
        }
    };
    let nearest = (0..count)
        .min_by(|&a, &b| distance(a).total_cmp(&distance(b)))
        .unwrap_or(0);
    let port = ports.get(nearest).map_or_else(
        || if input { "in" } else { "out" }.to_owned(),
        |p| p.name.clone(),
    );
    Some((node.id.clone(), port))
}

#[cfg(test)]
mod tests {
    use super::*;

    const DOC: &str = "---\nspec_version: \"1.0\"\nname: t\nsteps:\n  a: {}\n  b: {}\n---\n";

    fn laid_out() -> Graph {
        let mut graph =
            logicmd::graph::from_document(&logicmd::Document::parse(DOC).document.unwrap());
        logicmd::graph::layout(&mut graph, logicmd::graph::LayoutOptions::default());
        graph
    }

    #[test]
    fn a_drop_on_a_node_or_its_port_enters_its_input_and_elsewhere_nothing() {
        let graph = laid_out();
        let b = graph.node("step:b").unwrap();
        let (bx, by) = (b.x, b.y);
        let expected = Some(("step:b".to_owned(), "in".to_owned()));
        assert_eq!(drop_target(&graph, (bx + 10.0, by + 40.0), false), expected);
        assert_eq!(drop_target(&graph, (bx + 110.0, by - 5.0), false), expected);
        assert_eq!(drop_target(&graph, (bx - 500.0, by - 500.0), false), None);
    }

    #[test]
    fn a_wire_drawn_backwards_starts_at_the_output_of_the_node_it_is_dropped_on() {
        let graph = laid_out();
        let a = graph.node("step:a").unwrap();
        assert_eq!(
            drop_source(&graph, (a.x + 10.0, a.y + 40.0), false),
            Some(("step:a".to_owned(), "out".to_owned()))
        );
        assert_eq!(drop_source(&graph, (a.x - 500.0, a.y), false), None);
    }

    #[test]
    fn a_point_finds_the_node_whose_box_holds_it() {
        let graph = laid_out();
        let a = graph.node("step:a").unwrap();
        let (ax, ay) = (a.x, a.y);
        let id = |point, reach| node_under(&graph, point, reach).map(|n| n.id.as_str());
        assert_eq!(id((ax + 1.0, ay + 1.0), 0.0), Some("step:a"));
        assert_eq!(id((ax + NODE_WIDTH, ay + NODE_HEIGHT), 0.0), Some("step:a"));
        assert_eq!(id((ax - 5.0, ay), 0.0), None);
        assert_eq!(id((ax - 5.0, ay), REACH), Some("step:a"));
    }
}
