//! What the far canvas draws, as plain values: the nodes and wires in view, minus those the SVG
//! still holds (the selection and a drag in progress), each with what decides its colours. Kept
//! apart from the painting so that it can be tested without a browser.

use rustc_hash::{FxHashMap, FxHashSet};

use logicmd::graph::{Graph, GraphNode};

use crate::canvas::cull::Rect;
use crate::canvas::draw::wire_ends;
use crate::problems::NodeProblems;

/// How a node's outline is drawn, mirroring the SVG's rules (a run state wins over a problem,
/// a problem over the selection: the same order the stylesheets give them).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outline {
    Plain,
    Selected,
    Invalid,
    Run(&'static str),
}

/// A node of the far picture.
#[derive(Debug, Clone, PartialEq)]
pub struct FarNode<'g> {
    pub node: &'g GraphNode,
    pub outline: Outline,
    /// The badge: (problem count, whether any is an error).
    pub badge: Option<(usize, bool)>,
}

/// A wire of the far picture: a straight line between its ports.
#[derive(Debug, Clone, PartialEq)]
pub struct FarWire<'g> {
    pub kind: &'g str,
    pub compatible: bool,
    pub from: (f64, f64),
    pub to: (f64, f64),
}

/// What the far canvas draws this frame.
#[derive(Debug, Default, PartialEq)]
pub struct Scene<'g> {
    pub nodes: Vec<FarNode<'g>>,
    pub wires: Vec<FarWire<'g>>,
}

/// The state the picture depends on besides the graph.
pub struct Marks<'a> {
    /// Nodes the SVG draws itself (not painted here, nor their wires).
    pub kept: &'a FxHashSet<String>,
    /// Selected nodes (a group's members are painted selected).
    pub selected: &'a FxHashSet<String>,
    pub problems: &'a FxHashMap<String, NodeProblems>,
    /// Node name → run state (`data-run-state`).
    pub runs: &'a FxHashMap<String, &'static str>,
    pub sideways: bool,
}

/// The nodes and wires touching `visible` (graph coordinates).
pub fn scene<'g>(graph: &'g Graph, visible: &Rect, marks: &Marks) -> Scene<'g> {
    let nodes = graph
        .nodes
        .iter()
        .filter(|n| !marks.kept.contains(&n.id) && Rect::node(n.x, n.y).intersects(visible))
        .map(|node| {
            let problems = marks.problems.get(&node.id);
            let outline = match (marks.runs.get(&node.name), problems) {
                (Some(state), _) => Outline::Run(state),
                (None, Some(_)) => Outline::Invalid,
                (None, None) if marks.selected.contains(&node.id) => Outline::Selected,
                (None, None) => Outline::Plain,
            };
            FarNode {
                node,
                outline,
                badge: problems.map(|p| (p.messages.len(), p.errors > 0)),
            }
        })
        .collect();
    let by_id: FxHashMap<&str, &GraphNode> =
        graph.nodes.iter().map(|n| (n.id.as_str(), n)).collect();
    let wires = graph
        .edges
        .iter()
        .filter(|e| !marks.kept.contains(&e.source) && !marks.kept.contains(&e.target))
        .filter_map(|e| {
            let (source, target) = (by_id.get(e.source.as_str())?, by_id.get(e.target.as_str())?);
            let (from, to) = wire_ends(e, source, target, marks.sideways);
            Rect::wire(from, to).intersects(visible).then_some(FarWire {
                kind: &e.kind,
                compatible: e.compatible,
                from,
                to,
            })
        })
        .collect();
    Scene { nodes, wires }
}

