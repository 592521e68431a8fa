//! The tree layout of decision trees: the root first, children under their parent in branch
//! order, terminals in the tree's last row, the tree as one block before the steps.

use proptest::prelude::*;

use super::tests::ROUTER;
use super::*;
use crate::document::Document;

fn laid_out(text: &str, direction: Direction) -> Graph {
    let mut graph = from_document(&Document::parse(text).document.unwrap());
    layout(
        &mut graph,
        LayoutOptions {
            direction,
            ..LayoutOptions::default()
        },
    );
    graph
}

/// `(along, across)`: the coordinate along the flow (y top-down, x left-right) and across it.
fn flow(node: &GraphNode, direction: Direction) -> (f64, f64) {
    match direction {
        Direction::TopDown => (node.y, node.x),
        Direction::LeftRight => (node.x, node.y),
    }
}

fn overlap(a: &GraphNode, b: &GraphNode, options: &LayoutOptions) -> bool {
    (a.x - b.x).abs() < options.node_width && (a.y - b.y).abs() < options.node_height
}

/// The tree invariants every laid-out graph keeps, checked in both directions.
fn check_tree_invariants(graph: &Graph, direction: Direction) {
    let options = LayoutOptions::default();
    let at = |id: &str| flow(graph.node(id).unwrap(), direction);
    for group in graph.groups.iter().filter(|g| g.kind == "decision_tree") {
        let in_tree = |id: &str| group.members.iter().any(|m| m == id);
        let tree_edges: Vec<&GraphEdge> = graph
            .edges
            .iter()
            .filter(|e| in_tree(&e.source) && in_tree(&e.target) && e.source != e.target)
            .collect();
        let root = &group.members[0];
        for member in reachable(root, &tree_edges).iter().skip(1) {
            assert!(at(root).0 < at(member).0, "{root} before {member}");
        }
        for edge in &tree_edges {
            if !edge.back {
                assert!(at(&edge.source).0 < at(&edge.target).0, "{}", edge.id);
            }
        }
        let last = group.members.iter().map(|m| at(m).0).fold(0.0, f64::max);
        for member in &group.members {
            if graph.node(member).unwrap().kind == "terminal" {
                assert_eq!(at(member).0, last, "{member} in the last row");
            }
        }
        // Every member comes before every step along the flow: wires leave the tree forward.
        let size = match direction {
            Direction::TopDown => options.node_height,
            Direction::LeftRight => options.node_width,
        };
        let end = last + size;
        for step in graph.nodes.iter().filter(|n| n.kind == "step") {
            assert!(
                flow(step, direction).0 >= end - 1e-9 || step.pinned,
                "{}",
                step.id
            );
        }
    }
    for node in &graph.nodes {
        assert_eq!((node.x.fract(), node.y.fract()), (0.0, 0.0), "{}", node.id);
    }
    for (i, a) in graph.nodes.iter().enumerate() {
        for b in &graph.nodes[i + 1..] {
            assert!(!overlap(a, b, &options), "{} overlaps {}", a.id, b.id);
        }
    }
}

/// The members reachable from `root` along `edges`, `root` first.
fn reachable<'a>(root: &'a str, edges: &[&'a GraphEdge]) -> Vec<&'a str> {
    let mut found = vec![root];
    let mut next = 0;
    while let Some(&at) = found.get(next) {
        for edge in edges.iter().filter(|e| e.source == at) {
            if !found.contains(&edge.target.as_str()) {
                found.push(&edge.target);
            }
        }
        next += 1;
    }
    found
}

#[test]
fn the_router_tree_is_laid_out_as_a_tree_above_its_steps() {
    let graph = laid_out(ROUTER, Direction::TopDown);
    let at = |id: &str| graph.node(id).map(|n| (n.x, n.y)).unwrap();
    let (urgent, page, kind) = (
        at("tree:route/urgent"),
        at("terminal:route/page"),
        at("tree:route/kind"),
    );
    let (to_bug, unknown) = (at("terminal:route/to_bug"), at("terminal:route/unknown"));
    // urgent → [page, kind]; kind → [to_bug, unknown] (billing is a step): the root over its
    // children, branch order left to right, terminals all in the last row.
    assert_eq!(urgent.1, 0.0);
    assert_eq!(kind.1, 142.0);
    assert!(page.0 < kind.0 && to_bug.0 < unknown.0);
    assert_eq!((page.1, to_bug.1, unknown.1), (284.0, 284.0, 284.0));
    assert_eq!(
        kind.0,
        (to_bug.0 + unknown.0) / 2.0,
        "a parent over its children"
    );
    assert_eq!(urgent.0, (page.0 + kind.0) / 2.0);
    // The steps start in the row after the tree, in their own layers.
    assert_eq!(at("step:classify").1, 426.0);
    assert_eq!(at("step:billing").1, 568.0);
    check_tree_invariants(&graph, Direction::TopDown);
    check_tree_invariants(
        &laid_out(ROUTER, Direction::LeftRight),
        Direction::LeftRight,
    );
}

#[test]
fn a_pinned_tree_member_keeps_its_place() {
    let pinned = ROUTER.replace(
        "name: r\n",
        "name: r\nmetadata:\n  logicmd:\n    positions:\n      kind: {x: -500, y: 40}\n",
    );
    let graph = laid_out(&pinned, Direction::TopDown);
    let kind = graph.node("tree:route/kind").unwrap();
    assert_eq!((kind.x, kind.y, kind.pinned), (-500.0, 40.0, true));
}

/// A document whose tree has `shape.len()` decision nodes: node `i`'s branches go to the
/// entries of `shape[i]` — a later node (`d{j}`), a terminal (`t{j}`) or a step (`s{j}`).
fn tree_document(shape: &[Vec<(u8, usize)>]) -> String {
    let mut text = String::from(
        "---\nspec_version: \"1.0\"\nname: p\nsteps:\n  s0: {}\n  s1: {needs: [s0]}\ndecision_trees:\n  t:\n    root: d0\n    nodes:\n",
    );
    let mut terminals = Vec::new();
    for (i, branches) in shape.iter().enumerate() {
        text.push_str(&format!(
            "      d{i}:\n        condition: x\n        branches:\n"
        ));
        for (b, (kind, to)) in branches.iter().enumerate() {
            let next = match kind {
                0 if i + 1 + to < shape.len() => format!("d{}", i + 1 + to),
                1 => {
                    terminals.push(format!("t{i}_{b}"));
                    format!("t{i}_{b}")
                }
                _ => format!("s{}", to % 2),
            };
            text.push_str(&format!("          - {{value: v{b}, next: {next}}}\n"));
        }
    }
    text.push_str("    terminals:\n");
    for (k, t) in terminals.iter().enumerate() {
        let action = if k % 2 == 0 { "s1" } else { "escalate" };
        text.push_str(&format!("      {t}: {{action: {action}}}\n"));
    }
    if terminals.is_empty() {
        text.push_str("      end: {action: escalate}\n");
    }
    text.push_str("---\n");
    text
}

proptest! {
    #[test]
    fn random_trees_keep_the_tree_invariants(
        shape in prop::collection::vec(prop::collection::vec((0u8..3, 0usize..4), 1..4), 1..12),
    ) {
        let text = tree_document(&shape);
        for direction in [Direction::TopDown, Direction::LeftRight] {
            let graph = laid_out(&text, direction);
            check_tree_invariants(&graph, direction);
            prop_assert_eq!(&graph, &laid_out(&text, direction), "deterministic");
        }
    }
}
