//! The project's own fixtures (tests/fixtures), in the conformance format, checked strictly:
//! the errors found are exactly the errors listed. Fixtures may also list `lint` findings
//! (`{code, path}`): each is found exactly once with that code, at that path.

use std::fs;

use logicmd::loader::MemoryLoader;
use logicmd::Document;
use logicmd_tests::fixture::{collect, run_all, Fixture, Strictness};
use logicmd_tests::workspace_root;
use serde_json::Value;

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

/// What `fixture` says lint finds, and what lint finds there instead, when they differ.
fn lint_problems(fixture: &Fixture) -> Vec<String> {
    let expected: Value = fs::read_to_string(&fixture.expected)
        .ok()
        .and_then(|text| serde_json::from_str(&text).ok())
        .unwrap_or(Value::Null);
    let Some(listed) = expected.get("lint").and_then(Value::as_array) else {
        return Vec::new();
    };
    let text = fs::read_to_string(&fixture.input).unwrap_or_default();
    let Some(document) = Document::parse(&text).document else {
        return vec!["does not parse".to_owned()];
    };
    let found = logicmd::lint::lint(&document, "fixture.logic.md", &MemoryLoader::new());
    let mut problems = Vec::new();
    for want in listed {
        let code = want["code"].as_str().unwrap_or_default();
        let path = want["path"].as_str().unwrap_or_default();
        let with_code: Vec<&str> = found
            .iter()
            .filter(|d| d.code == code)
            .map(|d| d.path.as_str())
            .collect();
        if with_code != [path] {
            problems.push(format!(
                "expected {code} at {path:?}, found it at {with_code:?}"
            ));
        }
    }
    problems
}

#[test]
fn former_schema_constraints_are_schema_valid_and_linted() {
    let fixtures: Vec<Fixture> = collect(&workspace_root().join("tests/fixtures/schema/valid"))
        .into_iter()
        .filter(|f| f.name.starts_with("former-"))
        .collect();
    assert!(
        fixtures.len() >= 50,
        "expected the former-* fixtures, found {}",
        fixtures.len()
    );
    let failures: Vec<String> = fixtures
        .iter()
        .flat_map(|f| {
            lint_problems(f)
                .into_iter()
                .map(move |p| format!("{}: {p}", f.name))
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
