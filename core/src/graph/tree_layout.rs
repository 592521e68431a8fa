//! Decision trees laid out as trees (a tidy tree, Reingold–Tilford style without the
//! compaction): a member's row is its longest path from a root, so every wire inside the tree goes
//! forward; each member hangs under its first parent in branch order one row up; leaves take one
//! column each in that order and a parent is centred over its children; terminals move to the
//! tree's last row so the wires they send to steps all leave from one edge of the tree. The trees
//! sit side by side, one empty column apart, as one block that the steps follow.

use std::collections::HashMap;

use super::Graph;

/// A tree member's place in grid units: `row` along the flow from the block's start, `column`
/// across it (a half column centres a parent over an even number of children).
pub(super) struct Spot {
    pub node: usize,
    pub row: usize,
    pub column: f64,
}

/// The places of every decision-tree member, and how many rows the block of trees takes.
/// `forward` are the layout's edges without the loops, as graph node indices.
pub(super) fn tree_spots(
    graph: &Graph,
    index: &HashMap<&str, usize>,
    forward: &[(usize, usize)],
) -> (Vec<Spot>, usize) {
    let mut spots = Vec::new();
    let (mut rows, mut start) = (0, 0.0);
    for group in graph.groups.iter().filter(|g| g.kind == "decision_tree") {
        let members: Vec<usize> = group
            .members
            .iter()
            .filter_map(|m| index.get(m.as_str()).copied())
            .collect();
        if members.is_empty() {
            continue;
        }
        let tree = Tree::of(graph, &members, forward);
        let width = tree.place(start, &mut spots);
        rows = rows.max(tree.row.iter().max().map_or(0, |r| r + 1));
        start += width + 1.0;
    }
    (spots, rows)
}

/// One tree, indexed by the place of a member in the group's member list.
struct Tree<'a> {
    members: &'a [usize],
    /// The members each member hangs over, in branch order.
    children: Vec<Vec<usize>>,
    row: Vec<usize>,
}

impl<'a> Tree<'a> {
    fn of(graph: &Graph, members: &'a [usize], forward: &[(usize, usize)]) -> Tree<'a> {
        let local: HashMap<usize, usize> =
            members.iter().enumerate().map(|(i, &n)| (n, i)).collect();
        let mut outgoing: Vec<Vec<usize>> = vec![Vec::new(); members.len()];
        for (s, t) in forward {
            if let (Some(&s), Some(&t)) = (local.get(s), local.get(t)) {
                if s != t && !outgoing[s].contains(&t) {
                    outgoing[s].push(t);
                }
            }
        }
        let mut row = longest_paths(&outgoing);
        let mut parent: Vec<Option<usize>> = vec![None; members.len()];
        for (s, targets) in outgoing.iter().enumerate() {
            for &t in targets {
                if parent[t].is_none() && row[s] + 1 == row[t] {
                    parent[t] = Some(s);
                }
            }
        }
        let mut children: Vec<Vec<usize>> = vec![Vec::new(); members.len()];
        for (s, targets) in outgoing.iter().enumerate() {
            children[s] = targets
                .iter()
                .copied()
                .filter(|&t| parent[t] == Some(s))
                .collect();
        }
        let last = row.iter().copied().max().unwrap_or(0);
        for (i, &node) in members.iter().enumerate() {
            if graph.nodes[node].kind == "terminal" && children[i].is_empty() {
                row[i] = last;
            }
        }
        Tree {
            members,
            children,
            row,
        }
    }

    /// Adds the spots of the members from column `start` on; returns the columns it takes.
    fn place(&self, start: f64, spots: &mut Vec<Spot>) -> f64 {
        let count = self.members.len();
        let mut has_parent = vec![false; count];
        for &c in self.children.iter().flatten() {
            has_parent[c] = true;
        }
        // Preorder from the roots in member order, children in branch order.
        let mut order = Vec::with_capacity(count);
        let mut stack: Vec<usize> = (0..count).rev().filter(|&n| !has_parent[n]).collect();
        while let Some(n) = stack.pop() {
            order.push(n);
            stack.extend(self.children[n].iter().rev());
        }
        let mut column = vec![0.0f64; count];
        let mut leaves = 0.0;
        for &n in &order {
            if self.children[n].is_empty() {
                column[n] = start + leaves;
                leaves += 1.0;
            }
        }
        for &n in order.iter().rev() {
            if let (Some(&first), Some(&last)) = (self.children[n].first(), self.children[n].last())
            {
                column[n] = (column[first] + column[last]) / 2.0;
            }
        }
        spots.extend(order.iter().map(|&n| Spot {
            node: self.members[n],
            row: self.row[n],
            column: column[n],
        }));
        leaves
    }
}

/// The longest path from a root to each node of an acyclic graph given by its out-lists.
fn longest_paths(outgoing: &[Vec<usize>]) -> Vec<usize> {
    let edges: Vec<(usize, usize)> = outgoing
        .iter()
        .enumerate()
        .flat_map(|(s, ts)| ts.iter().map(move |&t| (s, t)))
        .collect();
    super::layout::layers(outgoing.len(), &edges)
}
