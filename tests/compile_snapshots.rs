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

/// The `*.logic.md` files directly in `dir`, sorted; a directory that cannot be read fails the
/// test (a loop over nothing would pass).
fn documents(dir: &Path) -> Vec<PathBuf> {
    let entries = fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    let mut files: Vec<PathBuf> = entries
        .map(|e| {
            e.unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
                .path()
        })
        .filter(|p| p.to_string_lossy().ends_with(".logic.md"))
        .collect();
    files.sort();
    files
}

/// Every `*.logic.md` under `dir`, sorted by path.
fn documents_under(dir: &Path) -> Vec<PathBuf> {
    let mut found = documents(dir);
    let entries = fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() && !path.ends_with("node_modules") {
            found.extend(documents_under(&path));
        }
    }
    found.sort();
    found
}

/// The loader a document next to `dir`'s files sees: every `*.logic.md` under `dir`, by its path
/// relative to `dir`.
fn loader_over(dir: &Path) -> MemoryLoader {
    let mut loader = MemoryLoader::new();
    for file in documents_under(dir) {
        let relative = file
            .strip_prefix(dir)
            .expect("under the directory")
            .to_string_lossy()
            .replace('\\', "/");
        let text = fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        loader
            .insert(&relative, text)
            .unwrap_or_else(|e| panic!("{relative}: {}", e.message));
    }
    loader
}

/// Compiles the document at `id` (relative to the loader's directory) twice, and snapshots it.
fn snapshot(label: &str, name: &str, id: &str, text: &str, loader: &MemoryLoader) {
    let document = Document::parse(text).document.expect("parses");
    // Imports resolve against the files beside the document (examples) or report that they
    // cannot (the suite's 008); either way compilation goes on with what resolved.
    let resolved = resolve(&document, id, loader);
    let mut compiled = compile(&resolved.value).expect("valid documents compile");
    compile_nodes(&mut compiled, &resolved.value, id, loader);
    let mut again = compile(&resolved.value).expect("compiles twice");
    compile_nodes(&mut again, &resolved.value, id, loader);
    assert_eq!(compiled.to_markdown(), again.to_markdown(), "deterministic");
    insta::assert_snapshot!(format!("{label}__{name}__markdown"), compiled.to_markdown());
    insta::assert_json_snapshot!(format!("{label}__{name}__json"), compiled);
}

#[test]
fn conformance_documents_compile() {
    let Some(dir) = logicmd_tests::conformance_dir_or_skip() else {
        return;
    };
    let mut compiled = 0;
    for folder in ["valid", "edge-cases"] {
        let base = dir.join(folder);
        let loader = loader_over(&base);
        for path in documents(&base) {
            let text = fs::read_to_string(&path).expect("readable");
            let id = path
                .file_name()
                .expect("a file")
                .to_string_lossy()
                .into_owned();
            let name = id.trim_end_matches(".logic.md").to_owned();
            snapshot(folder, &name, &id, &text, &loader);
            compiled += 1;
        }
    }
    assert!(
        compiled >= 15,
        "only {compiled} conformance documents compiled"
    );
}

/// Every example the project ships compiles, except those that keep a spec inconsistency on
/// purpose (`# Spec inconsistency`: their corrected copies compile).
#[test]
fn examples_compile() {
    let examples = workspace_root().join("examples");
    let loader = loader_over(&examples);
    let mut compiled = 0;
    let mut kept = 0;
    for path in documents_under(&examples) {
        let text = fs::read_to_string(&path).expect("readable");
        if text.contains("# Spec inconsistency") {
            kept += 1;
            continue;
        }
        let relative = path.strip_prefix(&examples).expect("under examples");
        let id = relative.to_string_lossy().replace('\\', "/");
        let name = id.trim_end_matches(".logic.md").replace('/', "__");
        snapshot("examples", &name, &id, &text, &loader);
        compiled += 1;
    }
    assert!(compiled >= 10, "only {compiled} examples compiled");
    assert_eq!(kept, 2, "the examples that keep a spec inconsistency");
}
