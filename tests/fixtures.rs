//! The project's own fixtures (tests/fixtures), in the conformance format, checked strictly:
//! the errors found are exactly the errors listed.

use logicmd_tests::fixture::{collect, run_all, Strictness};
use logicmd_tests::workspace_root;

#[test]
fn own_fixtures() {
    let fixtures = collect(&workspace_root().join("tests/fixtures"));
    run_all("own fixtures", &fixtures, Strictness::Exact);
    assert!(
        fixtures.len() >= 60,
        "expected at least 60 fixtures, found {}",
        fixtures.len()
    );
}
