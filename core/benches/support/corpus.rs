//! The corpus of real documents: the fixtures, the conformance suite and the examples.

// A benchmark program reads its corpus from disk; core itself never does (core/clippy.toml).
#![allow(clippy::disallowed_methods)]

use std::fs;
use std::path::{Path, PathBuf};

fn documents(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            documents(&path, out);
        } else if path.to_string_lossy().ends_with(".logic.md") {
            out.push(path);
        }
    }
}

/// The workspace root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The conformance suite: `$LOGICMD_CONFORMANCE_DIR`, else the nearest `shared/conformance`
/// above the workspace.
fn conformance() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("LOGICMD_CONFORMANCE_DIR") {
        return Some(PathBuf::from(dir));
    }
    let root = root().canonicalize().ok()?;
    root.ancestors()
        .skip(1)
        .map(|dir| dir.join("shared/conformance"))
        .find(|dir| dir.is_dir())
}

/// The corpus's paths and texts, sorted by path; `typical` leaves out the fixtures built to hit a
/// limit (alias bombs, deep nesting), whose cost is the cost of reaching the limit.
pub fn corpus(typical: bool) -> Vec<(PathBuf, String)> {
    let root = root();
    let mut paths = Vec::new();
    documents(&root.join("tests/fixtures"), &mut paths);
    documents(&root.join("examples"), &mut paths);
    if let Some(dir) = conformance() {
        documents(&dir, &mut paths);
    }
    paths.sort();
    paths
        .into_iter()
        .filter(|p| {
            let name = p.to_string_lossy();
            !typical || !(name.contains("alias-bomb") || name.contains("/deep-"))
        })
        .filter_map(|p| fs::read_to_string(&p).ok().map(|text| (p, text)))
        .collect()
}
