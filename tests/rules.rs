//! Every rule `logicmd lint --rules` lists — LOGIC.md's and DRTL's, and the obligation rules of
//! `logicmd check` — has a fixture (`tests/rules/<family>/<code>.*`) that triggers it, through the
//! front door as the CLI, npm and the studio reach it; and every fixture there is a rule's (files a
//! fixture imports live under `files/`).

use std::fs;

use logicmd::analysis::{analyze, obligations, Options};
use logicmd::lint::rules::FAMILIES;
use logicmd::loader::MemoryLoader;
use logicmd_tests::{files_under, workspace_root};

/// The codes `logicmd lint` (or `check`, for the obligation rules) reports on `text`.
fn codes(family: &str, path: &str, text: &str, loader: &MemoryLoader) -> Vec<String> {
    let id = path.strip_prefix("tests/rules/").unwrap_or(path);
    let options = Options::lint(id).with_path(path);
    let diagnostics = if family == "check" {
        obligations(text, &options, loader).analysis.diagnostics
    } else {
        analyze(text, &options, loader).diagnostics
    };
    diagnostics.into_iter().map(|d| d.code).collect()
}

#[test]
fn every_rule_has_a_fixture_that_triggers_it() {
    let root = workspace_root();
    let rules_dir = root.join("tests/rules");
    let mut loader = MemoryLoader::new();
    for file in files_under(&rules_dir, &rules_dir) {
        let text = fs::read_to_string(rules_dir.join(&file)).expect("a fixture is readable");
        loader = loader.with(&file, text);
    }
    let mut checked = 0;
    let mut failures = Vec::new();
    let mut fixtures = Vec::new();
    for family in FAMILIES {
        for rule in family.rules {
            let path = family.fixture(rule);
            fixtures.push(path.clone());
            let Ok(text) = fs::read_to_string(root.join(&path)) else {
                failures.push(format!("{}: no fixture {path}", rule.code));
                continue;
            };
            let found = codes(family.name, &path, &text, &loader);
            checked += 1;
            if !found.iter().any(|code| code == rule.code) {
                failures.push(format!(
                    "{path} does not trigger `{}`: {found:?}",
                    rule.code
                ));
            }
        }
    }
    let listed: usize = FAMILIES.iter().map(|f| f.rules.len()).sum();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(checked, listed, "every listed rule was checked");
    assert!(listed >= 80, "only {listed} rules listed");
    // No fixture without its rule (a renamed code leaves none behind).
    let orphans: Vec<String> = files_under(&rules_dir, &root)
        .into_iter()
        .filter(|file| !file.contains("/files/") && !fixtures.contains(file))
        .collect();
    assert!(orphans.is_empty(), "fixtures of no rule: {orphans:?}");
}

/// A code names one rule: no two families share one.
#[test]
fn every_code_is_one_rule() {
    let mut codes: Vec<&str> = FAMILIES
        .iter()
        .flat_map(|f| f.rules.iter().map(|r| r.code))
        .collect();
    let listed = codes.len();
    codes.sort_unstable();
    codes.dedup();
    assert_eq!(codes.len(), listed);
}
