use serde_json::json;

use super::*;

fn kinds(schema: &Value, instance: &Value) -> Vec<(String, &'static str)> {
    Evaluator::new(schema)
        .errors(instance)
        .into_iter()
        .map(|e| (e.instance_path, e.kind.keyword()))
        .collect()
}

#[test]
fn embedded_schemas_use_only_supported_keywords() {
    for schema in [super::super::schema(), crate::drtl::schema()] {
        assert_eq!(unsupported_keywords(schema), Vec::<String>::new());
    }
    assert_eq!(
        unsupported_keywords(&json!({"properties": {"a": {"pattern": "x"}}})),
        vec!["/properties/a: pattern"]
    );
}

#[test]
fn integers_include_whole_floats_and_numbers_compare_by_value() {
    let schema = json!({"type": "integer", "enum": [1, 2]});
    assert!(kinds(&schema, &json!(2.0)).is_empty());
    assert_eq!(kinds(&schema, &json!(2.5)), vec![(String::new(), "type")]);
    assert_eq!(kinds(&schema, &json!(3)), vec![(String::new(), "enum")]);
    let bounds = json!({"exclusiveMinimum": 0, "maximum": 1});
    assert_eq!(
        kinds(&bounds, &json!(0)),
        vec![(String::new(), "exclusiveMinimum")]
    );
    assert_eq!(
        kinds(&bounds, &json!(1.5)),
        vec![(String::new(), "maximum")]
    );
    assert!(kinds(&bounds, &json!(0.5)).is_empty());
}

#[test]
fn objects_report_missing_unknown_and_nested_failures_with_pointers() {
    let schema = json!({
        "type": "object",
        "required": ["name"],
        "properties": {"name": {"type": "string", "minLength": 1}, "n": {"minimum": 0}},
        "additionalProperties": false
    });
    let instance = json!({"n": -1, "x": 1, "y": 2});
    assert_eq!(
        kinds(&schema, &instance),
        vec![
            (String::new(), "required"),
            ("/n".to_owned(), "minimum"),
            (String::new(), "additionalProperties"),
        ]
    );
    let errors = Evaluator::new(&schema).errors(&instance);
    assert_eq!(
        errors[2].kind,
        ErrorKind::AdditionalProperties {
            unexpected: vec!["x", "y"]
        }
    );
    assert_eq!(
        kinds(&schema, &json!({"name": ""})),
        vec![("/name".to_owned(), "minLength")]
    );
}

#[test]
fn references_resolve_to_definitions_and_unknown_ones_are_reported() {
    let schema = json!({
        "definitions": {"step": {"type": "object", "additionalProperties": {"$ref": "#/definitions/leaf"}}, "leaf": {"type": "string"}},
        "$ref": "#/definitions/step"
    });
    assert_eq!(
        kinds(&schema, &json!({"a": "ok", "b": 1})),
        vec![("/b".to_owned(), "type")]
    );
    let broken = json!({"$ref": "#/definitions/missing"});
    assert_eq!(kinds(&broken, &json!(1)), vec![(String::new(), "$ref")]);
}

#[test]
fn combinators_follow_draft_07() {
    let any = json!({"anyOf": [{"required": ["a"]}, {"required": ["b"]}]});
    assert!(kinds(&any, &json!({"b": 1})).is_empty());
    let empty = json!({});
    let errors = Evaluator::new(&any).errors(&empty);
    let ErrorKind::AnyOf { context } = &errors[0].kind else {
        panic!("expected anyOf, got {errors:?}");
    };
    assert_eq!(context.len(), 2);

    let one = json!({"oneOf": [{"type": "number"}, {"minimum": 0}]});
    assert_eq!(kinds(&one, &json!(1)), vec![(String::new(), "oneOf")]);
    assert!(kinds(&one, &json!("s")).is_empty());

    let conditional = json!({
        "if": {"properties": {"kind": {"const": "gate"}}},
        "then": {"required": ["on_fail"]},
        "else": {"not": {"required": ["on_fail"]}}
    });
    assert_eq!(
        kinds(&conditional, &json!({"kind": "gate"})),
        vec![(String::new(), "required")]
    );
    assert_eq!(
        kinds(&conditional, &json!({"kind": "x", "on_fail": 1})),
        vec![(String::new(), "not")]
    );
    assert!(kinds(&json!({"allOf": [true, {"type": "null"}]}), &Value::Null).is_empty());
    assert_eq!(
        kinds(&json!(false), &Value::Null),
        vec![(String::new(), "false")]
    );
}

#[test]
fn sizes_count_characters_items_and_entries() {
    let schema = json!({"maxLength": 2, "minItems": 2, "maxProperties": 1, "uniqueItems": true});
    assert!(kinds(&schema, &json!("éé")).is_empty());
    assert_eq!(
        kinds(&schema, &json!("abc")),
        vec![(String::new(), "maxLength")]
    );
    assert_eq!(
        kinds(&schema, &json!([1.0, 1])),
        vec![(String::new(), "uniqueItems")]
    );
    assert_eq!(
        kinds(&schema, &json!([1])),
        vec![(String::new(), "minItems")]
    );
    assert_eq!(
        kinds(&schema, &json!({"a": 1, "b": 2})),
        vec![(String::new(), "maxProperties")]
    );
}

#[test]
fn a_reference_that_leads_only_back_to_itself_is_a_bad_reference() {
    let itself =
        json!({"$ref": "#/definitions/a", "definitions": {"a": {"$ref": "#/definitions/a"}}});
    assert_eq!(kinds(&itself, &json!(1)), vec![(String::new(), "$ref")]);
    let cycle = json!({
        "properties": {"x": {"$ref": "#/definitions/a"}},
        "definitions": {"a": {"$ref": "#/definitions/b"}, "b": {"$ref": "#/definitions/a"}}
    });
    assert_eq!(
        kinds(&cycle, &json!({"x": 1})),
        vec![("/x".to_owned(), "$ref")]
    );
    // A recursive schema that does reach keywords is fine.
    let tree = json!({
        "$ref": "#/definitions/node",
        "definitions": {"node": {"type": "object", "properties": {"child": {"$ref": "#/definitions/node"}}}}
    });
    assert_eq!(
        kinds(&tree, &json!({"child": {"child": 3}})),
        vec![("/child/child".to_owned(), "type")]
    );
}
