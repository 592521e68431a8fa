//! The canonical LOGIC.md v1.0 conformance suite (spec §15.3), under strict rules: exact path
//! and keyword, `parsed` compared as JSON, a panic is a failure. And the canonical schema
//! (spec §15.1.3) embedded in core byte for byte.

use std::path::PathBuf;

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

/// The seed copy of the canonical schema: `shared/seeds/` beside the conformance suite.
fn seed_schema() -> Option<PathBuf> {
    let seeds = conformance_dir_or_skip()?.parent()?.join("seeds");
    let path = seeds.join("logic-md-schema-v1.0.json");
    let found = path.is_file().then_some(path);
    if found.is_none() {
        let message = format!("canonical schema not found in {}", seeds.display());
        assert!(std::env::var("CI").as_deref() != Ok("true"), "{message}");
        eprintln!("SKIPPED: {message}");
    }
    found
}

#[test]
fn the_embedded_schema_is_the_canonical_schema_byte_for_byte() {
    let Some(path) = seed_schema() else {
        return;
    };
    let seed = std::fs::read(&path).expect("the seed schema is readable");
    assert!(
        seed == logicmd::schema::SCHEMA_JSON.as_bytes(),
        "core/src/schema/logic-md-schema-v1.0.json differs from {}; copy it again, unchanged",
        path.display()
    );
}
