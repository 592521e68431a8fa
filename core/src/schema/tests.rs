//! Schema diagnostics as users see them: code, place, keyword, message and help, against the
//! canonical schema.

use serde_json::Value;

use super::*;

/// (line, column, code, path, keyword, message, help) of every diagnostic of `frontmatter`.
fn diagnose(frontmatter: &str) -> Vec<(u32, u32, String, String, String, String, String)> {
    let text = format!("---\nspec_version: \"1.0\"\nname: t\n{frontmatter}---\n");
    crate::validate(&text)
        .diagnostics
        .into_iter()
        .map(|d| {
            (
                d.line,
                d.column,
                d.code,
                d.path,
                d.keyword.unwrap_or_default(),
                d.message,
                d.help.unwrap_or_default(),
            )
        })
        .collect()
}

fn row(
    line: u32,
    column: u32,
    code: &str,
    path: &str,
    keyword: &str,
    message: &str,
    help: &str,
) -> (u32, u32, String, String, String, String, String) {
    (
        line,
        column,
        code.to_owned(),
        path.to_owned(),
        keyword.to_owned(),
        message.to_owned(),
        help.to_owned(),
    )
}

#[test]
fn the_embedded_schema_is_the_canonical_one() {
    let schema = schema();
    assert_eq!(
        schema["$id"],
        "https://logic-md.dev/schema/v1.0/logic-spec.json"
    );
    assert_eq!(schema["$schema"], "http://json-schema.org/draft-07/schema#");
    assert!(SCHEMA_JSON.starts_with("{\n\t\"$schema\""));
}

#[test]
fn what_the_canonical_schema_requires_is_reported_with_the_choices() {
    assert_eq!(
        diagnose("reasoning: {}\nsteps:\n  a:\n    verification: {check: \"{{ true }}\"}\n"),
        [
            row(
                4,
                12,
                "schema-missing-property",
                "/reasoning",
                "required",
                "missing required property `strategy` in `/reasoning`",
                "`strategy` is one of `cot`, `react`, `tot`, `got`, `plan-execute`, `custom`"
            ),
            row(
                7,
                19,
                "schema-missing-property",
                "/steps/a/verification",
                "required",
                "missing required property `on_fail` in `/steps/a/verification`",
                "`on_fail` is one of `retry`, `escalate`, `skip`, `abort`, `revise`"
            ),
        ]
    );
    assert_eq!(
        diagnose("visual:\n  ports:\n    inputs:\n      - {name: q}\n"),
        [row(
            7,
            9,
            "schema-missing-property",
            "/visual/ports/inputs/0",
            "required",
            "missing required property `type` in `/visual/ports/inputs/0`",
            ""
        )]
    );
}

#[test]
fn durations_are_strings_and_numbers_get_a_hint() {
    assert_eq!(
        diagnose("steps:\n  a:\n    timeout: 30\n    retry: {initial_interval: 1.5}\nglobal: {max_total_time: 600}\n"),
        [
            row(6, 14, "schema-type", "/steps/a/timeout", "type",
                "expected a string, found an integer `30`",
                "a duration is a string with a unit: `\"30s\"` (also `ms`, `m`, `h`)"),
            row(7, 31, "schema-type", "/steps/a/retry/initial_interval", "type",
                "expected a string, found a number `1.5`",
                "a duration is a string with a unit: `\"1.5s\"` (also `ms`, `m`, `h`)"),
            row(8, 26, "schema-type", "/global/max_total_time", "type",
                "expected a string, found an integer `600`",
                "a duration is a string with a unit: `\"600s\"` (also `ms`, `m`, `h`)"),
        ]
    );
    // A number where a plain string is expected is not a duration.
    assert_eq!(
        diagnose("steps:\n  a:\n    instructions: 30\n"),
        [row(
            6,
            19,
            "schema-type",
            "/steps/a/instructions",
            "type",
            "expected a string, found an integer `30`",
            ""
        )]
    );
}

