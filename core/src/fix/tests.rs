use super::*;
use crate::analysis::{analyze, Options};
use crate::loader::MemoryLoader;

fn doc(body: &str) -> String {
    format!("---\nspec_version: \"1.0\"\nname: demo\n{body}---\n")
}

/// The fixes offered for the first diagnostic with `code`, applied one by one: (title, safety,
/// text after).
fn fixed(text: &str, code: &str, loader: &MemoryLoader) -> Vec<(String, Safety, String)> {
    let analysis = analyze(text, &Options::lint("main.logic.md"), loader);
    let diagnostic = analysis
        .diagnostics
        .iter()
        .find(|d| d.code == code)
        .unwrap_or_else(|| panic!("no `{code}` in {:#?}", analysis.diagnostics));
    let json = analysis.parsed.as_ref().map(|p| p.json());
    fixes_for(text, json, diagnostic)
        .into_iter()
        .map(|fix| {
            let after = fix.apply(text).expect("offered fixes apply");
            (fix.title, fix.safety, after)
        })
        .collect()
}

fn codes_after(text: &str, loader: &MemoryLoader) -> Vec<String> {
    analyze(text, &Options::lint("main.logic.md"), loader)
        .diagnostics
        .into_iter()
        .map(|d| d.code)
        .collect()
}

#[test]
fn did_you_mean_fixes_every_kind_of_unknown_name() {
    let none = MemoryLoader::new();
    let cases = [
        (
            doc("steps:\n  gather: {}\n  use: {needs: [gathr]}\n"),
            "unknown-need",
            doc("steps:\n  gather: {}\n  use: {needs: [gather]}\n"),
        ),
        (
            doc("steps:\n  gather:\n    branches:\n      - if: \"{{ true }}\"\n        then: \"finsh\"\n  finish: {}\n"),
            "unknown-branch-target",
            doc("steps:\n  gather:\n    branches:\n      - if: \"{{ true }}\"\n        then: \"finish\"\n  finish: {}\n"),
        ),
        (
            doc("steps:\n  gather: {}\n  use:\n    needs: [gather]\n    verification:\n      check: \"{{ steps.gathr.output.ok }}\"\n"),
            "unknown-step-reference",
            doc("steps:\n  gather: {}\n  use:\n    needs: [gather]\n    verification:\n      check: \"{{ steps.gather.output.ok }}\"\n"),
        ),
        (
            doc("steps:\n  a:\n    verification:\n      check: \"{{ outptu.ok }}\"\n"),
            "unknown-expression-root",
            doc("steps:\n  a:\n    verification:\n      check: \"{{ output.ok }}\"\n"),
        ),
        (
            doc("reasoning:\n  strategy: reac\n"),
            "schema-enum",
            doc("reasoning:\n  strategy: react\n"),
        ),
        (
            doc("reasoning:\n  max_iteratons: 3\n"),
            "schema-unknown-property",
            doc("reasoning:\n  max_iterations: 3\n"),
        ),
    ];
    for (before, code, expected) in cases {
        let found = fixed(&before, code, &none);
        assert_eq!(found.len(), 1, "{code}: {found:#?}");
        assert_eq!(found[0].1, Safety::Safe, "{code}");
        assert_eq!(found[0].2, expected, "{code}");
        assert!(
            !codes_after(&found[0].2, &none).contains(&code.to_owned()),
            "{code} is gone after the fix"
        );
    }
}

#[test]
fn the_title_names_both_names() {
    let text = doc("steps:\n  gather: {}\n  use: {needs: [gathr]}\n");
    let found = fixed(&text, "unknown-need", &MemoryLoader::new());
    assert_eq!(found[0].0, "Replace `gathr` with `gather`");
}

