//! Every quick fix core offers (`logicmd::fix::fixes_for`: the language server's code actions,
//! the studio's, `logicmd lint --fix`) removes the diagnostic it is offered on and adds no error,
//! over every rule's fixture, the examples and a table of documents with several problems in
//! one place (a quote offered on `invalid-duration`, which quoting leaves, was the first found).

use std::collections::BTreeMap;
use std::fs;

use logicmd::analysis::{analyze, Options};
use logicmd::diagnostic::{Diagnostic, Severity};
use logicmd::fix::fixes_for;
use logicmd::loader::MemoryLoader;
use logicmd_tests::{files_under, workspace_root};
use proptest::prelude::*;

fn doc(body: &str) -> String {
    format!("---\nspec_version: \"1.0\"\nname: demo\n{body}---\n")
}

const LIB: &str =
    "---\nspec_version: \"1.0\"\nname: lib\nsteps:\n  gather:\n    description: Gather\n---\n";

/// Documents where one place has several diagnostics, or a fix's neighbours could be touched.
fn table() -> Vec<(String, String)> {
    let docs = [
        // The hostile pass's document: every fixable rule at once.
        doc("imports:\n  - ref: ./lib.logic.md\n    as: lib\nsteps:\n  a:\n    description: A\n    needs: [bb, b, b]\n  b:\n    description: B\n    allowed_tools: [t]\n    denied_tools: [t]\n    branches:\n      - if: steps.a.output.x > 1\n        then: cc\n    timeout: 2024-01-01\n  c:\n    description: C\n    verification:\n      check: \"{{ steps.b.output.y == 1 }}\"\n      on_fail: retry\nreasoning:\n  strategy: reactt\n"),
        // Values other YAML readers read otherwise, where the schema or a rule wants something else.
        doc("steps:\n  a:\n    description: A\n    timeout: yes\n    retry:\n      max_attempts: 3\n      initial_interval: 2024-01-01\n    confidence:\n      minimum: on\n"),
        doc("steps:\n  a:\n    description: A\n    timeout: 1e3\n  b:\n    description: off\n    needs: [a]\n"),
        // Imported steps read with dots, next to a misspelled one.
        doc("imports:\n  - ref: ./lib.logic.md\n    as: lib\nsteps:\n  a:\n    description: A\n    needs: [lib.gather]\n    verification:\n      check: \"{{ steps.lib.gather.output.n > 0 && steps.lib.gathr.output.n > 0 }}\"\n      on_fail: retry\n"),
        doc("imports:\n  - ref: ./lib.logic.md\n    as: lib\nsteps:\n  a:\n    description: A\n    needs: [lib.gather]\n    verification:\n      check: \"{{ steps['lib.gathr'].output.n > 0 }}\"\n      on_fail: retry\n"),
        // Two unused imports; a need that closes a cycle; a misspelled need and a repeated one.
        doc("imports:\n  - ref: ./lib.logic.md\n    as: one\n  - ref: ./lib.logic.md\n    as: two\nsteps:\n  a:\n    description: A\n    needs: [b]\n  b:\n    description: B\n    verification:\n      check: \"{{ steps.a.output.ok }}\"\n      on_fail: retry\n  c:\n    description: C\n    needs: [aa, a, a, b]\n"),
        // A misspelled key, enum value and root, and a missing default branch.
        doc("reasoning:\n  strategy: reac\n  max_iteratons: 3\nsteps:\n  a:\n    description: A\n    verification:\n      check: \"{{ outptu.ok }}\"\n      on_fail: retry\ndecision_trees:\n  t:\n    root: n\n    nodes:\n      n:\n        question: q\n        branches:\n          - value: x\n            next: done\n    terminals:\n      done:\n        action: a\n"),
    ];
    docs.into_iter()
        .enumerate()
        .map(|(i, text)| (format!("table-{i}.logic.md"), text))
        .collect()
}

/// (id, text) of every document checked, and a loader holding them all.
fn documents() -> (Vec<(String, String)>, MemoryLoader) {
    let root = workspace_root();
    let mut loader = MemoryLoader::new().with("lib.logic.md", LIB);
    let mut documents = table();
    for dir in ["tests/rules", "examples"] {
        let base = root.join(dir);
        for file in files_under(&base, &base) {
            let Ok(text) = fs::read_to_string(base.join(&file)) else {
                continue;
            };
            loader = loader.with(&file, text.clone());
            let checked = file.ends_with(".logic.md") || file.ends_with(".drtl.yaml");
            if checked && !file.contains("/files/") {
                documents.push((file, text));
            }
        }
    }
    (documents, loader)
}

fn lint(id: &str, text: &str, loader: &MemoryLoader) -> Vec<Diagnostic> {
    analyze(text, &Options::lint(id), loader).diagnostics
}

fn count_by_code(diagnostics: &[Diagnostic], errors_only: bool) -> BTreeMap<String, usize> {
    let mut counts = BTreeMap::new();
    for d in diagnostics {
        if !errors_only || d.severity == Severity::Error {
            *counts.entry(d.code.clone()).or_insert(0) += 1;
        }
    }
    counts
}

