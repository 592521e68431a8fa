//! Comparing two states: a side-by-side line diff of the texts and a graph diff (nodes and wires
//! added, removed or changed).

use std::collections::{HashMap, HashSet};

use logicmd::graph::Graph;
use serde_json::Value;

/// How a row or a node differs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    Same,
    Added,
    Removed,
    Changed,
}

impl Change {
    pub fn name(self) -> &'static str {
        match self {
            Change::Same => "same",
            Change::Added => "added",
            Change::Removed => "removed",
            Change::Changed => "changed",
        }
    }
}

/// One row of the side-by-side diff: the earlier line (number, text) and the current one.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub change: Change,
    pub old: Option<(usize, String)>,
    pub new: Option<(usize, String)>,
}

/// Above this many line pairs the middle of the texts is shown as removed then added, rather
/// than searched for common lines (the search is quadratic).
const SEARCH_LIMIT: usize = 4_000_000;

/// The rows of a side-by-side diff of `old` against `new`.
pub fn lines(old: &str, new: &str) -> Vec<Row> {
    let a: Vec<&str> = old.lines().collect();
    let b: Vec<&str> = new.lines().collect();
    let prefix = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let suffix = a[prefix..]
        .iter()
        .rev()
        .zip(b[prefix..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let (mid_a, mid_b) = (&a[prefix..a.len() - suffix], &b[prefix..b.len() - suffix]);
    let mut rows: Vec<Row> = (0..prefix).map(|i| same(i, a[i])).collect();
    let pairs = if mid_a.len() * mid_b.len() <= SEARCH_LIMIT {
        common(mid_a, mid_b)
    } else {
        Vec::new()
    };
    let (mut i, mut j) = (0, 0);
    for (pi, pj) in pairs.into_iter().chain([(mid_a.len(), mid_b.len())]) {
        rows.extend((i..pi).map(|k| Row {
            change: Change::Removed,
            old: Some((prefix + k + 1, mid_a[k].to_owned())),
            new: None,
        }));
        rows.extend((j..pj).map(|k| Row {
            change: Change::Added,
            old: None,
            new: Some((prefix + k + 1, mid_b[k].to_owned())),
        }));
        if pi < mid_a.len() {
            rows.push(Row {
                change: Change::Same,
                old: Some((prefix + pi + 1, mid_a[pi].to_owned())),
                new: Some((prefix + pj + 1, mid_b[pj].to_owned())),
            });
        }
        (i, j) = (pi + 1, pj + 1);
    }
    let shift = b.len() as isize - a.len() as isize;
    rows.extend((a.len() - suffix..a.len()).map(|k| Row {
        change: Change::Same,
        old: Some((k + 1, a[k].to_owned())),
        new: Some(((k as isize + shift) as usize + 1, a[k].to_owned())),
    }));
    rows
}

fn same(index: usize, line: &str) -> Row {
    Row {
        change: Change::Same,
        old: Some((index + 1, line.to_owned())),
        new: Some((index + 1, line.to_owned())),
    }
}

/// The index pairs of a longest common subsequence of lines.
fn common(a: &[&str], b: &[&str]) -> Vec<(usize, usize)> {
    let (n, m) = (a.len(), b.len());
    let mut table = vec![0u32; (n + 1) * (m + 1)];
    let at = |i: usize, j: usize| i * (m + 1) + j;
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            table[at(i, j)] = if a[i] == b[j] {
                table[at(i + 1, j + 1)] + 1
            } else {
                table[at(i + 1, j)].max(table[at(i, j + 1)])
            };
        }
    }
    let (mut i, mut j, mut pairs) = (0, 0, Vec::new());
    while i < n && j < m {
        if a[i] == b[j] {
            pairs.push((i, j));
            (i, j) = (i + 1, j + 1);
        } else if table[at(i + 1, j)] >= table[at(i, j + 1)] {
            i += 1;
        } else {
            j += 1;
        }
    }
    pairs
}

/// Nodes and wires of two graphs, each with how it changed. A node changed when its definition
/// (the JSON at its pointer) differs.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct GraphDiff {
    /// (node id, name, change, x, y): placed where the current graph has it, else where it was.
    pub nodes: Vec<(String, String, Change, f64, f64)>,
    /// (source id, target id, change).
    pub wires: Vec<(String, String, Change)>,
}

