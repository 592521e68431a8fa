//! Shared helpers for the workspace's integration tests.

pub mod commented;
pub mod fixture;
pub mod json_eq;

use std::path::PathBuf;

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
