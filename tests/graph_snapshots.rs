//! The graph JSON (nodes, ports, inspector, edges, layout) of the conformance suite's valid and
//! edge-case documents, snapshot-tested, and the layout's determinism.

use std::fs;
use std::path::PathBuf;

use logicmd::graph::{from_document, layout, LayoutOptions};
use logicmd::Document;

#[test]
fn conformance_graphs() {
    let Some(dir) = logicmd_tests::conformance_dir_or_skip() else {
        return;
    };
    for folder in ["valid", "edge-cases"] {
        let mut files: Vec<PathBuf> = fs::read_dir(dir.join(folder))
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .collect();
        files.retain(|p| p.to_string_lossy().ends_with(".logic.md"));
        files.sort();
        for path in files {
            let text = fs::read_to_string(&path).unwrap();
            let document = Document::parse(&text).document.unwrap();
            let mut graph = from_document(&document);
            layout(&mut graph, LayoutOptions::default());
            let mut again = from_document(&document);
            layout(&mut again, LayoutOptions::default());
            assert_eq!(graph, again, "deterministic");
            let name = path
                .file_name()
                .unwrap()
                .to_string_lossy()
                .replace(".logic.md", "");
            insta::assert_json_snapshot!(format!("{folder}__{name}__graph"), graph);
        }
    }
}