pub fn graphs(old: &Graph, old_json: &Value, new: &Graph, new_json: &Value) -> GraphDiff {
    let before: HashMap<&str, _> = old.nodes.iter().map(|n| (n.id.as_str(), n)).collect();
    let now: HashSet<&str> = new.nodes.iter().map(|n| n.id.as_str()).collect();
    let mut nodes: Vec<_> = new
        .nodes
        .iter()
        .map(|n| {
            let change = match before.get(n.id.as_str()) {
                None => Change::Added,
                Some(o) if old_json.pointer(&o.pointer) != new_json.pointer(&n.pointer) => {
                    Change::Changed
                }
                Some(_) => Change::Same,
            };
            (n.id.clone(), n.name.clone(), change, n.x, n.y)
        })
        .collect();
    nodes.extend(
        old.nodes
            .iter()
            .filter(|n| !now.contains(n.id.as_str()))
            .map(|n| (n.id.clone(), n.name.clone(), Change::Removed, n.x, n.y)),
    );
    let ends = |g: &Graph| -> HashSet<(String, String)> {
        g.edges
            .iter()
            .map(|e| (e.source.clone(), e.target.clone()))
            .collect()
    };
    let (was, is) = (ends(old), ends(new));
    let mut wires: Vec<_> = new
        .edges
        .iter()
        .map(|e| {
            let key = (e.source.clone(), e.target.clone());
            let change = if was.contains(&key) {
                Change::Same
            } else {
                Change::Added
            };
            (key.0, key.1, change)
        })
        .collect();
    wires.extend(
        old.edges
            .iter()
            .filter(|e| !is.contains(&(e.source.clone(), e.target.clone())))
            .map(|e| (e.source.clone(), e.target.clone(), Change::Removed)),
    );
    GraphDiff { nodes, wires }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(rows: &[Row]) -> String {
        rows.iter()
            .map(|r| match r.change {
                Change::Same => '=',
                Change::Added => '+',
                Change::Removed => '-',
                Change::Changed => '~',
            })
            .collect()
    }

    #[test]
    fn lines_line_up_side_by_side() {
        let rows = lines("a\nb\nc\nd\n", "a\nc\nx\nd\n");
        assert_eq!(kinds(&rows), "=-=+=");
        assert_eq!(rows[1].old, Some((2, "b".to_owned())));
        assert_eq!(rows[3].new, Some((3, "x".to_owned())));
        assert_eq!(rows[4].old, Some((4, "d".to_owned())));
        assert_eq!(rows[4].new, Some((4, "d".to_owned())));
        assert_eq!(kinds(&lines("same\n", "same\n")), "=");
        assert_eq!(kinds(&lines("", "new\n")), "+");
    }

    #[test]
    fn graphs_show_added_removed_and_changed_nodes_and_wires() {
        let parse = |text: &str| {
            let document = logicmd::Document::parse(text).document.unwrap();
            (
                logicmd::graph::from_document(&document),
                document.json().clone(),
            )
        };
        let (old, old_json) = parse("---\nspec_version: \"1.0\"\nname: t\nsteps:\n  a: {}\n  b:\n    needs: [a]\n  c: {}\n---\n");
        let (new, new_json) = parse("---\nspec_version: \"1.0\"\nname: t\nsteps:\n  a: {description: changed}\n  c:\n    needs: [a]\n  d: {}\n---\n");
        let diff = graphs(&old, &old_json, &new, &new_json);
        let of = |id: &str| diff.nodes.iter().find(|n| n.0 == id).map(|n| n.2);
        assert_eq!(of("step:a"), Some(Change::Changed));
        assert_eq!(of("step:b"), Some(Change::Removed));
        assert_eq!(of("step:c"), Some(Change::Changed));
        assert_eq!(of("step:d"), Some(Change::Added));
        let wire = |a: &str, b: &str| {
            diff.wires
                .iter()
                .find(|w| w.0 == a && w.1 == b)
                .map(|w| w.2)
        };
        assert_eq!(wire("step:a", "step:b"), Some(Change::Removed));
        assert_eq!(wire("step:a", "step:c"), Some(Change::Added));
    }
}
