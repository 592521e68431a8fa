use super::*;
use crate::document::Document;

const DOC: &str = "---\nspec_version: \"1.0\"\nname: g\nvisual:\n  inspector:\n    - {key: reasoning.strategy, label: Strategy, type: select, options: [cot, react]}\n    - {key: confidence.minimum, label: Minimum, type: slider, min: 0, max: 1}\nreasoning: {strategy: cot}\nsteps:\n  gather: {description: Gather, output_schema: {type: array}}\n  rank:\n    needs: [gather]\n    input_schema: {type: object}\n    confidence: {minimum: 0.6}\n    branches:\n      - {if: \"{{ output.retry }}\", then: gather}\n      - {default: true, then: report}\n  report: {needs: [rank]}\ndecision_trees:\n  route:\n    root: kind\n    nodes:\n      kind:\n        condition: \"{{ input.kind }}\"\n        branches: [{value: deep, next: gather}, {default: true, next: stop}]\n    terminals:\n      stop: {action: clarify}\n---\n";

#[test]
fn builds_nodes_edges_ports_and_inspector() {
    let document = Document::parse(DOC).document.unwrap();
    let mut graph = from_document(&document);
    layout(&mut graph, LayoutOptions::default());
    let ids: Vec<&str> = graph.nodes.iter().map(|n| n.id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "step:gather",
            "step:rank",
            "step:report",
            "tree:route/kind",
            "terminal:route/stop"
        ]
    );
    let needs = graph
        .edges
        .iter()
        .find(|e| e.kind == "needs" && e.target == "step:rank")
        .unwrap();
    assert!(!needs.compatible, "array output into an object input");
    let back = graph
        .edges
        .iter()
        .find(|e| e.kind == "branch" && e.target == "step:gather")
        .unwrap();
    assert!(back.back, "the branch back to gather is a loop");
    let rank = graph.node("step:rank").unwrap();
    assert_eq!(rank.inspector[0].value, serde_json::json!("cot"));
    assert_eq!(rank.inspector[1].pointer, "/steps/rank/confidence/minimum");
    assert_eq!(rank.inspector[1].value, serde_json::json!(0.6));
    assert_eq!(rank.span.unwrap().line, 11);
    let gather = graph.node("step:gather").unwrap();
    assert!(gather.y < rank.y && rank.y < graph.node("step:report").unwrap().y);
}

#[test]
fn layout_is_stable_when_a_step_is_added() {
    let document = Document::parse(DOC).document.unwrap();
    let mut before = from_document(&document);
    layout(&mut before, LayoutOptions::default());
    let grown = DOC.replace(
        "  report: {needs: [rank]}\n",
        "  report: {needs: [rank]}\n  extra: {needs: [report]}\n",
    );
    let mut after = from_document(&Document::parse(&grown).document.unwrap());
    layout(&mut after, LayoutOptions::default());
    for node in &before.nodes {
        let moved = after.node(&node.id).unwrap();
        assert_eq!((node.x, node.y), (moved.x, moved.y), "{} moved", node.id);
    }
}

#[test]
fn dot_and_mermaid_mention_every_node() {
    let document = Document::parse(DOC).document.unwrap();
    let graph = from_document(&document);
    let dot = to_dot(&graph);
    assert!(dot.contains("\"step:rank\" -> \"step:report\""));
    let mermaid = to_mermaid(&graph);
    assert!(mermaid.starts_with("flowchart TD\n"));
    assert_eq!(
        mermaid.matches("\n    n").count(),
        graph.nodes.len() + graph.edges.len()
    );
}

#[test]
fn pinned_positions_are_kept() {
    let pinned = DOC.replace("---\n# never", "").replace(
        "name: g\n",
        "name: g\nmetadata:\n  logicmd:\n    positions:\n      rank: {x: 999, y: 5}\n",
    );
    let mut graph = from_document(&Document::parse(&pinned).document.unwrap());
    layout(&mut graph, LayoutOptions::default());
    let rank = graph.node("step:rank").unwrap();
    assert_eq!((rank.x, rank.y, rank.pinned), (999.0, 5.0, true));
}

