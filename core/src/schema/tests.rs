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

/// `(pointer, message, help)` of every error, the errors of every alternative included.
type Explained = Vec<(String, String, Option<String>)>;

fn explain(errors: &[SchemaError<'_>], out: &mut Explained) {
    for error in errors {
        let help = messages::help(LOGIC_MD.places(), error);
        out.push((error.instance_path.clone(), messages::describe(error), help));
        if let ErrorKind::AnyOf { context } | ErrorKind::OneOfNone { context } = &error.kind {
            for branch in context {
                explain(branch, out);
            }
        }
    }
}

/// The explanations of `text`'s errors from its tree (collections shown by their kind only)
/// and from the whole JSON copy of the tree (what the tree's errors showed before).
fn explained_both_ways(text: &str) -> Option<(Explained, Explained)> {
    let document = crate::Document::parse(text).document?;
    let program = LOGIC_MD.program();
    let tree = instance::TreeInstance {
        node: document.root(),
        repeats: true,
    };
    let errors = evaluate::errors(program, tree);
    for error in &errors {
        placed_as_the_walk_places(document.root(), error);
    }
    let mut from_tree = Explained::new();
    explain(&errors, &mut from_tree);
    let copy = crate::json::to_json(document.root());
    let mut from_copy = Explained::new();
    explain(&evaluate::errors(program, &copy), &mut from_copy);
    Some((from_tree, from_copy))
}

/// The node an error carries is the one the walk along its pointer ends at (first entries of
/// a repeated key, as the evaluation reads them), and each unknown key's entry is the one the
/// walk to the key finds.
fn placed_as_the_walk_places(root: &crate::yaml::Node, error: &SchemaError<'_>) {
    let node = error.node.expect("a tree's error carries its node");
    let walked = crate::json::nearest_node(root, &error.instance_path);
    assert!(std::ptr::eq(node, walked), "{}", error.instance_path);
    if let ErrorKind::AdditionalProperties { unexpected } = &error.kind {
        for key in unexpected {
            let pointer = crate::json::pointer_push(&error.instance_path, key);
            let walked = crate::json::entry_at(root, &pointer).expect("the key's entry");
            assert!(
                std::ptr::eq(node.entry(key).expect("an entry"), walked),
                "{pointer}"
            );
        }
    }
}

/// A JSON value whose keys are mostly the schema's, so errors arise deep in it.
fn schema_shaped() -> impl proptest::strategy::Strategy<Value = Value> {
    use proptest::prelude::*;
    let key = proptest::sample::select(vec![
        "spec_version",
        "name",
        "steps",
        "description",
        "needs",
        "instructions",
        "contracts",
        "inputs",
        "outputs",
        "quality_gates",
        "pre_output",
        "fallback",
        "reasoning",
        "strategy",
        "type",
        "required",
        "retry",
        "max_attempts",
        "timeout",
        "verification",
        "x",
    ]);
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (-3_i64..300).prop_map(Value::from),
        Just(serde_json::json!(1.5)),
        "[a-z0-9 ]{0,8}".prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 48, 6, move |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            proptest::collection::vec((key.clone(), inner), 0..6).prop_map(|entries| {
                Value::Object(
                    entries
                        .into_iter()
                        .map(|(k, v)| (k.to_owned(), v))
                        .collect(),
                )
            }),
        ]
    })
}

#[test]
fn a_collection_is_explained_by_its_kind_as_by_its_whole_copy() {
    let documents = [
        "steps: [1, 2]\n",
        "steps:\n  a: [x]\n  b: {instructions: [1], needs: {x: 1}}\n",
        "spec_version: {a: 1}\nname: [x]\n",
        "spec_version: \"1.0\"\nname: t\nreasoning: {strategy: [1]}\n",
        "spec_version: \"1.0\"\nname: t\nquality_gates: {pre_output: [{name: x}]}\n",
        "spec_version: \"1.0\"\nname: t\nfallback: [1]\nretry: {max_attempts: {}}\n",
        "steps: [1]\nsteps: {a: 1}\nname: {n: 1, n: [2]}\n",
    ];
    for frontmatter in documents {
        let (from_tree, from_copy) =
            explained_both_ways(&format!("---\n{frontmatter}---\n")).expect("a document");
        assert!(!from_tree.is_empty(), "{frontmatter}");
        assert_eq!(from_tree, from_copy, "{frontmatter}");
    }
}

proptest::proptest! {
    #[test]
    fn any_tree_is_explained_as_its_whole_copy_is(
        entries in proptest::collection::vec(
            (proptest::sample::select(vec!["spec_version", "name", "steps", "reasoning",
                "quality_gates", "fallback", "contracts", "x"]), schema_shaped()),
            0..6,
        ),
    ) {
        // Written out by hand, so a key may be repeated (the first entry counts).
        let root: Vec<String> = entries.iter().map(|(k, v)| format!("{k:?}: {v}")).collect();
        let text = format!("---\n{{{}}}\n---\n", root.join(", "));
        if let Some((from_tree, from_copy)) = explained_both_ways(&text) {
            proptest::prop_assert_eq!(from_tree, from_copy);
        }
    }
}
