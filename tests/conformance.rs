//! The canonical LOGIC.md v1.0 conformance suite (spec §15.3), under strict rules: exact path
//! and keyword, `parsed` compared as JSON, a panic is a failure.

use std::path::PathBuf;

use logicmd_tests::fixture::{collect, run_all, Strictness};
use logicmd_tests::workspace_root;

const SUITE_SIZE: usize = 29;

fn conformance_dir() -> PathBuf {
    match std::env::var_os("LOGICMD_CONFORMANCE_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => workspace_root().join("../shared/conformance"),
    }
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