#[test]
fn an_unused_import_is_removed_with_its_entry() {
    let loader = MemoryLoader::new().with(
        "lib.logic.md",
        "---\nspec_version: \"1.0\"\nname: lib\nsteps:\n  helper: {}\n---\n",
    );
    let text =
        doc("imports:\n  # shared steps\n  - ref: ./lib.logic.md\n    as: lib\nsteps:\n  a: {}\n");
    let found = fixed(&text, "unused-import", &loader);
    assert_eq!(
        found,
        vec![(
            "Remove the unused import `lib`".to_owned(),
            Safety::Safe,
            doc("steps:\n  a: {}\n")
        )]
    );
    let two = doc("imports:\n  - ref: ./lib.logic.md\n    as: lib\n  - ref: ./lib.logic.md\n    as: other\nsteps:\n  a: {needs: [other.helper]}\n");
    let found = fixed(&two, "unused-import", &loader);
    assert_eq!(
        found[0].2,
        doc("imports:\n  - ref: ./lib.logic.md\n    as: other\nsteps:\n  a: {needs: [other.helper]}\n")
    );
}

#[test]
fn repeated_dependencies_and_allowed_denied_tools() {
    let none = MemoryLoader::new();
    let text = doc("steps:\n  a: {}\n  b:\n    needs: [a, a, a]\n");
    assert_eq!(
        fixed(&text, "duplicate-dependency", &none),
        vec![(
            "Remove the repeated `a`".to_owned(),
            Safety::Safe,
            doc("steps:\n  a: {}\n  b:\n    needs: [a]\n")
        )]
    );
    let text = doc("steps:\n  a:\n    allowed_tools: [search, shell]\n    denied_tools: [shell]\n");
    assert_eq!(
        fixed(&text, "tool-allowed-and-denied", &none),
        vec![(
            "Remove `shell` from `allowed_tools` (it is denied)".to_owned(),
            Safety::Safe,
            doc("steps:\n  a:\n    allowed_tools: [search]\n    denied_tools: [shell]\n")
        )]
    );
}

#[test]
fn a_missing_spec_version_is_added() {
    let text = "---\nname: demo\n---\n";
    let found = fixed(text, "schema-missing-property", &MemoryLoader::new());
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].1, Safety::Safe);
    assert!(codes_after(&found[0].2, &MemoryLoader::new()).is_empty());
}

#[test]
fn a_missing_default_branch_is_offered_per_terminal_and_unsafe() {
    let text = doc(concat!(
        "decision_trees:\n  route:\n    root: kind\n    nodes:\n      kind:\n",
        "        condition: \"{{ input.kind }}\"\n        branches:\n",
        "          - value: a\n            next: done\n",
        "    terminals:\n      done: {action: finish}\n      ask: {action: clarify}\n",
    ));
    let found = fixed(&text, "missing-default-branch", &MemoryLoader::new());
    let titles: Vec<(&str, Safety)> = found.iter().map(|f| (f.0.as_str(), f.1)).collect();
    assert_eq!(
        titles,
        vec![
            (
                "Add a default branch to the terminal `done`",
                Safety::Unsafe
            ),
            ("Add a default branch to the terminal `ask`", Safety::Unsafe),
        ]
    );
    assert!(
        found[1]
            .2
            .contains("- default: true\n            next: ask\n"),
        "{}",
        found[1].2
    );
}

#[test]
fn fix_all_applies_only_safe_fixes_until_none_is_left() {
    let none = MemoryLoader::new();
    let text = doc("steps:\n  gather: {}\n  use: {needs: [gathr, gather, gather]}\n");
    let fixed = fix_all(
        &text,
        &Options::lint("main.logic.md"),
        &none,
        Safety::Safe,
        20,
    );
    assert_eq!(
        fixed.text,
        doc("steps:\n  gather: {}\n  use: {needs: [gather]}\n")
    );
    let titles: Vec<&str> = fixed.applied.iter().map(|f| f.title.as_str()).collect();
    assert_eq!(
        titles,
        vec![
            "Replace `gathr` with `gather`",
            "Remove the repeated `gather`"
        ]
    );
}

