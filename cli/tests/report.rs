//! How `lint`, `check` and `validate` report, as users and CI read it: SARIF (validated against
//! the SARIF 2.1.0 schema), GitHub annotations, `--quiet`, `--statistics`, `--max-warnings`,
//! `--exit-zero`, and colour (`--color`, NO_COLOR, CLICOLOR_FORCE), as whole outputs.

mod harness;

use harness::{project, run_in, run_with_env, session, transcript, Scratch};
use serde_json::Value;

/// An error (a `needs` typo), a warning (a repeated `needs`), an info (no description), on
/// lines with a multi-byte character before the marks.
const MIXED: &str = "---\nspec_version: \"1.0\"\nname: mixed\nsteps:\n  gather:\n    description: \"Gather — sources\"\n  report:\n    needs: [gather, gather, gathr]\n---\n";
const CLEAN: &str =
    "---\nspec_version: \"1.0\"\nname: clean\nsteps:\n  a:\n    description: A\n---\n";
const TOPOLOGY: &str = "name: t\nnodes:\n  - id: a\n    type: generate\n    prompt: p\n    output_key: x\n  - id: b\n    type: generate\n    input: a.y\n    prompt: q\n    output_key: z\nedges:\n  - {from: a, to: b}\n";

fn scratch(name: &str) -> Scratch {
    project(
        name,
        &[
            ("mixed.logic.md", MIXED),
            ("clean.logic.md", CLEAN),
            ("flow.drtl.yaml", TOPOLOGY),
        ],
    )
}

/// Every key anywhere in `value`.
fn keys(value: &Value) -> std::collections::BTreeSet<String> {
    let mut found = std::collections::BTreeSet::new();
    let mut pending = vec![value];
    while let Some(at) = pending.pop() {
        match at {
            Value::Object(map) => {
                for (key, inner) in map {
                    found.insert(key.clone());
                    pending.push(inner);
                }
            }
            Value::Array(items) => pending.extend(items),
            _ => {}
        }
    }
    found
}

/// Every value of `key` anywhere in `value`.
fn find_all<'v>(value: &'v Value, key: &str) -> Vec<&'v Value> {
    let mut found = Vec::new();
    let mut pending = vec![value];
    while let Some(at) = pending.pop() {
        match at {
            Value::Object(map) => {
                if let Some(hit) = map.get(key) {
                    found.push(hit);
                }
                pending.extend(map.values());
            }
            Value::Array(items) => pending.extend(items),
            _ => {}
        }
    }
    found
}

/// Escape characters shown, so a snapshot of colour can be read.
fn visible(text: &str) -> String {
    text.replace('\u{1b}', "␛")
}

#[test]
fn sarif_validates_against_the_sarif_2_1_0_schema() {
    let scratch = scratch("report-sarif");
    let out = run_in(&scratch.0, &["lint", "--format", "sarif"], None);
    assert_eq!(out.status.code(), Some(1), "an error: exit 1");
    let log: Value = serde_json::from_slice(&out.stdout).expect("SARIF is JSON");
    let schema: Value = serde_json::from_str(include_str!("sarif/sarif-schema-2.1.0.json"))
        .expect("the schema is JSON");
    // Core's validator leaves `format` (an annotation in draft-07) and the patterns of its
    // regex subset unchecked: none may concern a property the log writes, except the formats
    // of `$schema` and `uri`, checked by hand below.
    let written = keys(&log);
    let unchecked: Vec<String> = logicmd::schema::unsupported_keywords(&schema)
        .into_iter()
        .filter(|entry| {
            let property = entry
                .split("/properties/")
                .last()
                .and_then(|rest| rest.split(['/', ':']).next())
                .unwrap_or_default();
            written.contains(property)
                && !(entry.ends_with(": format") && ["$schema", "uri"].contains(&property))
        })
        .collect();
    assert_eq!(unchecked, Vec::<String>::new());
    assert!(log["$schema"].as_str().unwrap().starts_with("https://"));
    for uri in find_all(&log, "uri") {
        let uri = uri.as_str().unwrap();
        assert!(
            uri.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"-._~/%".contains(&b)),
            "a relative URI reference: {uri}"
        );
    }
    let evaluator = logicmd::schema::Evaluator::new(&schema);
    let errors: Vec<String> = evaluator
        .errors(&log)
        .iter()
        .map(|e| format!("{e:?}"))
        .collect();
    assert_eq!(errors, Vec::<String>::new());
    // The check is not vacuous: a log without its version is refused.
    let mut broken = log.clone();
    broken.as_object_mut().unwrap().remove("version");
    assert!(!evaluator.errors(&broken).is_empty());

    let run = &log["runs"][0];
    let results: Vec<Value> = run["results"].as_array().unwrap().clone();
    insta::assert_json_snapshot!("sarif_results", results);
    let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
    let listed: usize = logicmd::lint::rules::FAMILIES
        .iter()
        .map(|f| f.rules.len())
        .sum();
    assert_eq!(
        rules.len(),
        listed,
        "every rule, and no other (all results are rules')"
    );
    for result in &results {
        let index = result["ruleIndex"].as_u64().unwrap() as usize;
        assert_eq!(rules[index]["id"], result["ruleId"]);
    }
}

