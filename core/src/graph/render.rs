//! The graph as Graphviz DOT and as a Mermaid flowchart.

use std::fmt::Write;

use super::Graph;

fn dot_escape(text: &str) -> String {
    text.replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('\n', "\\n")
}

/// The graph as a Graphviz DOT digraph (top to bottom, rounded boxes), labels escaped.
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
    for edge in graph.edges.iter() {
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
    for edge in graph.edges.iter() {
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

fn ellipsis(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        text.to_owned()
    } else {
        format!("{}…", text.chars().take(max - 1).collect::<String>())
    }
}

fn xml_escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A laid-out graph as a standalone SVG picture (for documentation and quick looks).
pub fn to_svg(graph: &Graph, options: super::LayoutOptions) -> String {
    let (w, h) = (options.node_width, options.node_height);
    let width = graph.nodes.iter().map(|n| n.x + w).fold(w, f64::max) + 40.0;
    let height = graph.nodes.iter().map(|n| n.y + h).fold(h, f64::max) + 40.0;
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" viewBox=\"-20 -20 {width} {height}\" font-family=\"sans-serif\" font-size=\"13\">\n<defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"8\" markerHeight=\"8\" orient=\"auto\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"#555\"/></marker></defs>\n<rect x=\"-20\" y=\"-20\" width=\"{width}\" height=\"{height}\" fill=\"#fafafa\"/>\n"
    );
    for (position, edge) in graph.edges.iter().enumerate() {
        let (Some(a), Some(b)) = (graph.node(&edge.source), graph.node(&edge.target)) else {
            continue;
        };
        let (x1, y1) = (a.x + w / 2.0, a.y + h);
        let (x2, y2) = (b.x + w / 2.0, b.y);
        let colour = match edge.kind.as_str() {
            "fail" => "#dc2626",
            "pass" => "#16a34a",
            "branch" | "decision" | "route" | "action" => "#7c3aed",
            _ => "#555",
        };
        let path = if edge.back {
            let side = a.x.max(b.x) + w + 30.0;
            format!(
                "M{},{} C{side},{} {side},{} {},{}",
                a.x + w,
                a.y + h / 2.0,
                a.y + h / 2.0,
                b.y + h / 2.0,
                b.x + w,
                b.y + h / 2.0
            )
        } else {
            let mid = (y1 + y2) / 2.0;
            format!("M{x1},{y1} C{x1},{mid} {x2},{mid} {x2},{y2}")
        };
        let dash = if edge.back {
            " stroke-dasharray=\"6 4\""
        } else {
            ""
        };
        out.push_str(&format!("<path d=\"{path}\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"1.6\"{dash} marker-end=\"url(#arrow)\"/>\n"));
        if let Some(label) = &edge.label {
            // Labels sit a third of the way along, staggered so parallel edges stay readable.
            let (lx, ly) = (
                x1 + (x2 - x1) / 3.0 + 6.0,
                y1 + (y2 - y1) / 3.0 + (position % 3) as f64 * 12.0,
            );
            out.push_str(&format!(
                "<text x=\"{lx}\" y=\"{ly}\" fill=\"{colour}\" font-size=\"11\">{}</text>\n",
                xml_escape(&ellipsis(label, 24))
            ));
        }
    }
    for node in &graph.nodes {
        let fill = node
            .color
            .clone()
            .unwrap_or_else(|| match node.kind.as_str() {
                "decision" | "gate" => "#fde68a".into(),
                "terminal" | "review" => "#fecaca".into(),
                "verify" => "#bbf7d0".into(),
                "agent" => "#bfdbfe".into(),
                _ => "#e0e7ff".into(),
            });
        let title = ellipsis(&node.name, 24);
        out.push_str(&format!(
            "<g><rect x=\"{}\" y=\"{}\" width=\"{w}\" height=\"{h}\" rx=\"10\" fill=\"{fill}\" stroke=\"#334155\"/>\n<text x=\"{}\" y=\"{}\" font-weight=\"bold\">{}</text>\n<text x=\"{}\" y=\"{}\" fill=\"#475569\" font-size=\"11\">{}</text></g>\n",
            node.x, node.y, node.x + 10.0, node.y + 24.0, xml_escape(&title), node.x + 10.0, node.y + 48.0,
            xml_escape(&ellipsis(&format!(
                "{} · in: {} · out: {}",
                node.kind,
                node.inputs.iter().map(|p| p.name.as_str()).collect::<Vec<_>>().join(","),
                node.outputs.iter().map(|p| p.name.as_str()).collect::<Vec<_>>().join(",")
            ), 34))
        ));
    }
    out.push_str("</svg>\n");
    out
}