#[test]
fn alternatives_are_described_by_what_fits() {
    assert_eq!(
        diagnose("contracts:\n  inputs:\n    - {name: a, type: string, required: \"yes\"}\n    - {name: b, type: string, required: [1]}\n"),
        [
            row(6, 41, "schema-alternatives", "/contracts/inputs/0/required", "oneOf",
                "expected a boolean or an array, found a string `yes`", ""),
            row(7, 41, "schema-alternatives", "/contracts/inputs/1/required", "oneOf",
                "does not match any of the allowed forms: at `/contracts/inputs/1/required/0`, expected a string, found an integer `1`", ""),
        ]
    );
}

#[test]
fn did_you_mean_comes_from_the_canonical_names_and_enums() {
    assert_eq!(
        diagnose("reasoning: {strategy: reactt, max_iteration: 3}\n"),
        [
            row(
                4,
                23,
                "schema-enum",
                "/reasoning/strategy",
                "enum",
                "`reactt` is not one of `cot`, `react`, `tot`, `got`, `plan-execute`, `custom`",
                "did you mean `react`?"
            ),
            row(
                4,
                31,
                "schema-unknown-property",
                "/reasoning",
                "additionalProperties",
                "unknown property `max_iteration` in `/reasoning`",
                "did you mean `max_iterations`?"
            ),
        ]
    );
    // What only our earlier schema had is unknown to the canonical one.
    assert_eq!(
        diagnose("decision_trees:\n  t:\n    root: n\n    nodes:\n      n: {condition: \"{{ 1 }}\", branches: []}\n    terminals:\n      done: {action: go, step: n}\n"),
        [row(10, 26, "schema-unknown-property", "/decision_trees/t/terminals/done", "additionalProperties",
            "unknown property `step` in `/decision_trees/t/terminals/done`",
            "known properties: action, message")]
    );
}

#[test]
fn a_wrong_type_hides_only_keywords_at_the_same_place() {
    // Our one difference from the schema's own error list: when `type` fails, the other
    // keywords of that schema are not reported. That hides nothing at another place as long as
    // every keyword beside a `type` is an annotation, reports at the same place (`enum`,
    // `const`, bounds, sizes), or reaches deeper only into instances of that very type.
    fn walk(schema: &Value, at: &str, found: &mut Vec<String>) {
        let Value::Object(map) = schema else { return };
        if let Some(Value::String(kind)) = map.get("type") {
            for key in map.keys() {
                let fine = match key.as_str() {
                    "type" | "description" | "title" | "$id" | "$schema" | "definitions"
                    | "default" | "examples" | "$comment" | "enum" | "const" | "minLength"
                    | "maxLength" | "minimum" | "maximum" | "exclusiveMinimum"
                    | "exclusiveMaximum" | "minItems" | "maxItems" | "uniqueItems"
                    | "minProperties" | "maxProperties" | "required" => true,
                    "properties" | "additionalProperties" => kind == "object",
                    "items" => kind == "array",
                    _ => false,
                };
                if !fine {
                    found.push(format!("{at}: {key} beside type {kind}"));
                }
            }
        }
        for (key, child) in map {
            match child {
                Value::Object(_) => walk(child, &format!("{at}/{key}"), found),
                Value::Array(items) => {
                    for (i, item) in items.iter().enumerate() {
                        walk(item, &format!("{at}/{key}/{i}"), found);
                    }
                }
                _ => {}
            }
        }
    }
    let mut found = Vec::new();
    walk(schema(), "", &mut found);
    assert_eq!(found, Vec::<String>::new());
    assert_eq!(
        diagnose("reasoning: {strategy: 5}\n"),
        [row(
            4,
            23,
            "schema-type",
            "/reasoning/strategy",
            "type",
            "expected a string, found an integer `5`",
            ""
        )]
    );
}
