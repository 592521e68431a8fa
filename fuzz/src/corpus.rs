//! The seeds: every document in the repository (examples, fixtures, DRTL topologies, earlier
//! finds), the conformance suite when it is beside the checkout, and the expressions of the
//! expression table.

use std::fs;
use std::path::{Path, PathBuf};

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    paths.sort();
    for path in paths {
        if path.is_dir() {
            files(&path, out);
        } else if path
            .extension()
            .is_some_and(|e| e == "md" || e == "yaml" || e == "yml" || e == "txt")
        {
            out.push(path);
        }
    }
}

/// Documents and expressions to mutate.
pub fn load() -> (Vec<String>, Vec<String>) {
    let root = workspace();
    let conformance = std::env::var_os("LOGICMD_CONFORMANCE_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("../shared/conformance"));
    let mut paths = Vec::new();
    for dir in [
        root.join("examples"),
        root.join("tests/fixtures"),
        root.join("tests/drtl"),
        root.join("tests/fuzz"),
        conformance,
    ] {
        files(&dir, &mut paths);
    }
    let mut documents: Vec<String> = paths
        .iter()
        .filter_map(|p| fs::read_to_string(p).ok())
        .filter(|t| t.len() < 200_000)
        .collect();
    if documents.is_empty() {
        documents.push("---\nspec_version: \"1.0\"\nname: seed\n---\n".to_owned());
    }
    let expressions = fs::read_to_string(root.join("tests/expr/table.json"))
        .ok()
        .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
        .and_then(|table| {
            table.get("cases").and_then(|c| c.as_array()).map(|cases| {
                cases
                    .iter()
                    .filter_map(|c| {
                        c.get("expr")
                            .or_else(|| c.get("source"))
                            .and_then(|e| e.as_str())
                    })
                    .map(|e| format!("{{{{ {e} }}}}"))
                    .collect::<Vec<String>>()
            })
        })
        .filter(|e| !e.is_empty())
        .unwrap_or_else(|| vec!["{{ output.items.length >= 3 && input.n > 1 }}".to_owned()]);
    (documents, expressions)
}
