//! The compiled schema program, reading the YAML tree, says exactly what the reference evaluator
//! (the schema's JSON walked per value, on the JSON view) says: on generated LOGIC.md documents
//! — known and unknown keys, values of every type, repeated keys, anchors and aliases — and on
//! arbitrary JSON values against every definition of the canonical schema.

use logicmd::schema::reference::{self, ReferenceEvaluator};
use logicmd::schema::Evaluator;
use logicmd::Document;
use proptest::prelude::*;
use serde_json::Value;

/// A YAML value of any type, as a flow scalar or collection on one line.
fn value() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        Just("null".to_owned()),
        Just("true".to_owned()),
        Just("3".to_owned()),
        Just("2.0".to_owned()),
        Just("-1.5".to_owned()),
        Just("0.6".to_owned()),
        Just("\"\"".to_owned()),
        Just("cot".to_owned()),
        Just("react".to_owned()),
        Just("30s".to_owned()),
        Just("\"1.0\"".to_owned()),
        Just("*anchor".to_owned()),
        "[a-z_]{1,6}",
    ];
    leaf.prop_recursive(3, 12, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4)
                .prop_map(|items| format!("[{}]", items.join(", "))),
            prop::collection::vec((key(), inner), 0..4).prop_map(|entries| {
                let entries: Vec<String> = entries
                    .into_iter()
                    .map(|(k, v)| format!("{k}: {v}"))
                    .collect();
                format!("{{{}}}", entries.join(", "))
            }),
        ]
    })
}

/// Keys of the schema (so evaluation reaches deep) and some it does not know.
fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("description".to_owned()),
        Just("needs".to_owned()),
        Just("instructions".to_owned()),
        Just("output_schema".to_owned()),
        Just("confidence".to_owned()),
        Just("minimum".to_owned()),
        Just("timeout".to_owned()),
        Just("retry".to_owned()),
        Just("max_attempts".to_owned()),
        Just("branches".to_owned()),
        Just("if".to_owned()),
        Just("then".to_owned()),
        Just("strategy".to_owned()),
        Just("type".to_owned()),
        Just("execution".to_owned()),
        Just("verification".to_owned()),
        Just("check".to_owned()),
        "[a-z]{1,5}",
    ]
}

/// A LOGIC.md document: top-level sections with block-mapped steps whose fields are any value.
fn document() -> impl Strategy<Value = String> {
    let top = prop_oneof![
        Just("reasoning".to_owned()),
        Just("contracts".to_owned()),
        Just("quality_gates".to_owned()),
        Just("fallback".to_owned()),
        Just("global".to_owned()),
        Just("metadata".to_owned()),
        Just("imports".to_owned()),
        Just("decision_trees".to_owned()),
        Just("visual".to_owned()),
        Just("nodes".to_owned()),
        Just("edges".to_owned()),
        "[a-z]{1,5}",
    ];
    let step = prop::collection::vec((key(), value()), 0..6);
    (
        prop::option::of(value()),
        prop::collection::vec((top, value()), 0..4),
        prop::collection::vec(step, 0..4),
        any::<bool>(),
    )
        .prop_map(|(spec_version, sections, steps, repeat)| {
            let mut text = String::from("---\n");
            if let Some(version) = spec_version {
                text.push_str(&format!("spec_version: {version}\n"));
            } else {
                text.push_str("spec_version: \"1.0\"\n");
            }
            text.push_str("name: generated\nanchored: &anchor {a: 1}\n");
            for (key, value) in &sections {
                text.push_str(&format!("{key}: {value}\n"));
            }
            text.push_str("steps:\n");
            for (i, fields) in steps.iter().enumerate() {
                text.push_str(&format!("  s{i}:\n"));
                for (key, value) in fields {
                    text.push_str(&format!("    {key}: {value}\n"));
                }
                if fields.is_empty() {
                    text.push_str("    description: empty\n");
                }
            }
            if repeat {
                text.push_str("name: again\n");
            }
            text.push_str("---\n");
            text
        })
}

/// Any JSON value, small.
fn json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (-3i64..4).prop_map(Value::from),
        prop_oneof![Just(0.5), Just(2.0), Just(-1.25)].prop_map(Value::from),
        prop_oneof![Just("cot"), Just("x"), Just(""), Just("1.0"), Just("30s")]
            .prop_map(Value::from),
    ];
    leaf.prop_recursive(3, 16, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec((key(), inner), 0..4)
                .prop_map(|entries| Value::Object(entries.into_iter().collect())),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn documents_get_the_same_schema_diagnostics(text in document()) {
        let parsed = Document::parse(&text);
        if let Some(document) = parsed.document {
            prop_assert_eq!(logicmd::schema::validate(&document), reference::validate(&document), "{}", text);
        }
    }

    #[test]
    fn values_get_the_same_errors_under_every_definition(instance in json()) {
        let root = logicmd::schema::schema();
        let definitions = root["definitions"].as_object().expect("the schema has definitions");
        // Each definition as its own root, its `$ref`s resolved in the canonical schema.
        for name in definitions.keys() {
            let mut schema = root.clone();
            schema["$ref"] = Value::from(format!("#/definitions/{name}"));
            let ours: Vec<String> = Evaluator::new(&schema).errors(&instance).iter().map(|e| format!("{e:?}")).collect();
            let theirs: Vec<String> = ReferenceEvaluator::new(&schema).errors(&instance).iter().map(|e| format!("{e:?}")).collect();
            prop_assert_eq!(ours, theirs, "definition {}", name);
        }
    }
}
