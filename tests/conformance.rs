//! The canonical LOGIC.md v1.0 conformance suite (spec §15.3), under strict rules: exact path
//! and keyword, `parsed` compared as JSON, a panic is a failure.

use std::path::PathBuf;

use logicmd_tests::fixture::{collect, run_all, Strictness};
use logicmd_tests::workspace_root;

const SUITE_SIZE: usize = 29;

/// `$LOGICMD_CONFORMANCE_DIR`, else `../shared/conformance` beside the checkout; a checkout made
/// deeper inside the workplace (a CI clone) finds it in the nearest ancestor that has one.
fn conformance_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("LOGICMD_CONFORMANCE_DIR") {
        return PathBuf::from(dir);
    }
    let root = workspace_root();
    let default = root.join("../shared/conformance");
    root.ancestors()
        .skip(1)
        .map(|dir| dir.join("shared/conformance"))
        .find(|dir| dir.is_dir())
        .unwrap_or(default)
}

#[test]
fn conformance_suite() {
    let dir = conformance_dir();
    if !dir.is_dir() {
        let message = format!(
            "conformance suite not found at {} (set LOGICMD_CONFORMANCE_DIR)",
            dir.display()
        );
        assert!(std::env::var("CI").as_deref() != Ok("true"), "{message}");
        eprintln!("SKIPPED: {message}");
        return;
    }
    let fixtures = collect(&dir);
    assert_eq!(
        fixtures.len(),
        SUITE_SIZE,
        "expected the {SUITE_SIZE} fixtures of the suite in {}",
        dir.display()
    );
    run_all("conformance", &fixtures, Strictness::Listed);
}
