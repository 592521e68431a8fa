//! The graph as Graphviz DOT and as a Mermaid flowchart.

use std::fmt::Write;

use super::Graph;

fn dot_escape(text: &str) -> String {
    text.replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('\n', "\\n")
}

pub fn to_dot(graph: &Graph) -> String {
    let mut out =
        String::from("digraph logicmd {\n  rankdir=TB;\n  node [shape=box, style=rounded];\n");
    for node in &graph.nodes {
        let shape = match node.kind.as_str() {
            "decision" | "gate" => "diamond",
            "terminal" | "review" => "octagon",
            _ => "box",
        };
        let _ = writeln!(
            out,
            "  \"{}\" [label=\"{}\", shape={shape}];",
            dot_escape(&node.id),
            dot_escape(&node.label)
        );
    }
    for edge in &graph.edges {
        let style = if edge.back {
            ", style=dashed, constraint=false"
        } else {
            ""
        };
        let label = edge
            .label
            .as_deref()
            .map(|l| format!(", label=\"{}\"", dot_escape(l)))
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "  \"{}\" -> \"{}\" [class={}{label}{style}];",
            dot_escape(&edge.source),
            dot_escape(&edge.target),
            edge.kind
        );
    }
    out.push_str("}\n");
    out
}

/// Mermaid ids are restricted: every node gets `n0`, `n1`, ... and its label in quotes.
pub fn to_mermaid(graph: &Graph) -> String {
    let mut out = String::from("flowchart TD\n");
    let id = |node_id: &str| {
        graph
            .nodes
            .iter()
            .position(|n| n.id == node_id)
            .map(|i| format!("n{i}"))
    };
    let label = |text: &str| {
        text.replace('"', "#quot;")
            .replace('\n', " ")
            .replace('|', "#124;")
    };
    for (i, node) in graph.nodes.iter().enumerate() {
        let text = label(&node.label);
        let shape = match node.kind.as_str() {
            "decision" | "gate" => format!("n{i}{{\"{text}\"}}"),
            "terminal" | "review" => format!("n{i}([\"{text}\"])"),
            _ => format!("n{i}[\"{text}\"]"),
        };
        let _ = writeln!(out, "    {shape}");
    }
    for edge in &graph.edges {
        let (Some(source), Some(target)) = (id(&edge.source), id(&edge.target)) else {
            continue;
        };
        let arrow = if edge.back { "-.->" } else { "-->" };
        match &edge.label {
            Some(text) => {
                let _ = writeln!(out, "    {source} {arrow}|\"{}\"| {target}", label(text));
            }
            None => {
                let _ = writeln!(out, "    {source} {arrow} {target}");
            }
        }
    }
    out
}