/// The fixes offered on `text`'s diagnostics that leave theirs or add an error (each failure
/// described); and how many fixes were checked.
fn fixes_that_fail(id: &str, text: &str, loader: &MemoryLoader) -> (Vec<String>, usize) {
    let mut failures = Vec::new();
    let mut checked = 0;
    let analysis = analyze(text, &Options::lint(id), loader);
    let json = analysis.parsed.as_ref().map(|p| p.json());
    let before = count_by_code(&analysis.diagnostics, false);
    let errors_before = count_by_code(&analysis.diagnostics, true);
    for diagnostic in &analysis.diagnostics {
        for fix in fixes_for(text, json, diagnostic) {
            checked += 1;
            let place = format!(
                "{id}: `{}` on {} at {}",
                fix.title, diagnostic.code, diagnostic.path
            );
            let Ok(fixed) = fix.apply(text) else {
                failures.push(format!("{place}: offered but does not apply"));
                continue;
            };
            let after = lint(id, &fixed, loader);
            let left = count_by_code(&after, false);
            if left.get(&diagnostic.code) >= before.get(&diagnostic.code) {
                failures.push(format!("{place}: leaves the diagnostic\n{fixed}"));
            }
            for (code, n) in count_by_code(&after, true) {
                if n > errors_before.get(&code).copied().unwrap_or(0) {
                    failures.push(format!("{place}: adds the error `{code}`\n{fixed}"));
                }
            }
        }
    }
    (failures, checked)
}

#[test]
fn every_fix_offered_removes_its_diagnostic_and_adds_no_error() {
    let (documents, loader) = documents();
    let mut failures = Vec::new();
    let mut fixes_checked = 0;
    for (id, text) in &documents {
        let (failed, checked) = fixes_that_fail(id, text, &loader);
        failures.extend(failed);
        fixes_checked += checked;
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert!(fixes_checked >= 30, "only {fixes_checked} fixes checked");
}

/// A step of a generated document: what it needs (names, some misspelled or repeated), what
/// its check reads (a step, perhaps imported, perhaps with dots or misspelled), its timeout
/// (perhaps a date or `yes`), a tool allowed and denied, a condition without `{{ }}`.
fn step() -> impl Strategy<Value = String> {
    let need = prop::sample::select(vec!["a", "b", "c", "aa", "bb", "lib.gather", "lib.gathr"]);
    let read = prop::sample::select(vec![
        "steps.a.output.ok",
        "steps.bb.output.ok",
        "steps.lib.gather.output.ok",
        "steps.lib.gathr.output.ok",
        "steps['lib.gather'].output.ok",
        "steps['lib.gathr'].output.ok",
        "outptu.ok",
    ]);
    let timeout = prop::sample::select(vec!["30s", "2024-01-01", "yes", "10", "1e3", "\"5m\""]);
    (
        prop::collection::vec(need, 0..4),
        prop::option::of(read),
        prop::option::of(timeout),
        any::<bool>(),
        prop::option::of(prop::sample::select(vec!["c", "cc", "a"])),
        prop::sample::select(vec!["\"", "'", ""]),
    )
        .prop_map(|(needs, read, timeout, tools, branch, quote)| {
            let mut out = String::from("    description: S\n");
            if !needs.is_empty() {
                out += &format!("    needs: [{}]\n", needs.join(", "));
            }
            if let Some(timeout) = timeout {
                out += &format!("    timeout: {timeout}\n");
            }
            if tools {
                out += "    allowed_tools: [t, u]\n    denied_tools: [t]\n";
            }
            if let Some(read) = read {
                let read = if quote == "'" { read.replace('\'', "\"") } else { read.to_owned() };
                out += &format!(
                    "    verification:\n      check: {quote}{{{{ {read} }}}}{quote}\n      on_fail: retry\n"
                );
            }
            if let Some(target) = branch {
                out += &format!("    branches:\n      - if: steps.a.output.x > 1\n        then: {target}\n");
            }
            out
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// The same over generated documents with several problems at once.
    #[test]
    fn every_fix_on_a_generated_document_removes_its_diagnostic(
        steps in prop::collection::vec(step(), 1..4),
        import in any::<bool>(),
        strategy in prop::sample::select(vec!["react", "reac", "cot"]),
    ) {
        let mut body = String::new();
        if import {
            body += "imports:\n  - ref: ./lib.logic.md\n    as: lib\n";
        }
        body += &format!("reasoning:\n  strategy: {strategy}\nsteps:\n");
        for (name, step) in ["a", "b", "c"].iter().zip(&steps) {
            body += &format!("  {name}:\n{step}");
        }
        let text = doc(&body);
        let loader = MemoryLoader::new().with("lib.logic.md", LIB);
        let (failures, _) = fixes_that_fail("g.logic.md", &text, &loader);
        prop_assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    }
}
