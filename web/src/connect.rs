//! Whether a wire drawn from an output port to an input port may become a connection, and the
//! edit that writes it: a `needs` entry between LOGIC.md steps, an edge between DRTL nodes.

use std::collections::HashMap;

use logicmd::edit::Edit;
use logicmd::graph::{types_fit, Graph, GraphNode};

use crate::analysis::Kind;

/// One end of a wire: a node and the type of the port grabbed.
pub struct End<'a> {
    pub node: &'a str,
    pub port_type: &'a str,
}

pub fn connection(graph: &Graph, kind: Kind, from: End, to: End) -> Result<Edit, String> {
    let find = |id: &str| {
        graph
            .node(id)
            .ok_or_else(|| format!("there is no node `{id}`"))
    };
    let (source, target) = (find(from.node)?, find(to.node)?);
    if source.id == target.id {
        return Err(format!("`{}` cannot be connected to itself", source.name));
    }
    let connectable = |node: &GraphNode| match kind {
        Kind::Logic => node.kind == "step",
        Kind::Drtl => node.id.starts_with("drtl:"),
    };
    for node in [source, target] {
        if !connectable(node) {
            return Err(format!(
                "only steps can be wired in LOGIC.md (a `needs` entry); `{}` is a {} node",
                node.name, node.kind
            ));
        }
    }
    if !types_fit(from.port_type, to.port_type) {
        return Err(format!(
            "a `{}` output does not fit the `{}` input of `{}`",
            from.port_type, to.port_type, target.name
        ));
    }
    if kind == Kind::Logic {
        if let Some(path) = needs_path(graph, &target.id, &source.id) {
            return Err(format!(
                "`{}` would need `{}`, but {} already: that is a cycle",
                target.name,
                source.name,
                path.join(" → ")
            ));
        }
    }
    Ok(Edit::Connect {
        from: source.name.clone(),
        to: target.name.clone(),
    })
}

/// The chain of step names from `start` to `goal` along `needs` edges (source → dependant):
/// a breadth-first search, linear in the size of the graph.
fn needs_path(graph: &Graph, start: &str, goal: &str) -> Option<Vec<String>> {
    let mut next: HashMap<&str, Vec<&str>> = HashMap::new();
    for edge in graph.edges.iter().filter(|e| e.kind == "needs") {
        next.entry(edge.source.as_str())
            .or_default()
            .push(edge.target.as_str());
    }
    let mut came_from: HashMap<&str, &str> = HashMap::new();
    let mut queue = std::collections::VecDeque::from([start]);
    let mut reached = start == goal;
    while let Some(id) = queue.pop_front().filter(|_| !reached) {
        for &target in next.get(id).into_iter().flatten() {
            if target != start && !came_from.contains_key(target) {
                came_from.insert(target, id);
                reached |= target == goal;
                queue.push_back(target);
            }
        }
    }
    if !reached {
        return None;
    }
    let mut chain = vec![goal];
    while let Some(&previous) = chain.last().and_then(|id| came_from.get(id)) {
        chain.push(previous);
    }
    let names: HashMap<&str, &str> = graph
        .nodes
        .iter()
        .map(|n| (n.id.as_str(), n.name.as_str()))
        .collect();
    Some(
        chain
            .iter()
            .rev()
            .filter_map(|id| names.get(id).map(|n| (*n).to_owned()))
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    const DOC: &str = "---\nspec_version: \"1.0\"\nname: t\nsteps:\n  a:\n    output_schema: {type: object}\n  b:\n    needs: [a]\n  c:\n    needs: [b]\n    input_schema: {type: string}\n---\n";

    fn graph() -> Graph {
        logicmd::graph::from_document(&logicmd::Document::parse(DOC).document.unwrap())
    }

    fn end<'a>(node: &'a str, port_type: &'a str) -> End<'a> {
        End { node, port_type }
    }

    #[test]
    fn a_compatible_connection_becomes_a_needs_entry() {
        let edit = connection(
            &graph(),
            Kind::Logic,
            end("step:a", "any"),
            end("step:b", "any"),
        );
        assert_eq!(
            edit,
            Ok(Edit::Connect {
                from: "a".into(),
                to: "b".into()
            })
        );
    }

    #[test]
    fn cycles_self_loops_and_type_mismatches_are_refused_with_the_reason() {
        let g = graph();
        let cycle = connection(&g, Kind::Logic, end("step:c", "any"), end("step:a", "any"));
        assert_eq!(
            cycle.unwrap_err(),
            "`a` would need `c`, but a → b → c already: that is a cycle"
        );
        let itself = connection(&g, Kind::Logic, end("step:a", "any"), end("step:a", "any"));
        assert!(itself.unwrap_err().contains("itself"));
        let types = connection(
            &g,
            Kind::Logic,
            end("step:a", "object"),
            end("step:c", "string"),
        );
        assert_eq!(
            types.unwrap_err(),
            "a `object` output does not fit the `string` input of `c`"
        );
    }
}
