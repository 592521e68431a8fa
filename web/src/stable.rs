//! Nodes stay where the user saw them. The core lays out every new text from scratch, so a
//! connect or a new step would move every node; between two graphs of one document, nodes that
//! were already drawn keep their place, and a new node goes below the node it needs (beside it
//! when that is taken). Positions the document pins (`metadata.logicmd.positions`) always win.
//! Only Auto-layout and opening a document lay the graph out afresh.

use rustc_hash::FxHashMap;

use logicmd::graph::{Direction, Graph, GraphNode};

use crate::geometry::{NODE_HEIGHT, NODE_WIDTH};

/// Room between nodes placed here, as the core layout leaves.
const GAP_X: f64 = 60.0;
const GAP_Y: f64 = 70.0;

/// `next` with the nodes of `previous` where they were, or `None` when nothing moves (the
/// common case while typing: no copy of a large graph).
/// `renamed` lists (old id, new id) of nodes renamed since `previous`: they keep their place.
/// New nodes with no placed node above them go to `anchor` when given (pasted steps beside the
/// selection, a step added where a menu was opened), else where the core put them. A new node
/// goes below the node it needs, or to its right in left-right `direction` (issue #18).
pub fn keep_places(
    previous: &Graph,
    next: &Graph,
    renamed: &[(String, String)],
    anchor: Option<(f64, f64)>,
    direction: Direction,
) -> Option<Graph> {
    let mut before: FxHashMap<&str, (f64, f64)> = previous
        .nodes
        .iter()
        .map(|n| (n.id.as_str(), (n.x, n.y)))
        .collect();
    for (old, new) in renamed {
        if let Some(place) = before.get(old.as_str()).copied() {
            before.insert(new.as_str(), place);
        }
    }
    let place_of = |n: &GraphNode| before.get(n.id.as_str()).copied();
    let unchanged = next
        .nodes
        .iter()
        .all(|n| n.pinned || place_of(n).is_some_and(|p| p == (n.x, n.y)));
    if unchanged {
        return None;
    }
    let mut graph = next.clone();
    let mut placed = vec![false; graph.nodes.len()];
    let mut occupied = Occupied::default();
    for (i, node) in graph.nodes.iter_mut().enumerate() {
        if node.pinned {
            placed[i] = true;
        } else if let Some((x, y)) = before.get(node.id.as_str()) {
            (node.x, node.y, placed[i]) = (*x, *y, true);
        }
        if placed[i] {
            occupied.add(node.x, node.y);
        }
    }
    let sources = sources_by_target(next);
    for i in 0..graph.nodes.len() {
        if placed[i] {
            continue;
        }
        let parent = sources
            .get(next.nodes[i].id.as_str())
            .and_then(|sources| sources.iter().copied().find(|&p| placed[p]));
        let own = anchor.unwrap_or((graph.nodes[i].x, graph.nodes[i].y));
        let wanted = parent.map_or(own, |p| {
            let above = &graph.nodes[p];
            match direction {
                Direction::LeftRight => (above.x + NODE_WIDTH + GAP_X, above.y),
                Direction::TopDown => (above.x, above.y + NODE_HEIGHT + GAP_Y),
            }
        });
        let (x, y) = occupied.free_place(wanted);
        let (x, y) = (x.round(), y.round());
        (graph.nodes[i].x, graph.nodes[i].y, placed[i]) = (x, y, true);
        occupied.add(x, y);
    }
    Some(graph)
}

/// The sources of the edges entering each node, by target id, in edge order (the parent a new
/// node goes below is the first placed one): one pass over the edges instead of one per new node,
/// which made a large new document quadratic.
fn sources_by_target(graph: &Graph) -> FxHashMap<&str, Vec<usize>> {
    let index: FxHashMap<&str, usize> = graph
        .nodes
        .iter()
        .enumerate()
        .map(|(i, n)| (n.id.as_str(), i))
        .collect();
    let mut sources: FxHashMap<&str, Vec<usize>> = FxHashMap::default();
    for edge in graph.edges.iter() {
        if let Some(&source) = index.get(edge.source.as_str()) {
            sources
                .entry(edge.target.as_str())
                .or_default()
                .push(source);
        }
    }
    sources
}

