//! Deterministic layered layout (Sugiyama style): back edges found by depth-first search are
//! drawn as loops; layers by longest path over the remaining edges; order inside a layer by the
//! barycenter of predecessors, ties by declaration order (so adding a node leaves the others
//! where they were); coordinates on a grid. Nodes the user placed keep their place. Decision
//! trees are laid out as trees (`tree_layout`), as one block before the layers of the steps.

use std::collections::HashMap;

use super::tree_layout::tree_spots;
use super::Graph;

/// Which way the layers go: each layer is a row (top-down) or a column (left-right).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Direction {
    /// Layers top to bottom, a layer's nodes left to right.
    #[default]
    TopDown,
    /// Layers left to right, a layer's nodes top to bottom.
    LeftRight,
}

/// Sizes of the layout grid, in canvas units (CSS pixels in the studio), and its direction.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LayoutOptions {
    /// Width of every node's box.
    pub node_width: f64,
    /// Height of every node's box.
    pub node_height: f64,
    /// Space between neighbours in a layer.
    pub horizontal_gap: f64,
    /// Space between layers.
    pub vertical_gap: f64,
    /// Which way the layers go.
    pub direction: Direction,
}

impl Default for LayoutOptions {
    fn default() -> Self {
        LayoutOptions {
            node_width: 220.0,
            node_height: 72.0,
            horizontal_gap: 60.0,
            vertical_gap: 70.0,
            direction: Direction::TopDown,
        }
    }
}

