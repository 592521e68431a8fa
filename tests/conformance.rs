//! The canonical LOGIC.md v1.0 conformance suite (spec §15.3), under strict rules: exact path
//! and keyword, `parsed` compared as JSON, a panic is a failure.

use logicmd_tests::conformance_dir_or_skip;
use logicmd_tests::fixture::{collect, run_all, Strictness};

const SUITE_SIZE: usize = 29;

#[test]
fn conformance_suite() {
    let Some(dir) = conformance_dir_or_skip() else {
        return;
    };
    let fixtures = collect(&dir);
    assert_eq!(
        fixtures.len(),
        SUITE_SIZE,
        "expected the {SUITE_SIZE} fixtures of the suite in {}",
        dir.display()
    );
    run_all("conformance", &fixtures, Strictness::Listed);
}