#[test]
fn drtl_unknown_targets_are_fixed_by_name() {
    let text = "name: t\nnodes:\n  - id: draft\n    type: generate\n    prompt: hi\n  - id: check\n    type: gate\n    condition: \"input.ok\"\n    on_pass: draf\n    on_fail: terminate\nedges:\n  - from: draft\n    to: check\n";
    let analysis = analyze(
        text,
        &Options::lint("t.drtl.yaml").with_path("t.drtl.yaml"),
        &MemoryLoader::new(),
    );
    let diagnostic = analysis
        .diagnostics
        .iter()
        .find(|d| d.help.as_deref() == Some("did you mean `draft`?"))
        .unwrap_or_else(|| panic!("{:#?}", analysis.diagnostics));
    let json = analysis.parsed.as_ref().map(|p| p.json());
    let found = fixes_for(text, json, diagnostic);
    assert_eq!(
        found[0].apply(text).unwrap(),
        text.replace("on_pass: draf", "on_pass: draft")
    );
}

#[test]
fn a_bare_condition_is_wrapped_and_others_are_left() {
    let text = doc("steps:\n  a:\n    verification:\n      check: output.ok == true # bare\n");
    let analysis = analyze(&text, &Options::lint("main.logic.md"), &MemoryLoader::new());
    let json = analysis.parsed.as_ref().map(|p| p.json()).unwrap();
    let fix = wrap_condition(json, "/steps/a/verification/check").expect("a condition field");
    assert_eq!(fix.title, "Wrap `output.ok == true` in `{{ }}`");
    assert_eq!(
        fix.apply(&text).unwrap(),
        doc("steps:\n  a:\n    verification:\n      check: \"{{ output.ok == true }}\" # bare\n")
    );
    assert!(wrap_condition(json, "/name").is_none());
    let wrapped = doc("steps:\n  a:\n    verification:\n      check: \"{{ output.ok }}\"\n");
    let analysis = analyze(
        &wrapped,
        &Options::lint("main.logic.md"),
        &MemoryLoader::new(),
    );
    let json = analysis.parsed.as_ref().map(|p| p.json()).unwrap();
    assert!(wrap_condition(json, "/steps/a/verification/check").is_none());
}

#[test]
fn a_value_other_readers_take_for_a_boolean_number_or_date_is_quoted() {
    let none = MemoryLoader::new();
    let text =
        doc("metadata:\n  enabled: yes\n  created: 2026-03-31\n  mode: 0777\n  plain: fine\n");
    let analysis = analyze(&text, &Options::lint("main.logic.md"), &none);
    let found: Vec<(&str, &str)> = analysis
        .diagnostics
        .iter()
        .filter(|d| d.code == "ambiguous-scalar")
        .map(|d| (d.path.as_str(), d.message.as_str()))
        .collect();
    assert_eq!(
        found,
        vec![
            ("/metadata/enabled", "`yes` is the string \"yes\" here, but some YAML readers (YAML 1.1 ones, or js-yaml) read it as a boolean"),
            ("/metadata/created", "`2026-03-31` is the string \"2026-03-31\" here, but some YAML readers (YAML 1.1 ones, or js-yaml) read it as a date"),
        ],
        "`0777` is a number in YAML 1.2 too: not this rule's"
    );
    let fixed = fix_all(
        &text,
        &Options::lint("main.logic.md"),
        &none,
        Safety::Safe,
        10,
    );
    assert_eq!(
        fixed.text,
        doc("metadata:\n  enabled: \"yes\"\n  created: \"2026-03-31\"\n  mode: 0777\n  plain: fine\n")
    );
}

#[test]
fn a_step_reading_a_step_it_does_not_wait_for_gets_the_need_added() {
    let none = MemoryLoader::new();
    let text = doc(concat!(
        "steps:\n  gather: {}\n  check:\n    verification:\n      check: \"{{ steps.gather.output.ok }}\"\n",
        "  report:\n    needs: [check]\n    verification:\n      check: \"{{ steps.gather.output.ok }}\"\n",
    ));
    let found = fixed(&text, "unwaited-step-read", &none);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(found[0].0, "Add `gather` to the `needs` of `check`");
    assert_eq!(found[0].1, Safety::Safe);
    let after = crate::Document::parse(&found[0].2)
        .document
        .expect("parses");
    assert_eq!(
        after.json()["steps"]["check"]["needs"],
        serde_json::json!(["gather"])
    );
    // `report` waits for `check`, which now waits for `gather`: nothing is left to report.
    assert!(!codes_after(&found[0].2, &none).contains(&"unwaited-step-read".to_owned()));
}

