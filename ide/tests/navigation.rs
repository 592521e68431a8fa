//! Go to definition, references and highlights as an editor asks for them.

use logicmd_ide::files::MemoryFiles;
use logicmd_ide::navigation::{definition, highlights, references, HighlightKind};
use logicmd_ide::{Location, Workspace};

fn at(text: &str, marker: &str, within: usize) -> usize {
    text.find(marker).expect("the marker") + within
}

#[test]
fn workflow_nodes_lead_to_their_files_and_their_uses() {
    let workflow = "---\nspec_version: \"1.0\"\nname: w\nnodes:\n  research:\n    logic_ref: ./agents/r.logic.md\n  write:\n    logic_ref: ./agents/w.logic.md\n    depends_on: [research]\nedges:\n  - from: research\n    to: write\n---\n";
    let agent = "---\nspec_version: \"1.0\"\nname: r\n---\n";
    let files = MemoryFiles::new()
        .with("agents/r.logic.md", agent)
        .with("agents/w.logic.md", agent);
    let mut workspace = Workspace::new(files.shared());
    workspace.open("w.logic.md", workflow.to_owned());
    let file = |file: &str, start: usize, end: usize| Location {
        file: file.to_owned(),
        span: logicmd::source::Span::new(start, end),
    };
    // The node's own name: the file it runs.
    assert_eq!(
        definition(&mut workspace, "w.logic.md", at(workflow, "  research:", 3)),
        vec![file("agents/r.logic.md", 0, 0)]
    );
    // A use of the node: the node.
    let key = at(workflow, "  research:", 2);
    assert_eq!(
        definition(
            &mut workspace,
            "w.logic.md",
            at(workflow, "depends_on: [research", 14)
        ),
        vec![file("w.logic.md", key, key + "research".len())]
    );
    let uses: Vec<usize> = references(&mut workspace, "w.logic.md", key, false)
        .into_iter()
        .map(|l| l.span.start)
        .collect();
    assert_eq!(
        uses,
        vec![
            at(workflow, "[research]", 1),
            at(workflow, "from: research", 6)
        ]
    );
    let kinds: Vec<HighlightKind> = highlights(&mut workspace, "w.logic.md", key)
        .into_iter()
        .map(|h| h.kind)
        .collect();
    assert_eq!(
        kinds,
        [
            HighlightKind::Write,
            HighlightKind::Read,
            HighlightKind::Read
        ]
    );
}

#[test]
fn drtl_routes_edges_and_expressions_lead_to_the_node() {
    let topology = "name: t\nnodes:\n  - id: draft\n    type: generate\n    output_key: d\n  - id: gate\n    type: gate\n    condition: \"draft.output != ''\"\n    on_pass: terminate\n    on_fail:\n      next: draft\nedges:\n  - from: draft\n    to: gate\n";
    let mut workspace = Workspace::new(MemoryFiles::new().shared());
    workspace.open("t.drtl.yaml", topology.to_owned());
    let id = at(topology, "id: draft", 4);
    for (marker, within) in [
        ("next: draft", 7),
        ("from: draft", 7),
        ("\"draft.output", 2),
    ] {
        let found = definition(&mut workspace, "t.drtl.yaml", at(topology, marker, within));
        assert_eq!(found.len(), 1, "{marker}");
        assert_eq!(found[0].span.start, id, "{marker}");
    }
    assert_eq!(references(&mut workspace, "t.drtl.yaml", id, true).len(), 4);
}