/// Positions every node that is not pinned (layers along `options.direction`, a layer's nodes
/// across it) and marks the edges that go back as `back`. Deterministic: the same graph gives the same
/// positions.
pub fn layout(graph: &mut Graph, options: LayoutOptions) {
    let count = graph.nodes.len();
    let index: HashMap<&str, usize> = graph
        .nodes
        .iter()
        .enumerate()
        .map(|(i, n)| (n.id.as_str(), i))
        .collect();
    // Edges between known nodes, with their place in `graph.edges`.
    let (edges, places): (Vec<(usize, usize)>, Vec<usize>) = graph
        .edges
        .iter()
        .enumerate()
        .filter_map(|(place, e)| {
            Some((
                (
                    *index.get(e.source.as_str())?,
                    *index.get(e.target.as_str())?,
                ),
                place,
            ))
        })
        .unzip();
    let back = back_edges(count, &edges);
    let mut is_back = vec![false; edges.len()];
    for &(_, _, position) in &back {
        is_back[position] = true;
    }
    let marked = std::sync::Arc::make_mut(&mut graph.edges);
    for edge in marked.iter_mut() {
        edge.back = false;
    }
    for &(_, _, position) in &back {
        marked[places[position]].back = true;
    }
    let forward: Vec<(usize, usize)> = edges
        .iter()
        .enumerate()
        .filter(|(i, (s, t))| !is_back[*i] && s != t)
        .map(|(_, e)| *e)
        .collect();
    let (spots, tree_rows) = tree_spots(graph, &index, &forward);
    let mut in_tree = vec![false; count];
    for spot in &spots {
        in_tree[spot.node] = true;
    }
    // The steps' layers do not depend on the trees that route to them.
    let forward: Vec<(usize, usize)> = forward
        .into_iter()
        .filter(|(s, t)| !in_tree[*s] && !in_tree[*t])
        .collect();
    let layer = layers(count, &forward);
    let depth = layer.iter().copied().max().map_or(0, |d| d + 1);
    let mut rows: Vec<Vec<usize>> = vec![Vec::new(); depth];
    for node in (0..count).filter(|n| !in_tree[*n]) {
        rows[layer[node]].push(node);
    }
    let mut parents: Vec<Vec<usize>> = vec![Vec::new(); count];
    for (s, t) in &forward {
        parents[*t].push(*s);
    }
    let mut column = vec![0.0f64; count];
    for row in rows.iter_mut() {
        let mut keyed: Vec<(f64, usize)> = row
            .iter()
            .map(|&n| {
                let above = &parents[n];
                let center = if above.is_empty() {
                    f64::MAX
                } else {
                    above.iter().map(|&p| column[p]).sum::<f64>() / above.len() as f64
                };
                (center, n)
            })
            .collect();
        crate::sorting::sort_by(&mut keyed, |a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        *row = keyed.into_iter().map(|(_, n)| n).collect();
        for (i, &n) in row.iter().enumerate() {
            column[n] = i as f64;
        }
    }
    let mut places: Vec<(usize, (f64, f64))> = spots
        .iter()
        .map(|s| (s.node, (s.row as f64, s.column)))
        .collect();
    for (depth, row) in rows.iter().enumerate() {
        for (i, &n) in row.iter().enumerate() {
            places.push((n, ((depth + tree_rows) as f64, i as f64)));
        }
    }
    for (n, (depth, index)) in places {
        let node = &mut graph.nodes[n];
        if !node.pinned {
            (node.x, node.y) = place(depth, index, &options);
        }
    }
}

/// The top-left corner of the `index`th node of layer `depth`. Left-right keeps the same gaps
/// between boxes: a layer is a column one box wide, its nodes one box high apart. Whole units: a
/// tree's parent sits half way between its children, and the text never gets `x: 17.5`.
fn place(depth: f64, index: f64, options: &LayoutOptions) -> (f64, f64) {
    let (x, y) = match options.direction {
        Direction::TopDown => (
            index * (options.node_width + options.horizontal_gap),
            depth * (options.node_height + options.vertical_gap),
        ),
        Direction::LeftRight => (
            depth * (options.node_width + options.horizontal_gap),
            index * (options.node_height + options.vertical_gap),
        ),
    };
    (x.round(), y.round())
}

/// Edges `(source, target, position)` that close a cycle in a depth-first search started from
/// nodes in declaration order (entries first).
fn back_edges(count: usize, edges: &[(usize, usize)]) -> Vec<(usize, usize, usize)> {
    let mut outgoing: Vec<Vec<(usize, usize)>> = vec![Vec::new(); count];
    let mut incoming = vec![0usize; count];
    for (i, (s, t)) in edges.iter().enumerate() {
        outgoing[*s].push((*t, i));
        incoming[*t] += 1;
    }
    let mut state = vec![0u8; count]; // 0 new, 1 on stack, 2 done
    let mut back = Vec::new();
    let starts: Vec<usize> = (0..count)
        .filter(|n| incoming[*n] == 0)
        .chain(0..count)
        .collect();
    for start in starts {
        if state[start] != 0 {
            continue;
        }
        let mut stack = vec![(start, 0usize)];
        state[start] = 1;
        while let Some((node, next)) = stack.pop() {
            if let Some(&(target, position)) = outgoing[node].get(next) {
                stack.push((node, next + 1));
                match state[target] {
                    0 => {
                        state[target] = 1;
                        stack.push((target, 0));
                    }
                    1 => back.push((node, target, position)),
                    _ => {}
                }
            } else {
                state[node] = 2;
            }
        }
    }
    back
}

/// Longest-path layers over an acyclic edge set.
pub(super) fn layers(count: usize, edges: &[(usize, usize)]) -> Vec<usize> {
    let mut indegree = vec![0usize; count];
    let mut outgoing: Vec<Vec<usize>> = vec![Vec::new(); count];
    for (s, t) in edges {
        indegree[*t] += 1;
        outgoing[*s].push(*t);
    }
    let mut layer = vec![0usize; count];
    let mut ready: Vec<usize> = (0..count).filter(|n| indegree[*n] == 0).rev().collect();
    while let Some(node) = ready.pop() {
        for &next in &outgoing[node] {
            layer[next] = layer[next].max(layer[node] + 1);
            indegree[next] -= 1;
            if indegree[next] == 0 {
                ready.push(next);
            }
        }
    }
    layer
}
