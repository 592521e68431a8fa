//! Lint reads a document that imports nothing and parsed clean from its spanned tree, and every
//! other from its JSON view (issue #32: making that view per check was half the diagnostics
//! after a keystroke). Both readings must give exactly the same findings — codes, messages,
//! places, hints — on every LOGIC.md file of the fixtures, the rule fixtures (which trip every
//! rule), the examples and the conformance suite.

use std::path::PathBuf;

use logicmd::imports::resolve;
use logicmd::lint::{lint, lint_resolved};
use logicmd::loader::MemoryLoader;
use logicmd::Document;
use logicmd_tests::fixture::collect;
use logicmd_tests::{conformance_dir, workspace_root};

fn corpus() -> Vec<PathBuf> {
    let root = workspace_root();
    let mut dirs = vec![
        root.join("tests/fixtures"),
        root.join("tests/rules/logic"),
        root.join("examples"),
    ];
    dirs.extend(conformance_dir());
    dirs.iter()
        .flat_map(|dir| collect(dir))
        .map(|f| f.input)
        .collect()
}

#[test]
fn the_tree_and_the_json_view_give_the_same_findings() {
    let loader = MemoryLoader::new();
    let mut from_the_tree = 0;
    let mut differ = Vec::new();
    for path in corpus() {
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let Some(document) = Document::parse(&text).document else {
            continue;
        };
        let id = path.to_string_lossy();
        let read = lint(&document, &id, &loader);
        // The JSON reading: the view kept in the document, imports resolved against it.
        let viewed = lint_resolved(&document, &resolve(&document, &id, &loader), &id, &loader);
        if document.is_clean() && document.root().get("imports").is_none() {
            from_the_tree += 1;
        }
        if read != viewed {
            differ.push(format!("{}:\n{read:#?}\n!=\n{viewed:#?}", path.display()));
        }
    }
    assert!(differ.is_empty(), "{}", differ.join("\n\n"));
    // The comparison is not vacuous: most of the corpus is read from the tree.
    assert!(
        from_the_tree >= 100,
        "only {from_the_tree} documents read from the tree"
    );
}

mod scalars {
    //! The places where rules read numbers, booleans and values, each given scalars YAML reads
    //! in different ways (integers, floats, infinities, hex, large integers, quoted numbers,
    //! booleans, nulls, collections): the tree and the JSON view must agree on every one.
    //! (`.inf` and `.nan` are parse findings, so such a document is read as JSON anyway.)

    use logicmd::imports::resolve;
    use logicmd::lint::{lint, lint_resolved};
    use logicmd::loader::MemoryLoader;
    use logicmd::Document;
    use proptest::prelude::*;

    const SCALARS: &[&str] = &[
        "1",
        "0",
        "-1",
        "3",
        "1.0",
        "0.5",
        "2.5",
        "-0.0",
        "1e3",
        "0x1F",
        "0o17",
        "99999999999999999999",
        "true",
        "false",
        "null",
        "~",
        "''",
        "'1'",
        "abc",
        "5s",
        "'0'",
        "[]",
        "{}",
        "[a, b]",
        "{a: 1}",
    ];

    fn scalar() -> impl Strategy<Value = &'static str> {
        proptest::sample::select(SCALARS)
    }

    fn document(s: &[&str]) -> String {
        format!(
            "---\nspec_version: \"1.0\"\nname: t\nreasoning:\n  strategy: cot\n  max_iterations: {}\n  temperature: {}\n  strategy_config:\n    max_depth: {}\n    pruning_threshold: {}\n    replan_on_failure: {}\n    operations: {}\nsteps:\n  a:\n    description: d\n    confidence: {{minimum: {}, target: {}, escalate_below: {}}}\n    retry: {{max_attempts: {}, backoff_coefficient: {}, initial_interval: {}}}\n    timeout: {}\n    branches:\n      - {{if: \"{{{{ output.ok }}}}\", then: b, default: {}}}\n      - {{default: true, then: a}}\n  b:\n    needs: [a, {}]\ndecision_trees:\n  t:\n    description: d\n    root: n\n    nodes:\n      n:\n        condition: \"{{{{ input.x }}}}\"\n        branches:\n          - {{value: {}, next: done}}\n          - {{value: {}, next: done}}\n          - {{default: {}, next: done}}\n    terminals:\n      done: {{action: finish}}\nquality_gates:\n  self_verification:\n    rubric:\n      criteria:\n        - {{name: x, weight: {}}}\n        - {{name: y, weight: {}}}\nfallback:\n  escalation:\n    - {{level: {}, trigger: \"{{{{ true }}}}\", action: ask}}\n    - {{level: {}, trigger: \"{{{{ true }}}}\", action: ask}}\n---\n",
            s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7], s[8], s[9], s[10], s[11], s[12], s[13],
            s[14], s[15], s[16], s[17], s[18], s[19], s[20], s[21]
        )
    }

    proptest! {
        #[test]
        fn every_scalar_reads_alike_from_the_tree_and_the_json_view(
            s in proptest::collection::vec(scalar(), 22),
        ) {
            let text = document(&s);
            let parsed = Document::parse(&text);
            let Some(document) = parsed.document else {
                return Ok(());
            };
            prop_assume!(document.is_clean());
            let loader = MemoryLoader::new();
            let read = lint(&document, "t.logic.md", &loader);
            let viewed = lint_resolved(
                &document,
                &resolve(&document, "t.logic.md", &loader),
                "t.logic.md",
                &loader,
            );
            prop_assert_eq!(read, viewed, "{}", text);
        }
    }
}