/// A name shortened to what fits in `room` graph units at `size` (the SVG clips it; a canvas
/// cannot clip ten thousand names cheaply, so it ends the name with an ellipsis instead).
pub fn fitted_name(name: &str, room: f64, size: f64) -> String {
    // Bold sans-serif averages about 0.6 em a character.
    let fits = (room / (0.6 * size)).floor().max(1.0) as usize;
    if name.chars().count() <= fits {
        name.to_owned()
    } else {
        let cut: String = name.chars().take(fits.saturating_sub(1)).collect();
        format!("{cut}…")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DOC: &str = "---\nspec_version: \"1.0\"\nname: t\nsteps:\n  a: {}\n  b: {needs: [a]}\n  c: {needs: [b]}\n---\n";

    fn graph() -> Graph {
        let mut graph =
            logicmd::graph::from_document(&logicmd::Document::parse(DOC).document.unwrap());
        logicmd::graph::layout(&mut graph, logicmd::graph::LayoutOptions::default());
        graph
    }

    fn set(ids: &[&str]) -> FxHashSet<String> {
        ids.iter().map(|s| (*s).to_owned()).collect()
    }

    const EVERYWHERE: Rect = Rect {
        left: -1e9,
        top: -1e9,
        right: 1e9,
        bottom: 1e9,
    };

    #[test]
    fn the_scene_leaves_the_svgs_nodes_and_their_wires_out_and_marks_the_rest() {
        let graph = graph();
        let (kept, selected) = (set(&["step:b"]), set(&["step:b", "step:c"]));
        let mut problems = FxHashMap::default();
        problems.insert(
            "step:a".to_owned(),
            NodeProblems {
                errors: 1,
                messages: vec!["bad".to_owned()],
            },
        );
        let runs = FxHashMap::default();
        let marks = Marks {
            kept: &kept,
            selected: &selected,
            problems: &problems,
            runs: &runs,
            sideways: false,
        };
        let scene = scene(&graph, &EVERYWHERE, &marks);
        let drawn = scene
            .nodes
            .iter()
            .map(|n| (n.node.id.as_str(), n.outline, n.badge))
            .collect::<Vec<_>>();
        assert_eq!(
            drawn,
            vec![
                ("step:a", Outline::Invalid, Some((1, true))),
                ("step:c", Outline::Selected, None),
            ]
        );
        // Both wires touch b, which the SVG draws with its wires.
        assert_eq!(scene.wires, vec![]);
    }

    #[test]
    fn the_scene_holds_only_what_is_in_view() {
        let graph = graph();
        let none = FxHashSet::default();
        let (problems, runs) = (FxHashMap::default(), FxHashMap::default());
        let marks = Marks {
            kept: &none,
            selected: &none,
            problems: &problems,
            runs: &runs,
            sideways: false,
        };
        let all = scene(&graph, &EVERYWHERE, &marks);
        assert_eq!((all.nodes.len(), all.wires.len()), (3, 2));
        let a = graph.node("step:a").unwrap();
        let around_a = Rect {
            left: a.x - 1.0,
            top: a.y - 1.0,
            right: a.x + 1.0,
            bottom: a.y + 1.0,
        };
        let part = scene(&graph, &around_a, &marks);
        let ids: Vec<&str> = part.nodes.iter().map(|n| n.node.id.as_str()).collect();
        assert_eq!(ids, vec!["step:a"]);
        // The wire a → b starts on a's edge.
        assert_eq!(part.wires.len(), 1);
    }

    #[test]
    fn a_run_state_outlines_a_node_whatever_else_holds() {
        let graph = graph();
        let selected = set(&["step:a"]);
        let none = FxHashSet::default();
        let problems = FxHashMap::default();
        let mut runs = FxHashMap::default();
        runs.insert("a".to_owned(), "running");
        let marks = Marks {
            kept: &none,
            selected: &selected,
            problems: &problems,
            runs: &runs,
            sideways: false,
        };
        let scene = scene(&graph, &EVERYWHERE, &marks);
        assert_eq!(scene.nodes[0].outline, Outline::Run("running"));
    }

    #[test]
    fn names_are_cut_to_the_room_with_an_ellipsis() {
        assert_eq!(fitted_name("short", 172.0, 10.0), "short");
        assert_eq!(
            fitted_name("a_rather_long_step_name", 172.0, 34.0),
            "a_rathe…"
        );
        assert_eq!(fitted_name("abc", 1.0, 34.0), "…");
    }
}
