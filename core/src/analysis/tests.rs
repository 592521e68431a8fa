use super::*;
use crate::loader::MemoryLoader;

const HEAD: &str = "---\nspec_version: \"1.0\"\nname: t\n";

fn codes(analysis: &Analysis) -> Vec<(String, u32)> {
    analysis
        .diagnostics
        .iter()
        .map(|d| (d.code.clone(), d.line))
        .collect()
}

#[test]
fn validate_depth_is_the_schema_verdict_alone() {
    let text = format!("{HEAD}steps:\n  a:\n    description: d\n    needs: [ghost]\n---\n");
    let analysis = analyze(&text, &Options::validate(), &MemoryLoader::new());
    assert_eq!(analysis.kind, Kind::Logic);
    assert!(analysis.valid);
    assert!(
        analysis.diagnostics.is_empty(),
        "{:?}",
        analysis.diagnostics
    );
    let linted = analyze(&text, &Options::lint("a.logic.md"), &MemoryLoader::new());
    assert!(linted.valid, "semantic rules never change `valid`");
    assert_eq!(codes(&linted), [("unknown-need".to_owned(), 7)]);
}

#[test]
fn semantic_rules_run_despite_schema_errors_but_not_where_the_schema_already_spoke() {
    // `confidence.minimum: 2` is a schema error (maximum); the rule about the order of the
    // thresholds would repeat it at the same place. The unknown need elsewhere is still reported.
    let text = format!(
        "{HEAD}steps:\n  a:\n    description: d\n    needs: [ghost]\n    confidence:\n      minimum: 2\n      target: 0.5\n---\n"
    );
    let analysis = analyze(&text, &Options::lint("a.logic.md"), &MemoryLoader::new());
    assert!(!analysis.valid);
    assert_eq!(
        codes(&analysis),
        [
            ("unknown-need".to_owned(), 7),
            ("schema-range".to_owned(), 9)
        ]
    );
}

#[test]
fn topologies_are_detected_and_analysed_by_the_same_policy() {
    let text = "name: t\nnodes:\n  - id: a\n    type: generate\n    prompt: \"x\"\n    output_key: o\n  - id: b\n    type: gate\n    input: a.o\n    condition: \"input.ok\"\n    on_pass: nowhere\n";
    let analysis = analyze(text, &Options::lint(DEFAULT_ID), &MemoryLoader::new());
    assert_eq!(analysis.kind, Kind::Drtl);
    assert!(analysis.valid, "{:?}", analysis.diagnostics);
    assert!(
        analysis.has_errors(),
        "a route to a missing node is a semantic error"
    );
    let validated = analyze(text, &Options::validate(), &MemoryLoader::new());
    assert!(
        validated.diagnostics.is_empty(),
        "{:?}",
        validated.diagnostics
    );
}

#[test]
fn bytes_must_be_utf8_and_within_the_limit() {
    let analysis = analyze_bytes(
        b"---\nname: \xff\n---\n",
        &Options::validate(),
        &MemoryLoader::new(),
    );
    assert_eq!(codes(&analysis), [("input-not-utf8".to_owned(), 2)]);
    let options = Options {
        limits: Limits {
            max_bytes: 4,
            ..Limits::DEFAULT
        },
        ..Options::validate()
    };
    let analysis = analyze_bytes(b"---\nname: x\n---\n", &options, &MemoryLoader::new());
    assert_eq!(analysis.diagnostics[0].code, "input-too-large");
}

/// Issue #13 defect 5: compile runs the same checks as lint and refuses on errors.
#[test]
fn compile_refuses_broken_references_and_unparsable_expressions() {
    let loader = MemoryLoader::new();
    for (body, code) in [
        ("steps:\n  a:\n    needs: [ghost]\n", "unknown-need"),
        (
            "steps:\n  a:\n    branches:\n      - {default: true, then: nowhere}\n",
            "unknown-branch-target",
        ),
        (
            "steps:\n  a:\n    verification:\n      check: \"{{ output.x == = 1 }}\"\n      on_fail: retry\n",
            "expression-syntax",
        ),
        ("steps:\n  a:\n    needs: [b]\n  b:\n    needs: [a]\n", "step-cycle"),
    ] {
        let text = format!("{HEAD}{body}---\n");
        let compiled = compile_text(&text, &Options::lint("a.logic.md"), &loader);
        assert!(compiled.workflow.is_none(), "{body}");
        assert!(
            compiled.analysis.diagnostics.iter().any(|d| d.code == code && d.line > 0),
            "{body}: {:?}",
            compiled.analysis.diagnostics
        );
    }
    let fine = format!("{HEAD}steps:\n  a:\n    description: d\n---\n");
    let compiled = compile_text(&fine, &Options::lint("a.logic.md"), &loader);
    assert_eq!(
        compiled.workflow.map(|w| w.order),
        Some(vec!["a".to_owned()])
    );
}
