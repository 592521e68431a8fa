//! Shared helpers for the workspace's integration tests.

pub mod fixture;
pub mod json_eq;

use std::path::PathBuf;

/// The workspace root (the parent of this crate).
pub fn workspace_root() -> PathBuf {
    let here = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    here.parent().map(PathBuf::from).unwrap_or(here)
}