/// The step read already waits (directly or through others) for the reader: adding it to the
/// reader's `needs` would close a cycle, so no fix is offered (the author must choose which
/// way the data flows).
#[test]
fn a_need_that_would_close_a_cycle_is_not_offered() {
    let none = MemoryLoader::new();
    for steps in [
        "steps:\n  a:\n    needs: [b]\n  b:\n    verification:\n      check: \"{{ steps.a.output.ok }}\"\n",
        "steps:\n  a:\n    needs: [m]\n  m:\n    needs: [b]\n  b:\n    verification:\n      check: \"{{ steps.a.output.ok }}\"\n",
    ] {
        let text = doc(steps);
        assert!(
            codes_after(&text, &none).contains(&"unwaited-step-read".to_owned()),
            "the read is reported"
        );
        assert_eq!(fixed(&text, "unwaited-step-read", &none), vec![], "{steps}");
    }
}

#[test]
fn a_step_that_runs_after_another_by_any_edge_may_read_it() {
    let none = MemoryLoader::new();
    let read = |step: &str| {
        format!("    verification:\n      check: \"{{{{ steps.{step}.output.ok }}}}\"\n")
    };
    let cases = [
        // Through a chain of `needs`.
        format!("steps:\n  a: {{}}\n  b: {{needs: [a]}}\n  c:\n    needs: [b]\n{}", read("a")),
        // A parallel step after its members.
        format!("steps:\n  m: {{}}\n  p:\n    execution: parallel\n    parallel_steps: [m]\n{}", read("m")),
        // A branch's target after the step that branches.
        format!("steps:\n  x:\n    branches:\n      - default: true\n        then: s\n  s:\n{}", read("x")),
        // A step a decision tree routes to, after the steps the tree reads.
        format!(
            "steps:\n  a: {{}}\n  s:\n{}decision_trees:\n  t:\n    root: n\n    nodes:\n      n:\n        condition: \"{{{{ steps.a.output.kind }}}}\"\n        branches:\n          - default: true\n            next: s\n",
            read("a")
        ),
    ];
    for body in cases {
        let codes = codes_after(&doc(&body), &none);
        assert!(
            !codes.contains(&"unwaited-step-read".to_owned()),
            "{body}\n{codes:?}"
        );
    }
    let unordered = format!("steps:\n  a: {{}}\n  b:\n{}", read("a"));
    assert!(codes_after(&doc(&unordered), &none).contains(&"unwaited-step-read".to_owned()));
}

#[test]
fn lint_fix_wraps_a_bare_condition_in_every_condition_field() {
    let text = doc(concat!(
        "steps:\n",
        "  a:\n",
        "    verification:\n",
        "      check: output.ok == true\n",
        "      on_fail: retry\n",
        "    branches:\n",
        "      - if: output.score > 3\n",
        "        then: b\n",
        "      - default: true\n",
        "        then: b\n",
        "  b: {}\n",
        "quality_gates:\n",
        "  pre_output:\n",
        "    - name: enough\n",
        "      check: output.count >= 1  # kept\n",
        "      severity: error\n",
        "decision_trees:\n",
        "  t:\n",
        "    root: n1\n",
        "    nodes:\n",
        "      n1:\n",
        "        condition: input.kind\n",
        "        branches:\n",
        "          - value: x\n",
        "            next: done\n",
        "    terminals:\n",
        "      done: {action: b}\n",
    ));
    let loader = MemoryLoader::new();
    let before = codes_after(&text, &loader);
    let bare = before.iter().filter(|c| *c == "unbraced-condition").count();
    assert_eq!(bare, 4, "{before:?}");
    let offered = fixed(&text, "unbraced-condition", &loader);
    assert_eq!(offered.len(), 1);
    assert_eq!(offered[0].1, Safety::Safe);
    let all = fix_all(
        &text,
        &Options::lint("main.logic.md"),
        &loader,
        Safety::Safe,
        20,
    );
    let expected = text
        .replace(
            "check: output.ok == true",
            "check: \"{{ output.ok == true }}\"",
        )
        .replace("if: output.score > 3", "if: \"{{ output.score > 3 }}\"")
        .replace(
            "check: output.count >= 1",
            "check: \"{{ output.count >= 1 }}\"",
        )
        .replace("condition: input.kind", "condition: \"{{ input.kind }}\"");
    assert_eq!(all.text, expected);
    assert_eq!(all.applied.len(), 4);
}