/// Closer than this across (`OVERLAP_X`) and along (`OVERLAP_Y`), two boxes overlap.
const OVERLAP_X: f64 = NODE_WIDTH + GAP_X / 2.0;
const OVERLAP_Y: f64 = NODE_HEIGHT + GAP_Y / 2.0;

/// The places of the placed nodes, bucketed in cells of one overlap distance: a box can only
/// overlap boxes of the neighbouring cells, so finding a free place looks at a few nodes, not
/// at every one (placing 5,000 new nodes was quadratic).
#[derive(Default)]
struct Occupied {
    cells: FxHashMap<(i64, i64), Vec<(f64, f64)>>,
}

impl Occupied {
    fn cell(x: f64, y: f64) -> (i64, i64) {
        (
            (x / OVERLAP_X).floor() as i64,
            (y / OVERLAP_Y).floor() as i64,
        )
    }

    fn add(&mut self, x: f64, y: f64) {
        self.cells.entry(Self::cell(x, y)).or_default().push((x, y));
    }

    /// Whether a box at (`x`, `y`) overlaps a placed one. Two cells either side, not one: the
    /// cells are computed in floating point, and a margin costs nothing.
    fn overlaps(&self, x: f64, y: f64) -> bool {
        let (cx, cy) = Self::cell(x, y);
        (cx - 2..=cx + 2).any(|i| {
            (cy - 2..=cy + 2).any(|j| {
                self.cells.get(&(i, j)).is_some_and(|places| {
                    places
                        .iter()
                        .any(|(px, py)| (px - x).abs() < OVERLAP_X && (py - y).abs() < OVERLAP_Y)
                })
            })
        })
    }