#[test]
fn the_document_colour_marks_its_steps_and_tree_nodes_keep_their_kind() {
    let coloured = DOC.replace(
        "visual:\n",
        "visual:\n  color: \"#0EA5E9\"\n  icon: radar\n",
    );
    let graph = from_document(&Document::parse(&coloured).document.unwrap());
    for node in &graph.nodes {
        let expected = (node.kind == "step").then(|| "#0EA5E9".to_owned());
        assert_eq!(node.color, expected, "{}", node.id);
    }
    assert_eq!(
        graph.node("step:rank").unwrap().icon.as_deref(),
        Some("radar")
    );
}

#[test]
fn spans_are_the_whole_definition_of_each_node() {
    let document = Document::parse(DOC).document.unwrap();
    let graph = from_document(&document);
    for node in &graph.nodes {
        let span = node.span.unwrap();
        let text = &DOC[span.start..span.end];
        assert!(text.starts_with(node.name.as_str()), "{}: {text}", node.id);
    }
    let kind = graph.node("tree:route/kind").unwrap().span.unwrap();
    assert_eq!((kind.line, kind.column), (23, 7));
}

#[test]
fn left_right_lays_layers_along_x_and_a_layer_shares_its_x() {
    let document = Document::parse(DOC).document.unwrap();
    let mut down = from_document(&document);
    layout(&mut down, LayoutOptions::default());
    let mut across = from_document(&document);
    let options = LayoutOptions {
        direction: Direction::LeftRight,
        ..LayoutOptions::default()
    };
    layout(&mut across, options);
    let layer_step = options.node_width + options.horizontal_gap;
    let row_step = options.node_height + options.vertical_gap;
    // The same layers and order as top-down, turned: a layer is a column.
    for node in &down.nodes {
        let turned = across.node(&node.id).unwrap();
        let (depth, index) = (node.y / row_step, node.x / layer_step);
        assert_eq!(
            (turned.x, turned.y),
            (depth * layer_step, index * row_step),
            "{}",
            node.id
        );
    }
    // The chain gather → rank → report goes left to right on one line.
    let at = |id: &str| across.node(id).map(|n| (n.x, n.y)).unwrap();
    let (gather, rank, report) = (at("step:gather"), at("step:rank"), at("step:report"));
    assert!(gather.0 < rank.0 && rank.0 < report.0);
    assert_eq!((gather.1, rank.1), (report.1, report.1));
    let backs = |g: &Graph| g.edges.iter().map(|e| e.back).collect::<Vec<_>>();
    assert_eq!(
        backs(&down),
        backs(&across),
        "the loops do not depend on the direction"
    );
}

/// A tree that routes to steps both through terminals and directly from its branches.
pub(super) const ROUTER: &str = "---\nspec_version: \"1.0\"\nname: r\nsteps:\n  classify: {}\n  billing: {needs: [classify]}\n  bug: {needs: [classify]}\ndecision_trees:\n  route:\n    root: urgent\n    nodes:\n      urgent:\n        condition: \"{{ input.urgency > 0.8 }}\"\n        branches: [{value: true, next: page}, {default: true, next: kind}]\n      kind:\n        condition: \"{{ input.kind }}\"\n        branches: [{value: billing, next: billing}, {value: bug, next: to_bug}, {default: true, next: unknown}]\n    terminals:\n      page: {action: escalate, message: Call a human}\n      to_bug: {action: bug}\n      unknown: {action: request_clarification}\n---\n";

/// `kind source -> target [label]`, one line per edge, in the graph's order.
fn edge_lines(graph: &Graph) -> String {
    graph
        .edges
        .iter()
        .map(|e| {
            let label = e
                .label
                .as_deref()
                .map(|l| format!(" [{l}]"))
                .unwrap_or_default();
            format!("{} {} -> {}{label}\n", e.kind, e.source, e.target)
        })
        .collect()
}

#[test]
fn a_terminal_whose_action_names_a_step_is_wired_to_it_and_a_builtin_action_is_not() {
    let graph = from_document(&Document::parse(ROUTER).document.unwrap());
    // `page` escalates and `unknown` asks for clarification: built-in actions, no wire.
    insta::assert_snapshot!(edge_lines(&graph), @r"
    needs step:classify -> step:billing
    needs step:classify -> step:bug
    decision tree:route/urgent -> terminal:route/page [true]
    decision tree:route/urgent -> tree:route/kind [default]
    route tree:route/kind -> step:billing [billing]
    decision tree:route/kind -> terminal:route/to_bug [bug]
    decision tree:route/kind -> terminal:route/unknown [default]
    action terminal:route/to_bug -> step:bug [action]
    ");
}