#[test]
fn github_annotations_one_per_diagnostic() {
    let scratch = scratch("report-github");
    let all = session(
        &scratch,
        &[
            &["lint", "--format", "github"],
            &["check", "--format", "github"],
        ],
    );
    insta::assert_snapshot!("github", all);
}

#[test]
fn quiet_statistics_max_warnings_and_exit_zero() {
    let scratch = scratch("report-flags");
    let all = session(
        &scratch,
        &[
            &["lint", "--quiet"],
            &["lint", "--statistics"],
            &["lint", "--statistics", "--format", "json"],
            &["lint", "--exit-zero"],
            &[
                "lint",
                "clean.logic.md",
                "flow.drtl.yaml",
                "--max-warnings",
                "1",
            ],
            &[
                "lint",
                "clean.logic.md",
                "flow.drtl.yaml",
                "--max-warnings",
                "0",
            ],
            &["lint", "--statistics", "--format", "sarif"],
            &["lint", "missing.logic.md", "--exit-zero"],
        ],
    );
    insta::assert_snapshot!("flags", all);
}

/// A command line and the environment variables it runs with.
type Case<'a> = (&'a [&'a str], &'a [(&'a str, &'a str)]);

#[test]
fn colour_follows_the_flag_then_no_color_then_clicolor_force() {
    let scratch = scratch("report-colour");
    let mut all = String::new();
    let cases: [Case; 6] = [
        (&["lint", "mixed.logic.md"], &[]),
        (&["lint", "mixed.logic.md", "--color", "always"], &[]),
        (&["lint", "mixed.logic.md"], &[("CLICOLOR_FORCE", "1")]),
        (
            &["lint", "mixed.logic.md"],
            &[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")],
        ),
        (
            &["lint", "mixed.logic.md", "--color", "always"],
            &[("NO_COLOR", "1")],
        ),
        (
            &["lint", "mixed.logic.md", "--color", "never"],
            &[("CLICOLOR_FORCE", "1")],
        ),
    ];
    for (args, vars) in cases {
        let shown: Vec<String> = vars.iter().map(|(k, v)| format!("{k}={v} ")).collect();
        all.push_str(&format!("$ {}logicmd {}\n", shown.concat(), args.join(" ")));
        let out = run_with_env(&scratch.0, args, vars);
        all.push_str(&visible(&scratch.redact(&transcript(&out))));
        all.push('\n');
    }
    insta::assert_snapshot!("colour", all);
}

#[test]
fn the_fix_diff_is_coloured_too() {
    let scratch = scratch("report-diff-colour");
    let out = run_in(
        &scratch.0,
        &["lint", "--diff", "mixed.logic.md", "--color", "always"],
        None,
    );
    insta::assert_snapshot!("diff_colour", visible(&transcript(&out)));
}