    /// `wanted`, or the first place to its right that no placed node overlaps.
    fn free_place(&self, wanted: (f64, f64)) -> (f64, f64) {
        let mut x = wanted.0;
        while self.overlaps(x, wanted.1) {
            x += NODE_WIDTH + GAP_X;
        }
        (x, wanted.1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use logicmd::graph::{layout, LayoutOptions};

    fn graph(text: &str) -> Graph {
        let mut g =
            logicmd::graph::from_document(&logicmd::Document::parse(text).document.unwrap());
        layout(&mut g, LayoutOptions::default());
        g
    }

    fn place(g: &Graph, id: &str) -> (f64, f64) {
        g.node(id).map(|n| (n.x, n.y)).unwrap()
    }

    const FOUR: &str =
        "---\nspec_version: \"1.0\"\nname: t\nsteps:\n  a: {}\n  b: {}\n  c: {}\n  d: {}\n---\n";

    #[test]
    fn connecting_moves_no_node() {
        let before = graph(FOUR);
        let after = graph(&FOUR.replace("b: {}", "b: {needs: [a]}"));
        assert_ne!(
            place(&before, "step:b"),
            place(&after, "step:b"),
            "the core lays out afresh"
        );
        let kept =
            keep_places(&before, &after, &[], None, Direction::TopDown).expect("positions differ");
        for n in &before.nodes {
            assert_eq!(place(&kept, &n.id), (n.x, n.y), "{}", n.id);
        }
        assert_eq!(kept.edges, after.edges);
    }

    #[test]
    fn a_renamed_node_keeps_its_place() {
        let text = FOUR.replace("b: {}", "b: {needs: [a]}");
        let before = graph(&text);
        let after = graph(&text.replace("b: {needs", "bee: {needs"));
        let renamed = [("step:b".to_owned(), "step:bee".to_owned())];
        let kept =
            keep_places(&before, &after, &renamed, None, Direction::TopDown).unwrap_or(after);
        assert_eq!(place(&kept, "step:bee"), place(&before, "step:b"));
    }

    #[test]
    fn new_roots_go_to_the_anchor_and_their_children_below_them() {
        let before = graph(FOUR);
        let after = graph(&FOUR.replace("  d: {}\n", "  d: {}\n  p: {}\n  q: {needs: [p]}\n"));
        let kept = keep_places(
            &before,
            &after,
            &[],
            Some((1000.0, 500.0)),
            Direction::TopDown,
        )
        .unwrap();
        assert_eq!(place(&kept, "step:p"), (1000.0, 500.0));
        assert_eq!(
            place(&kept, "step:q"),
            (1000.0, 500.0 + NODE_HEIGHT + GAP_Y)
        );
        assert_eq!(place(&kept, "step:a"), place(&before, "step:a"));
    }

    #[test]
    fn an_unchanged_layout_is_not_copied() {
        let before = graph(FOUR);
        assert!(keep_places(
            &before,
            &graph(&FOUR.replace("t\n", "u\n")),
            &[],
            None,
            Direction::TopDown
        )
        .is_none());
    }

    /// Issue #18: in left-right a new step goes to the right of the step it needs.
    #[test]
    fn in_left_right_a_new_step_goes_right_of_the_step_it_needs() {
        let before = graph(FOUR);
        let after = graph(&FOUR.replace("  d: {}\n", "  d: {}\n  e: {needs: [d]}\n"));
        let kept = keep_places(&before, &after, &[], None, Direction::LeftRight).unwrap();
        let (d, e) = (place(&kept, "step:d"), place(&kept, "step:e"));
        assert_eq!(e, (d.0 + NODE_WIDTH + GAP_X, d.1));
    }

    #[test]
    fn a_new_step_goes_below_the_step_it_needs_and_clear_of_others() {
        let before = graph(&FOUR.replace("b: {}", "b: {needs: [a]}"));
        let after = graph(
            &FOUR
                .replace("b: {}", "b: {needs: [a]}")
                .replace("  d: {}\n", "  d: {}\n  e: {needs: [a]}\n"),
        );
        let kept = keep_places(&before, &after, &[], None, Direction::TopDown).unwrap();
        let (a, b, e) = (
            place(&kept, "step:a"),
            place(&kept, "step:b"),
            place(&kept, "step:e"),
        );
        assert_eq!(e.1, a.1 + NODE_HEIGHT + GAP_Y, "one row below a");
        assert!(
            e.0 >= b.0 + NODE_WIDTH,
            "beside b, which holds the place below a"
        );
        for n in kept.nodes.iter().filter(|n| n.id != "step:e") {
            let apart = (n.x - e.0).abs() >= NODE_WIDTH || (n.y - e.1).abs() >= NODE_HEIGHT;
            assert!(apart, "{} overlaps e", n.id);
        }
    }

    /// The bucketed search finds what a scan of every placed box finds (the scan it replaced).
    mod occupied {
        use super::super::*;
        use proptest::prelude::*;

        fn scanned(places: &[(f64, f64)], wanted: (f64, f64)) -> (f64, f64) {
            let overlaps = |x: f64, y: f64| {
                places
                    .iter()
                    .any(|(px, py)| (px - x).abs() < OVERLAP_X && (py - y).abs() < OVERLAP_Y)
            };
            let mut x = wanted.0;
            while overlaps(x, wanted.1) {
                x += NODE_WIDTH + GAP_X;
            }
            (x, wanted.1)
        }

        /// Places on and off the layout grid, negative ones too, some exactly one overlap
        /// distance apart (the edge of a cell).
        fn place() -> impl Strategy<Value = (f64, f64)> {
            prop_oneof![
                (-20i32..20, -20i32..20).prop_map(|(i, j)| (
                    f64::from(i) * (NODE_WIDTH + GAP_X),
                    f64::from(j) * (NODE_HEIGHT + GAP_Y)
                )),
                (-20i32..20, -20i32..20)
                    .prop_map(|(i, j)| (f64::from(i) * OVERLAP_X, f64::from(j) * OVERLAP_Y)),
                (-3000.0f64..3000.0, -3000.0f64..3000.0),
            ]
        }

        proptest! {
            #[test]
            fn finds_the_place_a_scan_of_every_box_finds(
                places in proptest::collection::vec(place(), 0..200),
                wanted in place(),
            ) {
                let mut occupied = Occupied::default();
                for &(x, y) in &places {
                    occupied.add(x, y);
                }
                prop_assert_eq!(occupied.free_place(wanted), scanned(&places, wanted));
            }
        }
    }
}
