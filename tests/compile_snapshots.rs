//! Snapshots of the prompt compiler's output (markdown and JSON) for the conformance suite's
//! valid and edge-case documents and the bundled examples. Compiling never crashes, and the
//! output is byte-for-byte the same every time.

use std::fs;
use std::path::{Path, PathBuf};

use logicmd::compile::{compile, compile_nodes};
use logicmd::imports::resolve;
use logicmd::loader::MemoryLoader;
use logicmd::Document;
use logicmd_tests::workspace_root;

fn documents(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = fs::read_dir(dir)
        .map(|entries| entries.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    files.retain(|p| p.to_string_lossy().ends_with(".logic.md"));
    files.sort();
    files
}

fn snapshot(label: &str, path: &Path) {
    let text = fs::read_to_string(path).expect("readable");
    let document = Document::parse(&text).document.expect("parses");
    let name = path
        .file_name()
        .unwrap()
        .to_string_lossy()
        .replace(".logic.md", "");
    // Imports resolve against the files next to the document (examples) or report that they
    // cannot (the suite's 008); either way compilation goes on with what resolved.
    let mut loader = MemoryLoader::new();
    if let Some(dir) = path.parent() {
        for sibling in documents(dir)
            .into_iter()
            .chain(documents(&dir.join("shared")))
            .chain(documents(&dir.join("nodes")))
        {
            let relative = sibling
                .strip_prefix(dir)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            let _ = loader.insert(&relative, fs::read_to_string(&sibling).unwrap_or_default());
        }
    }
    let id = path.file_name().unwrap().to_string_lossy().into_owned();
    let resolved = resolve(&document, &id, &loader);
    let mut compiled = compile(&resolved.value).expect("valid documents compile");
    compile_nodes(&mut compiled, &resolved.value, &id, &loader);
    let mut again = compile(&resolved.value).expect("compiles twice");
    compile_nodes(&mut again, &resolved.value, &id, &loader);
    assert_eq!(compiled.to_markdown(), again.to_markdown(), "deterministic");
    insta::assert_snapshot!(format!("{label}__{name}__markdown"), compiled.to_markdown());
    insta::assert_json_snapshot!(format!("{label}__{name}__json"), compiled);
}

#[test]
fn conformance_documents_compile() {
    let Some(dir) = logicmd_tests::conformance_dir_or_skip() else {
        return;
    };
    for folder in ["valid", "edge-cases"] {
        for path in documents(&dir.join(folder)) {
            snapshot(folder, &path);
        }
    }
}

#[test]
fn examples_compile() {
    for path in documents(&workspace_root().join("examples")) {
        snapshot("examples", &path);
    }
}
