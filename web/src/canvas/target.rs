//! Where a wire dropped at a graph point goes: the input port under it, else the input of the
//! node under it (its nearest input port), so a drop anywhere on a node connects. Found from the
//! graph's geometry, not from the element under the pointer, which may be the pending wire,
//! a label or another wire.

use logicmd::graph::Graph;

use crate::geometry::{port_point, NODE_HEIGHT, NODE_WIDTH};

/// How far outside a node's box a drop still counts (the ports sit on its edges).
const REACH: f64 = 12.0;

/// The node id and input port a wire dropped at `point` enters (`sideways`: the inputs are
/// down the left side, the nearest by height).
pub fn drop_target(graph: &Graph, point: (f64, f64), sideways: bool) -> Option<(String, String)> {
    let (x, y) = point;
    // The last node drawn is on top.
    let node = graph.nodes.iter().rev().find(|n| {
        x >= n.x - REACH
            && x <= n.x + NODE_WIDTH + REACH
            && y >= n.y - REACH
            && y <= n.y + NODE_HEIGHT + REACH
    })?;
    let count = node.inputs.len().max(1);
    let nearest = (0..count)
        .min_by(|&a, &b| {
            let distance = |i| {
                let (px, py) = port_point(i, count, true, sideways);
                if sideways {
                    (node.y + py - y).abs()
                } else {
                    (node.x + px - x).abs()
                }
            };
            distance(a).total_cmp(&distance(b))
        })
        .unwrap_or(0);
    let port = node
        .inputs
        .get(nearest)
        .map_or_else(|| "in".to_owned(), |p| p.name.clone());
    Some((node.id.clone(), port))
}

#[cfg(test)]
mod tests {
    use super::*;

    const DOC: &str = "---\nspec_version: \"1.0\"\nname: t\nsteps:\n  a: {}\n  b: {}\n---\n";

    #[test]
    fn a_drop_on_a_node_or_its_port_enters_its_input_and_elsewhere_nothing() {
        let mut graph =
            logicmd::graph::from_document(&logicmd::Document::parse(DOC).document.unwrap());
        logicmd::graph::layout(&mut graph, logicmd::graph::LayoutOptions::default());
        let b = graph.node("step:b").unwrap();
        let (bx, by) = (b.x, b.y);
        let expected = Some(("step:b".to_owned(), "in".to_owned()));
        assert_eq!(drop_target(&graph, (bx + 10.0, by + 40.0), false), expected);
        assert_eq!(drop_target(&graph, (bx + 110.0, by - 5.0), false), expected);
        assert_eq!(drop_target(&graph, (bx - 500.0, by - 500.0), false), None);
    }
}