#[test]
fn an_imported_step_written_with_dots_is_rewritten_in_brackets() {
    let loader = MemoryLoader::new().with(
        "lib/d.logic.md",
        "---\nspec_version: \"1.0\"\nname: lib\nsteps:\n  gather: {}\n---\n",
    );
    let imports = "imports:\n  - ref: ./lib/d.logic.md\n    as: d\n";
    // In a double-quoted, a single-quoted, a plain and a block scalar: the brackets' quotes
    // are the ones the scalar can hold.
    let cases = [
        (
            "      if: \"{{ steps.d.gather.output.n > 0 }}\"\n",
            "      if: \"{{ steps['d.gather'].output.n > 0 }}\"\n",
        ),
        (
            "      if: '{{ steps.d.gather.output.n > 0 }}'\n",
            "      if: '{{ steps[\"d.gather\"].output.n > 0 }}'\n",
        ),
        (
            "      if: true && {{ steps.d.gather.output.n > 0 }}\n",
            "      if: true && {{ steps['d.gather'].output.n > 0 }}\n",
        ),
        (
            "      if: >-\n        {{ steps.d.gather.output.n > 0 }}\n",
            "      if: >-\n        {{ steps['d.gather'].output.n > 0 }}\n",
        ),
    ];
    for (condition, expected) in cases {
        let step = |check: &str| {
            doc(&format!(
                "{imports}steps:\n  a:\n    needs: [d.gather]\n    verification:\n{}      on_fail: retry\n",
                check.replacen("if:", "check:", 1)
            ))
        };
        let (before, after) = (step(condition), step(expected));
        let found = fixed(&before, "unknown-step-reference", &loader);
        assert_eq!(
            found,
            vec![(
                format!(
                    "Write `{}`",
                    if condition.contains('\'') {
                        "steps[\"d.gather\"]"
                    } else {
                        "steps['d.gather']"
                    }
                ),
                Safety::Safe,
                after.clone()
            )],
            "{before}"
        );
        assert!(
            !codes_after(&after, &loader).contains(&"unknown-step-reference".to_owned()),
            "{after}"
        );
    }
}

#[test]
fn a_misspelled_imported_step_is_written_in_brackets_with_its_name() {
    let loader = MemoryLoader::new().with(
        "lib.logic.md",
        "---\nspec_version: \"1.0\"\nname: lib\nsteps:\n  gather: {}\n---\n",
    );
    let with = |check: &str| {
        doc(&format!("imports:\n  - ref: ./lib.logic.md\n    as: lib\nsteps:\n  a:\n    needs: [lib.gather]\n    verification:\n      check: \"{{{{ {check}.output.n > 0 }}}}\"\n      on_fail: retry\n"))
    };
    for (written, title, fixed_as) in [
        (
            "steps.lib.gathr",
            "Write `steps['lib.gather']`",
            "steps['lib.gather']",
        ),
        (
            "steps['lib.gathr']",
            "Replace `lib.gathr` with `lib.gather`",
            "steps['lib.gather']",
        ),
    ] {
        let found = fixed(&with(written), "unknown-step-reference", &loader);
        assert_eq!(
            found,
            vec![(title.to_owned(), Safety::Safe, with(fixed_as))],
            "{written}"
        );
    }
}

#[test]
fn a_misspelled_need_whose_close_name_would_close_a_cycle_gets_no_fix() {
    let none = MemoryLoader::new();
    // `b` needs `a`; `a` needs `bb`, close to `b`: writing `b` there is a cycle, an error.
    let text = doc("steps:\n  a:\n    needs: [bb]\n  b:\n    needs: [a]\n");
    assert_eq!(fixed(&text, "unknown-need", &none), vec![]);
    let text = doc("steps:\n  a:\n    needs: [bb]\n  b: {}\n");
    assert_eq!(fixed(&text, "unknown-need", &none).len(), 1);
}
