//! Lint reads a document that imports nothing and parsed clean from its spanned tree, and every
//! other from its JSON view (issue #32: making that view per check was half the diagnostics
//! after a keystroke). Both readings must give exactly the same findings — codes, messages,
//! places, hints — on every LOGIC.md file of the fixtures, the rule fixtures (which trip every
//! rule), the examples and the conformance suite.

use std::path::PathBuf;

use logicmd::imports::resolve;
use logicmd::lint::{lint, lint_resolved};
use logicmd::loader::MemoryLoader;
use logicmd::Document;
use logicmd_tests::fixture::collect;
use logicmd_tests::{conformance_dir, workspace_root};

fn corpus() -> Vec<PathBuf> {
    let root = workspace_root();
    let mut dirs = vec![
        root.join("tests/fixtures"),
        root.join("tests/rules/logic"),
        root.join("examples"),
    ];
    dirs.extend(conformance_dir());
    dirs.iter()
        .flat_map(|dir| collect(dir))
        .map(|f| f.input)
        .collect()
}

#[test]
fn the_tree_and_the_json_view_give_the_same_findings() {
    let loader = MemoryLoader::new();
    let mut from_the_tree = 0;
    let mut differ = Vec::new();
    for path in corpus() {
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let Some(document) = Document::parse(&text).document else {
            continue;
        };
        let id = path.to_string_lossy();
        let read = lint(&document, &id, &loader);
        // The JSON reading: the view kept in the document, imports resolved against it.
        let viewed = lint_resolved(&document, &resolve(&document, &id, &loader), &id, &loader);
        if document.is_clean() && document.root().get("imports").is_none() {
            from_the_tree += 1;
        }
        if read != viewed {
            differ.push(format!("{}:\n{read:#?}\n!=\n{viewed:#?}", path.display()));
        }
    }
    assert!(differ.is_empty(), "{}", differ.join("\n\n"));
    // The comparison is not vacuous: most of the corpus is read from the tree.
    assert!(
        from_the_tree >= 100,
        "only {from_the_tree} documents read from the tree"
    );
}
