//! Shared helpers for the workspace's integration tests.

pub mod commented;
pub mod fixture;
pub mod json_eq;

use std::path::{Path, PathBuf};

/// The workspace root (the parent of this crate).
pub fn workspace_root() -> PathBuf {
    let here = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    here.parent().map(PathBuf::from).unwrap_or(here)
}

/// The canonical conformance suite: `$LOGICMD_CONFORMANCE_DIR`, else `../shared/conformance` beside
/// the checkout; a checkout made deeper inside the workplace (a CI clone) finds it in the nearest
/// ancestor that has one. `None` when there is none.
pub fn conformance_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("LOGICMD_CONFORMANCE_DIR") {
        return Some(PathBuf::from(dir)).filter(|d| d.is_dir());
    }
    workspace_root()
        .ancestors()
        .skip(1)
        .map(|dir| dir.join("shared/conformance"))
        .find(|dir| dir.is_dir())
}

/// The conformance suite, or `None` after saying so — a failure under `CI=true`.
pub fn conformance_dir_or_skip() -> Option<PathBuf> {
    let found = conformance_dir();
    if found.is_none() {
        let message = "conformance suite not found (set LOGICMD_CONFORMANCE_DIR or place ../shared/conformance)";
        assert!(std::env::var("CI").as_deref() != Ok("true"), "{message}");
        eprintln!("SKIPPED: {message}");
    }
    found
}

/// Every file under `dir`, relative to `base`, `/`-separated, sorted.
pub fn files_under(dir: &Path, base: &Path) -> Vec<String> {
    let mut found = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(at) = pending.pop() {
        let entries = std::fs::read_dir(&at).unwrap_or_else(|e| panic!("{}: {e}", at.display()));
        for entry in entries {
            let path: PathBuf = entry.expect("a directory entry").path();
            if path.is_dir() {
                pending.push(path);
            } else {
                let relative = path.strip_prefix(base).expect("under the base");
                found.push(relative.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    found.sort();
    found
}
